// "Collectives" on the playground page (src/dumplab-playground-collectives.js):
// what the section shows for a pasted sharded fixture is `mdbook-dumplab
// collectives --json`'s for the same file (the summary, the backend's note,
// the chip's interconnect and its source, one row per collective with its
// schedule, devices, bytes per device, time bound, origin and source line, the
// kernels scheduled between a start and its done, the lines); the page has a
// row of words for every schedule the checker names; rows and dump lines link
// both ways; a dump without collectives has no section; markup, quotes and
// unicode in an op_name and a source file stay text; axe finds nothing serious; nothing
// overflows at 1280 and 390 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { useBook, openPage, screenshot, repoRoot, THEMES } from './support.mjs';

/** A checker sentence as the page shows it: paired backticks become code spans, whose text has none. */
const plain = (t) => (String(t).split('`').length % 2 ? String(t).replaceAll('`', '') : String(t));

const PAGE = 'playground.html';
const cli = process.env.DUMPLAB_CLI ?? path.join(repoRoot, 'target', 'debug', 'mdbook-dumplab');
const fixture = (p) => path.join(repoRoot, 'fixtures', p);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const book = useBook();
/** Characters of a dump line the worker sends (src/dumplab-playground.js). */
const LINE_CHARS = 400;

/** Every sharded fixture's compiled dumps. */
const SHARDED = ['sharded_matmul', 'sharded_reshard', 'shard_map_groups', 'shard_map_ring', 'sharded_callback']
  .flatMap((f) => ['cpu', 'gpu', 'tpu'].map((b) => `${f}/compiled.${b}.hlo.txt`))
  .filter((f) => fs.existsSync(fixture(f)));

