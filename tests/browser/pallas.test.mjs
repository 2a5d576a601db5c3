// The chapter "Your kernel in the dumps" (src/pallas.md) in Chromium: every
// question on it answered wrongly, then rightly, with the mouse; kernel lines
// thousands of characters long shown cut; no horizontal overflow of the page
// at a desktop and a phone width; screenshots of both. Right answers are
// never written here: the page's own checker gives them ("Show answer", in a
// throwaway browser context).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, revealAnswer, screenshot, useBook } from './support.mjs';

const PAGE = 'pallas.html';
const book = useBook();

async function open(viewport) {
  const opened = await openPage(book.browser, book.server.url, PAGE, { viewport });
  await opened.page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  return opened;
}

const q = (page, id) => page.locator(`[data-dumplab-question="${id}"]`);

/** The checker's answer to question `id`, read after "Show answer". */
async function learnAnswer(id) {
  const { page, context } = await open();
  const box = q(page, id);
  const found = await revealAnswer(box);
  await context.close();
  return found;
}

/** Answers with the mouse: an option, a number or a set of lines. */
async function answer(box, mode, value) {
  if (mode === 'single') {
    await box.locator(`input[type=radio][value="${value}"]`).check();
  } else if (mode === 'number') {
    await box.locator('.dumplab-number input').fill(String(value));
  } else {
    for (const line of await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line))) {
      const on = (await box.locator(`.dl-line[data-line="${line}"]`).getAttribute('aria-selected')) === 'true';
      if (on !== value.includes(line)) await box.locator(`.dl-line[data-line="${line}"]`).click();
    }
  }
  await box.locator('.dumplab-check').click();
  await box.locator('.dumplab-verdict').waitFor();
  return box.getAttribute('data-state');
}

test('every Pallas question: wrong first, then right', async () => {
  const { page, context, errors } = await open();
  const questions = await page.$$eval('[data-dumplab-question]', (qs) => qs.map((x) => [x.dataset.dumplabQuestion, x.dataset.type]));
  const types = new Set(questions.map(([, type]) => type));
  assert.ok(questions.length >= 6, `at least six questions, found ${questions.length}`);
  assert.ok(types.size >= 4, `at least four question types, found ${[...types]}`);
  for (const [id, type] of questions) {
    const { mode, answer: right } = await learnAnswer(id);
    const box = q(page, id);
    let wrong;
    if (mode === 'single') {
      const values = await box.locator('input[type=radio]').evaluateAll((rs) => rs.map((r) => r.value));
      wrong = values.find((v) => v !== right);
    } else if (mode === 'number') {
      wrong = Number(right) + 1;
    } else {
      const lines = await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line));
      wrong = lines.filter((l) => !right.includes(l)).slice(0, 1);
      assert.equal(wrong.length, 1, `${id}: the excerpt has a line that proves nothing`);
    }
    assert.equal(await answer(box, mode, wrong), 'wrong', `${id} (${type}): a wrong answer is graded wrong`);
    // No Retry before it is done: the answer is edited and checked again.
    assert.equal(await box.locator('.dumplab-retry').isVisible(), false, `${id}: no Retry after a wrong answer`);
    assert.equal(await answer(box, mode, right), 'correct', `${id} (${type}): the checker's answer is graded right`);
  }
  assert.deepEqual(errors, [], 'no page errors');
  await context.close();
});

test('kernel lines thousands of characters long are cut in the dumps', async () => {
  const { page, context } = await open();
  // The Mosaic GPU custom call: about 32,700 characters in the dump.
  const line = q(page, 'pallas-mosaic-gpu-kernels').locator('.dl-line[data-line="19"] .dl-src');
  const text = await line.textContent();
  assert.ok(text.length < 1200, `the shown line is short, ${text.length} characters`);
  assert.match(text, /…\[\d{1,3}(,\d{3})* more characters\]/, 'the cut says how much was left out');
  assert.match(text, /custom_call_target="mosaic_gpu_v2"/, 'the target stays');
  assert.match(text, /op_name="jit\(scale_shift\)\/pallas_call"/, 'the metadata stays');
  await context.close();
});

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`the chapter fits a ${name} screen (${viewport.width}x${viewport.height})`, async () => {
    const { page, context, errors } = await open(viewport);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling of the page, overflow ${overflow}px`);
    await screenshot(page, `pallas-${name}`);
    const box = q(page, 'pallas-elementwise-copy-why');
    await box.scrollIntoViewIfNeeded();
    await screenshot(page, `pallas-${name}-question`);
    assert.deepEqual(errors, [], 'no page errors');
    await context.close();
  });
}
