// The dump viewer (preprocessor/src/viewer/, theme/viewer.js, theme/viewer.css)
// in real Chromium, at a desktop (1280x800) and a phone (390x844) size:
// - no page of the book is wider than the window;
// - every dump box scrolls inside itself, can be focused and has a name;
// - prose dumps are highlighted at build time: no highlight.js class, and no
//   console warning on any page;
// - folds count what they hide and keep the dump's line numbers;
// - the wrap toggle is remembered across a reload (corrupt storage ignored);
// - marked lines are inside their box's visible part after a reload;
// - screenshots of the pages with dumps, light and coal, desktop and phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openPage, screenshot, bookDir, useBook } from './support.mjs';

const book = useBook();
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const pages = fs.readdirSync(bookDir).filter((f) => f.endsWith('.html') && f !== 'toc.html');
const withDumps = pages.filter((p) => p !== 'print.html' && fs.readFileSync(`${bookDir}/${p}`, 'utf8').includes('class="dumplab-dump dl-viewer"'));
const withQuestions = withDumps.filter((p) => fs.readFileSync(`${bookDir}/${p}`, 'utf8').includes('data-dumplab-question='));

async function open(page, options = {}) {
  const opened = await openPage(book.browser, book.server.url, page, options);
  const { page: tab } = opened;
  if (await tab.locator('.dumplab-q').count()) await tab.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  return opened;
}

test('the book has pages with prose dumps and with questions', () => {
  assert.ok(withDumps.length >= 6, `pages with dumps: ${withDumps}`);
  assert.ok(withQuestions.length >= 2, `pages with questions: ${withQuestions}`);
});

test('no page is wider than the window, and every dump box scrolls inside itself', async () => {
  const found = [];
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const p of pages) {
      const { page, context } = await open(p, { viewport });
      const r = await page.evaluate(() => {
        const doc = document.documentElement.scrollWidth;
        const boxes = [...document.querySelectorAll('pre.dumplab-code')].map((pre) => {
          const s = getComputedStyle(pre);
          const b = pre.getBoundingClientRect();
          const named = pre.getAttribute('role') === 'listbox' ? !!pre.getAttribute('aria-labelledby') : pre.getAttribute('role') === 'region' && !!pre.getAttribute('aria-label');
          const focusable = pre.tabIndex === 0 || !!pre.querySelector('.dl-line[tabindex="0"]');
          return { wide: pre.scrollWidth > pre.clientWidth, overflow: s.overflowX, right: b.right, named, focusable };
        });
        return { doc, inner: innerWidth, boxes, hljs: document.querySelectorAll('main .dl-viewer .hljs, main code.language-hlo, main code.language-mlir, main code.language-jaxpr').length };
      });
      if (r.doc > r.inner) found.push(`${p} ${size}: the page is ${r.doc}px wide in a ${r.inner}px window`);
      r.boxes.forEach((b, i) => {
        if (b.wide && !/auto|scroll/.test(b.overflow)) found.push(`${p} ${size}: box ${i} is wider than itself and does not scroll`);
        if (b.right > r.inner + 0.5) found.push(`${p} ${size}: box ${i} ends at ${Math.round(b.right)}px, past the window`);
        if (!b.named) found.push(`${p} ${size}: box ${i} has no accessible name`);
        if (!b.focusable) found.push(`${p} ${size}: box ${i} cannot be reached by keyboard`);
      });
      if (r.hljs) found.push(`${p}: ${r.hljs} dump blocks left to highlight.js`);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});

test('the pair question scrolls its wide candidates inside their boxes on a phone', async () => {
  const { page, context } = await open('two-dumps.html', { viewport: SIZES.phone });
  const pair = page.locator('[data-type="pair"] .dumplab-candidates pre.dumplab-code').first();
  assert.ok(await pair.count(), 'a pair question with candidates');
  const before = await pair.evaluate((p) => ({ sw: p.scrollWidth, cw: p.clientWidth }));
  assert.ok(before.sw > before.cw * 2, `a wide candidate: ${JSON.stringify(before)}`);
  await pair.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  // The browser scrolls smoothly: wait for the box to move, not a fixed time.
  const moved = await pair
    .evaluate((p) => new Promise((done) => {
      const t0 = performance.now();
      (function poll() {
        if (p.scrollLeft > 0 || performance.now() - t0 > 3000) done(p.scrollLeft > 0);
        else requestAnimationFrame(poll);
      })();
    }));
  assert.ok(moved, 'the keyboard scrolls the focused box');
  assert.ok((await page.evaluate(() => document.documentElement.scrollLeft + window.scrollX)) === 0, 'the page did not move sideways');
  await context.close();
});

