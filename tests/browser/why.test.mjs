// "Top suspects" on the playground page (src/dumplab-playground-why.js):
// drawn first, above the report, for any paste. Its findings are
// `mdbook-dumplab why --json`'s for the same text, in rank order (a whole
// compiled module, a fragment cut from it, the TPU out-of-memory error, a
// memory text with hostile HLO in it); the scope sentence, the backend and
// where it came from, the memory texts' figures and allocations; each
// evidence line number moves focus to its line in the dump viewer and the
// line links back; the backend picker asks again (the command line's
// `--backend`, its error sentence in an alert); the report's deciding lines
// are folded away, their count in the summary; hostile text stays text;
// axe finds nothing serious; nothing overflows at 1280 and 390 px
// (screenshots under target/screenshots/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { useBook, openPage, screenshot, repoRoot } from './support.mjs';

const PAGE = 'playground.html';
const cli = process.env.DUMPLAB_CLI ?? path.join(repoRoot, 'target', 'debug', 'mdbook-dumplab');
const pastes = (p) => path.join(repoRoot, 'checker', 'tests', 'pastes', p);
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const book = useBook();

const SCATTER = pastes('scatter_loop/compiled.gpu.set_c128.hlo.txt');
const OOM = pastes('tpu_oom/error.tpu.matmul_chain.txt');

/** Writes `text` under target/ for the command line; returns its path. */
function save(name, text) {
  const file = path.join(repoRoot, 'target', name);
  fs.writeFileSync(file, text);
  return file;
}

/** What the command line's `why --json` says about `file` (with `backend`). */
function whyJson(file, backend) {
  const args = ['why', file, '--json', ...(backend ? ['--backend', backend] : [])];
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** The command line's error line for `file` read as `backend`. */
function whyError(file, backend) {
  const r = spawnSync(cli, ['why', file, '--backend', backend], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stdout);
  return r.stderr.trim();
}

/** Pastes `text` into the first box and waits for the analysis. */
async function paste(page, text) {
  await page.locator('#dlp-text-0').fill(text);
  await page.locator('.dlp-run').click();
  await page.waitForFunction(() => {
    const s = document.querySelector('.dlp-status');
    return /^Analysed/.test(s.textContent) && document.querySelector('.dlp-suspects') && !document.querySelector('[data-dumplab-playground]').hasAttribute('aria-busy');
  }, null, { timeout: 30000 });
}

/** The section as the page shows it. */
function shown(page) {
  return page.locator('.dlp-suspects').evaluate((sec) => ({
    first: sec === document.querySelector('.dlp-out').firstElementChild,
    names: Array.from(sec.querySelectorAll('.dlp-sus-finding'), (li) => li.dataset.name),
    titles: Array.from(sec.querySelectorAll('.dlp-sus-title'), (h) => h.textContent),
    summaries: Array.from(sec.querySelectorAll('.dlp-sus-summary'), (p) => p.textContent),
    tries: Array.from(sec.querySelectorAll('.dlp-sus-try'), (p) => p.textContent),
    reads: Array.from(sec.querySelectorAll('.dlp-sus-read'), (a) => a.getAttribute('href')),
    evidence: Array.from(sec.querySelectorAll('.dlp-sus-finding'), (li) => Array.from(li.querySelectorAll('.dlp-sus-evidence > li'), (e) => e.textContent)),
    scope: Array.from(sec.querySelectorAll('.dlp-sus-scope'), (p) => p.textContent),
    backend: Array.from(sec.querySelectorAll('.dlp-sus-backend-from'), (p) => p.textContent),
    next: Array.from(sec.querySelectorAll('.dlp-sus-next'), (p) => p.textContent),
    none: sec.querySelector('.dlp-sus-none')?.textContent ?? null,
    error: sec.querySelector('.dlp-sus-error')?.textContent ?? null,
    lines: Array.from(sec.querySelectorAll('.dlp-sus-lines .dl-line[data-line]'), (l) => [Number(l.dataset.line), l.querySelector('.dl-src').textContent]),
  }));
}

const sentence = (s) => `${s[0].toUpperCase()}${s.slice(1)}.`.replace(/`/g, '');
const BACKEND = (i) => (!i.backend ? /^backend: not named by the text/ : i.backend_from === 'given' ? `backend: ${i.backend} (given, not found in the text)` : `backend: ${i.backend} (named by the text)`);

/** The page's section says what `want` (`why --json` of `file`) says. */
function same(got, want, file, what) {
  const text = fs.readFileSync(file, 'utf8').split('\n');
  assert.ok(got.first, `${what}: the section comes first`);
  assert.deepEqual(got.names, want.findings.map((f) => f.name), `${what}: findings in rank order`);
  assert.deepEqual(got.titles, want.findings.map((f, i) => `${i + 1}. ${f.title} ${f.name}`), `${what}: titles`);
  assert.deepEqual(got.summaries, want.findings.map((f) => f.summary.replace(/`/g, '')), `${what}: summaries`);
  assert.deepEqual(got.tries, want.findings.map((f) => `Try: ${f.try.replace(/`/g, '')}`), `${what}: what to try`);
  assert.deepEqual(got.reads, want.findings.map((f) => f.chapter), `${what}: chapters`);
  want.findings.forEach((f, i) => assert.deepEqual(got.evidence[i], f.evidence.map((l) => `line ${l.line} ${l.name ? `${l.name}: ` : ''}${l.note.replace(/`/g, '')}`), `${what}: ${f.name}'s lines`));
  assert.deepEqual(got.scope, want.inputs.map((i) => sentence(i.scope.sentence)), `${what}: scope`);
  want.inputs.forEach((i, k) => assert.match(got.backend[k], typeof BACKEND(i) === 'string' ? new RegExp(`^${BACKEND(i).replace(/[()]/g, '\\$&')}$`) : BACKEND(i), `${what}: backend`));
  assert.deepEqual(got.next, want.inputs.filter((i) => i.next).map((i) => `Next: ${i.next.replace(/`/g, '')}.`), `${what}: next`);
  assert.equal(got.none !== null, want.findings.length === 0, `${what}: "No finding"`);
  // The viewer holds every line a finding rests on, as pasted.
  const numbers = [...new Set(want.findings.flatMap((f) => f.evidence.map((l) => l.line)))].sort((a, b) => a - b);
  assert.deepEqual(got.lines.map(([n]) => n), numbers, `${what}: the viewer's lines`);
  for (const [n, t] of got.lines) assert.ok(text[n - 1].startsWith(t.replace(/ …$/, '')), `${what}: line ${n}: ${t.slice(0, 80)}`);
}