/** What the command line says about `file` (on `chip`, else the default). */
function collectivesJson(file, chip) {
  const args = ['collectives', file, '--json', ...(chip ? ['--chip', chip] : [])];
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** Pastes `text` into the first box and waits until it is analysed and drawn. */
async function paste(page, text) {
  await page.locator('#dlp-text-0').fill(text);
  await page.locator('.dlp-run').click();
  await page.waitForFunction(() => /^Analysed/.test(document.querySelector('.dlp-status').textContent) && document.querySelector('.dlp-cost'), null, { timeout: 30000 });
}

/** The section as the page shows it (null without one). */
function shown(page) {
  return page.evaluate(() => {
    const sec = document.querySelector('.dlp-coll');
    if (!sec) return null;
    const text = (node, sel) => (node.querySelector(sel) ? node.querySelector(sel).textContent : null);
    return {
      chip: sec.dataset.chip,
      heading: text(sec, 'h4'),
      summary: { ...sec.querySelector('.dlp-coll-summary').dataset },
      summaryText: text(sec, '.dlp-coll-summary'),
      note: text(sec, '.dlp-coll-note'),
      chipText: text(sec, '.dlp-coll-chip'),
      source: sec.querySelector('.dlp-coll-source') ? { text: sec.querySelector('.dlp-coll-source').textContent, href: sec.querySelector('.dlp-coll-source').getAttribute('href') } : null,
      quote: text(sec, '.dlp-coll-quote'),
      planned: text(sec, '.dlp-coll-planned'),
      heads: Array.from(sec.querySelectorAll('.dlp-coll-table thead th'), (th) => th.textContent),
      rows: Array.from(sec.querySelectorAll('.dlp-coll-row'), (tr) => ({
        data: { ...tr.dataset },
        cells: Object.fromEntries(Array.from(tr.cells, (td) => [td.dataset.col, td.textContent])),
        unknownSchedule: tr.querySelector('[data-unknown-schedule]') !== null,
        unknownForm: tr.querySelector('[data-unknown-form]') !== null,
        between: tr.nextElementSibling && tr.nextElementSibling.classList.contains('dlp-coll-between')
          ? Array.from(tr.nextElementSibling.querySelectorAll('.dlp-coll-kernel'), (k) => [k.querySelector('code').textContent, Number(k.dataset.line)])
          : [],
      })),
      lines: Array.from(sec.querySelectorAll('.dlp-coll-lines .dl-line[data-line]'), (l) => [Number(l.dataset.line), l.querySelector('.dl-src').textContent]),
    };
  });
}

const str = (v) => (v === null || v === undefined ? '' : String(v));
/** The ledger's bytes in binary units (src/dumplab-playground-ledger.js). */
function binary(n) {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(2)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(2)} KiB`;
  return `${n} B`;
}
const bytes = (n) => (n === null ? 'unknown' : n < 1024 ? `${n} B` : `${binary(n)} (${n} B)`);
/** The schedule in the table's words (the page's SCHEDULES). */
const SCHEDULE_WORDS = {
  sync: () => 'synchronous',
  'pair-empty': () => 'start/done, nothing between',
  'pair-overlap': (c) => `start/done, ${c.between.length} kernel${c.between.length === 1 ? '' : 's'} between`,
  'pair-unordered': () => 'start/done, order not fixed by the dump',
};

/** The page's section equals the command line's `want` for dump `file`. */
function same(got, want, file, what) {
  assert.ok(got, `${what}: a section`);
  assert.equal(got.heading, 'Collectives', what);
  const s = want.summary;
  const pairs = s.pair_empty + s.pair_overlap + s.pair_unordered;
  assert.deepEqual(got.summary, { count: str(s.count), partitions: str(want.partitions), sync: str(s.sync), pairs: str(pairs), overlap: str(s.pair_overlap), atLeast: str(s.at_least_bytes) }, `${what}: summary`);
  assert.ok(got.summaryText.startsWith(`${s.count} collective${s.count === 1 ? '' : 's'} on ${want.partitions} partitions: ${s.sync} synchronous, ${pairs} start/done pair${pairs === 1 ? '' : 's'} (${s.pair_overlap} with work scheduled between).`), `${what}: ${got.summaryText}`);
  if (s.at_least_bytes !== null) assert.ok(got.summaryText.endsWith(`Each collective's busiest device, summed: at least ${bytes(s.at_least_bytes)} moved between devices.`), `${what}: ${got.summaryText}`);
  assert.equal(got.note, want.note === null ? null : plain(`${want.note}.`), `${what}: the backend's note`);
  assert.equal(got.chip, str(want.chip.name), `${what}: chip`);
  const ic = want.chip.interconnect;
  if (ic) {
    assert.deepEqual(got.source, { text: ic.source, href: ic.url }, `${what}: the figure's source`);
    assert.equal(got.quote, ic.quote, `${what}: its words`);
    assert.ok(got.chipText.includes(ic.name) && got.chipText.includes(want.chip.why), `${what}: ${got.chipText}`);
  } else {
    assert.equal(got.source, null, what);
    assert.match(got.chipText, /^No chip, so no time bound: /, what);
  }
  if (s.sync === s.count) assert.match(got.planned, /^Every collective here is synchronous: .* no start\/done pair plans any overlap\.$/, what);
  else assert.match(got.planned, /order XLA scheduled, the overlap it planned, not a measurement/, what);
  assert.deepEqual(got.heads, ['line', 'name', 'opcode', 'schedule', 'devices', 'payload per device', 'at least per device', 'time bound on the chip', 'made by', 'source line'], `${what}: columns`);
  assert.equal(got.rows.length, want.collectives.length, `${what}: rows`);
  want.collectives.forEach((c, i) => {
    const g = got.rows[i];
    const at = `${what}: ${c.name}`;
    const p = c.peers;
    assert.deepEqual(g.data, {
      name: c.name, line: str(c.line), opcode: c.opcode, schedule: c.schedule, done: c.done ? str(c.done.line) : '',
      between: c.between.map((b) => b.line).join(' '), form: p.form, groups: str(p.groups), groupSize: str(p.group_size),
      moving: str(p.moving_pairs), channel: str(p.channel_id), payload: str(c.payload_bytes), atLeast: str(c.at_least_bytes),
      seconds: str(c.seconds), origin: c.origin, source: c.source ? `${c.source.file}:${c.source.line}` : '',
    }, at);
    assert.equal(g.cells.line, `line ${c.line}`, at);
    assert.equal(g.cells.name, c.name, at);
    assert.equal(g.cells.opcode, c.opcode, at);
    // A row of words for every schedule and every form of peers.
    assert.ok(!g.unknownSchedule && SCHEDULE_WORDS[c.schedule], `${at}: no words for schedule ${c.schedule}`);
    assert.ok(g.cells.schedule.startsWith(SCHEDULE_WORDS[c.schedule](c)), `${at}: ${g.cells.schedule}`);
    if (c.gpu_is_sync !== null) assert.ok(g.cells.schedule.endsWith(`(XLA:GPU's is_sync=${c.gpu_is_sync})`), `${at}: is_sync`);
    assert.ok(!g.unknownForm, `${at}: no words for form ${p.form}`);
    if (p.form === 'pairs') assert.ok(g.cells.devices.startsWith(`${p.groups} source-target pair${p.groups === 1 ? '' : 's'}, ${p.moving_pairs} to another device`), `${at}: ${g.cells.devices}`);
    else if (p.groups !== null) assert.ok(g.cells.devices.startsWith(`${p.groups} group${p.groups === 1 ? '' : 's'} × ${p.group_size} device${p.group_size === 1 ? '' : 's'}`), `${at}: ${g.cells.devices}`);
    if (p.raw) assert.ok(g.cells.devices.includes(p.raw), `${at}: the groups as printed`);
    if (p.channel_id !== null) assert.ok(g.cells.devices.endsWith(`channel_id=${p.channel_id}`), at);
    assert.equal(g.cells.payload, bytes(c.payload_bytes), `${at}: payload`);
    const some = c.peers.moving_pairs !== null && c.peers.moving_pairs < c.peers.groups && c.at_least_bytes ? ` on each of the ${c.peers.moving_pairs} devices that send elsewhere, 0 on the others` : '';
    assert.equal(g.cells['at-least'], `${bytes(c.at_least_bytes)}${some}`, `${at}: at least`);
    if (c.seconds === null) assert.equal(g.cells.seconds, want.chip.name ? 'unknown' : 'no chip', at);
    else assert.match(g.cells.seconds, /^≥ [0-9.]+ (ns|µs|ms|s)$/, at);
    assert.equal(g.cells.origin, `${c.origin}: ${c.origin_says}${plain(c.basis)}`, `${at}: origin`);
    assert.equal(g.cells.source, c.source ? `${c.source.file}:${c.source.line}` : 'none in the dump', `${at}: source`);
    assert.deepEqual(g.between, c.between.map((b) => [b.name, b.line]), `${at}: the kernels between`);
  });
  // The lines of the collectives, their dones and the kernels between, as the
  // dump has them (cut at LINE_CHARS characters, as the worker cuts them).
  const text = fs.readFileSync(file, 'utf8').split('\n').map((t) => t.replace(/\r$/, '')).map((t) => (t.length > LINE_CHARS ? `${t.slice(0, LINE_CHARS)} …` : t));
  const lines = new Set(want.collectives.flatMap((c) => [c.line, ...(c.done ? [c.done.line] : []), ...c.between.map((b) => b.line)]));
  assert.deepEqual(got.lines, [...lines].sort((a, b) => a - b).map((n) => [n, text[n - 1]]), `${what}: lines`);
}

