// Feedback that teaches: a wrong answer gets a hint that outlines where to
// look in the dump (and brings it into view) without marking the answer;
// the next check replaces it; "Show answer" marks the deciding lines and brings them
// into view; no piece of feedback is said twice. Right answers are never
// written here: they come from the page's own checker ("Show answer").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBook } from './support.mjs';

const PAGE = 'two-dumps.html';
const book = useBook();

async function open() {
  const opened = await openPage(book.browser, book.server.url, PAGE, { theme: 'light' });
  await opened.page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  return opened;
}

const q = (page, id) => page.locator(`[data-dumplab-question="${id}"]`);

/** Whether `el` is visible inside every scrolling box around it and the window. */
function inView(el) {
  const r = el.getBoundingClientRect();
  if (r.height === 0) return false;
  const mid = (r.top + r.bottom) / 2;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (/(auto|scroll|hidden)/.test(s.overflowY)) {
      const b = p.getBoundingClientRect();
      if (mid < b.top || mid > b.bottom) return false;
    }
  }
  return mid >= 0 && mid <= window.innerHeight;
}

/** Every piece of feedback text a learner reads for question `box`. */
async function feedbackTexts(box) {
  return box.evaluate((b) =>
    [...b.querySelectorAll('.dumplab-feedback p, .dumplab-feedback li, .dl-note')].map((e) => e.textContent.trim()).filter(Boolean),
  );
}

function assertNoRepeats(texts, what) {
  const seen = new Set();
  for (const t of texts) {
    assert.ok(!seen.has(t), `${what}: "${t}" is said twice`);
    seen.add(t);
  }
  const joined = texts.join('\n');
  for (const word of ['Right:', 'Correct:']) {
    assert.ok(joined.split(word).length <= 2, `${what}: "${word}" appears more than once:\n${joined}`);
  }
}

test('a wrong evidence answer gets a hint in view; the next check replaces it; the answer is marked and shown', async () => {
  const { page, context, errors } = await open();
  const id = await page.$eval('[data-type="evidence"]', (e) => e.dataset.dumplabQuestion);
  const box = q(page, id);
  // Learn which lines prove it, in this page, then start afresh.
  await box.locator('.dumplab-show').click();
  await box.locator('.dumplab-verdict').waitFor();
  const right = await box.locator('.dl-line.dl-lit').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  assert.ok(right.length >= 2, `the key lights up its lines: ${right}`);
  await box.locator('.dumplab-retry').click();

  // 1. Wrong: a non-blank line that proves nothing.
  const idle = await box.locator('.dl-line').evaluateAll(
    (ls, r) => ls.find((l) => !r.includes(l.dataset.line) && l.querySelector('.dl-src').textContent.trim())?.dataset.line,
    right,
  );
  assert.ok(idle, 'the dump has a line that proves nothing');
  await page.evaluate(() => window.scrollTo(0, 0));
  await box.locator(`.dl-line[data-line="${idle}"]`).click();
  await box.locator('.dumplab-check').click();
  await box.locator('.dumplab-verdict').waitFor();
  assert.equal(await box.getAttribute('data-state'), 'wrong');
  const hint = box.locator('.dumplab-look');
  assert.equal(await hint.count(), 1, 'one hint');
  assert.ok(await hint.isVisible(), 'the hint is visible');
  assert.match(await hint.textContent(), /^Hint: Look again at lines? \d+/, 'the hint points at lines');
  const region = await box.locator('.dl-line.dl-look').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  assert.ok(region.length >= 3, `the hint outlines a region, not one line: ${region}`);
  assert.ok(region.some((l) => right.includes(l)), 'the region holds a proving line');
  assert.ok(region.some((l) => !right.includes(l)), 'and lines that prove nothing: it does not give the answer away');
  await page.waitForFunction(
    ([i, f]) => {
      const el = document.querySelector(`[data-dumplab-question="${i}"] .dl-line[data-line="${f}"]`);
      const r = el.getBoundingClientRect();
      const mid = (r.top + r.bottom) / 2;
      return mid >= 0 && mid <= window.innerHeight;
    },
    [id, region[0]],
    { timeout: 5000 },
  );
  assert.ok(await box.locator(`.dl-line[data-line="${region[0]}"]`).evaluate(inView), 'the outlined region is scrolled into view');
  assert.equal(await box.locator('.dl-line.dl-lit, .dl-line.dl-hit').count(), 0, 'no line is marked as the answer');
  assert.equal(await box.locator('.dumplab-explain').count(), 0, 'no explanation yet');
  assertNoRepeats(await feedbackTexts(box), 'wrong answer');
  await screenshot(box, 'feedback-hint');

  // 2. Not done: no Retry; the learner edits the answer (the wrong line off).
  assert.equal(await box.locator('.dumplab-retry').isVisible(), false, 'no Retry before the question is done');
  await box.locator(`.dl-line[data-line="${idle}"]`).click();

  // 3. A partly right answer points at a region holding a line still missing.
  await box.locator(`.dl-line[data-line="${right[0]}"]`).click();
  await box.locator('.dumplab-check').click();
  await box.locator('.dumplab-verdict').waitFor();
  assert.equal(await box.getAttribute('data-state'), 'partial');
  const again = await box.locator('.dl-line.dl-look').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  assert.ok(again.some((l) => right.includes(l) && l !== right[0]), `the hint points where a missing line is: ${again}`);
  assertNoRepeats(await feedbackTexts(box), 'partly right answer');

  // 4. Show answer: every proving line is marked, the first one in view.
  await page.evaluate(() => window.scrollTo(0, 0));
  await box.locator('.dumplab-show').click();
  await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'revealed', id);
  const lit = await box.locator('.dl-line.dl-lit').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  assert.deepEqual(lit, right, 'show answer marks the deciding lines');
  assert.equal(await box.locator('.dumplab-look').count(), 0, 'no hint once revealed');
  await page.waitForFunction(
    ([i, f]) => {
      const r = document.querySelector(`[data-dumplab-question="${i}"] .dl-line[data-line="${f}"]`).getBoundingClientRect();
      return (r.top + r.bottom) / 2 >= 0 && (r.top + r.bottom) / 2 <= window.innerHeight;
    },
    [id, right[0]],
    { timeout: 5000 },
  );
  assert.ok(await box.locator(`.dl-line[data-line="${right[0]}"]`).evaluate(inView), 'the first marked line is in view');
  assertNoRepeats(await feedbackTexts(box), 'revealed answer');
  // Show answer hid the focused button: focus stays on the question (Retry).
  assert.equal(
    await page.evaluate((i) => document.activeElement?.closest('[data-dumplab-question]')?.dataset.dumplabQuestion, id),
    id,
    'focus stays on the question after Show answer',
  );
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-retry');
  assert.deepEqual(errors.map(String), [], 'no page errors');
  await context.close();
});