test('a whole module, a fragment cut from it and the TPU OOM error: `why --json` on the page, first', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const whole = fs.readFileSync(SCATTER, 'utf8');
  // A fused computation and the loop body, cut from the module.
  const lines = whole.split('\n');
  const start = (name) => lines.findIndex((l) => l.startsWith(`%${name} `));
  const cut = (name) => lines.slice(start(name), lines.indexOf('}', start(name)) + 1);
  const fragment = [...cut('fused_dynamic_update_slice'), '', ...cut('while_body'), ''].join('\n');
  const oom = fs.readFileSync(OOM, 'utf8');
  for (const [what, text, file] of [['whole', whole, SCATTER], ['fragment', fragment, save('why-fragment.hlo.txt', fragment)], ['oom', oom, OOM]]) {
    await paste(page, text);
    const want = whyJson(file);
    same(await shown(page), want, file, what);
    if (what === 'whole') assert.deepEqual([...new Set(want.findings.map((f) => f.name))].sort(), ['donation-copy', 'scatter-serial-loop']);
    if (what === 'fragment') assert.match(want.inputs[0].scope.sentence, /^a fragment: 2 computations, no ENTRY, 1 loop body/);
    // The report is still there, below; its deciding lines folded away.
    const report = page.locator('.dlp-report');
    assert.equal(await report.count(), 1, what);
    const fold = page.locator('.dlp-report details.dlp-deciding');
    if (what !== 'oom') {
      assert.equal(await fold.evaluate((d) => d.open), false, `${what}: folded`);
      const n = await page.locator('.dlp-evidence .dl-line[data-line]').count();
      assert.equal(await fold.locator('summary').innerText(), `Why: the ${n} ${n === 1 ? 'line' : 'lines'} that decided`);
      await fold.locator('summary').click();
      assert.ok(await page.locator('.dlp-evidence pre').isVisible(), `${what}: opens`);
    } else {
      // Not HLO: the analysis says so, the suspects lead with the memory text.
      assert.equal(await report.getAttribute('data-kind'), 'unknown');
      assert.match(await page.locator('.dlp-sus-mem').innerText(), /^Line 1: tpu-out-of-memory: required 20\.00G, available 15\.75G/);
      assert.match(await page.locator('.dlp-sus-mem-text').innerText(), /Ran out of memory on HBM/);
      assert.match(await page.locator('.dlp-sus-cost').first().innerText(), /^Bytes: 20\.00 GiB; once per run\.$/);
    }
  }
  // Line numbers link both ways: the scatter's loop line and back.
  await paste(page, whole);
  const link = page.locator('.dlp-sus-finding').first().locator('.dlp-sus-evidence a.dlp-jump').first();
  const n = Number((await link.innerText()).replace('line ', ''));
  await link.click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.line), String(n));
  assert.ok(await page.evaluate(() => document.querySelector('.dlp-sus-finding').classList.contains('dlp-lit')), 'the line lights its finding');
  await page.locator(`.dlp-sus-lines .dl-line[data-line="${n}"] + .dl-note a.dlp-jump`).first().click();
  assert.equal(await page.evaluate(() => document.activeElement.dataset.name), whyJson(SCATTER).findings[0].name);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the backend picker asks again: given, not found in the text; the command line\'s error in an alert', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  await paste(page, fs.readFileSync(OOM, 'utf8'));
  const pick = page.locator('.dlp-sus-backend');
  assert.deepEqual(await pick.locator('option').evaluateAll((os) => os.map((o) => o.value)), ['', 'cpu', 'gpu', 'tpu']);
  await pick.selectOption('tpu');
  await page.waitForFunction(() => document.querySelector('.dlp-suspects').dataset.backend === 'tpu');
  const got = await shown(page);
  same(got, whyJson(OOM, 'tpu'), OOM, 'oom as tpu');
  assert.equal(got.backend[0], 'backend: tpu (given, not found in the text)');
  // A compiled GPU module read as TPU: the command line's sentence.
  await paste(page, fs.readFileSync(SCATTER, 'utf8'));
  assert.equal(await page.locator('.dlp-sus-backend').inputValue(), '', 'a new paste starts from auto');
  await page.locator('.dlp-sus-backend').selectOption('tpu');
  await page.waitForSelector('.dlp-sus-error[role="alert"]');
  const error = (await shown(page)).error;
  const line = whyError(SCATTER, 'tpu');
  assert.ok(line.endsWith(error.replace(/^No answer: /, '')), `${error} | ${line}`);
  assert.match(error, /compiled for gpu/);
  await page.locator('.dlp-sus-backend').selectOption('');
  await page.waitForFunction(() => document.querySelector('.dlp-sus-finding'));
  same(await shown(page), whyJson(SCATTER), SCATTER, 'back to auto');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A TPU out-of-memory report whose largest allocation names an
 *  instruction with markup in its name. */
