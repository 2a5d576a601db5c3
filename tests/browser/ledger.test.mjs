// "Where the time goes" on the playground page (src/dumplab-playground-ledger.js):
// the ledger of a pasted compiled fixture is `mdbook-dumplab cost --json`'s
// for the same file (totals, every kernel's figures, the default chip and
// why, the order of `roofline.ranked`: the bound over all runs); the table
// sorts by any column (click or Enter, `aria-sort`); the chip picker re-costs
// on another chip; rows, chart points and the dump's lines link both ways;
// kernels with no verdict are a dash in the table and not in the chart, no
// point sits above the compute roof, no label over a dot, a focused point
// shows its figures; hostile names stay text; axe finds nothing serious in
// the section; the name column stays while the table scrolls; the chart reads
// in all five themes, at 1280x800 and 390x844.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { useBook, openPage, screenshot, repoRoot, THEMES } from './support.mjs';

const PAGE = 'playground.html';
const cli = process.env.DUMPLAB_CLI ?? path.join(repoRoot, 'target', 'debug', 'mdbook-dumplab');
const fixture = (p) => path.join(repoRoot, 'fixtures', p);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const book = useBook();

/** What the command line's ledger says about `file` (on `chip`, else the default). */
function costJson(file, chip) {
  const args = ['cost', file, '--json', ...(chip ? ['--chip', chip] : [])];
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** Pastes `text` into the first box and waits for its ledger. */
async function pasteLedger(page, text) {
  await page.locator('#dlp-text-0').fill(text);
  await page.locator('.dlp-run').click();
  await page.waitForFunction(() => {
    const s = document.querySelector('.dlp-status');
    return /^Analysed/.test(s.textContent) && document.querySelector('.dlp-cost .dlp-cost-totals');
  }, null, { timeout: 30000 });
}

/** The ledger as the page shows it: totals, and each row's figures in table order. */
function shown(page) {
  return page.locator('.dlp-cost').evaluate((sec) => ({
    chip: sec.dataset.chip,
    totals: { ...sec.querySelector('.dlp-cost-totals').dataset },
    heads: Array.from(sec.querySelectorAll('.dlp-cost-kernels thead th'), (th) => th.textContent),
    rows: Array.from(sec.querySelectorAll('.dlp-cost-kernels tbody tr'), (tr) => ({
      i: Number(tr.dataset.kernel),
      cells: Object.fromEntries(Array.from(tr.cells, (td) => [td.dataset.col, td.textContent])),
      ...tr.dataset,
    })),
  }));
}

/** A screenshot of `sel` as laid out in the page (mdBook's sticky menu bar
 * stays at the page's top, not over the section). */
async function shot(page, sel, name) {
  const clip = await page.locator(sel).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
  });
  return screenshot(page, name, { fullPage: true, clip });
}

const num = (v) => (v === null || v === undefined ? 'null' : String(v));
/** One run's lower bound times its runs, unknown runs counted once: `ranked`'s key. */
const allRuns = (k) => (k.lower_bound_s === null ? null : k.lower_bound_s * (k.runs ?? 1));
/** The table's columns, in order: the name and the bounds first (narrow screens). */
const HEADS = ['kernel', 'lower bound, all runs', 'bound', 'lower bound, per run', 'runs', 'flops', 'HBM bytes', 'intensity (flop/B)', 'kind'];
/** What bounds a kernel, in the table's words: one row per `bound` the
 *  command line prints (checker/src/cost/roof.rs, `Bound::name`). */
const BOUND_WORDS = { memory: 'memory', compute: 'compute', link: 'link (the interconnect)' };
/** HBM bytes of an estimate: padded bytes (or bytes) less those on chip. */
const hbm = (e) => (e.bytes_padded ?? e.bytes_accessed) === null ? null : Math.max(0, (e.bytes_padded ?? e.bytes_accessed) - e.bytes_on_chip);

