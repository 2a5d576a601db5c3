// "What changed" on the playground page (src/dumplab-playground-diff.js): the
// page's summary of a real pair is `mdbook-dumplab diff --json`'s (counts,
// XLA's bytes and flops, the lower bound's change on a chip); every added,
// removed, changed, split and merged kernel is in the list, biggest bytes
// change first, in words the page's tables know; hovering or keyboard-focusing
// a kernel's line or its entry lights its partners (a matched pair, a merged
// group) and brings them into view inside their pane, and says so in a polite
// live region; a lowered pair gets the verdict and the ops per source line;
// a compiled dump against a lowered one shows the command line's sentence in
// an alert; hostile names and dump text stay text; axe finds nothing serious
// in the section in all five themes; at 1280 and 390 px nothing overflows the
// page, and at 390 px the panes stack with the links kept. One page load per
// viewport.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { useBook, openPage, repoRoot, screenshot, THEMES } from './support.mjs';

const PAGE = 'playground.html';
const cli = process.env.DUMPLAB_CLI ?? path.join(repoRoot, 'target', 'debug', 'mdbook-dumplab');
const fixture = (p) => path.join(repoRoot, 'fixtures', p);
const drift = (p) => path.join(repoRoot, 'checker', 'tests', 'drift', p);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const shots = path.join(repoRoot, 'target', 'shots');
const book = useBook();

