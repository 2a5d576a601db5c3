// The source map's "Lowered | Compiled" panes on the playground page
// (src/dumplab-playground.js, with the panes of "What changed" from
// src/dumplab-playground-diff.js): for a real pair, the lines marked in each
// pane are the lines `mdbook-dumplab map --json` gives per source line (its
// lowered ops' lines, its kernels' lines); hovering or keyboard-focusing a
// marked line lights the lines of its source lines on the other side and
// their rows in the table of source lines, brought into view inside their
// pane; Enter goes to the other side; a table's row lights its pane lines;
// axe finds nothing serious in the map in light and coal; at 390 px the
// panes stack, the links kept, and nothing overflows the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { useBook, openPage, repoRoot, THEMES } from './support.mjs';

const PAGE = 'playground.html';
const cli = process.env.DUMPLAB_CLI ?? path.join(repoRoot, 'target', 'debug', 'mdbook-dumplab');
const fixture = (p) => path.join(repoRoot, 'fixtures', p);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const shots = path.join(repoRoot, 'target', 'shots');
const book = useBook();
const PAIR = [fixture('layernorm/lowered.stablehlo.mlir'), fixture('layernorm/compiled.cpu.hlo.txt')];

/** Per source line of the command line's map, its lines on each side. */
function expected() {
  const map = JSON.parse(execFileSync(cli, ['map', ...PAIR, '--json'], { encoding: 'utf8' }));
  const at = new Map(map.kernels.map((k) => [k.name, k.line]));
  const lines = map.source_lines.map((l) => ({
    a: [...new Set(l.lowered_ops.map((o) => o.line))].sort((x, y) => x - y),
    b: [...new Set(l.kernels.map((k) => at.get(k)))].sort((x, y) => x - y),
  }));
  const all = (key) => [...new Set(lines.flatMap((l) => l[key]))].sort((x, y) => x - y);
  return { map, lines, a: all('a'), b: all('b') };
}

/** Pastes the pair into the playground's two boxes and waits for the panes. */
async function analyse(page) {
  await page.locator('#dlp-text-0').fill(fs.readFileSync(PAIR[0], 'utf8'));
  await page.locator('#dlp-text-1').fill(fs.readFileSync(PAIR[1], 'utf8'));
  await page.locator('.dlp-run').click();
  await page.waitForSelector('.dlp-map-panes .dlp-diff-line', { timeout: 30000 });
}

const SIDE = { a: 'Lowered', b: 'Compiled' };
const paneLine = (page, key, n) => page.locator(`.dlp-map-panes .dlp-diff-pane[data-side="${SIDE[key]}"] .dl-line[data-line="${n}"]`);
/** The numbers of the marked lines of side `key`, and of those lit. */
const marked = (page, key, sel = '') => page.locator(`.dlp-map-panes .dlp-diff-pane[data-side="${SIDE[key]}"] .dlp-diff-line${sel}`).evaluateAll((ls) => ls.map((l) => Number(l.dataset.line)));
/** The indices of the lit rows of the table of source lines. */
const litRows = (page) => page.locator('.dlp-map-lines tbody tr.dlp-lit').evaluateAll((trs) => trs.map((t) => Number(t.dataset.line)));
/** Whether `loc` lies inside its pane's scrolling box, top to bottom. */
const inView = (loc) => loc.evaluate((n) => {
  const box = n.closest('pre').getBoundingClientRect();
  const r = n.getBoundingClientRect();
  return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
});
/** The union of the lines of source lines `ids` on side `key`. */
const union = (want, ids, key) => [...new Set(ids.flatMap((i) => want.lines[i][key]))].sort((x, y) => x - y);
/** The source lines (indices) whose lines on side `key` hold line `n`. */
const owners = (want, key, n) => want.lines.flatMap((l, i) => (l[key].includes(n) ? [i] : []));
const overflow = (page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth);

async function axeMap(page, t) {
  await page.evaluate(([t, all]) => {
    document.documentElement.classList.remove(...all);
    document.documentElement.classList.add(t);
  }, [t, THEMES]);
  if (!(await page.evaluate(() => typeof axe !== 'undefined'))) await page.addScriptTag({ path: axePath });
  const r = await page.evaluate(() => axe.run('.dlp-map', { resultTypes: ['violations'] }));
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
}