/** The page's ledger equals the command line's `want`. */
function same(got, want, what) {
  assert.equal(got.chip, want.chip.name ?? '', `${what}: chip`);
  assert.equal(got.totals.xlaFlops, num(want.totals.xla.flops), `${what}: XLA's flops`);
  assert.equal(got.totals.xlaBytes, num(want.totals.xla.bytes_accessed), `${what}: XLA's bytes`);
  assert.deepEqual(JSON.parse(got.totals.xlaUnknown), want.totals.xla.unknown, `${what}: XLA's unknowns`);
  assert.equal(got.totals.flops, num(want.totals.estimate.flops), `${what}: flops`);
  assert.equal(got.totals.bytes, num(want.totals.estimate.bytes_accessed), `${what}: bytes`);
  assert.equal(got.totals.hbm, num(hbm(want.totals.estimate)), `${what}: HBM bytes`);
  assert.equal(got.totals.lower, want.roofline ? num(want.roofline.lower_bound_s) : '', `${what}: lower bound`);
  assert.equal(got.rows.length, want.kernels.length, `${what}: rows`);
  const cycles = want.kernels.some((k) => k.estimated_cycles !== null);
  const heads = [...HEADS, ...(cycles ? ["XLA:TPU's estimate (cycles)"] : []), 'line in the dump', 'source lines'];
  if (!want.chip.name) heads[heads.indexOf('HBM bytes')] = 'memory bytes';
  assert.deepEqual(got.heads, heads, `${what}: columns`);
  for (const r of got.rows) {
    const k = want.kernels[r.i];
    const at = `${what}: ${k.name}`;
    assert.equal(r.cells.kernel.replace(/ \(inside a loop.*$/, ''), k.name, at);
    assert.equal(r.cells.kind, k.detail ? `${k.kind} ${k.detail}` : k.kind, at);
    assert.equal(r.flops, num(k.estimate.flops), `${at}: flops`);
    assert.equal(r.hbm, num(hbm(k.estimate)), `${at}: HBM bytes`);
    assert.equal(r.bound, k.bound ?? '', `${at}: bound`);
    // No verdict: a dash and why.
    if (k.bound) assert.equal(r.cells.bound, BOUND_WORDS[k.bound] ?? `no row for ${k.bound}`, `${at}: bound in words`);
    if (!k.bound) assert.match(r.cells.bound, /^— \((no chip|flops unknown|not all of its flops have a roof on this chip)\)$/, at);
    assert.equal(r.lower, num(k.lower_bound_s), `${at}: lower bound`);
    assert.equal(r.all, num(allRuns(k)), `${at}: lower bound over all runs`);
    if (k.runs === null && k.lower_bound_s !== null) assert.match(r.cells.all, /^≥ .*\(runs unknown: counted once\)$/, at);
    if (cycles) assert.equal(r.cells.cycles, k.estimated_cycles === null ? '—' : String(k.estimated_cycles), `${at}: XLA:TPU's cycles`);
    assert.equal(r.cells.line, `line ${k.line}`, `${at}: line`);
    assert.equal(r.cells.source, k.source_lines.map((l) => `${l.file}:${l.line}`).join(', ') || 'no source line', `${at}: source lines`);
  }
  // First sorted by the bound over all runs, largest first: the command line's ranking.
  if (want.roofline) assert.deepEqual(got.rows.map((r) => want.kernels[r.i].name), want.roofline.ranked, `${what}: ranked`);
}

const FIXTURES = [
  'softmax/compiled.tpu.hlo.txt',
  'matmul_cublas_epilogue/compiled.gpu.hlo.txt',
  'attention/compiled.gpu.hlo.txt',
  'scan_rnn/compiled.tpu.hlo.txt',
  // Stated trip counts: the bound over all runs ranks another way than one run's.
  'fori_loop_static/compiled.gpu.hlo.txt',
  'scan_rnn/compiled.gpu.hlo.txt',
  // XLA:TPU's estimated cycles; a kernel whose vector flops have no roof.
  'argmax/compiled.tpu.hlo.txt',
  // Collectives: bounded by the chip's interconnect (NVLink, ICI).
  'shard_map_ring/compiled.gpu.hlo.txt',
  'sharded_reshard/compiled.tpu.hlo.txt',
  // Last: no chip by default (the picker's test below starts from it).
  'softmax/compiled.cpu.hlo.txt',
];

test('the ledger of real fixtures is `cost --json`; the chip picker re-costs', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  for (const f of FIXTURES) {
    const want = costJson(fixture(f));
    await pasteLedger(page, fs.readFileSync(fixture(f), 'utf8'));
    same(await shown(page), want, f);
    const why = await page.locator('.dlp-chip-default').innerText();
    if (want.chip.name) assert.ok(why.includes(want.chip.why), `${f}: the default's why: ${why}`);
    else {
      // The command line's advice is the picker's on the page.
      assert.ok(why.includes(want.chip.why.replace(/:.*$/, '')), `${f}: the default's why: ${why}`);
      assert.ok(!why.includes('--chip') && why.includes('Pick a chip above for a roofline'), `${f}: ${why}`);
    }
    assert.equal(await page.locator('.dlp-roofline svg').count(), want.chip.name ? 1 : 0, `${f}: a chart only on a chip`);
    const caveat = await page.locator('.dlp-cost-caveat').innerText();
    if (want.chip.name) {
      assert.match(caveat, /lower bound .* from the dump .* every byte comes from HBM .* can beat the bound.* kernels run one after another .* faster than the sum.* Only a profile measures time/);
    } else assert.match(caveat, /^No chip: no roofline, no lower bound on the time\. .* counts from the dump alone, .* only a profile measures time\.$/);
    // XLA's figures are named for what computes them; HBM only on a chip.
    const text = await page.locator('.dlp-cost').innerText();
    assert.ok(text.includes("HloCostAnalysis (XLA's generic cost model, as hlo_module_cost_analysis computes it)"), f);
    assert.ok(!text.includes('cost_analysis()'), f);
    if (!want.chip.name) assert.doesNotMatch(text, /HBM/, `${f}: no HBM without a chip`);
    const totals = await page.locator('.dlp-cost-totals').innerText();
    assert.doesNotMatch(totals, /(\S+ \S+) accessed; \1 of HBM traffic/, `${f}: no figure said twice`);
    // A loop with no stated trip count: the module's bound is a least one.
    if (want.roofline) assert.equal(/at least: a loop states no trip count/.test(totals), !want.roofline.runs_known, `${f}: runs_known`);
    // The legend holds the reasons the report names, each once.
    assert.deepEqual(await page.locator('.dlp-cost-reasons dt').allInnerTexts(), Object.keys(want.reasons), `${f}: reasons`);
    if (want.roofline) assert.ok((await page.locator('.dlp-cost-totals').innerText()).includes(want.roofline.overhead_assumption), `${f}: the overhead's assumption`);
  }
  // The picker offers the default and every preset the command line knows.
  let presets = '';
  try {
    execFileSync(cli, ['cost', fixture(FIXTURES[0]), '--chip', 'no-such-chip'], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    presets = /use one of (.*)$/m.exec(String(e.stderr))[1];
  }
  const offered = await page.locator('.dlp-chip-pick option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(offered, ['', ...presets.split(', ')]);
  // A CPU dump has no chip by default; picking one gives its roofline.
  const cpu = fixture('softmax/compiled.cpu.hlo.txt');
  assert.match(await page.locator('.dlp-cost-caveat').innerText(), /^No chip/);
  assert.equal(await page.locator('.dlp-cost-chip').count(), 0);
  await page.locator('.dlp-chip-pick').selectOption('h100');
  await page.waitForFunction(() => document.querySelector('.dlp-cost').dataset.chip === 'h100');
  same(await shown(page), costJson(cpu, 'h100'), 'softmax cpu on h100');
  assert.equal(await page.locator('.dlp-roofline svg').count(), 1);
  // The cuBLAS GEMM (an f32 dot, TF32 on H100 and A100): another chip moves
  // its lower bound and may change its bound.
  const gemm = fixture('matmul_cublas_epilogue/compiled.gpu.hlo.txt');
  await pasteLedger(page, fs.readFileSync(gemm, 'utf8'));
  const before = await shown(page);
  for (const chip of ['a100', 'v5e']) {
    await page.locator('.dlp-chip-pick').selectOption(chip);
    await page.waitForFunction((c) => document.querySelector('.dlp-cost').dataset.chip === c, chip);
    const got = await shown(page);
    same(got, costJson(gemm, chip), `gemm on ${chip}`);
    assert.notEqual(got.rows[0].lower, before.rows[0].lower, `${chip}: the lower bound moved`);
  }
  // Back to the default, named in the picker.
  assert.match(await page.locator('.dlp-chip-pick option[value=""]').innerText(), /Default for this dump: h100/);
  await page.locator('.dlp-chip-pick').selectOption('');
  await page.waitForFunction(() => document.querySelector('.dlp-cost').dataset.chip === 'h100');
  same(await shown(page), costJson(gemm), 'gemm on its default');
  assert.deepEqual(errors, []);
  await context.close();
});

test('sorting: a header sorts by its column on click and on Enter, aria-sort says how', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const file = fixture('attention/compiled.tpu.hlo.txt');
  const want = costJson(file);
  await pasteLedger(page, fs.readFileSync(file, 'utf8'));
  const header = (id) => page.locator(`.dlp-cost-kernels th[data-col="${id}"]`);
  const order = async () => (await shown(page)).rows.map((r) => want.kernels[r.i]);
  assert.equal(await header('all').getAttribute('aria-sort'), 'descending');
  // Flops, largest first, unknown last; again, smallest first, unknown still last.
  await header('flops').locator('button').click();
  assert.equal(await header('flops').getAttribute('aria-sort'), 'descending');
  assert.equal(await header('all').getAttribute('aria-sort'), null);
  let flops = (await order()).map((k) => k.estimate.flops);
  const known = flops.filter((f) => f !== null);
  assert.deepEqual(known, [...known].sort((a, b) => b - a));
  assert.equal(flops[flops.length - 1], null, 'the custom call of unknown flops comes last');
  await header('flops').locator('button').click();
  assert.equal(await header('flops').getAttribute('aria-sort'), 'ascending');
  flops = (await order()).map((k) => k.estimate.flops);
  assert.deepEqual(flops.filter((f) => f !== null), [...known].sort((a, b) => a - b));
  assert.equal(flops[flops.length - 1], null);
  // By keyboard: Enter on the kernel header sorts by name, A to Z.
  await header('kernel').locator('button').focus();
  await page.keyboard.press('Enter');
  assert.equal(await header('kernel').getAttribute('aria-sort'), 'ascending');
  const names = (await order()).map((k) => k.name);
  assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b)));
  // HBM bytes, then intensity: numbers as the report has them.
  await header('bytes').locator('button').click();
  const bytes = (await order()).map((k) => hbm(k.estimate));
  assert.deepEqual(bytes, [...bytes].sort((a, b) => b - a));
  assert.deepEqual(errors, []);
  await context.close();
});