test('a hint that says what to look for, with no lines to point at, outlines nothing', async () => {
  const { page, context, errors } = await open();
  const ids = await page.$$eval('[data-mode="lines"]', (qs) => qs.map((x) => x.dataset.dumplabQuestion));
  const seen = { lookFor: 0, lookAgain: 0 };
  for (const id of ids) {
    const box = q(page, id);
    await box.locator('.dumplab-show').click();
    await box.locator('.dumplab-verdict').waitFor();
    const right = await box.locator('.dl-line.dl-lit').evaluateAll((ls) => ls.map((l) => l.dataset.line));
    await box.locator('.dumplab-retry').click();
    const idle = await box.locator('.dl-line').evaluateAll(
      (ls, r) => ls.find((l) => !r.includes(l.dataset.line) && l.querySelector('.dl-src').textContent.trim())?.dataset.line,
      right,
    );
    if (!idle) continue;
    await box.locator(`.dl-line[data-line="${idle}"]`).click();
    await box.locator('.dumplab-check').click();
    await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'wrong', id);
    const hint = await box.locator('.dumplab-look').textContent();
    const outlined = await box.locator('.dl-line.dl-look').count();
    if (/^Hint: Look for /.test(hint)) {
      seen.lookFor++;
      assert.equal(outlined, 0, `${id}: "${hint}" outlines no lines`);
      if (seen.lookFor === 1) await screenshot(box, 'feedback-hint-look-for');
    } else {
      seen.lookAgain++;
      assert.ok(outlined > 0, `${id}: "${hint}" outlines its lines`);
    }
  }
  assert.ok(seen.lookFor >= 1 && seen.lookAgain >= 1, `both kinds of hint on the page: ${JSON.stringify(seen)}`);
  assert.deepEqual(errors.map(String), [], 'no page errors');
  await context.close();
});