test('the section is `collectives --json` for every sharded fixture; none without collectives', async () => {
  assert.ok(SHARDED.length >= 10, `${SHARDED.length} sharded dumps`);
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const seen = new Set();
  for (const f of SHARDED) {
    const want = collectivesJson(fixture(f));
    assert.ok(want.collectives.length, `${f} runs collectives`);
    for (const c of want.collectives) seen.add(c.schedule);
    await paste(page, fs.readFileSync(fixture(f), 'utf8'));
    same(await shown(page), want, fixture(f), f);
  }
  // The fixtures show the three schedules a scheduled module has.
  for (const s of ['sync', 'pair-empty', 'pair-overlap']) assert.ok(seen.has(s), `a fixture with ${s}`);
  // One device: no collective, no section.
  await paste(page, fs.readFileSync(fixture('softmax/compiled.gpu.hlo.txt'), 'utf8'));
  assert.equal(collectivesJson(fixture('softmax/compiled.gpu.hlo.txt')).collectives.length, 0);
  assert.equal(await shown(page), null, 'no section without collectives');
  assert.deepEqual(errors, []);
  await context.close();
});

test("a chip picked in the ledger bounds the collectives on it", async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const f = fixture('sharded_matmul/compiled.cpu.hlo.txt');
  await paste(page, fs.readFileSync(f, 'utf8'));
  same(await shown(page), collectivesJson(f), f, 'cpu, no chip');
  for (const chip of ['v5e', 'h100', '']) {
    await page.locator('.dlp-chip-pick').selectOption(chip);
    await page.waitForFunction((c) => document.querySelector('.dlp-coll').dataset.chip === c && document.querySelector('.dlp-coll-status').textContent === '', chip, { timeout: 30000 });
    const want = collectivesJson(f, chip);
    assert.equal(want.chip.name, chip || null);
    if (chip) assert.ok(want.collectives.every((c) => c.seconds !== null), `${chip}: a time bound`);
    same(await shown(page), want, f, `cpu on ${chip || 'the default'}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the page has words for every schedule and form of peers the checker names', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const tables = await page.evaluate(() => ({ s: Object.keys(window.dumplabCollectives.SCHEDULES), f: Object.keys(window.dumplabCollectives.FORMS) }));
  // The checker's tables: schedules (`SCHEDULES`) and the forms `form` prints.
  const sched = fs.readFileSync(path.join(repoRoot, 'checker/src/collectives/schedule.rs'), 'utf8');
  const ids = [...sched.matchAll(/Schedule::\w+,\s*"([a-z-]+)",/g)].map((m) => m[1]);
  assert.deepEqual(ids.sort(), ['pair-empty', 'pair-overlap', 'pair-unordered', 'sync']);
  assert.deepEqual(tables.s.sort(), ids, 'a row per schedule');
  assert.deepEqual(Object.keys(SCHEDULE_WORDS).sort(), ids, "the test's words, a row per schedule");
  const json = fs.readFileSync(path.join(repoRoot, 'checker/src/collectives/json.rs'), 'utf8');
  const fn = json.slice(json.indexOf('pub fn form('), json.indexOf('fn one('));
  const forms = [...fn.matchAll(/=> "([a-z]+)"/g)].map((m) => m[1]);
  assert.ok(forms.length >= 7, forms.join(', '));
  assert.deepEqual(tables.f.sort(), forms.sort(), 'a row per form');
  assert.deepEqual(errors, []);
  await context.close();
});

test('rows and dump lines link both ways, by keyboard too', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const f = fixture('shard_map_ring/compiled.gpu.hlo.txt');
  await paste(page, fs.readFileSync(f, 'utf8'));
  const want = collectivesJson(f);
  const i = want.collectives.findIndex((c) => c.schedule === 'pair-overlap');
  const c = want.collectives[i];
  const row = page.locator(`.dlp-coll-row[data-name="${c.name}"]`);
  // The row's "line N": focus moves to its line in the viewer.
  await row.locator('td[data-col="line"] a').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.line), String(c.line));
  assert.equal(await page.evaluate(() => !!document.activeElement.closest('.dlp-coll-lines')), true, 'in the section\'s viewer');
  // A kernel scheduled between: its line.
  await page.locator(`.dlp-coll-between .dlp-coll-kernel[data-line="${c.between[0].line}"] a`).click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.line), String(c.between[0].line));
  // The done's line: its note goes back to the row, lit while focused.
  const note = page.locator(`.dlp-coll-lines .dl-line[data-line="${c.done.line}"] + .dl-note a`);
  assert.equal(await note.innerText(), `↑ ${c.name} (its done) in the table`);
  await note.click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.name), c.name);
  assert.ok(await page.locator(`.dlp-coll-lines .dl-line[data-line="${c.line}"]`).evaluate((l) => l.classList.contains('dlp-lit')), 'its line lights');
  assert.deepEqual(errors, []);
  await context.close();
});

test('markup, quotes and unicode in an op_name and a source file stay text', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  // HLO names hold only [A-Za-z0-9_.-] (the reader skips a line whose name
  // holds more), so the hostile text goes where a dump can carry it: the
  // collective's op_name (quoted in its basis, shown in its line) and the
  // source file's path in the dump's file table.
  const evil = `<i>&amp;\\"q'é漢</i>`;
  const dump = fs.readFileSync(fixture('shard_map_ring/compiled.gpu.hlo.txt'), 'utf8')
    .replaceAll('op_name="jit(fn)/shard_map/all_to_all"', `op_name="jit(fn)/shard_map/${evil}/all_to_all"`)
    .replaceAll('"fixtures/shard_map_ring/function.py"', '"fixtures/<b>bold</b>&amp;/function.py"');
  const file = path.join(repoRoot, 'target', 'collectives-hostile.gpu.hlo.txt');
  fs.writeFileSync(file, dump);
  const want = collectivesJson(file);
  assert.ok(want.collectives.some((c) => c.basis.includes(evil)), `the op_name reaches the report: ${want.collectives.map((c) => c.basis)}`);
  assert.ok(want.collectives.some((c) => c.source && c.source.file.includes('<b>')), 'the path reaches the report');
  await paste(page, dump);
  const got = await shown(page);
  same(got, want, file, 'hostile');
  assert.ok(got.rows.some((r) => r.cells.origin.includes(evil)), 'the op_name shown as text');
  assert.ok(got.rows.some((r) => r.cells.source.includes('<b>bold</b>&amp;')), 'the path shown as text');
  assert.ok(got.lines.some(([, t]) => t.includes(evil)), 'the line shown as text');
  assert.equal(await page.locator('.dlp-coll b, .dlp-coll i, .dlp-coll img, .dlp-coll script').count(), 0);
  await page.waitForTimeout(200);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await context.close();
});

/** A screenshot of `sel` as laid out in the page. */
async function shot(page, sel, name) {
  const clip = await page.locator(sel).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
  });
  return screenshot(page, name, { fullPage: true, clip });
}