/** The panes (with the heading above them) under target/shots/, page at
 *  its top, lowered line `lit` focused; stacked panes in one picture each
 *  (`-lowered`, `-compiled`). */
async function shot(page, name, stacked = false, lit = null) {
  fs.mkdirSync(shots, { recursive: true });
  await page.evaluate((n) => {
    const badge = n && document.querySelector(`.dlp-map-panes [data-side="Lowered"] .dl-line[data-line="${n}"] .dlp-badge`);
    if (badge) badge.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, lit);
  const clip = (sel, from) => page.evaluate(([s, f]) => {
    const a = document.querySelector(f || s).getBoundingClientRect();
    const r = document.querySelector(s).getBoundingClientRect();
    return { x: r.x + scrollX, y: a.y + scrollY, width: r.width, height: r.bottom - a.top };
  }, [sel, from]);
  const take = async (file, c) => page.screenshot({ path: path.join(shots, `${file}.png`), fullPage: true, clip: await c });
  if (!stacked) return take(name, clip('.dlp-map-side'));
  await take(`${name}-lowered`, clip('.dlp-map-panes .dlp-diff-pane[data-side="Lowered"]', '.dlp-map-side'));
  await take(`${name}-compiled`, clip('.dlp-map-panes .dlp-diff-pane[data-side="Compiled"]'));
}

test('the source map: Lowered | Compiled panes, marked as the map says, linked by hover and keyboard; 390 px stacks', async () => {
  const want = expected();
  assert.ok(want.lines.length > 1 && want.a.length > 3 && want.b.length > 1, 'a pair with something to link');
  const wide = await openPage(book.browser, book.server.url, PAGE);
  const { context, errors } = wide;
  let { page } = wide;
  await analyse(page);
  // The marked lines are the map's, and each names the source lines that hold it.
  assert.deepEqual(await marked(page, 'a'), want.a, 'lowered lines');
  assert.deepEqual(await marked(page, 'b'), want.b, 'kernel lines');
  for (const key of ['a', 'b']) {
    const items = await page.locator(`.dlp-map-panes .dlp-diff-pane[data-side="${SIDE[key]}"] .dlp-diff-line`).evaluateAll((ls) => ls.map((l) => [Number(l.dataset.line), l.dataset.item]));
    for (const [n, ids] of items) assert.equal(ids, owners(want, key, n).join(' '), `${SIDE[key]} line ${n}: its source lines`);
  }
  assert.equal(await page.locator('.dlp-map-lines tbody tr').count(), want.map.source_lines.length, 'the tables stay');

  // Hover a kernel's line: the lowered lines of its source lines light, and their rows.
  const k = want.b.find((n) => owners(want, 'b', n).length > 1) ?? want.b[0];
  const kOwners = owners(want, 'b', k);
  await paneLine(page, 'b', k).hover();
  assert.deepEqual(await marked(page, 'a', '.dlp-lit'), union(want, kOwners, 'a'), 'hover: the lowered lines');
  assert.deepEqual(await litRows(page), kOwners, 'hover: the rows of its source lines');
  assert.ok(await inView(paneLine(page, 'a', union(want, kOwners, 'a')[0])), 'the first lit lowered line is in view in its pane');
  await page.mouse.move(0, 0);
  assert.deepEqual(await marked(page, 'a', '.dlp-lit'), [], 'dark again');

  // Keyboard alone: Tab from the lowered pane's box reaches its first marked
  // line, the arrows move along, Enter goes to the other side.
  await page.locator('.dlp-map-panes .dlp-diff-pane[data-side="Lowered"] pre').focus();
  await page.keyboard.press('Tab');
  const focused = () => page.evaluate(() => {
    const l = document.activeElement.closest('.dl-line');
    return l && [l.closest('.dlp-diff-pane').dataset.side, Number(l.dataset.line)];
  });
  assert.deepEqual(await focused(), ['Lowered', want.a[0]]);
  await page.keyboard.press('ArrowDown');
  const second = want.a[1];
  assert.deepEqual(await focused(), ['Lowered', second]);
  const sOwners = owners(want, 'a', second);
  assert.deepEqual(await marked(page, 'b', '.dlp-lit'), union(want, sOwners, 'b'), 'focus: the kernel lines');
  assert.deepEqual(await litRows(page), sOwners, 'focus: the row of its source line');
  assert.ok(await inView(paneLine(page, 'b', union(want, sOwners, 'b')[0])), 'the first lit kernel line is in view in its pane');
  assert.match(await page.locator('.dlp-map-live').textContent(), /^Lit: compiled lines? [\d, ]+ \(.*function\.py:\d+/);
  const there = union(want, sOwners, 'b')[0];
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), new RegExp(`^Lowered line ${second}, %\\S+ stablehlo\\.[a-z_]+: from .*function\\.py:\\d+; Enter goes to compiled line ${there}$`));
  await page.keyboard.press('Enter');
  assert.deepEqual(await focused(), ['Compiled', there], 'Enter: the first kernel line of its source line');
  const tOwners = owners(want, 'b', there);
  assert.deepEqual(await marked(page, 'a', '.dlp-lit'), union(want, tOwners, 'a'));
  assert.deepEqual(await litRows(page), tOwners);
  await page.evaluate(() => document.activeElement.blur());

  // A row of the table of source lines lights its lines in both panes.
  await page.locator('.dlp-map-lines tbody tr[data-line="1"]').hover();
  assert.deepEqual(await marked(page, 'a', '.dlp-lit'), want.lines[1].a, 'row: lowered lines');
  assert.deepEqual(await marked(page, 'b', '.dlp-lit'), want.lines[1].b, 'row: kernel lines');
  await page.mouse.move(0, 0);

  for (const t of ['light', 'coal']) {
    assert.deepEqual(await axeMap(page, t), [], t);
    await shot(page, `mappanes-1280-${t}`, false, second);
  }
  await axeMap(page, 'light');
  assert.equal(await overflow(page), 0, '1280 px: nothing overflows');

  assert.deepEqual(errors.map(String), []);
  await context.close();

  // 390 px (a fresh page: mdBook hides its sidebar at load on a phone):
  // stacked, Lowered above Compiled, still linked, nothing overflows.
  const phone = await openPage(book.browser, book.server.url, PAGE, { viewport: { width: 390, height: 844 } });
  page = phone.page;
  await analyse(page);
  const [pa, pb] = await page.locator('.dlp-map-panes .dlp-diff-pane').evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().toJSON()));
  assert.ok(pb.top >= pa.bottom - 1 && Math.abs(pa.left - pb.left) < 1, `stacked: ${JSON.stringify([pa, pb])}`);
  assert.equal(await overflow(page), 0, '390 px: nothing overflows');
  await paneLine(page, 'a', second).hover();
  assert.deepEqual(await marked(page, 'b', '.dlp-lit'), union(want, sOwners, 'b'), '390 px: hover still links');
  await page.mouse.move(0, 0);
  assert.deepEqual(await axeMap(page, 'light'), [], '390 px light');
  await shot(page, 'mappanes-390-light', true, second);
  // A lowered text without locations: the map says so, and the call that
  // prints them, as `map --json` words it.
  const bare = [path.join(repoRoot, 'fixtures', 'layernorm', 'jaxpr.txt'), PAIR[1]];
  const hint = JSON.parse(execFileSync(cli, ['map', ...bare, '--json'], { encoding: 'utf8' })).unlocated_hint;
  assert.match(hint, /pretty_print\(source_info=True\)/);
  await page.locator('#dlp-text-0').fill(fs.readFileSync(bare[0], 'utf8'));
  await page.locator('.dlp-run').click();
  await page.waitForSelector('.dlp-unlocated', { timeout: 30000 });
  assert.equal(await page.locator('.dlp-unlocated').textContent(), `Note: ${hint}.`);
  assert.deepEqual(phone.errors.map(String), []);
  await phone.context.close();
});