const EVIL = [
  'RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 20.61G of 15.48G hbm. Exceeded hbm capacity by 5.13G.',
  '',
  'Total hbm usage >= 20.61G:',
  '    reserved        530.00M',
  '    program          20.09G',
  '    arguments            0B',
  '',
  'Program hbm requirement 20.09G:',
  '    HLO temp         20.09G (100.0% utilization: Unpadded (20.00G) Padded (20.00G), 0.0% fragmentation (0B))',
  '',
  '  Largest program allocations in hbm:',
  '',
  '  1. Size: 8.00G',
  '     Operator: op_name="jit(f)/<b>dot</b>" source_file="</script><img src=x onerror=window.__pwned=1>.py" source_line=3',
  '     Shape: f32[65536,32768]{1,0:T(8,128)}',
  '     Unpadded size: 8.00G',
  '     XLA label: %dot<img src=x onerror=alert(1)>.3 = f32[65536,32768]{1,0:T(8,128)} fusion(%p.1, %p.2), kind=kOutput',
  '     Allocation type: HLO temp',
  '     ==========================',
  '',
].join('\n');

test('hostile names in a memory text stay text', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  const file = save('why-hostile.txt', EVIL);
  const want = whyJson(file);
  await paste(page, EVIL);
  same(await shown(page), want, file, 'hostile');
  const alloc = await page.locator('.dlp-sus-allocs li').first().innerText();
  assert.ok(alloc.includes('%dot<img src=x onerror=alert(1)>.3 = f32'), alloc);
  assert.ok(alloc.includes('<b>dot</b>'), alloc);
  assert.equal(await page.locator('.dlp-suspects img, .dlp-suspects script, .dlp-suspects b').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(dialogs, [], 'no alert ran');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 1280 and 390 px: axe finds nothing serious, nothing overflows', async () => {
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width, height } });
    for (const [name, text] of [['module', fs.readFileSync(SCATTER, 'utf8')], ['oom', EVIL]]) {
      await paste(page, text);
      await page.addScriptTag({ path: axePath });
      const r = await page.evaluate(() => axe.run('.dlp-suspects', { resultTypes: ['violations'] }));
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target}`));
      assert.deepEqual(bad, [], `${name} at ${width} px`);
      const over = await page.evaluate(() => {
        const box = document.querySelector('.dumplab-playground');
        const sec = document.querySelector('.dlp-suspects');
        const right = box.getBoundingClientRect().right;
        const wide = Array.from(sec.querySelectorAll('*')).filter((e) => !e.closest('pre') && e.getBoundingClientRect().right > right + 1).map((e) => e.className || e.tagName);
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, box: box.scrollWidth - box.clientWidth, wide };
      });
      assert.ok(over.page <= 0 && over.box <= 1 && !over.wide.length, `${name} at ${width} px: ${JSON.stringify(over)}`);
      const clip = await page.locator('.dlp-suspects').evaluate((e) => {
        const b = e.getBoundingClientRect();
        return { x: b.x + scrollX, y: b.y + scrollY, width: b.width, height: b.height };
      });
      await screenshot(page, `why-${name}-${width}`, { fullPage: true, clip });
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});