test('rows, chart points and dump lines link both ways', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const file = fixture('attention/compiled.gpu.hlo.txt');
  const want = costJson(file);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  await pasteLedger(page, lines.join('\n'));
  await page.mouse.move(0, 0);
  // Each kernel's line is in the viewer, with its text from the dump.
  for (const k of want.kernels) {
    const text = await page.locator(`.dlp-cost-lines .dl-line[data-line="${k.line}"] .dl-src`).textContent();
    assert.ok(lines[k.line - 1].startsWith(text.replace(/ …$/, '')), `${k.name}: line ${k.line}`);
  }
  // Row → line: the link focuses the dump's line, lit with its row.
  const row = page.locator('.dlp-cost-kernels tbody tr').first();
  const i = Number(await row.getAttribute('data-kernel'));
  const k = want.kernels[i];
  await row.locator('a.dlp-jump').click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.line), String(k.line));
  assert.match(await page.locator(`.dlp-cost-lines .dl-line[data-line="${k.line}"]`).getAttribute('class'), /dlp-lit/);
  assert.match(await row.getAttribute('class'), /dlp-lit/);
  assert.match(await page.locator(`.dlp-pt[data-kernel="${i}"]`).getAttribute('class'), /dlp-lit/, 'its point lights too');
  // Line → row: the note's link focuses the row.
  await page.locator(`.dlp-cost-lines .dl-line[data-line="${k.line}"] + .dl-note a`).click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), String(i));
  // Hovering another row lights its line; hovering a line lights its row.
  const other = page.locator('.dlp-cost-kernels tbody tr').nth(1);
  const j = Number(await other.getAttribute('data-kernel'));
  await page.locator('body').focus();
  await other.hover();
  assert.match(await page.locator(`.dlp-cost-lines .dl-line[data-line="${want.kernels[j].line}"]`).getAttribute('class'), /dlp-lit/);
  await page.mouse.move(0, 0);
  await page.locator(`.dlp-cost-lines .dl-line[data-line="${want.kernels[j].line}"]`).hover();
  assert.match(await other.getAttribute('class'), /dlp-lit/);
  await page.mouse.move(0, 0);
  // Point → row, by keyboard: every kernel here is a point, named for screen readers.
  assert.equal(await page.locator('.dlp-pt[tabindex="0"]').count(), want.kernels.length);
  const pt = page.locator(`.dlp-pt[data-kernel="${j}"]`);
  assert.match(await pt.getAttribute('aria-label'), new RegExp(`^${want.kernels[j].name}: .*-bound, at least `));
  await pt.focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), String(j));
  assert.deepEqual(errors, []);
  await context.close();
});

