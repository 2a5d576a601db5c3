// The "Read your own dump" page in Chromium: fixtures pasted into it get the
// kind, backend and kernel count that `mdbook-dumplab analyze --json` gives
// for the same file; two dumps of one function give the source map, whose
// kernels light up their lines on focus; a large paste goes the way a picked
// file goes (same report, no long main-thread task, a status that counts the
// whole wait); bad input gets a clear message and
// the page keeps working; everything is reachable with the keyboard; the
// page works from file://; dump text never becomes markup.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { serve, launch, openPage, screenshot, repoRoot, bookDir, tabsUntil } from './support.mjs';

const PAGE = 'playground.html';
const cli = process.env.DUMPLAB_CLI ?? path.join(repoRoot, 'target', 'debug', 'mdbook-dumplab');
const fixture = (p) => path.join(repoRoot, 'fixtures', p);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let server;
let browser;

before(async () => {
  if (!fs.existsSync(cli)) throw new Error(`no ${cli}: build it with \`cargo build -p mdbook-dumplab\` (cargo xtask test does)`);
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** What the command line says about `file`. */
function analyzeJson(file) {
  return JSON.parse(execFileSync(cli, ['analyze', '--json', file], { encoding: 'utf8', maxBuffer: 1 << 28 }).trim());
}

/** Waits until the page has analysed what is in its boxes. */
async function analysed(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('.dlp-status');
    const box = document.querySelector('[data-dumplab-playground]');
    return s && /^Analysed|^Not analysed|could not|not a text|reads dumps up to/.test(s.textContent) && !box.hasAttribute('aria-busy');
  }, null, { timeout: 30000 });
}

async function paste(page, slot, text) {
  await page.locator(`#dlp-text-${slot}`).fill(text);
  await page.locator('.dlp-run').click();
  await analysed(page);
}

const FILES = [
  'softmax/jaxpr.txt',
  'softmax/lowered.stablehlo.mlir',
  'softmax/lowered.hlo.txt',
  'softmax/compiled.cpu.hlo.txt',
  'softmax/compiled.gpu.hlo.txt',
  'softmax/compiled.tpu.hlo.txt',
  'matmul_cublas_epilogue/compiled.gpu.hlo.txt',
  'scan_rnn/compiled.tpu.hlo.txt',
  'elementwise_chain/lowered.stablehlo.mlir',
];

