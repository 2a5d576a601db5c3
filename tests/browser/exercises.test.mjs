// End-to-end tests of the exercises in the built book: every question type is
// answered wrongly, retried, answered rightly, and found answered after a
// reload, with the keyboard only, in two themes. Right answers are never
// written here: each test first asks the page's own checker ("Show answer",
// in a throwaway browser context) and then answers in a fresh one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, screenshot } from './support.mjs';

const PAGE = 'two-dumps.html';
const TYPES = ['classify', 'evidence', 'count', 'pair', 'choice', 'backend'];
let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(theme) {
  const opened = await openPage(browser, server.url, PAGE, { theme });
  await opened.page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  return opened;
}

/** The first question of each type on the page, by id. */
async function firstOfEachType(page) {
  const all = await page.$$eval('[data-dumplab-question]', (qs) => qs.map((q) => [q.dataset.type, q.dataset.dumplabQuestion]));
  const out = {};
  for (const [type, id] of all) out[type] ??= id;
  return out;
}

const q = (page, id) => page.locator(`[data-dumplab-question="${id}"]`);

/** Asks the checker for the answer of question `id` (in a throwaway context). */
async function learnAnswer(theme, id) {
  const { page, context } = await open(theme);
  const box = q(page, id);
  await box.locator('.dumplab-show').click();
  await box.locator('.dumplab-verdict').waitFor();
  const mode = await box.getAttribute('data-mode');
  let answer;
  if (mode === 'single') answer = await box.locator('.dumplab-option.dl-right').getAttribute('data-option');
  else if (mode === 'number') answer = await box.locator('.dumplab-number input').inputValue();
  else answer = await box.locator('.dl-line[aria-checked="true"]').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  await context.close();
  return { mode, answer };
}

/** Answers with the keyboard: focus moves like Tab would, keys do the rest. */
async function answerByKeyboard(page, id, mode, answer) {
  const box = q(page, id);
  if (mode === 'single') {
    const values = await box.locator('input[type=radio]').evaluateAll((rs) => rs.map((r) => r.value));
    const checked = await box.locator('input[type=radio]:checked').count();
    await box.locator('input[type=radio]').first().focus();
    // Arrow keys move the selection within a radio group; Space selects the first.
    if (!checked) await page.keyboard.press('Space');
    let at = checked ? values.indexOf(await box.locator('input[type=radio]:checked').getAttribute('value')) : 0;
    await box.locator('input[type=radio]:checked').focus();
    const target = values.indexOf(answer);
    assert.notEqual(target, -1, `option ${answer} exists`);
    while (at !== target) {
      await page.keyboard.press(at < target ? 'ArrowDown' : 'ArrowUp');
      at += at < target ? 1 : -1;
    }
    await page.keyboard.press('Tab'); // to Check
  } else if (mode === 'number') {
    await box.locator('.dumplab-number input').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(String(answer));
    await page.keyboard.press('Enter');
    return;
  } else {
    const lines = await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line));
    await box.locator('.dl-line').first().focus();
    for (const line of lines) {
      const on = (await box.locator(`.dl-line[data-line="${line}"]`).getAttribute('aria-checked')) === 'true';
      if (on !== answer.includes(line)) await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
    }
  }
  const focused = await page.evaluate(() => document.activeElement?.className);
  assert.equal(focused, 'dumplab-check', 'Tab reaches the Check button');
  await page.keyboard.press('Enter');
}

function wrongAnswer(mode, answer, box) {
  if (mode === 'number') return String(Number(answer) + 1);
  if (mode === 'lines') return [];
  return box; // single: filled in by the caller from the options
}