/** The chart's geometry: the top compute roof's y, each dot's and label's box. */
function geometry(page) {
  return page.locator('.dlp-roof-svg').evaluate((s) => {
    const box = (e) => {
      const b = e.getBBox();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    };
    return {
      roof: Math.min(...Array.from(s.querySelectorAll('.dlp-roof-compute'), (l) => Number(l.getAttribute('y1')))),
      dots: Array.from(s.querySelectorAll('.dlp-pt'), (g) => ({ i: Number(g.dataset.kernel), cy: Number(g.querySelector('circle').getAttribute('cy')), ...box(g.querySelector('circle')) })),
      // The points' names and the roofs' labels.
      labels: Array.from(s.querySelectorAll('.dlp-pt-label, .dlp-roof-label'), (t) => ({ text: t.textContent, ...box(t) })),
      desc: s.querySelector('desc').textContent,
      view: s.viewBox.baseVal,
    };
  });
}
const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
/** No label over a dot or over another label. */
function clear(g, what) {
  for (const l of g.labels) for (const d of g.dots) assert.ok(!overlap(l, d), `${what}: label ${l.text} over a dot`);
  for (const [a, b] of g.labels.flatMap((l, j) => g.labels.slice(j + 1).map((m) => [l, m]))) assert.ok(!overlap(a, b), `${what}: ${a.text} over ${b.text}`);
}