test('pasted fixtures get the kind, backend and kernel count of `analyze --json`', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  for (const f of FILES) {
    const want = analyzeJson(fixture(f));
    await paste(page, 0, fs.readFileSync(fixture(f), 'utf8'));
    const got = await page.locator('.dlp-report').first().evaluate((s) => ({ ...s.dataset }));
    assert.equal(got.kind, want.kind, f);
    assert.equal(got.backend, want.backend ?? '', f);
    assert.equal(got.backendBasis, want.backend_basis ?? '', f);
    assert.equal(got.dialect, want.dialect ?? '', f);
    if (want.kind === 'hlo-optimized') {
      assert.equal(Number(got.kernels), want.entry_kernels, `${f}: kernels`);
      assert.ok(want.entry_kernels > 0);
      // Rows: the kernels, plus control flow (a while, ...) marked as not
      // one, and the rows under it (what it runs).
      const kernelRows = await page.locator('.dlp-kernels tbody tr:not(.dlp-control):not(.dlp-sub)').count();
      assert.equal(kernelRows, want.entry_kernels, `${f}: kernel rows`);
      const fusions = await page.locator('.dlp-kernels tbody tr:not(.dlp-sub) td:nth-child(3)').evaluateAll((tds) => tds.filter((t) => t.textContent.startsWith('fusion')).length);
      assert.equal(fusions, want.entry_fusions, `${f}: fusions`);
      assert.equal(await page.locator('.dlp-lines').count(), 0, `${f}: no per-line table for compiled HLO`);
    } else {
      assert.equal(got.kernels, '', f);
      assert.equal(await page.locator('.dlp-kernels').count(), 0, `${f}: no kernel table`);
      assert.equal(await page.locator('.dlp-lines').count(), 1, `${f}: ops per source line`);
    }
    if (want.kind === 'unknown') {
      // HLO that proves neither kind: nothing decided, the hints' guess
      // worded as a guess, the reason naming each hint's line.
      assert.equal(got.kindGuess, want.kind_guess, f);
      assert.match(await page.locator('.dlp-facts').first().innerText(), new RegExp(`kind: unknown; a guess, not an answer: ${want.kind_guess} \\(suggested by rule ${want.kind_guess_rule}, a hint, never proof\\)`), f);
      assert.equal(await page.locator('.dlp-evidence .dl-line.dl-lit').count(), 0, `${f}: nothing decided`);
      assert.match(await page.locator('.dlp-reason').first().innerText(), /^Why unknown: This is HLO, but nothing here proves whether XLA compiled it: only hints, line 1 shows/, f);
      continue;
    }
    if (want.kind_likely) {
      // A kind that rests on hints alone: likely, said so, no line lit.
      assert.equal(await page.locator('.dlp-likely').first().innerText(), want.kind_likely, f);
      assert.equal(await page.locator('.dlp-evidence .dl-line.dl-lit').count(), 0, `${f}: nothing proves it`);
      continue;
    }
    // Every deciding line is shown in the dump viewer, lit, with its text,
    // its true line number and a chapter link in its note.
    const ev = await page.locator('.dlp-evidence .dl-line.dl-lit').count();
    assert.ok(ev > 0, `${f}: evidence`);
    assert.equal(await page.locator('.dlp-evidence .dl-note').count(), ev, `${f}: a note per deciding line`);
    assert.equal(await page.locator('.dlp-evidence pre.dumplab-code[role="region"][tabindex="0"]').count(), 1, `${f}: one viewer box`);
    const href = await page.locator('.dlp-evidence a').first().getAttribute('href');
    assert.match(href, /^[a-z-]+\.html$/);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a damaged paste: repaired, what was undone listed, lines as pasted', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  // A compiled module with no accelerator clue, every line behind a log
  // prefix with hostile text in it (it must stay text).
  const clean = fs.readFileSync(fixture('transpose_matmul/compiled.cpu.hlo.txt'), 'utf8');
  const prefix = '2019-08-05 19:26:48.376350: E external/<b>x</b>/org_tensorflow/tensorflow/compiler/xla/xla_util.cc:72] ';
  const logged = clean.split('\n').filter((l, i, a) => i < a.length - 1 || l).map((l) => prefix + l).join('\n') + '\n';
  const file = path.join(repoRoot, 'target', 'playground-logged.txt');
  fs.writeFileSync(file, logged);
  const want = analyzeJson(file);
  await paste(page, 0, logged);
  const got = await page.locator('.dlp-report').first().evaluate((s) => ({ ...s.dataset }));
  assert.equal(got.kind, 'hlo-optimized');
  assert.equal(got.kind, want.kind);
  // No clue names a backend: none, and the guess worded as one.
  assert.equal(got.backend, '');
  assert.equal(got.backendBasis, '');
  assert.equal(want.backend_guess, 'cpu');
  assert.equal(got.dialect, 'hlo');
  assert.match(await page.locator('.dlp-facts').first().innerText(), /backend: none named \(no GPU or TPU clue in a compiled module;.*\); a guess, not an answer: cpu/);
  const undone = await page.locator('.dlp-unwrapped li').allInnerTexts();
  assert.equal(undone.length, 1);
  assert.match(undone[0], /log prefixes removed .*xla_util\.cc:72\]/);
  assert.match(undone[0], new RegExp(`\\(${want.unwrapped[0].lines} lines from line 1\\)`));
  assert.equal(await page.locator('.dlp-out b').count(), 0, 'the prefix stays text');
  // The note's `code` spans are code elements, not backticks.
  assert.ok(!undone[0].includes('`'), undone[0]);
  assert.equal(await page.locator('.dlp-unwrapped li code').count(), 1);
  // The summary counts lines in words, pasted and repaired.
  // (blank lines at the end of the repaired text are not counted).
  const after = clean.trimEnd().split('\n').length;
  assert.equal(await page.locator('.dlp-linecount').innerText(), `${want.lines} lines pasted, ${after} after repair`);
  await deciding(page, { prefix: '2019-08-05' });
  await screenshot(page, 'playground-damaged');
  assert.deepEqual(errors, []);
  await context.close();
  // At phone width, a long log prefix wraps inside the page.
  const phone = await openPage(browser, server.url, PAGE, { viewport: { width: 390, height: 844 } });
  await paste(phone.page, 0, logged);
  const list = phone.page.locator('.dlp-unwrapped');
  const wide = await list.evaluate((u) => u.scrollWidth - u.clientWidth);
  assert.ok(wide <= 0, `the list of what was undone is ${wide}px too wide`);
  await list.scrollIntoViewIfNeeded();
  await screenshot(phone.page, 'playground-damaged-phone');
  // The first clue is inside the box, with no prefix before it (the
  // deciding lines opened: they are folded away at first).
  await phone.page.locator('.dlp-deciding > summary').first().click();
  const mark = phone.page.locator('.dlp-evidence mark').first();
  await mark.scrollIntoViewIfNeeded();
  const [m, pre] = [await mark.boundingBox(), await phone.page.locator('.dlp-evidence pre').boundingBox()];
  assert.ok(m.x >= pre.x && m.x + m.width <= pre.x + pre.width, `the mark (${m.x}+${m.width}) is outside the box (${pre.x}+${pre.width})`);
  await screenshot(phone.page, 'playground-damaged-phone-lines');
  assert.deepEqual(phone.errors, []);
  await phone.context.close();
});

/**
 * The deciding lines of the page's report: each shown once (a line with two
 * clues has two marks and both notes), none starting with `prefix`, each
 * mark non-empty; returns the lines' texts.
 */
async function deciding(page, { prefix } = {}) {
  const rows = await page.locator('.dlp-evidence .dl-line.dl-lit').evaluateAll((ls) =>
    ls.map((l) => ({ n: l.dataset.line, text: l.querySelector('.dl-src').textContent, marks: Array.from(l.querySelectorAll('mark'), (m) => m.textContent) })));
  assert.ok(rows.length > 0, 'no deciding lines');
  const keys = rows.map((r) => `${r.n} ${r.text}`);
  assert.equal(new Set(keys).size, keys.length, `a line shown twice: ${keys.join(' | ')}`);
  for (const r of rows) {
    if (prefix) assert.ok(!r.text.startsWith(prefix), `line ${r.n} keeps its prefix: ${r.text.slice(0, 80)}`);
    assert.ok(r.marks.length > 0 && r.marks.every((m) => m.trim()), `line ${r.n}: ${JSON.stringify(r.marks)}`);
  }
  return rows;
}