/** What the command line's diff says about `a` and `b` (on `chip`). */
function diffJson(a, b, chip) {
  const args = ['diff', a, b, '--json', ...(chip ? ['--chip', chip] : [])];
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** The command line's sentence for a pair it refuses (after "A vs B: "). */
function diffError(a, b) {
  const r = spawnSync(cli, ['diff', a, b, '--json'], { encoding: 'utf8' });
  assert.notEqual(r.status, 0, 'the command line refuses the pair');
  const line = r.stderr.trim().split('\n').pop();
  const head = `mdbook-dumplab: error: ${a} vs ${b}: `;
  assert.ok(line.startsWith(head), line);
  return line.slice(head.length);
}

/** Pastes `a` and `b` (file paths) into the two boxes, picks `chip`, compares. */
async function compare(page, a, b, chip = '') {
  await page.locator('#dlp-diff-text-0').fill(fs.readFileSync(a, 'utf8'));
  await page.locator('#dlp-diff-text-1').fill(fs.readFileSync(b, 'utf8'));
  await page.evaluate(() => {
    document.querySelector('.dlp-diff-out').replaceChildren();
    document.querySelector('.dlp-diff-status').textContent = '';
    document.querySelector('.dlp-diff-error').textContent = '';
  });
  await page.locator('#dlp-diff-chip').selectOption(chip);
  await page.locator('.dlp-diff-run').click();
  await page.waitForFunction(() => /^Compared/.test(document.querySelector('.dlp-diff-status').textContent) || document.querySelector('.dlp-diff-error').textContent, null, { timeout: 30000 });
}

/** The summary's figures as the page shows them (its data attributes). */
const summary = (page) => page.locator('.dlp-diff-summary').evaluate((p) => ({ ...p.dataset }));
const num = (v) => (v === null || v === undefined ? 'null' : String(v));
const lit = (loc) => loc.evaluate((n) => n.classList.contains('dlp-lit'));
/** The line `n` of pane `side` ('A' or 'B'). */
const line = (page, side, n) => page.locator(`.dlp-diff-pane[data-side="${side}"] .dl-line[data-line="${n}"]`);
/** Whether `loc` lies inside its pane's scrolling box, top to bottom. */
const inView = (loc) => loc.evaluate((n) => {
  const box = n.closest('pre').getBoundingClientRect();
  const r = n.getBoundingClientRect();
  return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
});

/** The page's summary equals the command line's `want`. */
function same(got, want, what) {
  for (const key of ['matched', 'changed', 'split', 'merged', 'added', 'removed', 'introduced', 'reordered']) assert.equal(got[key], String(want.summary[key]), `${what}: ${key}`);
  assert.equal(got.bytesDelta, num(want.summary.bytes_delta), `${what}: bytes`);
  assert.equal(got.flopsDelta, num(want.summary.flops_delta), `${what}: flops`);
  if (want.chip) assert.equal(got.lowerBoundDeltaS, num(want.summary.lower_bound_delta_s), `${what}: lower bound`);
}

/** Every name the list must hold: added, removed, both sides of changed pairs and groups. */
function listed(want) {
  const k = want.kernels;
  return {
    added: k.added.map((r) => r.name),
    removed: k.removed.map((r) => r.name),
    changed: k.changed.map((c) => `${c.a} (A line ${c.a_line}) → ${c.b} (B line ${c.b_line})`),
    groups: k.merged.length + k.split.length,
  };
}

/** Serious and critical axe violations inside the section. */
async function axeSection(page) {
  if (!(await page.evaluate(() => typeof axe !== 'undefined'))) await page.addScriptTag({ path: axePath });
  const r = await page.evaluate(() => axe.run('.dlp-diff', { resultTypes: ['violations'] }));
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
}

/** mdBook's theme, switched in place (its classes on <html>). */
async function theme(page, t) {
  await page.evaluate(([t, all]) => {
    document.documentElement.classList.remove(...all);
    document.documentElement.classList.add(t);
  }, [t, THEMES]);
}

/** The page scrolls sideways by this many pixels (0: nothing overflows). */
const overflow = (page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth);

/** Screenshots of the section (the summary and the panes, then the lists)
 *  under target/shots/, with the page at its top so that mdBook's sticky
 *  menu bar is not over them; the line of `lit` (A's) focused without scrolling. */
async function shot(page, name, lit) {
  fs.mkdirSync(shots, { recursive: true });
  await page.evaluate((n) => {
    for (const pre of document.querySelectorAll('.dlp-diff-pane pre')) pre.scrollLeft = 0;
    const badge = n && document.querySelector(`.dlp-diff-pane[data-side="A"] .dl-line[data-line="${n}"] .dlp-badge`);
    if (badge) badge.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, lit);
  const clip = (from, to) => page.evaluate(([f, t]) => {
    const a = document.querySelector(f).getBoundingClientRect();
    const b = document.querySelector(t).getBoundingClientRect();
    return { x: a.x + scrollX, y: a.y + scrollY, width: Math.max(a.width, b.width), height: Math.min(b.bottom - a.top, 3000) };
  }, [from, to]);
  await page.screenshot({ path: path.join(shots, `${name}-panes.png`), fullPage: true, clip: await clip('.dlp-diff-summary', '.dlp-diff-panes') });
  await page.screenshot({ path: path.join(shots, `${name}-list.png`), fullPage: true, clip: await clip('.dlp-diff-changes', '.dlp-diff-out > :last-child') });
}

// The pairs: two backends (kernels added and removed; five CPU kernels
// merged into one Triton fusion; changed pairs and copies on TPU), and two
// JAX releases (one pair unchanged, matched by what it computes).
const ATTENTION = [fixture('attention/compiled.cpu.hlo.txt'), fixture('attention/compiled.gpu.hlo.txt')];
const LAYERNORM_GPU = [fixture('layernorm/compiled.cpu.hlo.txt'), fixture('layernorm/compiled.gpu.hlo.txt')];
const LAYERNORM_TPU = [fixture('layernorm/compiled.cpu.hlo.txt'), fixture('layernorm/compiled.tpu.hlo.txt')];
const MLP = [drift('jax-0.4.30/mlp.compiled.cpu.hlo.txt'), drift('jax-0.10.2/mlp.compiled.cpu.hlo.txt')];
const SOFTMAX = [drift('jax-0.4.30/softmax.compiled.cpu.hlo.txt'), drift('jax-0.10.2/softmax.compiled.cpu.hlo.txt')];

test('at 1280 px: the summary is `diff --json`\'s, every change listed, partners lit by hover and by keyboard, lowered pairs, errors, hostile text, axe in five themes', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width: 1280, height: 900 } });
  const vocab = await page.evaluate(() => ({ changes: Object.keys(window.dumplabDiff.CHANGES), basis: Object.keys(window.dumplabDiff.BASIS), how: Object.keys(window.dumplabDiff.HOW) }));

  // Real pairs: the summary and the lists are the command line's.
  for (const [a, b, chip] of [[...ATTENTION], [...LAYERNORM_GPU], [...LAYERNORM_TPU, 'v5e'], [...MLP], [...SOFTMAX]]) {
    const what = `${path.relative(repoRoot, a)} vs ${path.relative(repoRoot, b)}${chip ? ` on ${chip}` : ''}`;
    const want = diffJson(a, b, chip);
    await compare(page, a, b, chip);
    assert.equal(await page.locator('.dlp-diff-error').textContent(), '', what);
    same(await summary(page), want, what);
    // Every field, basis and way in the report has its words (no fallback).
    for (const c of want.kernels.changed) for (const key of Object.keys(c.changes)) assert.ok(vocab.changes.includes(key), `${what}: words for the change ${key}`);
    for (const p of [...want.kernels.matched, ...want.kernels.merged, ...want.kernels.split]) assert.ok(vocab.basis.includes(p.basis), `${what}: words for ${p.basis}`);
    for (const r of want.introduced) assert.ok(vocab.how.includes(r.how), `${what}: words for ${r.how}`);
    // Unmatched kernels are listed, never hidden; changed pairs and groups too.
    const entries = await page.locator('.dlp-diff-changes .dlp-diff-entry').evaluateAll((ls) => ls.map((l) => ({ status: l.dataset.status, text: l.textContent })));
    const l = listed(want);
    for (const [status, names] of [['added', l.added], ['removed', l.removed]]) {
      const shown = entries.filter((e) => e.status === status).map((e) => e.text);
      assert.equal(shown.length, names.length, `${what}: ${status}`);
      for (const n of names) assert.ok(shown.some((t) => t.includes(`${n} (${status === 'added' ? 'B' : 'A'} line`)), `${what}: ${status} ${n}`);
    }
    for (const c of l.changed) assert.ok(entries.some((e) => e.status === 'changed' && e.text.includes(c)), `${what}: changed ${c}`);
    assert.equal(entries.filter((e) => e.status === 'merged' || e.status === 'split').length, l.groups, `${what}: groups`);
    assert.equal(entries.length, l.added.length + l.removed.length + l.changed.length + l.groups, `${what}: nothing else`);
    assert.equal(await page.locator('.dlp-diff-introduced .dlp-diff-entry').count(), want.introduced.length, `${what}: introduced`);
    // Each kernel's line is marked in its pane, by a glyph as well as a colour.
    for (const m of want.kernels.matched) {
      assert.match(await line(page, 'A', m.a_line).getAttribute('class'), /dlp-st-(matched|changed)/, `${what}: ${m.a}`);
      assert.match(await line(page, 'B', m.b_line).locator('.dlp-badge').textContent(), /^[=~]$/, `${what}: ${m.b}`);
    }
    for (const r of want.kernels.added) assert.equal(await line(page, 'B', r.line).locator('.dlp-badge').textContent(), '+', `${what}: ${r.name}`);
    for (const r of want.kernels.removed) assert.equal(await line(page, 'A', r.line).locator('.dlp-badge').textContent(), '-', `${what}: ${r.name}`);
    if (chip) assert.match(await page.locator('.dlp-diff-bound').innerText(), new RegExp(`^Lower bound on ${chip}: .* → .* \\([+−±]`), what);
  }
  // Biggest bytes change first (the layernorm pair on TPU, from its JSON).
  const tpu = diffJson(...LAYERNORM_TPU);
  await compare(page, ...LAYERNORM_TPU);
  const order = await page.locator('.dlp-diff-changes .dlp-diff-entry .dlp-diff-body').allTextContents();
  const sizes = order.map((t) => /bytes ([+−±])([\d.]+) (B|KiB|MiB)/.exec(t)).map((m) => (m ? Number(m[2]) * { B: 1, KiB: 1024, MiB: 1 << 20 }[m[3]] : null));
  assert.equal(sizes.length, tpu.kernels.changed.length + tpu.kernels.added.length);
  const known = sizes.filter((s) => s !== null);
  assert.deepEqual(known, [...known].sort((x, y) => y - x), `biggest first: ${sizes}`);
  assert.match(await page.locator('.dlp-diff-changes .dlp-diff-entry').first().textContent(), /added: copy copy-start \(B line 89\)/);
  assert.match(await page.locator('.dlp-diff-module').innerText(), /entry_computation_layout: .*T\(8,128\)/);

  // A matched pair (two JAX releases, unchanged): hover lights the partner.
  const mlp = diffJson(...MLP);
  await compare(page, ...MLP);
  const pair = mlp.kernels.matched.find((m) => !mlp.kernels.changed.some((c) => c.a_line === m.a_line));
  assert.ok(pair, 'an unchanged pair');
  await page.mouse.move(0, 0);
  assert.equal(await lit(line(page, 'B', pair.b_line)), false);
  await line(page, 'A', pair.a_line).hover();
  assert.equal(await lit(line(page, 'B', pair.b_line)), true, 'hover A lights B');
  assert.ok(await inView(line(page, 'B', pair.b_line)), 'B scrolled to it');
  await page.mouse.move(0, 0);
  assert.equal(await lit(line(page, 'B', pair.b_line)), false, 'and unlights');
  // Keyboard only: Tab from the button reaches A's pane (one stop), arrows
  // move among its kernels, the partner lights and is announced, Enter goes there.
  await page.locator('.dlp-diff-run').focus();
  let n = 0;
  while (n++ < 20 && !(await page.evaluate(() => document.activeElement.matches('.dlp-diff-line .dlp-badge')))) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('.dlp-diff-pane').dataset.side), 'A', 'Tab reaches A first');
  for (let k = 0; k < 10 && Number(await page.evaluate(() => document.activeElement.closest('.dl-line').dataset.line)) !== pair.a_line; k++) await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => Number(document.activeElement.closest('.dl-line').dataset.line)), pair.a_line, 'arrows reach the pair');
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), new RegExp(`^A line ${pair.a_line}, ${pair.a}: matched, unchanged; its partner ${pair.b} \\(B line ${pair.b_line}\\)`));
  assert.equal(await lit(line(page, 'B', pair.b_line)), true, 'focus lights B');
  assert.equal(await page.locator('.dlp-diff-live').textContent(), `Lit: B line ${pair.b_line}, ${pair.b}.`);
  assert.equal(await page.locator('.dlp-diff-live').getAttribute('aria-live'), 'polite');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => `${document.activeElement.closest('.dlp-diff-pane').dataset.side} ${document.activeElement.closest('.dl-line').dataset.line}`), `B ${pair.b_line}`, 'Enter goes to the partner');
  assert.equal(await lit(line(page, 'A', pair.a_line)), true);

  // A merged group (five CPU kernels, one Triton fusion): hover B's line lights all five.
  const ln = diffJson(...LAYERNORM_GPU);
  const g = ln.kernels.merged[0];
  await compare(page, ...LAYERNORM_GPU);
  await page.mouse.move(0, 0);
  await line(page, 'B', g.to_line).hover();
  for (const l of g.from_lines) assert.equal(await lit(line(page, 'A', l)), true, `A line ${l} lit`);
  assert.ok(await inView(line(page, 'A', g.from_lines[0])), 'A scrolled to the group');
  assert.equal(await lit(page.locator('.dlp-diff-changes .dlp-diff-entry[data-status="merged"]')), true, 'its entry lights');
  await page.mouse.move(0, 0);
  // By keyboard, from the list: the entry lights every part on both sides.
  await page.locator('.dlp-diff-run').focus();
  n = 0;
  while (n++ < 40 && !(await page.evaluate(() => document.activeElement.classList.contains('dlp-diff-item')))) await page.keyboard.press('Tab');
  assert.match(await page.evaluate(() => document.activeElement.textContent), new RegExp(`merged: 5 kernels of A → ${g.to} \\(B line ${g.to_line}\\)`));
  for (const l of g.from_lines) assert.equal(await lit(line(page, 'A', l)), true, `A line ${l} lit from the list`);
  assert.equal(await lit(line(page, 'B', g.to_line)), true);
  assert.equal(await page.locator('.dlp-diff-live').textContent(), `Lit: ${g.from_lines.map((l) => `A line ${l}`).join('; ')}; B line ${g.to_line}.`);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => Number(document.activeElement.closest('.dl-line').dataset.line)), g.from_lines[0], 'the entry goes to A');

  // A file picked for A, long enough (3100 blank lines in) that its pane
  // holds only the kernels' lines, numbered as in the file; the split of
  // one oneDNN call into six fusions marked on both sides.
  const long = path.join(repoRoot, 'target', 'diff-long.cpu.hlo.txt');
  const text = fs.readFileSync(LAYERNORM_GPU[0], 'utf8').split('\n');
  fs.writeFileSync(long, [text[0], ...Array(3100).fill(''), ...text.slice(1)].join('\n'));
  const lw = diffJson(long, LAYERNORM_GPU[1]);
  await page.locator('.dlp-diff .dlp-input[data-side="A"] .dlp-file').setInputFiles(long);
  await page.waitForFunction(() => /^Dump A: diff-long\.cpu\.hlo\.txt, .* ready\.$/.test(document.querySelector('.dlp-diff-status').textContent));
  await page.locator('#dlp-diff-text-1').fill(fs.readFileSync(LAYERNORM_GPU[1], 'utf8'));
  await page.locator('.dlp-diff-run').click();
  await page.waitForFunction(() => /^Compared/.test(document.querySelector('.dlp-diff-status').textContent));
  same(await summary(page), lw, 'a long file');
  assert.match(await page.locator('.dlp-diff-pane[data-side="A"] figcaption').innerText(), /^Dump A \(diff-long\.cpu\.hlo\.txt\): only the kernels' 5 lines \(the dump is long\)/);
  assert.deepEqual(await page.locator('.dlp-diff-pane[data-side="A"] .dl-line[data-line]').evaluateAll((ls) => ls.map((l) => Number(l.dataset.line))), lw.kernels.merged[0].from_lines);
  assert.match(await page.locator('.dlp-diff-pane[data-side="B"] figcaption').innerText(), /^Dump B: the whole dump, \d+ lines/);
  const sm = diffJson(...SOFTMAX);
  await compare(page, ...SOFTMAX);
  assert.equal(await line(page, 'A', sm.kernels.split[0].from_line).locator('.dlp-badge').textContent(), '<');
  for (const l of sm.kernels.split[0].to_lines) assert.equal(await line(page, 'B', l).locator('.dlp-badge').textContent(), '<', `B line ${l}`);
  assert.match(await page.locator('.dlp-diff-changes .dlp-diff-entry[data-status="split"]').textContent(), /split: custom-call \(A line 5\) → 6 kernels of B/);

  // Lowered pairs: the verdict and the ops per source line.
  const lowA = fixture('layernorm/lowered.stablehlo.mlir');
  const lowB = fixture('rms_norm/lowered.stablehlo.mlir');
  const low = diffJson(lowA, lowB);
  await compare(page, lowA, lowB);
  assert.equal(await page.locator('.dlp-diff-out').getAttribute('data-kind'), 'lowered');
  assert.equal(await page.locator('.dlp-diff-verdict').getAttribute('data-same-program'), 'false');
  assert.match(await page.locator('.dlp-diff-verdict').innerText(), new RegExp(`^Not the same program: ${low.summary.lines_changed} source lines lowered to other StableHLO operations \\(${low.summary.lines_same} the same\\), and the entry signatures differ\\.$`));
  assert.equal(await page.locator('.dlp-diff-lines tbody tr').count(), low.lines.length);
  const first = low.lines[0];
  assert.deepEqual(await page.locator('.dlp-diff-lines tbody tr').first().locator('td').allTextContents(), [
    `${first.file}:${first.line}`, Object.entries(first.a).map(([o, c]) => `${o} ×${c}`).join(', ') || 'none', Object.entries(first.b).map(([o, c]) => `${o} ×${c}`).join(', ') || 'none',
    Object.keys({ ...first.a, ...first.b }).sort().map((o) => [o, (first.b[o] || 0) - (first.a[o] || 0)]).filter(([, c]) => c).map(([o, c]) => `${c > 0 ? '+' : '−'}${o} ×${Math.abs(c)}`).join(', '),
  ]);
  await compare(page, lowA, lowA);
  assert.match(await page.locator('.dlp-diff-verdict').innerText(), /^The same program: every source line lowered to the same StableHLO operations \(5 lines\), and the entry signatures agree\./);
  assert.equal(await page.locator('.dlp-diff-unproved').count(), 0, 'StableHLO proves its kind');
  // Two lowered HLO texts prove no kind (only hints): compared as lowered
  // programs, and the page says so, as the command line does.
  const hloA = fixture('layernorm/lowered.hlo.txt');
  const hloB = fixture('rms_norm/lowered.hlo.txt');
  assert.equal(diffJson(hloA, hloB).kind_unproved, true);
  await compare(page, hloA, hloB);
  assert.equal(await page.locator('.dlp-diff-out').getAttribute('data-kind'), 'lowered');
  assert.equal(await page.locator('.dlp-diff-unproved').innerText(), 'Neither text proves its kind (only hints of HLO before optimization): compared as lowered programs.');
  const jaxA = fixture('layernorm/jaxpr.txt');
  await compare(page, jaxA, fixture('rms_norm/jaxpr.txt'));
  assert.equal(await page.locator('.dlp-diff-out').getAttribute('data-kind'), 'jaxpr');
  assert.match(await page.locator('.dlp-diff-verdict').innerText(), /^Not the same program: .* jaxpr equations .*a side carries no source lines/);

  // A compiled dump against a lowered one: the command line's sentence, in
  // an alert, and where that pair is read instead (the source map).
  // (The command line ends it with the `map` command to run instead; the
  // page points at its own boxes.)
  const [sentence, mapHint] = diffError(LAYERNORM_GPU[0], lowA).split('; to see how the lowered one became the compiled one, run `mdbook-dumplab map ');
  assert.ok(mapHint.startsWith(`${lowA} ${LAYERNORM_GPU[0]}\``), mapHint);
  await compare(page, LAYERNORM_GPU[0], lowA);
  assert.equal(await page.locator('.dlp-diff-error').textContent(), `${sentence}. To see how a lowered program became a compiled one, paste the two into the two boxes under “Your dumps” above: they draw the source map of that pair.`);
  assert.equal(await page.locator('.dlp-diff-error').getAttribute('role'), 'alert');
  assert.equal(await page.locator('.dlp-diff-out').evaluate((o) => o.childElementCount), 0);
  // An empty box says which.
  await page.locator('#dlp-diff-text-1').fill('');
  await page.locator('.dlp-diff-run').click();
  await page.waitForFunction(() => /^Dump B is empty/.test(document.querySelector('.dlp-diff-error').textContent));

  // Hostile names, metadata and dump text (markup, quotes, &, RTL marks, a
  // 3000-character op_name) stay text.
  const hostile = hostilePair();
  const hw = diffJson(...hostile);
  await compare(page, ...hostile);
  same(await summary(page), hw, 'hostile');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('.dlp-diff img, .dlp-diff script, .dlp-diff b, .dlp-diff i').count(), 0);
  const added = await page.locator('.dlp-diff-changes .dlp-diff-entry[data-status="added"]').textContent();
  assert.ok(added.includes('custom-call <b>bold</b>&lt;x⟨U+202E⟩\\\\ custom-call.3 (B line 6)'), added);
  // An RTL override is shown as its code point: it cannot reorder what follows it.
  assert.doesNotMatch(await page.locator('.dlp-diff').evaluate((s) => s.textContent + Array.from(s.querySelectorAll('[aria-label]'), (e) => e.getAttribute('aria-label')).join('')), /[\u202a-\u202e\u2066-\u2069]/);
  assert.ok((await line(page, 'A', 5).locator('.dl-src').textContent()).includes('onerror=window.__pwned=1>⟨U+202E⟩&amp;\\"q\\"'));
  assert.ok(added.includes('op_names <script>window.__pwned=3</script>xxx') && added.includes('from b<i>.py:9'), 'the long op_name, as text');
  assert.match(added, /x{150} …/, 'cut in the list');
  assert.ok((await line(page, 'B', 5).locator('.dl-src').textContent()).includes('source_file="</script><script>window.__pwned=2</script>&.py"'));
  assert.equal(await overflow(page), 0, 'a 3000-character name does not widen the page');

  // The course's pairs: every code-change pair's label, and a picked one is
  // the command line's diff of the two fixture files.
  const labels = await page.locator('#dlp-diff-example option').allTextContents();
  for (const name of fs.readdirSync(path.join(repoRoot, 'fixtures')).filter((f) => f.endsWith('_before'))) {
    const stem = name.slice(0, -'_before'.length);
    assert.ok(labels.includes(`${stem}: before and after, compiled for CPU`), `${stem} offered`);
  }
  const pickedLabel = 'change_fusion_break: before and after, compiled for TPU v5e';
  await page.evaluate(() => { document.querySelector('.dlp-diff-status').textContent = ''; });
  await page.locator('#dlp-diff-example').selectOption({ label: pickedLabel });
  await page.waitForFunction(() => /^Compared/.test(document.querySelector('.dlp-diff-status').textContent), null, { timeout: 30000 });
  same(await summary(page), diffJson(fixture('change_fusion_break_before/compiled.tpu.hlo.txt'), fixture('change_fusion_break_after/compiled.tpu.hlo.txt')), pickedLabel);
  await page.locator('#dlp-diff-example').selectOption('');

  // axe in all five themes, on a result with every kind of mark.
  await compare(page, ...ATTENTION);
  for (const t of THEMES) {
    await theme(page, t);
    assert.deepEqual(await axeSection(page), [], t);
    if (t === 'light' || t === 'coal') await shot(page, `diff-1280-${t}`, diffJson(...ATTENTION).kernels.matched[1].a_line);
  }
  await theme(page, 'light');
  assert.equal(await overflow(page), 0, '1280 px: nothing overflows');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('at 390 px: the panes stack (A above B), the links still work, nothing overflows; axe clean', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width: 390, height: 844 } });
  const want = diffJson(...LAYERNORM_TPU, 'v5e');
  await compare(page, ...LAYERNORM_TPU, 'v5e');
  same(await summary(page), want, '390 px');
  const [pa, pb] = await page.locator('.dlp-diff-pane').evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().toJSON()));
  assert.ok(pb.top >= pa.bottom - 1 && Math.abs(pa.left - pb.left) < 1, `stacked: ${JSON.stringify([pa, pb])}`);
  assert.equal(await overflow(page), 0, '390 px: nothing overflows');
  const m = want.kernels.changed[0];
  await line(page, 'A', m.a_line).hover();
  assert.equal(await lit(line(page, 'B', m.b_line)), true, 'hover A lights B');
  assert.ok(await inView(line(page, 'B', m.b_line)));
  await page.mouse.move(0, 0);
  await line(page, 'B', m.b_line).locator('.dlp-badge').focus();
  assert.equal(await lit(line(page, 'A', m.a_line)), true, 'focus B lights A');
  assert.equal(await page.locator('.dlp-diff-live').textContent(), `Lit: A line ${m.a_line}, ${m.a}.`);
  assert.deepEqual(await axeSection(page), [], '390 px light');
  await line(page, 'B', m.b_line).locator('.dlp-badge').blur();
  await shot(page, 'diff-390-light', m.a_line);
  await theme(page, 'navy');
  assert.deepEqual(await axeSection(page), [], '390 px navy');
  await shot(page, 'diff-390-navy', m.a_line);
  // A lowered pair's table scrolls in its own region, not the page.
  await theme(page, 'light');
  const low = [fixture('layernorm/lowered.stablehlo.mlir'), fixture('rms_norm/lowered.stablehlo.mlir')];
  await compare(page, ...low);
  assert.equal(await page.locator('.dlp-diff-lines tbody tr').count(), diffJson(...low).lines.length);
  assert.equal(await overflow(page), 0, '390 px, lowered: nothing overflows');
  assert.deepEqual(await axeSection(page), [], '390 px lowered');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('invisible characters in both dumps and their file names: each shown as ⟨U+…⟩, counted once; a U+200B in ENTRY said', async () => {
  // A U+202E inside an instruction's name in both dumps (the name is
  // used twice in each), file names holding U+202E and U+2066.
  const a = ['HloModule jit_f, is_scheduled=true', '', 'ENTRY %main (p: f32[8]) -> f32[8] {', '  %p = f32[8]{0} parameter(0)', '  %neg\u202e.1 = f32[8]{0} negate(%p)', '  ROOT %exp.2 = f32[8]{0} exponential(%neg\u202e.1)', '}', ''].join('\n');
  const names = ['a\u202etxt.hlo', 'b\u2066.hlo.txt'];
  const raw = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
  for (const width of [390, 1280]) {
    const ctx = await openPage(book.browser, book.server.url, PAGE, { viewport: { width, height: 900 } });
    const pick = async (side, name, text) => {
      await ctx.page.locator(`.dlp-diff .dlp-input[data-side="${side}"] .dlp-file`).setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
      await ctx.page.waitForFunction((s) => new RegExp(`^Dump ${s}: .*ready\\.$`).test(document.querySelector('.dlp-diff-status').textContent), side);
    };
    await pick('A', names[0], a);
    await pick('B', names[1], a);
    await ctx.page.locator('.dlp-diff-run').click();
    await ctx.page.waitForFunction(() => /^Compared/.test(document.querySelector('.dlp-diff-status').textContent));
    const note = ctx.page.locator('.dlp-diff-out .dlp-invisible-note');
    assert.equal(await note.count(), 1, 'one note in the section');
    await note.scrollIntoViewIfNeeded();
    await screenshot(ctx.page, `diff-invisible-${width}`, { fullPage: false });
    if (width === 390) {
      await ctx.context.close();
      continue;
    }
    assert.match(await note.textContent(), /^Warning: the two dumps and their file names hold 6 invisible characters \(zero-width or bidi control: dump A: U\+202E ×2; dump B: U\+202E ×2; file names: U\+202E ×1, U\+2066 ×1\)\./);
    // Shown in the panes (the names in both dumps), the captions (file
    // names) and the status; none left raw in the section, attributes too.
    for (const side of ['A', 'B']) {
      assert.equal(await ctx.page.locator(`.dlp-diff-pane[data-side="${side}"] .dl-line[data-line="5"] .dlp-invisible`).textContent(), '⟨U+202E⟩', side);
    }
    assert.match(await ctx.page.locator('.dlp-diff-pane[data-side="A"] figcaption').textContent(), /a⟨U\+202E⟩txt\.hlo/);
    assert.match(await ctx.page.locator('.dlp-diff-pane[data-side="B"] figcaption').textContent(), /b⟨U\+2066⟩\.hlo\.txt/);
    const section = () => ctx.page.locator('.dlp-diff').evaluate((s) => s.textContent + Array.from(s.querySelectorAll('*'), (e) => Array.from(e.attributes, (x) => (x.name === 'value' ? '' : x.value)).join(' ')).join(' '));
    assert.doesNotMatch(await section(), raw);
    // B with a U+200B inside ENTRY: the command line's refusal, and the
    // note says what B holds (why the checker saw no ENTRY).
    await pick('B', names[1], a.replace('ENTRY', 'EN\u200bTRY'));
    await ctx.page.locator('.dlp-diff-run').click();
    await ctx.page.waitForFunction(() => document.querySelector('.dlp-diff-error').textContent);
    assert.match(await ctx.page.locator('.dlp-diff-error').textContent(), /B has no ENTRY computation/);
    assert.match(await note.textContent(), /dump B: U\+200B ×1, U\+202E ×2;/);
    assert.doesNotMatch(await section(), raw);
    assert.deepEqual(ctx.errors.map(String), []);
    await ctx.context.close();
  }
});