test('the chart: kernels with no verdict left out, no point above the compute roof, labels clear of dots, figures on focus', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  for (const f of ['argmax/compiled.tpu.hlo.txt', 'cumsum/compiled.tpu.hlo.txt', 'scan_rnn/compiled.gpu.hlo.txt', 'attention/compiled.gpu.hlo.txt']) {
    const want = costJson(fixture(f));
    await pasteLedger(page, fs.readFileSync(fixture(f), 'utf8'));
    const g = await geometry(page);
    const none = want.kernels.filter((k) => !k.bound);
    for (const d of g.dots) assert.ok(want.kernels[d.i].bound, `${f}: ${want.kernels[d.i].name} has a verdict`);
    // A point sits at or under the compute roof (SVG y grows downwards).
    for (const d of g.dots) assert.ok(d.cy >= g.roof - 0.01, `${f}: ${want.kernels[d.i].name} at ${d.cy}, the roof at ${g.roof}`);
    const cap = await page.locator('.dlp-roofline figcaption').innerText();
    if (none.length) {
      const said = `Not plotted: ${none.length} kernel${none.length === 1 ? '' : 's'} with no verdict`;
      assert.ok(cap.includes(said) && g.desc.includes(said), `${f}: ${cap} | ${g.desc}`);
    }
    assert.ok(!g.dots.length || g.labels.length > 3, `${f}: the roofs and the largest bounds are named`);
    clear(g, f);
  }
  // argmax on v5e: the iota-reduce's vector flops have no roof (no published
  // VPU rate): a dash and why, no point; XLA:TPU's cycles in its column.
  const want = costJson(fixture('argmax/compiled.tpu.hlo.txt'));
  await pasteLedger(page, fs.readFileSync(fixture('argmax/compiled.tpu.hlo.txt'), 'utf8'));
  const i = want.kernels.findIndex((k) => k.name === 'iota_reduce_fusion');
  assert.equal(want.kernels[i].bound, null);
  const row = page.locator(`.dlp-cost-kernels tr[data-kernel="${i}"]`);
  assert.equal(await row.locator('td[data-col="bound"]').innerText(), '— (not all of its flops have a roof on this chip)');
  assert.equal(await row.locator('td[data-col="cycles"]').innerText(), String(want.kernels[i].estimated_cycles));
  assert.match(await page.locator('.dlp-cost-cycles').innerText(), /compiler's own estimate .* not a measurement, and the dump carries no clock to turn it into seconds/);
  assert.equal(await page.locator(`.dlp-pt[data-kernel="${i}"]`).count(), 0);
  // Keyboard focus shows a point's name and figures beside it; blur hides them.
  const file = fixture('scan_rnn/compiled.gpu.hlo.txt');
  const rnn = costJson(file);
  await pasteLedger(page, fs.readFileSync(file, 'utf8'));
  const tip = page.locator('.dlp-roof-tip');
  assert.equal(await tip.getAttribute('visibility'), 'hidden');
  await page.locator('.dlp-chip-pick').focus();
  for (let n = 0; n < 60 && !(await page.evaluate(() => document.activeElement.classList.contains('dlp-pt'))); n++) await page.keyboard.press('Tab');
  const j = Number(await page.evaluate(() => document.activeElement.dataset.kernel));
  const k = rnn.kernels[j];
  assert.equal(k.name, rnn.roofline.ranked[0], 'the first point in tab order is the largest bound over all runs');
  assert.equal(await tip.getAttribute('visibility'), 'visible');
  const lines = await tip.locator('tspan').allTextContents();
  assert.equal(lines[0], k.name);
  assert.match(lines.slice(1).join(' | '), new RegExp(`^${k.intensity.toFixed(2)} flop/B, .* attainable \\| ${k.bound}-bound, at least .* per run \\| .* over all ${k.runs} runs$`));
  const inside = await page.locator('.dlp-roof-svg').evaluate((s) => {
    const t = s.querySelector('.dlp-roof-tip').getBoundingClientRect();
    const r = s.getBoundingClientRect();
    return t.left >= r.left - 1 && t.right <= r.right + 1 && t.top >= r.top - 1 && t.bottom <= r.bottom + 1;
  });
  assert.ok(inside, 'the figures stay inside the chart');
  await shot(page, '.dlp-roofline', 'ledger-chart-focus');
  await page.keyboard.press('Tab');
  assert.equal(await tip.getAttribute('visibility'), await page.evaluate(() => (document.activeElement.classList.contains('dlp-pt') ? 'visible' : 'hidden')));
  await page.locator('.dlp-chip-pick').focus();
  assert.equal(await tip.getAttribute('visibility'), 'hidden');
  assert.deepEqual(errors, []);
  await context.close();
});