/** Serious or critical axe violations in the section. */
async function axeBad(page) {
  await page.addScriptTag({ path: axePath });
  const r = await page.evaluate(() => axe.run('.dlp-coll', { resultTypes: ['violations'] }));
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
}

test('axe finds nothing serious in the section in all five themes', async () => {
  for (const theme of THEMES) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { theme });
    await paste(page, fs.readFileSync(fixture('sharded_reshard/compiled.tpu.hlo.txt'), 'utf8'));
    assert.deepEqual(await axeBad(page), [], theme);
    if (theme === 'navy') await shot(page, '.dlp-coll', 'collectives-tpu-navy');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the section at 1280x800 and 390x844: axe finds nothing serious, nothing overflows', async () => {
  const cases = ['shard_map_ring/compiled.gpu.hlo.txt', 'sharded_reshard/compiled.tpu.hlo.txt', 'sharded_callback/compiled.cpu.hlo.txt'];
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width, height } });
    for (const f of cases) {
      await paste(page, fs.readFileSync(fixture(f), 'utf8'));
      assert.deepEqual(await axeBad(page), [], `${f} at ${width} px`);
      const over = await page.evaluate(() => {
        const sec = document.querySelector('.dlp-coll');
        const right = sec.getBoundingClientRect().right;
        // Inside the table's own scrolling box and the dump viewer, wider is fine.
        const wide = [...sec.querySelectorAll('*')].filter((e) => !e.closest('pre.dumplab-code') && !e.closest('.dlp-scroll') && e.getBoundingClientRect().right > right + 1).map((e) => e.className || e.tagName);
        const scroll = sec.querySelector('.dlp-scroll');
        return {
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          box: document.querySelector('.dumplab-playground').scrollWidth - document.querySelector('.dumplab-playground').clientWidth,
          table: scroll.scrollWidth - scroll.clientWidth,
          wide,
        };
      });
      assert.ok(over.page <= 1 && over.box <= 1 && !over.wide.length, `${f} at ${width} px: ${JSON.stringify(over)}`);
      // On a phone the table stacks: nothing scrolls sideways, even inside it.
      if (width < 600) assert.ok(over.table <= 1, `${f} at ${width} px: the table is ${over.table} px too wide`);
      await shot(page, '.dlp-coll', `collectives-${f.split('/')[0]}-${f.split('.')[1]}-${width}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});