test('deciding lines: repaired, each once with all its clues', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  const clean = fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8');
  // Clean: lines with two clues (a fusion's kind and its computation) are
  // shown once, with a note per clue.
  await paste(page, 0, clean);
  const rows = await deciding(page);
  const two = rows.find((r) => r.marks.length >= 2);
  assert.ok(two, 'no line with two clues in this dump');
  const notes = await page.locator(`.dlp-evidence .dl-line.dl-lit[data-line="${two.n}"] + .dl-note .dlp-clue`).count();
  assert.ok(notes >= two.marks.length, `line ${two.n}: ${notes} notes for ${two.marks.length} clues`);
  // A Python repr (one line, literal \n): distinct repaired lines, no \n.
  const repr = `'${clean.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  await paste(page, 0, repr);
  const lines = await deciding(page, { prefix: "'" });
  assert.ok(lines.length > 3, `${lines.length} lines`);
  assert.equal(new Set(lines.map((l) => l.text)).size, lines.length, 'the same line repeated');
  for (const l of lines) {
    assert.equal(l.n, '1', 'numbered as pasted');
    assert.ok(!l.text.includes('\\n') && l.text.length < repr.length / 4, `not repaired: ${l.text.slice(0, 80)}`);
    assert.ok(clean.split('\n').some((c) => c.startsWith(l.text)), `not a line of the dump: ${l.text.slice(0, 80)}`);
  }
  assert.match(await page.locator('.dlp-linecount').innerText(), /^1 line pasted, \d+ after repair$/);
  // A JSON string of an H100 dump (`\"` before clues on their lines, and
  // inside them): each mark covers the characters of the clean paste's.
  const gpu = fs.readFileSync(fixture('elementwise_chain/compiled.gpu.hlo.txt'), 'utf8');
  await paste(page, 0, gpu);
  const want = new Map((await deciding(page)).map((r) => [r.text, r.marks]));
  await paste(page, 0, JSON.stringify(gpu));
  const got = await deciding(page, { prefix: '"' });
  for (const r of got) assert.deepEqual(r.marks, want.get(r.text), `marks of ${r.text.slice(0, 80)}`);
  assert.ok(got.some((r) => r.marks.some((m) => m.includes('"'))), 'a clue holding an escaped quote');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a while loop and a conditional show what they run: regions, their kernels, the trip count', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  // fori_loop_static: `known_trip_count":{"n":"4"}` in the while's backend_config.
  await paste(page, 0, fs.readFileSync(fixture('fori_loop_static/compiled.cpu.hlo.txt'), 'utf8'));
  const loop = page.locator('.dlp-kernels tbody tr.dlp-control');
  assert.equal(await loop.count(), 1);
  const what = await loop.locator('td:nth-child(3)').innerText();
  assert.match(what, /runs its condition and body below/);
  assert.match(what, /runs 4 trips \(known_trip_count\)/);
  const regions = await page.locator('.dlp-kernels tr.dlp-sub-region td:nth-child(2)').allInnerTexts();
  assert.deepEqual(regions.map((t) => t.replace(/\s+/g, ' ').trim()), ['condition: region_1.3', 'body: region_0.2']);
  const sub = await page.locator('.dlp-kernels tr.dlp-sub:not(.dlp-sub-region) td:nth-child(2)').allInnerTexts();
  assert.ok(sub.includes('wrapped_compare') && sub.includes('add_tanh_fusion'), sub.join(','));
  // The rows come right after their loop, the condition first.
  const order = await page.locator('.dlp-kernels tbody tr').evaluateAll((trs) => trs.map((t) => t.className));
  const at = order.indexOf('dlp-control');
  assert.match(order[at + 1], /dlp-sub-region/);
  await page.locator('.dlp-kernels tr.dlp-control').scrollIntoViewIfNeeded();
  await screenshot(page, 'playground-while-rows');
  // A conditional: its two branches, numbered.
  await paste(page, 0, fs.readFileSync(fixture('cond_branch/compiled.cpu.hlo.txt'), 'utf8'));
  assert.match(await page.locator('.dlp-kernels tr.dlp-control td:nth-child(3)').innerText(), /runs one of its 2 branches below/);
  const branches = await page.locator('.dlp-kernels tr.dlp-sub-region td:nth-child(2)').allInnerTexts();
  assert.deepEqual(branches.map((t) => t.replace(/:.*/s, '')), ['branch 0', 'branch 1']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Clear ends the worker (its memory goes back): a new one starts when next asked, and What changed keeps its dumps', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  const workerNo = () => page.locator('[data-dumplab-playground]').getAttribute('data-worker');
  // "What changed" holds a picked file for A: its bytes live in the worker only.
  const a = fixture('softmax/compiled.cpu.hlo.txt');
  await page.locator('.dlp-diff .dlp-input[data-side="A"] .dlp-file').setInputFiles(a);
  await page.waitForFunction(() => /^Dump A: .* ready\.$/.test(document.querySelector('.dlp-diff-status').textContent));
  await paste(page, 0, fs.readFileSync(fixture('fori_loop_static/compiled.cpu.hlo.txt'), 'utf8'));
  assert.equal(await workerNo(), '1');
  await page.locator('.dlp-input[data-slot="0"] .dlp-clear').click();
  await page.waitForFunction(() => document.querySelector('.dlp-out').childElementCount === 0);
  // Lazily: no worker is started until something asks for one.
  assert.equal(await workerNo(), '1');
  // The diff still compares its held A (handed over to the new worker) with a typed B.
  await page.locator('#dlp-diff-text-1').fill(fs.readFileSync(fixture('softmax/compiled.gpu.hlo.txt'), 'utf8'));
  await page.locator('.dlp-diff-run').click();
  await page.waitForFunction(() => /^Compared/.test(document.querySelector('.dlp-diff-status').textContent) || document.querySelector('.dlp-diff-error').textContent, null, { timeout: 30000 });
  assert.equal(await page.locator('.dlp-diff-error').textContent(), '');
  assert.equal(await workerNo(), '2');
  // A new analysis works, on the new worker; a second Clear, a third one.
  await paste(page, 0, fs.readFileSync(fixture('cond_branch/compiled.cpu.hlo.txt'), 'utf8'));
  assert.equal(await page.locator('.dlp-report').first().getAttribute('data-kind'), 'hlo-optimized');
  assert.equal(await workerNo(), '2');
  await page.locator('.dlp-input[data-slot="0"] .dlp-clear').click();
  await paste(page, 0, fs.readFileSync(fixture('softmax/compiled.tpu.hlo.txt'), 'utf8'));
  assert.match(await page.locator('.dlp-status').textContent(), /^Analysed/);
  assert.equal(await workerNo(), '3');
  assert.deepEqual(errors, []);
  await context.close();
});