test('no console warning or error on any page with dumps', async () => {
  const found = [];
  for (const p of withDumps) {
    const context = await book.browser.newContext({ viewport: SIZES.desktop });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') found.push(`${p}: ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => found.push(`${p}: ${e}`));
    await page.goto(new URL(p, book.server.url).href, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('folds say how many lines they hide, open on demand, and keep the line numbers', async () => {
  const { page, context } = await open('stablehlo.html');
  const folds = await page.locator('main details.dl-fold').evaluateAll((ds) =>
    ds.map((d) => ({
      said: Number(d.querySelector('summary').textContent.match(/^(\d+) lines of source-location tables$/)?.[1]),
      lines: d.querySelectorAll('.dl-line').length,
      open: d.open,
      visible: d.querySelector('.dl-line').checkVisibility(),
    })),
  );
  assert.ok(folds.length >= 1, 'a folded table in the prose');
  for (const f of folds) {
    assert.equal(f.said, f.lines, 'the summary counts the folded lines');
    assert.equal(f.open, false, 'folded by default');
    assert.equal(f.visible, false, 'folded lines are hidden');
  }
  const numbers = await page.locator('main pre.dumplab-code').first().evaluate((pre) => [...pre.querySelectorAll('.dl-line')].map((l) => Number(l.dataset.line)));
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1), 'line numbers run on through the fold');
  await page.locator('main details.dl-fold > summary').first().click();
  assert.equal(await page.locator('main details.dl-fold').first().evaluate((d) => d.open), true);
  await context.close();
});

test('the wrap toggle is remembered across a reload; corrupt storage is ignored', async () => {
  const { page, context, errors } = await open('fusion.html', { viewport: SIZES.phone });
  const box = page.locator('main pre.dumplab-code[role="region"]').first();
  const toggle = page.locator('main .dl-wrap-toggle').first();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.ok(await box.evaluate((p) => p.scrollWidth > p.clientWidth), 'unwrapped, the box scrolls');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.ok(await box.evaluate((p) => p.scrollWidth <= p.clientWidth), 'wrapped, it does not');
  await page.reload({ waitUntil: 'load' });
  assert.equal(await page.locator('main .dl-wrap-toggle').first().getAttribute('aria-pressed'), 'true', 'remembered');
  assert.ok(await box.evaluate((p) => p.scrollWidth <= p.clientWidth), 'still wrapped after a reload');
  // Wrapped lines start under the code, never under the number.
  const indent = await box.evaluate((pre) => {
    const line = [...pre.querySelectorAll('.dl-line')].find((l) => l.getClientRects().length && l.querySelector('.dl-src').getClientRects().length > 1);
    if (!line) return null;
    const rects = line.querySelector('.dl-src').getClientRects();
    return { first: rects[0].left, next: rects[1].left, gutter: line.querySelector('.dl-ln').getBoundingClientRect().right };
  });
  assert.ok(indent, 'a wrapped line');
  assert.ok(indent.next >= indent.gutter - 1, `continuation under the code: ${JSON.stringify(indent)}`);
  await page.evaluate(() => localStorage.setItem('dumplab:v1:wrap', '{not json'));
  await page.reload({ waitUntil: 'load' });
  assert.equal(await page.locator('main .dl-wrap-toggle').first().getAttribute('aria-pressed'), 'false', 'corrupt storage is ignored');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Where the first marked line of `pre` (and its note) sits in the box. */
function firstMark(pre) {
  const line = pre.querySelector('.dl-line.dl-look-first, .dl-line.dl-lit, .dl-line.dl-hit');
  const note = line.nextElementSibling?.classList.contains('dl-note') ? line.nextElementSibling : null;
  const b = pre.getBoundingClientRect();
  const l = line.getBoundingClientRect();
  const bottom = note ? note.getBoundingClientRect().bottom : l.bottom;
  const top = b.top + pre.clientTop;
  return { id: pre.closest('[id]')?.id, inside: l.top >= top - 0.5 && bottom <= top + pre.clientHeight + 0.5, scrollTop: pre.scrollTop };
}

test('line numbers keep to one line and continuation lines start under the code, wrapped and in print', async () => {
  const { page, context } = await open('two-dumps.html', { viewport: SIZES.phone });
  const measure = () =>
    page.locator('.dumplab-candidates pre.dumplab-code').evaluateAll((pres) =>
      pres.flatMap((pre) => {
        const lh = parseFloat(getComputedStyle(pre).lineHeight);
        return [...pre.querySelectorAll('.dl-line')].flatMap((l) => {
          const ln = l.querySelector('.dl-ln').getBoundingClientRect();
          const src = [...l.querySelector('.dl-src').getClientRects()];
          const bad = [];
          if (ln.height > lh * 1.5) bad.push(`line ${l.dataset.line}: its number takes ${Math.round(ln.height / lh)} lines`);
          if (src.some((r) => r.width > 0 && r.left < ln.right - 1)) bad.push(`line ${l.dataset.line}: code under the number`);
          return bad;
        });
      }),
    );
  await page.evaluate(() => document.documentElement.classList.add('dl-wrap'));
  assert.deepEqual(await measure(), [], 'wrapped on a phone');
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await measure(), [], 'printed');
  await context.close();
});

test('after a reload, marked lines are inside their box, notes included', async () => {
  let checked = 0;
  for (const p of withQuestions) {
    const { page, context } = await open(p, { viewport: SIZES.desktop });
    for (const b of await page.locator('.dumplab-q .dumplab-show').all()) await b.click();
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
    await page.waitForTimeout(100);
    const boxes = await page.locator('.dumplab-q pre.dumplab-code').evaluateAll((pres, f) => {
      const firstMark = new Function(`return ${f}`)();
      return pres.filter((pre) => pre.querySelector('.dl-line.dl-lit, .dl-line.dl-hit')).map(firstMark);
    }, firstMark.toString());
    for (const b of boxes) assert.ok(b.inside, `${p} ${b.id}: the first marked line and its note are in the box's visible part`);
    checked += boxes.length;
    await context.close();
  }
  assert.ok(checked >= 5, `boxes with marks: ${checked}`);
});

test('a line marked out of sight is brought into its box, with a note on the last line, and the page stays', async () => {
  const { page, context } = await open('two-dumps.html', { viewport: SIZES.desktop });
  const box = page.locator('.dumplab-q pre.dumplab-code').filter({ has: page.locator('details.dl-fold') }).first();
  assert.ok(await box.count(), 'a question dump with a fold');
  await box.scrollIntoViewIfNeeded();
  const y = await page.evaluate(() => scrollY);
  // What theme/exercises.js does when feedback lights a line: a class, then
  // a note after it. Here: the last line, and a line inside the closed fold.
  const result = await box.evaluate(async (pre, f) => {
    const firstMark = new Function(`return ${f}`)();
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const out = {};
    const lines = pre.querySelectorAll('.dl-line');
    const last = lines[lines.length - 1];
    pre.scrollTop = 0;
    last.classList.add('dl-lit');
    const note = document.createElement('span');
    note.className = 'dl-note';
    note.textContent = 'A long note on the last line, '.repeat(12);
    last.after(note);
    await frame();
    out.last = firstMark(pre);
    out.noteBottom = note.getBoundingClientRect().bottom <= pre.getBoundingClientRect().top + pre.clientTop + pre.clientHeight + 0.5;
    last.classList.remove('dl-lit');
    note.remove();
    const folded = pre.querySelector('details.dl-fold .dl-line');
    pre.scrollTop = pre.scrollHeight;
    folded.classList.add('dl-lit');
    await frame();
    out.fold = { ...firstMark(pre), open: folded.closest('details').open };
    return out;
  }, firstMark.toString());
  assert.ok(result.last.inside && result.last.scrollTop > 0, `the last line scrolled into view: ${JSON.stringify(result.last)}`);
  assert.ok(result.noteBottom, 'its note is not cut by the box');
  assert.ok(result.fold.inside && result.fold.open, `a folded line opens its fold and comes into view: ${JSON.stringify(result.fold)}`);
  assert.equal(await page.evaluate(() => scrollY), y, 'only the box scrolled, never the page');
  await context.close();
});

test('screenshots of the pages with dumps: light and coal, desktop and phone', async () => {
  const shots = [];
  for (const p of withDumps) {
    for (const theme of ['light', 'coal']) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        const { page, context } = await open(p, { theme, viewport });
        // Below mdBook's sticky header, caption and toggle in sight.
        await page.locator('main figure.dl-viewer').first().evaluate((f) => window.scrollTo(0, f.getBoundingClientRect().top + window.scrollY - 70));
        shots.push(await screenshot(page, `viewer-${p.replace('.html', '')}-${theme}-${size}`));
        await context.close();
      }
    }
  }
  assert.equal(shots.length, withDumps.length * 4);
});
