// "Why these kernels" on the playground page (src/dumplab-playground-explain.js):
// what the section shows for a pasted compiled fixture is `mdbook-dumplab
// explain --json`'s for the same file (the summary, how to ask XLA, every
// kernel with an input from another kernel, each such input's producer,
// answer, basis, sentence, XLA's message and every reason found, copies'
// facts, the reasons' sentences, the kernels' lines), without and with XLA's
// fusion log (pasted, picked, dropped; a large one held, not shown); entries
// and dump lines link both ways; hostile names, paths and log messages stay
// text; axe finds nothing serious, in all five themes; nothing overflows at
// 1280 and 390 px.

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
/** Characters of a dump line the worker sends (src/dumplab-playground.js). */
const LINE_CHARS = 400;

/** What the command line's explainer says about `file` (with `log`, else none). */
function explainJson(file, log) {
  const args = ['explain', file, '--json', ...(log ? ['--log', log] : [])];
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** Pastes `text` into the first box and waits for the section. */
async function paste(page, text) {
  await page.locator('#dlp-text-0').fill(text);
  await page.locator('.dlp-run').click();
  await page.waitForFunction(() => /^Analysed/.test(document.querySelector('.dlp-status').textContent) && document.querySelector('.dlp-why .dlp-why-summary'), null, { timeout: 30000 });
}

/** Waits until the section has (or has not) a log drawn, and no request runs. */
async function settled(page, withLog) {
  await page.waitForFunction((w) => {
    const s = document.querySelector('.dlp-why');
    return s.dataset.log === (w ? 'yes' : '') && !/Explaining/.test(s.querySelector('.dlp-why-status').textContent);
  }, withLog, { timeout: 30000 });
}

/** The section as the page shows it. */
function shown(page) {
  return page.locator('.dlp-why').evaluate((sec) => {
    const text = (node, sel) => (node.querySelector(sel) ? node.querySelector(sel).textContent : null);
    return {
      summary: { ...sec.querySelector('.dlp-why-summary').dataset },
      ask: text(sec, '.dlp-why-ask'),
      log: sec.querySelector('.dlp-why-logline') ? { ...sec.querySelector('.dlp-why-logline').dataset } : null,
      logText: text(sec, '.dlp-why-logline'),
      rest: text(sec, '.dlp-why-rest'),
      entries: Array.from(sec.querySelectorAll('.dlp-why-kernel'), (li) => ({
        name: li.dataset.kernel,
        name_shown: text(li, '.dlp-why-name'),
        head: text(li, '.dlp-why-khead'),
        others: text(li, '.dlp-why-others'),
        copy: li.querySelector('.dlp-why-copy') ? { ...li.querySelector('.dlp-why-copy').dataset, text: text(li, '.dlp-why-copy') } : null,
        inputs: Array.from(li.querySelectorAll('.dlp-why-input'), (i) => ({
          ...i.dataset,
          from_text: text(i, '.dlp-why-from'),
          title: text(i, '.dlp-why-title'),
          detail: text(i, '.dlp-why-detail'),
          xla: i.querySelector('.dlp-why-xla') ? i.querySelector('.dlp-why-xla').dataset.message : null,
          xla_text: text(i, '.dlp-why-xla'),
          found: Array.from(i.querySelectorAll('.dlp-why-found'), (f) => ({ id: f.dataset.id, basis: f.dataset.basis, title: f.querySelector('strong').textContent, detail: text(f, '.dlp-why-found-detail') })),
        })),
      })),
      legend: Array.from(sec.querySelectorAll('.dlp-why-reasons dt'), (dt) => ({ title: dt.querySelector('strong').textContent, id: dt.querySelector('code').textContent, sentence: dt.nextElementSibling.textContent })),
      lines: Array.from(sec.querySelectorAll('.dlp-why-lines .dl-line[data-line]'), (l) => [Number(l.dataset.line), l.querySelector('.dl-src').textContent]),
    };
  });
}

const boundary = (i) => i.reason !== null;
const listed = (k) => k.inputs.some(boundary) || !!k.copy;
const str = (v) => (v === null || v === undefined ? '' : String(v));

/** The page's section equals the command line's `want` for dump `file`. */
function same(got, want, file, what) {
  const titles = new Map(want.reasons.map((r) => [r.id, r.title]));
  const s = want.summary;
  assert.deepEqual(got.summary, { boundaries: str(s.boundaries), explained: str(s.explained), unknown: str(s.unknown) }, `${what}: summary`);
  // How to ask XLA: only where some are unknown; the flags, or why not.
  if (s.unknown && want.ask) {
    assert.ok(got.ask && got.ask.includes(want.ask.note), `${what}: ask: ${got.ask}`);
    if (want.ask.flags) assert.ok(got.ask.includes(want.ask.flags), `${what}: the flags`);
    else assert.match(got.ask, /stay unknown/, what);
  } else assert.equal(got.ask, null, `${what}: no ask`);
  if (want.log) {
    const l = want.log;
    assert.deepEqual(got.log, { lines: str(l.lines), decisions: str(l.decisions), fused: str(l.fused), notFused: str(l.not_fused), unresolved: str(l.unresolved), unread: str(l.unread), pass: str(l.pass) }, `${what}: log`);
  } else assert.equal(got.log, null, `${what}: no log`);
  const kernels = want.kernels.filter(listed);
  assert.deepEqual(got.entries.map((e) => e.name), kernels.map((k) => k.name), `${what}: the kernels listed`);
  const rest = want.kernels.length - kernels.length;
  if (rest) assert.match(got.rest, new RegExp(`^${rest} kernels? ha(s|ve) no input from another kernel`), what);
  else assert.equal(got.rest, null, what);
  kernels.forEach((k, n) => {
    const e = got.entries[n];
    const at = `${what}: ${k.name}`;
    assert.equal(e.name_shown, k.name, at);
    assert.ok(e.head.includes(k.detail ? `${k.kind} ${k.detail}` : k.kind) && e.head.endsWith(`line ${k.line}`), `${at}: ${e.head}`);
    if (k.copy) {
      assert.deepEqual({ from: e.copy.from, to: e.copy.to, bytes: e.copy.bytes }, { from: str(k.copy.from_layout), to: str(k.copy.to_layout), bytes: str(k.copy.bytes) }, `${at}: copy`);
      assert.ok(e.copy.text.includes(k.copy.shape), `${at}: shape`);
      for (const [f, l] of k.copy.source_lines) assert.ok(e.copy.text.includes(`${f}:${l}`), `${at}: source line ${f}:${l}`);
      if (!k.copy.source_lines.length) assert.ok(e.copy.text.includes('none in the dump'), at);
    } else assert.equal(e.copy, null, `${at}: no copy`);
    const inputs = k.inputs.filter(boundary);
    assert.equal(e.inputs.length, inputs.length, `${at}: inputs`);
    // The other inputs, by where they come from.
    const others = k.inputs.filter((i) => !boundary(i));
    if (others.length) {
      const WORD = { parameter: 'parameter', constant: 'constant', tuple: 'tuple element', unknown: 'not traced' };
      for (const x of others) assert.ok(e.others.includes(WORD[x.from]) && new RegExp(`inputs? [0-9, ]*\\b${x.operand}\\b`).test(e.others), `${at}: ${e.others}`);
    } else assert.equal(e.others, null, `${at}: no other inputs`);
    inputs.forEach((i, j) => {
      const g = e.inputs[j];
      const where = `${at}, input ${i.operand}`;
      assert.deepEqual({ operand: g.operand, from: g.from, reason: g.reason, basis: g.basis }, { operand: str(i.operand), from: i.from, reason: i.reason, basis: str(i.basis) }, where);
      assert.ok(g.from_text.includes(i.from) && (i.from_line === null || g.from_text.includes(`(line ${i.from_line})`)), `${where}: ${g.from_text}`);
      for (const v of i.via) assert.ok(g.from_text.includes(v), `${where}: through ${v}`);
      // The answer's title is the report's (the page keeps no copy of the reasons).
      if (i.reason === 'unknown') assert.equal(g.title, 'unknown', where);
      else {
        assert.ok(titles.has(i.reason), `${where}: ${i.reason} is in the report's reasons`);
        assert.equal(g.title, titles.get(i.reason), where);
      }
      assert.equal(g.detail, i.detail, `${where}: detail`);
      assert.equal(g.xla, i.xla ? i.xla.message : null, `${where}: XLA's message`);
      // XLA's words shown once: in the sentence, or on their own line.
      if (i.xla) assert.ok(g.xla_text.includes(`line ${i.xla.line}`) && (g.detail.includes(i.xla.message) || g.xla_text.includes(i.xla.message)), `${where}: ${g.xla_text}`);
      const all = i.reasons.length > 1 || (i.reasons.length === 1 && i.reasons[0].id !== i.reason);
      assert.deepEqual(g.found, all ? i.reasons.map((f) => ({ id: f.id, basis: f.basis, title: titles.get(f.id), detail: f.detail })) : [], `${where}: reasons found`);
    });
  });
  assert.deepEqual(got.legend, want.reasons.map((r) => ({ title: r.title, id: r.id, sentence: r.sentence })), `${what}: the reasons' sentences`);
  // The kernels' and their producers' lines, as the dump has them (cut at
  // LINE_CHARS characters, as the worker cuts them).
  const text = fs.readFileSync(file, 'utf8').split('\n').map((t) => t.replace(/\r$/, '')).map((t) => (t.length > LINE_CHARS ? `${t.slice(0, LINE_CHARS)} …` : t));
  const lines = new Set(kernels.flatMap((k) => [k.line, ...k.inputs.filter((i) => i.from_line !== null).map((i) => i.from_line)]));
  assert.deepEqual(got.lines, [...lines].sort((a, b) => a - b).map((n) => [n, text[n - 1]]), `${what}: lines`);
}

test('the section is `explain --json`: CPU softmax without and with its fusion log, TPU and GPU dumps', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const cpu = fixture('softmax/compiled.cpu.hlo.txt');
  const cpuLog = fixture('softmax/fusion-log.cpu.txt');
  await paste(page, fs.readFileSync(cpu, 'utf8'));
  const none = explainJson(cpu);
  same(await shown(page), none, cpu, 'softmax cpu');
  assert.match((await shown(page)).entries.length ? await page.locator('.dlp-why-summary').innerText() : '', /No log: the reasons are DumpLab's rules/);
  // Pasted and explained with the log: XLA's words come first.
  await page.locator('.dlp-why-log textarea').fill(fs.readFileSync(cpuLog, 'utf8'));
  await page.locator('.dlp-why-run').click();
  await settled(page, true);
  const withLog = explainJson(cpu, cpuLog);
  assert.ok(withLog.kernels.some((k) => k.inputs.some((i) => i.basis === 'xla-log' && i.xla)), 'the log decides some');
  const got = await shown(page);
  same(got, withLog, cpu, 'softmax cpu with its log');
  assert.match(got.logText, new RegExp(`What it added: ${withLog.kernels.reduce((n, k) => n + k.inputs.filter((i) => i.basis === 'xla-log').length, 0)} boundar(y|ies) now in XLA's own words${none.summary.unknown === withLog.summary.unknown ? '' : `; unknown ${none.summary.unknown} → ${withLog.summary.unknown}`}\\.`));
  await shot(page, '.dlp-why', 'explain-cpu-log');
  // A log holding invisible characters: the section says so once, and
  // shows them (the dump's own are the report's note).
  await page.locator('.dlp-why-log textarea').fill(fs.readFileSync(cpuLog, 'utf8').replace('fusion', 'fu\u202esion').replace('\n', '\u200b\n'));
  await page.locator('.dlp-why-run').click();
  await page.waitForFunction(() => document.querySelector('.dlp-why .dlp-invisible-note'), null, { timeout: 30000 });
  await settled(page, true);
  assert.equal(await page.locator('.dlp-why .dlp-invisible-note').count(), 1);
  assert.match(await page.locator('.dlp-why .dlp-invisible-note').textContent(), /^Warning: the fusion log holds 2 invisible characters \(zero-width or bidi control: U\+200B ×1, U\+202E ×1\)/);
  assert.doesNotMatch(await page.locator('.dlp-why').evaluate((s) => s.textContent), /[\u200b-\u200f\u202a-\u202e]/);
  // Removed: as without it.
  await page.locator('.dlp-why-log .dlp-clear').click();
  await settled(page, false);
  same(await shown(page), none, cpu, 'softmax cpu, the log removed');
  // TPU: unknown boundaries, and libtpu logs no fusion decisions.
  for (const f of ['softmax/compiled.tpu.hlo.txt', 'change_fusion_break_after/compiled.tpu.hlo.txt']) {
    await paste(page, fs.readFileSync(fixture(f), 'utf8'));
    const want = explainJson(fixture(f));
    same(await shown(page), want, fixture(f), f);
  }
  assert.ok(explainJson(fixture('change_fusion_break_after/compiled.tpu.hlo.txt')).kernels.some((k) => k.copy && k.copy.source_lines.length), 'a copy with its source line');
  // GPU: the flags for priority fusion, then its log picked as a file.
  const gpu = fixture('grad_mlp/compiled.gpu.hlo.txt');
  const gpuLog = fixture('grad_mlp/fusion-log.gpu.txt');
  await paste(page, fs.readFileSync(gpu, 'utf8'));
  same(await shown(page), explainJson(gpu), gpu, 'grad_mlp gpu');
  await page.locator('.dlp-why-log input[type="file"]').setInputFiles(gpuLog);
  await settled(page, true);
  const wantGpu = explainJson(gpu, gpuLog);
  assert.ok(wantGpu.log.unresolved > 0, 'some decisions are not tied to two kernels');
  const gotGpu = await shown(page);
  same(gotGpu, wantGpu, gpu, 'grad_mlp gpu with its log');
  assert.match(gotGpu.logText, new RegExp(`; ${wantGpu.log.unresolved} of them not tied to two kernels of this dump`));
  // The log puts XLA's own words on some boundaries.
  const byXla = wantGpu.kernels.flatMap((k) => k.inputs).filter((i) => i.basis === 'xla-log').length;
  assert.ok(byXla > 0, 'XLA\'s log decides some boundaries');
  const before = explainJson(gpu).summary.unknown;
  if (before !== wantGpu.summary.unknown) {
    assert.ok(gotGpu.logText.includes(`; unknown ${before} → ${wantGpu.summary.unknown}.`), gotGpu.logText);
  }
  assert.equal(await page.locator('.dlp-why-log textarea').inputValue(), fs.readFileSync(gpuLog, 'utf8'), 'a small file is shown in its box');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a log dropped on its box, and a large one held, not shown', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const cpu = fixture('softmax/compiled.cpu.hlo.txt');
  const log = fs.readFileSync(fixture('softmax/fusion-log.cpu.txt'), 'utf8');
  await paste(page, fs.readFileSync(cpu, 'utf8'));
  const drop = (name, content) => page.evaluate(([n, c]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([c], n, { type: 'text/plain' }));
    document.querySelector('.dlp-why-log').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, content]);
  await drop('fusion.log', log);
  await settled(page, true);
  same(await shown(page), explainJson(cpu, fixture('softmax/fusion-log.cpu.txt')), cpu, 'dropped');
  // Over 256 KiB of other lines around it: the same decisions; held, not shown.
  const noise = Array.from({ length: 3000 }, (_, n) => `I1201 19:29:49.000000   17599 service.cc:${n}] a line of another pass, long enough to add up to a large log file here`).join('\n');
  const big = path.join(repoRoot, 'target', 'explain-big.log');
  fs.writeFileSync(big, `${noise}\n${log}${noise}\n`);
  assert.ok(fs.statSync(big).size > 262144);
  await page.locator('.dlp-why-log .dlp-clear').click();
  await settled(page, false);
  await page.locator('.dlp-why-log input[type="file"]').setInputFiles(big);
  await settled(page, true);
  const want = explainJson(cpu, big);
  same(await shown(page), want, cpu, 'a large log');
  assert.equal(await page.locator('.dlp-why-log textarea').inputValue(), '');
  assert.match(await page.locator('.dlp-why-log textarea').getAttribute('placeholder'), /^explain-big\.log \(.* KiB\) is held by the page/);
  // Typing replaces it: a log of no fusion pass says so.
  await page.locator('.dlp-why-log textarea').fill('not a log');
  await page.locator('.dlp-why-run').click();
  await page.waitForFunction(() => document.querySelector('.dlp-why-logline') && document.querySelector('.dlp-why-logline').dataset.lines === '0');
  assert.match(await page.locator('.dlp-why-logline').innerText(), /no line of a fusion pass in it/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('entries and dump lines link both ways, by keyboard too', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const cpu = fixture('softmax/compiled.cpu.hlo.txt');
  await paste(page, fs.readFileSync(cpu, 'utf8'));
  const want = explainJson(cpu);
  const k = want.kernels.find((x) => x.name === 'broadcast_multiply_fusion');
  const entry = page.locator('.dlp-why-kernel[data-kernel="broadcast_multiply_fusion"]');
  // The kernel's "line N": focus moves to its line in the viewer.
  await entry.locator('.dlp-why-khead a').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.line), String(k.line));
  // A producer's name: its line.
  const input = k.inputs.find((i) => i.from === 'broadcast_divide_fusion');
  await entry.locator(`.dlp-why-input[data-operand="${input.operand}"] .dlp-why-from a`).click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.line), String(input.from_line));
  // The line's note: back to the kernel's entry, lit while focused.
  const note = page.locator(`.dlp-why-lines .dl-line[data-line="${k.line}"] + .dl-note a`);
  assert.equal(await note.innerText(), '↑ broadcast_multiply_fusion: explained above');
  await note.click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), 'broadcast_multiply_fusion');
  await entry.locator('.dlp-why-khead a').focus();
  assert.ok(await page.locator(`.dlp-why-lines .dl-line[data-line="${k.line}"]`).evaluate((l) => l.classList.contains('dlp-lit')), 'its line lights');
  // Every reason found: a native <details>, opened from the keyboard.
  const all = page.locator('.dlp-why-kernel[data-kernel="ynn_fusion"] .dlp-why-all').first();
  await all.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await all.evaluate((d) => d.open), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('past 40 kernels, "Show all"; a line\'s link to an entry not drawn yet draws them all', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  // A chain of 60 sorts (each a kernel of its own), as XLA:CPU prints a scheduled module.
  const sorts = Array.from({ length: 59 }, (_, n) => `  ${n === 58 ? 'ROOT ' : ''}%sort.${n + 1} = f32[8]{0} sort(%sort.${n}), dimensions={0}, to_apply=%cmp`);
  const text = ['HloModule jit_chain, is_scheduled=true, entry_computation_layout={(f32[8]{0})->f32[8]{0}}', '', '%cmp (a: f32[], b: f32[]) -> pred[] {', '  %a = f32[] parameter(0)', '  %b = f32[] parameter(1)', '  ROOT %lt = pred[] compare(%a, %b), direction=LT', '}', '', 'ENTRY %main (p: f32[8]) -> f32[8] {', '  %p = f32[8]{0} parameter(0)', '  %sort.0 = f32[8]{0} sort(%p), dimensions={0}, to_apply=%cmp', ...sorts, '}', ''].join('\n');
  const file = path.join(repoRoot, 'target', 'explain-chain.hlo.txt');
  fs.writeFileSync(file, text);
  const want = explainJson(file);
  assert.equal(want.kernels.filter(listed).length, 59);
  await paste(page, text);
  assert.equal(await page.locator('.dlp-why-kernel').count(), 40);
  // The last line's note: its entry is drawn, then focused.
  await page.locator('.dlp-why-lines .dl-line[data-line="70"] + .dl-note a').click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.kernel), 'sort.59');
  assert.equal(await page.locator('.dlp-why .dlp-more').count(), 0);
  same(await shown(page), want, file, 'a chain of sorts');
  assert.deepEqual(errors, []);
  await context.close();
});