test('invisible characters of a hostile paste are shown as ⟨U+…⟩ and counted once', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  // A bidi override and an isolate in a source path (the path then reads
  // otherwise), a zero-width space in the module's name.
  const text = fs.readFileSync(fixture('fori_loop_static/compiled.cpu.hlo.txt'), 'utf8')
    .replace('fixtures/fori_loop_static/function.py', 'fixtures/fori_loop_static/\u202Eyp.noit\u2069cnuf.py')
    .replace('HloModule jit_fn', 'HloModule jit\u200B_fn');
  const hidden = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;
  const n = text.match(hidden).length;
  assert.ok(n >= 3, `${n}`);
  await paste(page, 0, text);
  const note = page.locator('.dlp-report .dlp-invisible-note');
  assert.equal(await note.count(), 1, 'said once');
  assert.match(await note.innerText(), new RegExp(`holds ${n} invisible characters \\(zero-width or bidi control: .*U\\+202E ×`));
  // The source path, in the kernel table's source lines, its override
  // visible and defused.
  assert.match(await page.locator('.dlp-kernels').innerText(), /fori_loop_static\/⟨U\+202E⟩yp\.noit⟨U\+2069⟩cnuf\.py:\d+/);
  // The module's name in the deciding lines (the dump viewer, folded away).
  await page.locator('.dlp-deciding > summary').first().click();
  assert.match(await page.locator('.dlp-evidence').innerText(), /HloModule jit⟨U\+200B⟩_fn/);
  // Nothing the report shows holds one raw; every marker is our span, as text.
  const shown = await page.locator('.dlp-out').evaluate((o) => o.textContent);
  assert.equal(shown.match(hidden), null);
  // Nor a tooltip or an accessible name.
  const attrs = await page.locator('.dlp-out').evaluate((o) => Array.from(o.querySelectorAll('*'), (e) => Array.from(e.attributes, (x) => x.value).join(' ')).join(' '));
  assert.equal(attrs.match(hidden), null);
  const marks = await page.locator('.dlp-out .dlp-invisible').evaluateAll((ms) => ms.map((m) => [m.childElementCount, m.textContent]));
  assert.ok(marks.length >= 3);
  for (const [kids, t] of marks) {
    assert.equal(kids, 0);
    assert.match(t, /^⟨U\+(200[B-F]|202[A-E]|206[6-9]|FEFF)⟩$/);
  }
  await page.locator('.dlp-kernels .dlp-invisible').first().scrollIntoViewIfNeeded();
  await screenshot(page, 'playground-invisible');
  // The case: a U+200B inside ENTRY hides the entry computation;
  // the report says why the text reads oddly.
  await paste(page, 0, fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8').replace('ENTRY', 'EN\u200BTRY'));
  assert.match(await page.locator('.dlp-report .dlp-invisible-note').innerText(), /holds 1 invisible character \(zero-width or bidi control: U\+200B ×1\)/);
  // A file name with one: the heading and the status show it too.
  const dir = fs.mkdtempSync(path.join(repoRoot, 'target', 'playground-bidi-'));
  const file = path.join(dir, 'evil\u202Etxt.hlo');
  fs.writeFileSync(file, fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt')));
  await page.locator('.dlp-input[data-slot="0"] .dlp-file').setInputFiles(file);
  await analysed(page);
  assert.match(await page.locator('.dlp-report h3').first().innerText(), /\(evil⟨U\+202E⟩txt\.hlo\)/);
  assert.equal((await page.locator('.dlp-out').evaluate((o) => o.textContent)).match(hidden), null);
  assert.equal(await page.locator('.dlp-report .dlp-invisible-note').count(), 0, 'the dump itself holds none');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the kernels table scrolls in a named, focusable region: axe finds nothing serious', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  await page.locator('#dlp-text-1').fill(fs.readFileSync(fixture('elementwise_chain/compiled.cpu.hlo.txt'), 'utf8'));
  await paste(page, 0, fs.readFileSync(fixture('elementwise_chain/lowered.stablehlo.mlir'), 'utf8'));
  await page.waitForSelector('.dlp-kernels .dlp-scroll[role="region"][tabindex="0"]');
  await page.waitForSelector('.dlp-map');
  const caption = await page.locator('.dlp-kernels .dlp-caption').innerText();
  assert.match(caption, /in run order: \d+ kernels? \(bytes/);
  assert.equal(await page.locator('.dlp-scroll .dlp-caption').count(), 0, 'captions stay outside the scrolling');
  await page.addScriptTag({ path: axePath });
  const r = await page.evaluate(() => axe.run({ resultTypes: ['violations'] }));
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
  assert.deepEqual(bad, []);
  // Headings go down one level at a time (the reports' h3 sit under the
  // page's "Your dumps", each section's h4 under its h3).
  assert.equal(r.violations.find((v) => v.id === 'heading-order'), undefined, JSON.stringify(r.violations.find((v) => v.id === 'heading-order')?.nodes.map((n) => n.target)));
  const levels = await page.evaluate(() => [...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')].map((h) => Number(h.tagName[1])));
  assert.ok(levels.every((l, i) => i === 0 || l <= levels[i - 1] + 1), `heading levels skip: ${levels.join(' ')}`);
  // In print, the report prints and the controls do not.
  await page.emulateMedia({ media: 'print' });
  for (const sel of ['.dlp-inputs', '.dlp-run', '.dlp-clear']) assert.equal(await page.locator(sel).first().isVisible(), false, `${sel} prints`);
  assert.ok(await page.locator('.dlp-kernels').isVisible());
  assert.deepEqual(errors, []);
  await context.close();
});

test('two dumps of one function give the source map; focus lights the lines', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  await page.locator('#dlp-text-0').fill(fs.readFileSync(fixture('softmax/lowered.stablehlo.mlir'), 'utf8'));
  await paste(page, 1, fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8'));
  const want = JSON.parse(execFileSync(cli, ['map', '--json', fixture('softmax/lowered.stablehlo.mlir'), fixture('softmax/compiled.cpu.hlo.txt')], { encoding: 'utf8' }));
  const kernels = page.locator('.dlp-map-kernels tbody tr');
  assert.equal(await kernels.count(), want.kernels.length);
  assert.equal(await page.locator('.dlp-map-lines tbody tr').count(), want.source_lines.length);
  // Keyboard: Tab reaches a kernel row; its line lights up, and goes dark after.
  // (The pointer is parked off the tables: hovering lights rows too.)
  await page.mouse.move(0, 0);
  await kernels.first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), '0');
  const line = page.locator('.dlp-map-lines tbody tr[data-line="0"]');
  assert.match((await line.getAttribute('class')) ?? '', /dlp-lit/);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), '1');
  // The kernel's lowered ops light up too.
  const ops0 = want.kernels[1].lowered_ops.length;
  assert.ok(ops0 > 0);
  assert.equal(await page.locator('.dlp-map-ops tr.dlp-lit').count(), ops0);
  await line.hover();
  const lit = await page.locator('.dlp-map-kernels tr.dlp-lit').count();
  assert.equal(lit, want.source_lines[0].kernels.length);
  assert.equal(await page.locator('.dlp-map-ops tr.dlp-lit').count(), want.source_lines[0].lowered_ops.length);
  // A lowered op lights its kernels: the exponential lands in the first fusion only.
  await page.mouse.move(0, 0);
  const exp = want.lowered_ops.findIndex((o) => o.op === 'stablehlo.exponential');
  await page.locator(`.dlp-map-ops tr[data-op="${exp}"]`).focus();
  assert.deepEqual(
    await page.locator('.dlp-map-kernels tr.dlp-lit').evaluateAll((trs) => trs.map((t) => t.querySelector('code').textContent)),
    want.lowered_ops[exp].kernels,
  );
  // Skip links: from the page's first tab stop, "Skip to the source map" is
  // the next one, past both reports (measured against Tab alone).
  const first = () => page.evaluate(() => document.querySelector('#dumplab-skip a').focus());
  const inMap = () => !!document.activeElement?.closest('.dlp-map');
  await first();
  const plain = 1 + (await tabsUntil(page, inMap));
  await first();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the source map');
  await page.keyboard.press('Enter');
  assert.ok(await page.evaluate(inMap), 'the skip link moves focus to the source map');
  console.log(`key presses from the top to the source map: ${plain} Tabs, or 2 Tabs and Enter by the skip link`);
  assert.ok(plain > 10, `the map is far without the skip link: ${plain}`);
  // The sections below the reports have theirs, after the map's, in page
  // order; each moves focus to its heading.
  assert.deepEqual(await page.locator('#dumplab-skip a').allTextContents(), ['Skip to the lesson', 'Skip to the source map', 'Skip to comparing two dumps', 'Skip to the dump folder']);
  for (const [n, id] of [[3, 'dlp-diff-h'], [4, 'dlp-folder-h']]) {
    await first();
    for (let i = 1; i < n; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), id);
    // In sight: below the menu bar (fixed at the top at this width).
    const [top, bar] = await page.evaluate(() => [document.activeElement.getBoundingClientRect().top, document.getElementById('mdbook-menu-bar').getBoundingClientRect().bottom]);
    assert.ok(top >= bar, `${id} at ${top}px, under the menu bar (to ${bar}px)`);
  }
  // Two different functions: said so.
  await paste(page, 1, fs.readFileSync(fixture('matmul/compiled.cpu.hlo.txt'), 'utf8'));
  assert.match(await page.locator('.dlp-map').innerText(), /different functions/);
  await screenshot(page, 'playground-map');
  // A source path with a bidi override: its chips' tooltips spell it too.
  const evil = (f) => fs.readFileSync(fixture(f), 'utf8').replaceAll('fixtures/softmax/function.py', 'fixtures/softmax/\u202Eyp.fn.py');
  await page.locator('#dlp-text-0').fill(evil('softmax/lowered.stablehlo.mlir'));
  await paste(page, 1, evil('softmax/compiled.cpu.hlo.txt'));
  const titles = await page.locator('.dlp-map .dlp-chip').evaluateAll((cs) => cs.map((c) => c.title));
  assert.ok(titles.length && titles.every((t) => t.includes('softmax/⟨U+202E⟩yp.fn.py:')), titles.join(' | '));
  assert.deepEqual(errors, []);
  await context.close();
});