for (const theme of ['light', 'coal']) {
  test(`every question type: wrong, retry, right, reload (${theme}, keyboard only)`, async () => {
    const { page, context, errors } = await open(theme);
    const ids = await firstOfEachType(page);
    assert.deepEqual(Object.keys(ids).sort(), [...TYPES].sort(), 'the lesson has all six types');
    const total = await page.locator('[data-dumplab-question]').count();
    assert.ok(total >= 12, `at least 12 questions on the lesson page, found ${total}`);

    for (const type of TYPES) {
      const id = ids[type];
      const { mode, answer } = await learnAnswer(theme, id);
      const box = q(page, id);
      // 1. Wrong.
      let wrong = wrongAnswer(mode, answer);
      if (mode === 'single') {
        const values = await box.locator('input[type=radio]').evaluateAll((rs) => rs.map((r) => r.value));
        wrong = values.find((v) => v !== answer);
      }
      if (mode === 'lines') {
        // Lines that are not in the answer (a wrong selection).
        const lines = await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line));
        wrong = lines.filter((l) => !answer.includes(l)).slice(0, 1);
      }
      await answerByKeyboard(page, id, mode, wrong);
      await box.locator('.dumplab-verdict').waitFor();
      const state = await box.getAttribute('data-state');
      assert.ok(['wrong', 'partial'].includes(state), `${type}: a wrong answer is graded wrong, got ${state}`);
      assert.equal(await box.locator('.dumplab-explain').count(), 0, `${type}: no explanation before it is solved`);
      const live = await box.locator('.dumplab-feedback').getAttribute('aria-live');
      assert.equal(live, 'polite', 'results are announced');
      await screenshot(box, `exercises-${theme}-${type}-wrong`);
      // 2. Retry, with the keyboard.
      await box.locator('.dumplab-retry').focus();
      await page.keyboard.press('Enter');
      assert.equal(await box.getAttribute('data-state'), null, `${type}: retry clears the verdict`);
      // 3. Right.
      await answerByKeyboard(page, id, mode, answer);
      await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'correct', id);
      if (mode === 'lines') assert.ok((await box.locator('.dl-note').count()) > 0, 'evidence lines light up with notes');
      await screenshot(box, `exercises-${theme}-${type}-right`);
    }
    const progress = await page.locator('.dumplab-progress').textContent();
    assert.match(progress, new RegExp(`6 of ${total} answered right`));

    // 4. Reload: progress is kept.
    await page.reload();
    await page.waitForSelector('html[data-dumplab-ready="true"]');
    for (const type of TYPES) {
      assert.equal(await q(page, ids[type]).getAttribute('data-state'), 'correct', `${type}: kept after reload`);
    }
    assert.match(await page.locator('.dumplab-progress').textContent(), new RegExp(`6 of ${total}`));
    await screenshot(page, `exercises-${theme}-page-after-reload`, { fullPage: false });
    assert.deepEqual(errors.map(String), [], 'no page errors');
    await context.close();
  });
}

test('reset clears progress; tampered storage is ignored', async () => {
  const { page, context, errors } = await open('navy');
  const ids = await firstOfEachType(page);
  const { answer } = await learnAnswer('navy', ids.count);
  const box = q(page, ids.count);
  await box.locator('.dumplab-number input').fill(String(answer));
  await box.locator('.dumplab-check').click();
  await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'correct', ids.count);
  // Tamper with another question's entry and with this one's.
  const hashes = await page.$$eval('[data-dumplab-question]', (qs) => qs.map((q) => q.dataset.dumplabHash));
  await page.evaluate((hs) => {
    localStorage.setItem('dumplab:v1:' + hs[0], '{not json');
    localStorage.setItem('dumplab:v1:' + hs[1], JSON.stringify({ o: 'correct', a: '<img src=x onerror=alert(1)>' }));
    localStorage.setItem('dumplab:v1:' + hs[2], JSON.stringify({ o: 'pwned', a: 1 }));
  }, hashes);
  await page.reload();
  await page.waitForSelector('html[data-dumplab-ready="true"]');
  assert.equal(await q(page, ids.count).getAttribute('data-state'), 'correct');
  const states = await page.$$eval('[data-dumplab-question]', (qs) => qs.slice(0, 3).map((q) => q.dataset.state ?? null));
  for (const s of states) assert.notEqual(s, 'correct', 'tampered entries never count as solved');
  assert.equal(await page.locator('img[src=x]').count(), 0, 'stored answers are never HTML');
  // Reset.
  await Promise.all([page.waitForEvent('load'), page.locator('.dumplab-reset').click()]);
  await page.waitForSelector('html[data-dumplab-ready="true"]');
  assert.equal(await q(page, ids.count).getAttribute('data-state'), null, 'reset starts afresh');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('print shows the questions without widgets', async () => {
  const { page, context } = await open('light');
  await page.emulateMedia({ media: 'print' });
  const first = page.locator('[data-dumplab-question]').first();
  assert.ok(await first.isVisible(), 'questions print');
  assert.equal(await first.locator('.dumplab-check').isVisible(), false, 'buttons do not print');
  assert.equal(await page.locator('.dumplab-progress').isVisible(), false);
  await screenshot(first, 'exercises-print');
  await context.close();
});

test('dumps are highlighted at build time and left alone by highlight.js', async () => {
  const { page, context } = await open('ayu');
  const pre = page.locator('pre.dumplab-code').first();
  assert.equal(await pre.locator('code').count(), 0);
  assert.ok((await pre.locator('.dl-hk, .dl-hf').count()) > 0, 'syntect spans are there');
  assert.equal(await pre.locator('.hljs-keyword, .hljs-string').count(), 0, 'no highlight.js spans');
  const scripts = await page.$$eval('script[src]', (ss) => ss.map((s) => s.getAttribute('src')));
  assert.ok(scripts.some((s) => /dumplab-wasm-[0-9a-f]{8}\.js$/.test(s)), `hashed checker script: ${scripts}`);
  await screenshot(page.locator('[data-dumplab-question]').first(), 'exercises-ayu-highlight');
  await context.close();
});
