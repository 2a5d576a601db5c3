// Every question of every chapter that carries exercises, answered in the
// built book: once wrongly and once rightly, each in a fresh browser context
// so that neither answer leans on the other's stored progress. Right answers
// are never written here: the page's own checker reveals them first ("Show
// answer", in a throwaway context). Then a phone-width screenshot of two
// chapters, for people to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, revealAnswer, screenshot, useBook } from './support.mjs';

/** The chapters with exercises, and the fewest questions each must have. */
const CHAPTERS = {
  'two-dumps.html': 12,
  'xla.html': 3,
  'jaxpr.html': 3,
  'stablehlo.html': 3,
  'hlo.html': 3,
  'layouts.html': 3,
  'fusion.html': 3,
  'buffer-assignment.html': 3,
  'where-the-time-goes.html': 6,
  'what-changed.html': 6,
  'investigation.html': 6,
  'many-devices.html': 8,
};
const book = useBook();

async function open(name, options = {}) {
  const opened = await openPage(book.browser, book.server.url, name, options);
  await opened.page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  return opened;
}

const q = (page, id) => page.locator(`[data-dumplab-question="${id}"]`);

/** Every question on the page: id, answer mode, and the checker's own answer. */
async function revealAll(name) {
  const { page, context } = await open(name);
  const ids = await page.$$eval('[data-dumplab-question]', (qs) => qs.map((el) => el.dataset.dumplabQuestion));
  const found = [];
  for (const id of ids) {
    const box = q(page, id);
    const { mode, answer } = await revealAnswer(box);
    assert.ok(answer !== null && answer !== '' && answer.length !== 0, `${name} ${id}: the checker reveals an answer`);
    found.push({ id, mode, answer });
  }
  await context.close();
  return found;
}

/** A wrong answer of the same shape as `answer`, taken from what the box offers. */
async function wrongFor(box, mode, answer) {
  if (mode === 'number') return String(Number(answer) + 1);
  if (mode === 'single') {
    const values = await box.locator('input[type=radio]').evaluateAll((rs) => rs.map((r) => r.value));
    return values.find((v) => v !== answer);
  }
  const lines = await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  return lines.filter((l) => !answer.includes(l)).slice(0, 1);
}

/** Answers with the mouse and returns the verdict state the page shows. */
async function answer(page, id, mode, value) {
  const box = q(page, id);
  if (mode === 'single') await box.locator(`input[type=radio][value="${value}"]`).check();
  else if (mode === 'number') await box.locator('.dumplab-number input').fill(String(value));
  else for (const line of value) await box.locator(`.dl-line[data-line="${line}"]`).click();
  await box.locator('.dumplab-check').click();
  await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state, id);
  return box.getAttribute('data-state');
}

for (const [name, least] of Object.entries(CHAPTERS)) {
  test(`${name}: every question graded wrong, then right`, async () => {
    const questions = await revealAll(name);
    assert.ok(questions.length >= least, `${name} has ${questions.length} questions, fewer than ${least}`);

    const wrong = await open(name);
    for (const { id, mode, answer: key } of questions) {
      const value = await wrongFor(q(wrong.page, id), mode, key);
      assert.ok(value !== undefined && value.length !== 0, `${id}: there is a wrong answer to give`);
      const state = await answer(wrong.page, id, mode, value);
      assert.ok(['wrong', 'partial'].includes(state), `${id}: ${JSON.stringify(value)} graded ${state}`);
    }
    assert.deepEqual(wrong.errors.map(String), [], 'no page errors');
    await wrong.context.close();

    const right = await open(name);
    for (const { id, mode, answer: key } of questions) {
      assert.equal(await answer(right.page, id, mode, key), 'correct', `${id}: ${JSON.stringify(key)} is right`);
    }
    assert.deepEqual(right.errors.map(String), [], 'no page errors');
    await right.context.close();
  });
}

for (const name of ['stablehlo.html', 'buffer-assignment.html']) {
  test(`${name} at phone width: no sideways scroll; screenshot`, async () => {
    const { page, context } = await open(name, { viewport: { width: 390, height: 844 } });
    const first = page.locator('[data-dumplab-question]').first();
    await first.scrollIntoViewIfNeeded();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    await screenshot(page, `chapters-phone-${name.replace('.html', '')}`);
    await screenshot(first, `chapters-phone-${name.replace('.html', '')}-first-question`);
    assert.ok(wide <= 390, `${name} is ${wide}px wide at a 390px viewport`);
    await context.close();
  });
}