test('bad input gets a clear message and the page keeps working', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  // Binary file, picked with the file input, after a good dump: refused,
  // and the good dump's report goes with it (it is not what the box holds).
  await paste(page, 0, fs.readFileSync(fixture('softmax/jaxpr.txt'), 'utf8'));
  assert.equal(await page.locator('.dlp-report').count(), 1);
  await page.locator('.dlp-input[data-slot="0"] .dlp-file').setInputFiles({ name: 'blob.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]) });
  await analysed(page);
  assert.match(await page.locator('.dlp-status').innerText(), /blob\.bin is not a text dump/);
  assert.equal(await page.locator('.dlp-report').count(), 0, 'no stale report');
  // A paste with NUL bytes is refused as a file with them is.
  await paste(page, 0, 'HloModule m\u0000\u0001');
  assert.match(await page.locator('.dlp-status').innerText(), /This text holds NUL bytes/);
  // Not UTF-8, without NULs: the checker says so, and the status does not say "Analysed".
  await page.locator('.dlp-input[data-slot="0"] .dlp-file').setInputFiles({ name: 'latin1.txt', mimeType: 'text/plain', buffer: Buffer.from([0x48, 0x4c, 0xe9, 0xff, 0x0a]) });
  await analysed(page);
  assert.match(await page.locator('.dlp-report').innerText(), /not UTF-8 text/);
  assert.match(await page.locator('.dlp-status').innerText(), /^Not analysed: .*not UTF-8 text/);
  // Dump text that looks like markup stays text.
  await paste(page, 0, '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\n%x = f32[8] add(%a, %b)');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('.dlp-out img, .dlp-out script').count(), 0);
  // A truncated compiled dump: analysed as far as it goes.
  const full = fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8');
  await paste(page, 0, full.slice(0, full.length / 2));
  assert.ok(await page.locator('.dlp-report').count());
  // A file over the limit is refused before it is read.
  await page.evaluate(() => {
    const input = document.querySelector('.dlp-input[data-slot="0"] .dlp-file');
    const big = new File([new Uint8Array(1)], 'huge.txt');
    Object.defineProperty(big, 'size', { value: 300 * 1024 * 1024 });
    const dt = new DataTransfer();
    dt.items.add(big);
    input.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  assert.match(await page.locator('.dlp-status').innerText(), /huge\.txt is 300\.0 MiB; the page reads dumps up to/);
  // An excerpt without its ENTRY computation: said, not an empty table.
  const body = full.split('\nENTRY ')[0];
  await paste(page, 0, body);
  assert.match(await page.locator('.dlp-no-entry').innerText(), /^No ENTRY computation in this text/);
  assert.equal(await page.locator('.dlp-kernels').count(), 0);
  // Two dumps pasted one after another: a warning names where each starts.
  const one = fs.readFileSync(fixture('layernorm/compiled.cpu.hlo.txt'), 'utf8');
  await paste(page, 0, one + full);
  const second = one.split('\n').length;
  assert.equal(await page.locator('.dlp-pasted-modules').innerText(), `Warning: 2 modules in one text (they start on lines 1, ${second}). They were read as one; paste each dump on its own.`);
  // Still working.
  await paste(page, 0, fs.readFileSync(fixture('softmax/jaxpr.txt'), 'utf8'));
  assert.equal(await page.locator('.dlp-pasted-modules').count(), 0, 'one module: no warning');
  assert.equal(await page.locator('.dlp-report').first().getAttribute('data-kind'), 'jaxpr');
  assert.deepEqual(errors, []);
  await context.close();
});

test('works from file:// and at phone width', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(pathToFileURL(path.join(bookDir, PAGE)).href, { waitUntil: 'load' });
  await paste(page, 0, fs.readFileSync(fixture('elementwise_chain/compiled.cpu.hlo.txt'), 'utf8'));
  assert.equal(await page.locator('.dlp-report').first().getAttribute('data-kind'), 'hlo-optimized');
  assert.equal(await page.locator('.dlp-report').first().getAttribute('data-kernels'), '1');
  // Nothing wider than the screen but the tables' own scrolling.
  const overflow = await page.evaluate(() => document.querySelector('.dumplab-playground').scrollWidth - document.querySelector('.dumplab-playground').clientWidth);
  assert.ok(overflow <= 1, `overflow ${overflow}px`);
  await screenshot(page, 'playground-phone', { fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the lesson's live maps light a line's kernels, and a kernel's lines", async () => {
  const { page, context, errors } = await openPage(browser, server.url, 'fusion.html');
  const maps = page.locator('[data-dumplab-livemap]');
  assert.equal(await maps.count(), 2);
  // Elementwise chain: every line lands in the one fusion.
  const chain = maps.nth(0);
  const want = JSON.parse(execFileSync(cli, ['map', '--json', fixture('elementwise_chain/lowered.stablehlo.mlir'), fixture('elementwise_chain/compiled.cpu.hlo.txt')], { encoding: 'utf8' }));
  assert.equal(await chain.locator('tr[data-kernel]').count(), want.kernels.length);
  assert.equal(await chain.locator('tr[data-line]').count(), want.source_lines.length);
  for (let i = 0; i < want.source_lines.length; i++) {
    await chain.locator(`tr[data-line="${i}"]`).focus();
    assert.equal(await chain.locator('tr[data-kernel].dlp-lit').count(), 1, `line ${i}`);
  }
  // Softmax: one line, four kernels; Tab to the second kernel lights the line.
  const softmax = maps.nth(1);
  await softmax.locator('tr[data-line="0"]').hover();
  assert.equal(await softmax.locator('tr[data-kernel].dlp-lit').count(), 4);
  await page.mouse.move(0, 0);
  await softmax.locator('tr[data-kernel="0"]').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), '1');
  assert.match((await softmax.locator('tr[data-line="0"]').getAttribute('class')) ?? '', /dlp-lit/);
  assert.equal(await softmax.locator('tr[data-kernel].dlp-lit').count(), 1);
  await softmax.scrollIntoViewIfNeeded();
  await screenshot(page, 'livemap-softmax');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a large dump: totals from the checker, the first rows shown, the page usable meanwhile', async () => {
  const n = 60000;
  const lines = ['HloModule big, is_scheduled=true', '', 'ENTRY %main (p: f32[8]) -> f32[8] {', '  %p = f32[8]{0} parameter(0)'];
  for (let i = 0; i < n; i++) lines.push(`  %k.${i} = f32[8]{0} negate(%p), metadata={op_name="jit(f)/neg" source_file="big.py" source_line=${(i % 50) + 1}}`);
  lines.push(`  ROOT %r = f32[8]{0} copy(%k.${n - 1})`, '}', '');
  const dir = fs.mkdtempSync(path.join(repoRoot, 'target', 'playground-big-'));
  const file = path.join(dir, 'big.hlo.txt');
  fs.writeFileSync(file, lines.join('\n'));
  const want = analyzeJson(file);
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  await page.locator('.dlp-input[data-slot="0"] .dlp-file').setInputFiles(file);
  // The page takes input while the worker works.
  await page.locator('#dlp-text-1').fill('typed meanwhile');
  assert.equal(await page.locator('#dlp-text-1').inputValue(), 'typed meanwhile');
  await page.locator('#dlp-text-1').fill('');
  await analysed(page);
  await page.waitForSelector('.dlp-kernels');
  const rep = page.locator('.dlp-report').first();
  assert.equal(await rep.getAttribute('data-kernels'), String(want.entry_kernels));
  assert.equal(want.entry_kernels, n + 1);
  assert.equal(await page.locator('.dlp-kernels tbody tr').count(), 50);
  assert.match(await rep.innerText(), new RegExp(`The first 2000 of ${n + 1} kernels are shown`));
  await page.locator('.dlp-more').click();
  assert.equal(await page.locator('.dlp-kernels tbody tr').count(), 2000);
  assert.deepEqual(errors, []);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a large paste goes the way a picked file goes: the same report, nothing put into the box, the status counts the whole wait', async () => {
  // A few MB of compiled HLO (CI stays fast); the 23 MB paste of the issue
  // once spent 20 s in one task putting the text into the box.
  const n = 30000;
  const lines = ['HloModule big, is_scheduled=true', '', 'ENTRY %main (p: f32[8]) -> f32[8] {', '  %p = f32[8]{0} parameter(0)'];
  for (let i = 0; i < n; i++) lines.push(`  %k.${i} = f32[8]{0} negate(%p), metadata={op_name="jit(f)/neg" source_file="big.py" source_line=${(i % 50) + 1}}`);
  lines.push(`  ROOT %r = f32[8]{0} copy(%k.${n - 1})`, '}', '');
  const text = lines.join('\n');
  assert.ok(text.length > 3e6, `${text.length} bytes`);
  const dir = fs.mkdtempSync(path.join(repoRoot, 'target', 'playground-paste-'));
  const file = path.join(dir, 'big.hlo.txt');
  fs.writeFileSync(file, text);
  const report = async (page) => {
    await page.waitForSelector('.dlp-kernels');
    return page.locator('.dlp-out').innerText();
  };

  const picked = await openPage(browser, server.url, PAGE);
  await picked.page.locator('.dlp-input[data-slot="0"] .dlp-file').setInputFiles(file);
  await analysed(picked.page);
  // The file's name is in the headings ("Top suspects" and the report's).
  const want = (await report(picked.page)).replaceAll(' (big.hlo.txt)', '');
  assert.deepEqual(picked.errors, []);
  await picked.context.close();

  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask' });
    // When the reader pressed the keys, and when the status said it was done.
    document.addEventListener('keydown', () => (window.__pressed = performance.now()), { capture: true, once: true });
    const status = document.querySelector('.dlp-status');
    new MutationObserver(() => {
      if (/^Analysed/.test(status.textContent) && !window.__done) window.__done = performance.now();
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.locator('#dlp-text-0').focus();
  await page.keyboard.press('Control+V');
  await analysed(page);
  assert.equal(await report(page), want, 'the pasted dump reads as the picked file does');
  // The box does not hold megabytes (that was the 20 s task); it says what it holds.
  assert.equal(await page.locator('#dlp-text-0').inputValue(), '');
  assert.match(await page.locator('#dlp-text-0').getAttribute('placeholder'), /^Pasted text: \d\.\d MiB loaded/);
  // The longest main-thread task is reported, not asserted: a time is a
  // benchmark's figure, and on a loaded 2-core machine it varies from 130 to
  // 300 ms for the same paste. What made the 20 s task (megabytes put into
  // the box) is asserted above.
  const longest = await page.evaluate(() => window.__longest);
  console.log(`# the paste's longest main-thread task: ${longest} ms`);
  const status = await page.locator('.dlp-status').textContent();
  const said = Number(/in ([0-9.]+) s\./.exec(status)[1]);
  const waited = (await page.evaluate(() => window.__done - window.__pressed)) / 1000;
  // The status counts the whole wait (it once said 2.26 s of a 25 s wait);
  // a second of slack keeps a loaded machine from failing it.
  assert.ok(Math.abs(said - waited) < 1, `the status says ${said} s, the reader waited ${waited.toFixed(2)} s`);
  // Typing after it replaces what the worker held.
  await page.locator('#dlp-text-0').fill('HloModule small\n\nENTRY %e (p: f32[2]) -> f32[2] {\n  ROOT %p = f32[2]{0} parameter(0)\n}\n');
  await page.locator('.dlp-run').click();
  await analysed(page);
  assert.doesNotMatch(await page.locator('.dlp-out').innerText(), /30001 kernels/);
  assert.deepEqual(errors, []);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A CPU module of `n` fusions in a chain, the first one's `backend_config`
 * printed over several lines (XLA's parser reads both forms). */
function multilineConfigModule(n) {
  let s = 'HloModule jit_f, is_scheduled=true\n\n%fused (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n  ROOT %e = f32[8]{0} exponential(%p)\n}\n\nENTRY %main (x: f32[8]) -> f32[8] {\n  %x = f32[8]{0} parameter(0)\n';
  let prev = 'x';
  for (let i = 0; i < n; i++) {
    s += `  ${i + 1 === n ? 'ROOT ' : ''}%fusion.${i} = f32[8]{0} fusion(%${prev}), kind=kLoop, calls=%fused`;
    if (i === 0) s += ', backend_config={\n "fusion_config":{\n "kind":"__ynn_fusion"\n }\n }';
    s += '\n';
    prev = `fusion.${i}`;
  }
  return s + '}\n';
}

test('the two reader bugs of real pastes: a multi-line backend_config and /*index=5*/ operands', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  for (const n of [3, 4]) {
    await paste(page, 0, multilineConfigModule(n));
    const got = await page.locator('.dlp-report').first().evaluate((s) => ({ ...s.dataset }));
    assert.equal(Number(got.kernels), n, `${n} kernels in the headline`);
    assert.equal(await page.locator('.dlp-kernels tbody tr:not(.dlp-control)').count(), n, `${n} kernel rows`);
    assert.match(await page.locator('.dlp-kernels tbody tr').first().innerText(), /__ynn_fusion/, 'the clue inside the config is kept');
  }
  let wide = 'HloModule jit_f, is_scheduled=true\n\nENTRY %main (a.1: f32[8], b.1: f32[8], c.1: f32[8], d.1: f32[8], e.1: f32[8], f.1: f32[8]) -> f32[8] {\n';
  ['a', 'b', 'c', 'd', 'e', 'f'].forEach((v, i) => (wide += `  %${v}.1 = f32[8]{0} parameter(${i})\n`));
  wide += '  ROOT %call = f32[8]{0} custom-call(%a.1, %b.1, %c.1, %d.1, %e.1, /*index=5*/%f.1), custom_call_target="tpu_custom_call"\n}\n';
  await paste(page, 0, wide);
  const cells = await page.locator('.dlp-kernels tbody tr').first().locator('td').allInnerTexts();
  assert.equal(cells[4], `${Array(6).fill('f32[8]').join(', ')} → f32[8]`, 'six operand shapes, none `?`');
  assert.notEqual(cells[5], '?', 'the reads are known');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lowered HLO text that proves no kind is mapped as the lowered dump, and the map says so', async () => {
  const { page, context, errors } = await openPage(browser, server.url, PAGE);
  await page.locator('#dlp-text-1').fill(fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8'));
  await paste(page, 0, fs.readFileSync(fixture('softmax/lowered.hlo.txt'), 'utf8'));
  await page.waitForSelector('.dlp-map');
  assert.equal(await page.locator('.dlp-report').first().getAttribute('data-kind'), 'hlo-unoptimized');
  assert.match(await page.locator('.dlp-likely').first().innerText(), /^likely, not proved: HLO before optimization, because line 1 shows/);
  assert.match(await page.locator('.dlp-map-unproved').innerText(), /^Dump 1's text does not prove that it is HLO before optimization \(its hints make it likely, not proved\): read here as the lowered dump\.$/);
  assert.ok(await page.locator('.dlp-map-kernels tbody tr').count() > 0);
  assert.deepEqual(errors, []);
  await context.close();
});