test('the pair question scrolls inside its dumps and never widens the page, at 1280 and 390', async () => {
  for (const width of [1280, 390]) {
    const { page, context } = await openPage(book.browser, book.server.url, PAGE, { viewport: { width, height: 844 } });
    const sizes = await page.evaluate(() => {
      const content = document.querySelector('#mdbook-content, .content');
      const q = document.querySelector('#q-softmax-pair');
      return { content: [content.scrollWidth, content.clientWidth], q: [q.scrollWidth, q.clientWidth] };
    });
    assert.ok(sizes.content[0] <= sizes.content[1] + 1, `${width}: the content is wider than its box: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.q[0] <= sizes.q[1] + 1, `${width}: the pair question is wider than its box: ${JSON.stringify(sizes)}`);
    // Answer options wrap inside their question, long call texts included.
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.dumplab-options')).filter((f) => f.getBoundingClientRect().right > f.closest('.dumplab-q').getBoundingClientRect().right + 1).length,
    );
    assert.equal(wide, 0, `${width}: answer options run past their question`);
    if (width === 390) await screenshot(page, 'two-dumps-options-390', { fullPage: false });
    await context.close();
  }
});

test('a wrong count says what was miscounted; a right choice says each thing once', async () => {
  const { page, context, errors } = await open();
  // The count of kernels in a loop's entry computation is on the fusion page;
  // here: any count question, answered one too high, gets a hint.
  const id = await page.$eval('[data-type="count"]', (e) => e.dataset.dumplabQuestion);
  const box = q(page, id);
  await box.locator('.dumplab-show').click();
  await box.locator('.dumplab-verdict').waitFor();
  const answer = await box.locator('.dumplab-number input').inputValue();
  await box.locator('.dumplab-retry').click();
  assert.equal(await box.locator('.dumplab-number input').inputValue(), '', 'Retry after a reveal empties the answer');
  await box.locator('.dumplab-number input').fill(String(Number(answer) + 1));
  await box.locator('.dumplab-check').click();
  await box.locator('.dumplab-verdict').waitFor();
  assert.equal(await box.getAttribute('data-state'), 'wrong');
  assert.match(await box.locator('.dumplab-verdict').textContent(), /^Too many/);
  assert.ok(await box.locator('.dumplab-look').isVisible(), 'a wrong count gets a hint');
  assert.doesNotMatch(await box.locator('.dumplab-feedback').textContent(), new RegExp(`\\b${answer}\\b(?! is not)`), 'the hint does not give the count');
  assertNoRepeats(await feedbackTexts(box), 'wrong count');

  // Every choice question, answered right: nothing said twice.
  const choices = await page.$$eval('[data-type="choice"]', (es) => es.map((e) => e.dataset.dumplabQuestion));
  assert.ok(choices.length >= 2);
  for (const cid of choices) {
    const c = q(page, cid);
    await c.locator('.dumplab-show').click();
    await c.locator('.dumplab-verdict').waitFor();
    assertNoRepeats(await feedbackTexts(c), `${cid} revealed`);
    const right = await c.locator('.dumplab-option.dl-right').getAttribute('data-option');
    await c.locator('.dumplab-retry').click();
    await c.locator(`input[value="${right}"]`).check();
    await c.locator('.dumplab-check').click();
    await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'correct', cid);
    assertNoRepeats(await feedbackTexts(c), `${cid} answered right`);
  }
  assert.deepEqual(errors.map(String), [], 'no page errors');
  await context.close();
});

test('a wrong check keeps the focused button in view, and so does Show answer for Retry (a tall dump at 1280x800)', async () => {
  const { page, context, errors } = await open();
  await page.setViewportSize({ width: 1280, height: 800 });
  const id = 'gelu-compiled-which-call';
  const box = q(page, id);
  const wrong = box.locator('input[type=radio][value="hlo-unoptimized"]');
  await wrong.focus();
  await page.keyboard.press('Space');
  await box.locator('.dumplab-check').focus();
  await page.keyboard.press('Enter');
  await box.locator('.dumplab-verdict').waitFor();
  assert.equal(await box.getAttribute('data-state'), 'wrong');
  // Let any smooth scrolling settle before measuring.
  await page.waitForTimeout(300);
  const focused = await page.evaluate(() => document.activeElement.className);
  assert.equal(focused, 'dumplab-check', 'focus stays on Check after a wrong answer');
  assert.ok(await box.locator('.dumplab-check').evaluate(inView), 'the focused Check is in view');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-show');
  await page.keyboard.press('Enter');
  await box.locator('.dumplab-retry').waitFor({ state: 'visible' });
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-retry');
  assert.ok(await box.locator('.dumplab-retry').evaluate(inView), 'the focused Retry is in view');
  assert.deepEqual(errors, []);
  await context.close();
});