/** Two small compiled modules with markup, quotes, `&`, an RTL mark and a
 *  3000-character op_name in their metadata and a custom call's target;
 *  B adds the custom call. Written under target/. */
function hostilePair() {
  const rtl = '\u202e';
  const head = ['HloModule jit_evil, is_scheduled=true, entry_computation_layout={(f32[8]{0})->f32[8]{0}}', '', 'ENTRY %main.odd-name_1.2 (p.1: f32[8]) -> f32[8] {', '  %p.1 = f32[8]{0} parameter(0)'];
  const neg = (root) => `  ${root ? 'ROOT ' : ''}%a-b.c_d.1 = f32[8]{0} negate(%p.1), metadata={op_name="jit(f)/<img src=x onerror=window.__pwned=1>${rtl}&amp;\\"q\\"" source_file="</script><script>window.__pwned=2</script>&.py" source_line=7}`;
  const call = `  ROOT %custom-call.3 = f32[8]{0} custom-call(%a-b.c_d.1), custom_call_target="<b>bold</b>&lt;x${rtl}\\\\", metadata={op_name="jit(f)/<script>window.__pwned=3</script>${'x'.repeat(3000)}" source_file="a\\\\b<i>.py" source_line=9}`;
  const a = path.join(repoRoot, 'target', 'diff-hostile-a.hlo.txt');
  const b = path.join(repoRoot, 'target', 'diff-hostile-b.hlo.txt');
  fs.writeFileSync(a, [...head, neg(true), '}', ''].join('\n'));
  fs.writeFileSync(b, [...head, neg(false), call, '}', ''].join('\n'));
  return [a, b];
}