test('hostile names, paths and log messages stay text', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  const evil = '<img src=x onerror=alert(1)>';
  // An instruction renamed (a name HLO cannot hold: the line is not read), a
  // path in the dump's file table, and a message in XLA's log.
  const dump = fs.readFileSync(fixture('change_fusion_break_after/compiled.tpu.hlo.txt'), 'utf8')
    .replace('"fixtures/change_fusion_break_after/function.py"', `"fixtures/${evil}/function.py"`);
  const file = path.join(repoRoot, 'target', 'explain-hostile.tpu.hlo.txt');
  fs.writeFileSync(file, dump);
  await paste(page, dump);
  const want = explainJson(file);
  assert.ok(JSON.stringify(want).includes(evil), 'the path reaches the report');
  same(await shown(page), want, file, 'hostile path');
  const renamed = fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8').replaceAll('broadcast_divide_fusion', evil);
  const rfile = path.join(repoRoot, 'target', 'explain-hostile.cpu.hlo.txt');
  fs.writeFileSync(rfile, renamed);
  const log = fs.readFileSync(fixture('softmax/fusion-log.cpu.txt'), 'utf8').replaceAll('Fusion is not profitable.', evil);
  const lfile = path.join(repoRoot, 'target', 'explain-hostile.log');
  fs.writeFileSync(lfile, log);
  await paste(page, renamed);
  same(await shown(page), explainJson(rfile), rfile, 'hostile name');
  assert.ok((await shown(page)).lines.some(([, t]) => t.includes(evil)), 'the renamed operand is in a line shown');
  const clean = fs.readFileSync(fixture('softmax/compiled.cpu.hlo.txt'), 'utf8');
  await paste(page, clean);
  await page.locator('.dlp-why-log textarea').fill(log);
  await page.locator('.dlp-why-run').click();
  await settled(page, true);
  const wantLog = explainJson(fixture('softmax/compiled.cpu.hlo.txt'), lfile);
  assert.ok(wantLog.kernels.some((k) => k.inputs.some((i) => i.xla && i.xla.message === evil)), 'the message reaches the report');
  same(await shown(page), wantLog, fixture('softmax/compiled.cpu.hlo.txt'), 'hostile message');
  assert.equal(await page.locator('.dlp-why img, .dlp-why script').count(), 0);
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

test('axe finds nothing serious in the section in all five themes', async () => {
  for (const theme of THEMES) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { theme });
    await paste(page, fs.readFileSync(fixture('grad_mlp/compiled.gpu.hlo.txt'), 'utf8'));
    await page.locator('.dlp-why-log input[type="file"]').setInputFiles(fixture('grad_mlp/fusion-log.gpu.txt'));
    await settled(page, true);
    await page.locator('.dlp-why-all').evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
    await page.addScriptTag({ path: axePath });
    const r = await page.evaluate(() => axe.run('.dlp-why', { resultTypes: ['violations'] }));
    const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
    assert.deepEqual(bad, [], theme);
    if (theme === 'navy') await shot(page, '.dlp-why', 'explain-gpu-navy');
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the section at 1280x800 and 390x844: axe finds nothing serious, nothing overflows', async () => {
  const cases = [['softmax/compiled.cpu.hlo.txt', 'softmax/fusion-log.cpu.txt'], ['change_fusion_break_after/compiled.tpu.hlo.txt', null]];
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width, height } });
    for (const [f, log] of cases) {
      await paste(page, fs.readFileSync(fixture(f), 'utf8'));
      if (log) {
        await page.locator('.dlp-why-log textarea').fill(fs.readFileSync(fixture(log), 'utf8'));
        await page.locator('.dlp-why-run').click();
        await settled(page, true);
      }
      // Every reason found, opened: the widest the section gets.
      await page.locator('.dlp-why-all').evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
      await page.addScriptTag({ path: axePath });
      const r = await page.evaluate(() => axe.run('.dlp-why', { resultTypes: ['violations'] }));
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
      assert.deepEqual(bad, [], `${f} at ${width} px`);
      const over = await page.evaluate(() => {
        const sec = document.querySelector('.dlp-why');
        const right = sec.getBoundingClientRect().right;
        const wide = [...sec.querySelectorAll('*')].filter((e) => !e.closest('pre.dumplab-code') && e.getBoundingClientRect().right > right + 1).map((e) => e.className || e.tagName);
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, box: document.querySelector('.dumplab-playground').scrollWidth - document.querySelector('.dumplab-playground').clientWidth, wide };
      });
      assert.ok(over.page <= 1 && over.box <= 1 && !over.wide.length, `${f} at ${width} px: ${JSON.stringify(over)}`);
      await shot(page, '.dlp-why', `explain-${f.split('/')[0]}-${width}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});