test('odd names, hostile metadata and custom-call targets stay text; a damaged paste is costed repaired', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  // As odd as HLO names get (dots, dashes, underscores), with markup where
  // the dump carries free text: metadata and a custom call's target.
  const evil = [
    'HloModule jit_evil, is_scheduled=true, entry_computation_layout={(f32[8]{0})->f32[8]{0}}',
    '',
    'ENTRY %main.odd-name_1.2 (p.1: f32[8]) -> f32[8] {',
    '  %p.1 = f32[8]{0} parameter(0)',
    '  %a-b.c_d.1 = f32[8]{0} negate(%p.1), metadata={op_name="jit(f)/<img src=x onerror=window.__pwned=1>" source_file="</script><img src=x onerror=window.__pwned=2>\\"&amp;.py" source_line=7}',
    '  ROOT %custom-call.3 = f32[8]{0} custom-call(%a-b.c_d.1), custom_call_target="<b>bold</b>&lt;x\\\\", metadata={source_file="a\\\\b<i>.py" source_line=9}',
    '}',
    '',
  ].join('\n');
  const file = path.join(repoRoot, 'target', 'ledger-hostile.hlo.txt');
  fs.writeFileSync(file, evil);
  const want = costJson(file);
  assert.equal(want.kernels.length, 2);
  await pasteLedger(page, evil);
  same(await shown(page), want, 'hostile');
  // On a chip with a vector rate (H100), so that the negate has a verdict and is a point.
  await page.locator('.dlp-chip-pick').selectOption('h100');
  await page.waitForFunction(() => document.querySelector('.dlp-cost').dataset.chip === 'h100');
  same(await shown(page), costJson(file, 'h100'), 'hostile on h100');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('.dlp-cost img, .dlp-cost script, .dlp-cost b, .dlp-cost i').count(), 0);
  const titles = await page.locator('.dlp-pt title').allTextContents();
  assert.ok(titles.length >= 1, 'the negate is a point');
  assert.ok(titles.every((t) => /^(a-b\.c_d\.1|custom-call\.3): /.test(t)), titles.join(' | '));
  // A damaged paste (log prefixes) is costed on the repaired text, and says so;
  // its lines keep the paste's numbers.
  const clean = fs.readFileSync(fixture('attention/compiled.gpu.hlo.txt'), 'utf8');
  const logged = clean.trimEnd().split('\n').map((l) => `I1201 12:00:00.000000 1 xla_dump.cc:1] ${l}`).join('\n') + '\n';
  const damaged = path.join(repoRoot, 'target', 'ledger-logged.hlo.txt');
  fs.writeFileSync(damaged, logged);
  const wantLogged = costJson(damaged);
  assert.ok(wantLogged.repaired.length > 0, 'the command line repaired it');
  await pasteLedger(page, logged);
  same(await shown(page), wantLogged, 'logged');
  assert.match(await page.locator('.dlp-cost').innerText(), /Costed on the repaired text \(log prefixes removed/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the section at 1280x800 and 390x844: axe finds nothing serious, nothing overflows, the name column stays', async () => {
  const file = fixture('matmul_cublas_epilogue/compiled.gpu.hlo.txt');
  const text = fs.readFileSync(file, 'utf8');
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width, height } });
    await pasteLedger(page, text);
    await page.addScriptTag({ path: axePath });
    const r = await page.evaluate(() => axe.run('.dlp-cost', { resultTypes: ['violations'] }));
    const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
    assert.deepEqual(bad, [], `${width} px`);
    const over = await page.evaluate(() => {
      const box = document.querySelector('.dumplab-playground');
      const svg = document.querySelector('.dlp-roof-svg').getBoundingClientRect();
      return { page: box.scrollWidth - box.clientWidth, chart: svg.right - box.getBoundingClientRect().right };
    });
    assert.ok(over.page <= 1 && over.chart <= 1, `${width} px: ${JSON.stringify(over)}`);
    // Scrolled sideways, the table keeps each kernel's name in view.
    const stays = await page.locator('.dlp-cost-kernels .dlp-scroll').evaluate((sc) => {
      sc.scrollLeft = sc.scrollWidth;
      const cell = sc.querySelector('tbody td[data-col="kernel"]').getBoundingClientRect();
      return { scrolled: sc.scrollLeft, cell: cell.left - sc.getBoundingClientRect().left };
    });
    if (width === 390) assert.ok(stays.scrolled > 0, `${width} px: the table scrolls sideways`);
    assert.ok(Math.abs(stays.cell) <= 1, `${width} px: the name column stays: ${JSON.stringify(stays)}`);
    if (width === 390) await shot(page, '.dlp-cost-kernels', 'ledger-table-390-scrolled');
    await page.locator('.dlp-cost-kernels .dlp-scroll').evaluate((sc) => { sc.scrollLeft = 0; });
    await shot(page, '.dlp-cost', `ledger-${width}`);
    clear(await geometry(page), `${width} px`);
    await shot(page, '.dlp-roofline', `ledger-chart-${width}`);
    // In print, the column headers (sort buttons on screen) keep their names.
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.locator('.dlp-cost-kernels th .dlp-sort').first().isVisible(), 'the headers print');
    await page.emulateMedia({ media: 'screen' });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the chart reads in all five themes: roofs, points and text in the theme colours', async () => {
  const text = fs.readFileSync(fixture('attention/compiled.gpu.hlo.txt'), 'utf8');
  for (const theme of THEMES) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { theme });
    await pasteLedger(page, text);
    const look = await page.locator('.dlp-roof-svg').evaluate((s) => {
      const c = (sel, prop) => getComputedStyle(s.querySelector(sel))[prop];
      return { bg: getComputedStyle(s).backgroundColor, text: c('text', 'fill'), mem: c('.dlp-roof-mem', 'stroke'), roof: c('.dlp-roof-compute', 'stroke'), point: c('.dlp-pt circle', 'fill') };
    });
    const ink = (rgb) => rgb.match(/\d+/g).slice(0, 3).map(Number);
    // Relative luminance (WCAG), to compare text and lines with the background.
    const lum = (rgb) => ink(rgb).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((s, v, k) => s + v * [0.2126, 0.7152, 0.0722][k], 0);
    const contrast = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    assert.ok(contrast(look.text, look.bg) >= 4.5, `${theme}: text ${look.text} on ${look.bg}`);
    for (const k of ['mem', 'roof', 'point']) assert.ok(contrast(look[k], look.bg) >= 3, `${theme}: ${k} ${look[k]} on ${look.bg}`);
    if (theme === 'light' || theme === 'navy') await shot(page, '.dlp-roofline', `ledger-chart-${theme}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("collectives: bound by the link, their bytes over the interconnect under their lines, left out of the chart", async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  for (const f of ['shard_map_ring/compiled.gpu.hlo.txt', 'sharded_reshard/compiled.tpu.hlo.txt']) {
    const want = costJson(fixture(f));
    await pasteLedger(page, fs.readFileSync(fixture(f), 'utf8'));
    const linked = want.kernels.filter((k) => k.link);
    assert.ok(linked.length && linked.every((k) => k.bound === 'link'), `${f}: collectives bound by the link`);
    for (const k of linked) {
      const note = await page.locator(`.dlp-cost-lines .dl-line[data-line="${k.line}"] + .dl-note .dlp-cost-link`).innerText();
      assert.ok(note.includes(`(${k.link.bytes} B)`) && note.startsWith('Over the interconnect: at least '), `${f}: ${k.name}: ${note}`);
    }
    const totals = await page.locator('.dlp-cost-totals').innerText();
    const src = want.chip.source.find((x) => x.figure === 'interconnect');
    assert.ok(totals.includes(`${linked.length} collective`) && totals.includes(src.quote), `${f}: ${totals}`);
    assert.match(await page.locator('.dlp-cost-caveat').innerText(), /a collective at least the bytes each device must move over the interconnect/);
    const cap = await page.locator('.dlp-roofline figcaption').innerText();
    assert.ok(cap.includes(`${linked.length} collective${linked.length === 1 ? '' : 's'} bounded by the interconnect`), `${f}: ${cap}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
