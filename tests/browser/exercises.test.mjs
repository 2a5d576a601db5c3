// End-to-end tests of the exercises in the built book: every question type is
// answered wrongly, answered again (edited and checked: no Retry before it is
// done), answered rightly, and found answered after a reload, with the keyboard only, in two themes. Right answers are never
// written here: each test first asks the page's own checker ("Show answer",
// in a throwaway browser context) and then answers in a fresh one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, revealAnswer, screenshot, useBook } from './support.mjs';

const PAGE = 'two-dumps.html';
const TYPES = ['classify', 'evidence', 'count', 'pair', 'choice', 'backend'];
const book = useBook();

async function open(theme) {
  const opened = await openPage(book.browser, book.server.url, PAGE, { theme });
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
  const found = await revealAnswer(box);
  await context.close();
  return found;
}

/** Where focus is: inside question `id` (and on what), or elsewhere. */
const focusIn = (page, id) =>
  page.evaluate((i) => {
    const a = document.activeElement;
    const box = document.querySelector(`[data-dumplab-question="${i}"]`);
    return box.contains(a) ? a.className || a.tagName.toLowerCase() : `outside: ${a.tagName.toLowerCase()}`;
  }, id);

/** The `data-line` of the focused element (undefined off a dump line). */
const focusedLine = (page) => page.evaluate(() => document.activeElement?.dataset.line);

/**
 * Presses Tab from just before the dump of `box` (its caption is where the
 * sequential-navigation starting point is put; a question's caption holds no
 * control: its "Wrap lines" is in its row of buttons) and checks that focus
 * lands on a line of the dump.
 */
async function tabIntoDump(page, box) {
  await box.locator('.dumplab-dump figcaption').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Tab');
  assert.ok(await focusedLine(page), 'one Tab enters the dump');
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
    // The dump is one tab stop: one Tab from just before it lands on a line.
    await tabIntoDump(page, box);
    await page.keyboard.press('End');
    assert.equal(await focusedLine(page), lines.at(-1), 'End focuses the last line');
    await page.keyboard.press('Home');
    for (const [i, line] of lines.entries()) {
      if (i) await page.keyboard.press('ArrowDown');
      assert.equal(await focusedLine(page), line, 'ArrowDown moves to the next line');
      const on = (await box.locator(`.dl-line[data-line="${line}"]`).getAttribute('aria-selected')) === 'true';
      if (on !== answer.includes(line)) await page.keyboard.press('Space');
    }
    await page.keyboard.press('Tab');
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
  test(`every question type: wrong, checked again, right, reload (${theme}, keyboard only)`, async () => {
    const { page, context, errors } = await open(theme);
    const ids = await firstOfEachType(page);
    const answers = {};
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
      assert.equal(await focusIn(page, id), mode === 'number' ? 'input' : 'dumplab-check', `${type}: focus stays where the answer was checked`);
      assert.equal(await box.locator('.dumplab-explain').count(), 0, `${type}: no explanation before it is solved`);
      const live = await box.locator('.dumplab-feedback').getAttribute('aria-live');
      assert.equal(live, 'polite', 'results are announced');
      await screenshot(box, `exercises-${theme}-${type}-wrong`);
      // 2. Not done yet: Check (to try again) and "Show answer", no Retry.
      const shown = await box.locator('.dumplab-actions button:not(.dl-wrap-toggle)').evaluateAll((bs) => bs.filter((b) => !b.hidden).map((b) => b.className));
      assert.deepEqual(shown, ['dumplab-check', 'dumplab-show'], `${type}: Check and Show answer after a wrong answer, no Retry`);
      // 3. Right: the learner edits the answer and checks again.
      await answerByKeyboard(page, id, mode, answer);
      await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'correct', id);
      // The focused Check (or the disabled input) is hidden: focus moves to Retry, in the question.
      assert.equal(await focusIn(page, id), 'dumplab-retry', `${type}: focus stays on the question after a right answer`);
      if (mode === 'lines') {
        assert.ok((await box.locator('.dl-note').count()) > 0, 'evidence lines light up with notes');
        const described = await box.locator('.dl-note').evaluateAll((ns) =>
          ns.every((n) => document.querySelector(`[aria-describedby="${n.id}"]`)?.getAttribute('role') === 'option'),
        );
        assert.ok(described, 'each note describes its line to assistive technology');
        assert.equal(await box.locator('pre').getAttribute('aria-readonly'), 'true', 'a solved dump is read-only');
      }
      answers[type] = answer;
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
    const restored = await q(page, ids.evidence)
      .locator('.dl-line[aria-selected="true"]')
      .evaluateAll((ls) => ls.map((l) => l.dataset.line));
    assert.deepEqual(restored, answers.evidence, 'the selected lines are restored');
    assert.match(await page.locator('.dumplab-progress').textContent(), new RegExp(`6 of ${total}`));
    await screenshot(page, `exercises-${theme}-page-after-reload`, { fullPage: false });
    assert.deepEqual(errors.map(String), [], 'no page errors');
    await context.close();
  });
}

for (const theme of ['light', 'coal']) {
  test(`an evidence dump is one tab stop with arrow keys inside (${theme})`, async () => {
    const { page, context, errors } = await open(theme);
    const box = q(page, (await firstOfEachType(page)).evidence);
    const pre = box.locator('pre');
    const lines = await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line));
    assert.ok(lines.length > 3, 'a dump of several lines');
    // Semantics: a multi-select listbox named by the prompt, lines as options.
    assert.equal(await pre.getAttribute('role'), 'listbox');
    assert.equal(await pre.getAttribute('aria-multiselectable'), 'true');
    const label = await pre.getAttribute('aria-labelledby');
    assert.equal(await box.locator(`[id="${label}"]`).getAttribute('class'), 'dumplab-q-prompt', 'the prompt names the list');
    const roles = await box.locator('.dl-line').evaluateAll((ls) => ls.map((l) => `${l.getAttribute('role')} ${l.getAttribute('aria-selected')}`));
    assert.deepEqual(new Set(roles), new Set(['option false']), 'lines are unselected options');
    const stops = () => box.locator('.dl-line[tabindex="0"]').evaluateAll((ls) => ls.map((l) => l.dataset.line));
    assert.deepEqual(await stops(), [lines[0]], 'only the first line is in the tab order');
    assert.match(await box.locator('.dumplab-hint').textContent(), /Tab.*arrow keys.*Home.*End.*Space/, 'the hint names the keys');

    // In with one Tab, out with one Tab; the focus ring shows.
    await tabIntoDump(page, box);
    assert.equal(await focusedLine(page), lines[0], 'Tab enters at the first line');
    const ring = await page.evaluate(() => {
      const a = document.activeElement;
      const s = getComputedStyle(a);
      return { visible: a.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    assert.ok(ring.visible, 'keyboard focus is :focus-visible');
    assert.notEqual(ring.style, 'none', 'the focused line has an outline');
    assert.ok(ring.width >= 2, `the outline is at least 2px wide, got ${ring.width}`);
    await screenshot(box, `exercises-${theme}-evidence-focus-first`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'dumplab-check', 'one Tab leaves the dump for Check');

    // Back in: Shift+Tab returns to the line focused last; arrows stop at the ends.
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedLine(page), lines[0], 'Shift+Tab from Check returns to the dump');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedLine(page), lines[0], 'ArrowUp stops at the first line');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    assert.equal(await focusedLine(page), lines[2]);
    assert.equal(await box.locator(`.dl-line[data-line="${lines[2]}"]`).getAttribute('aria-selected'), 'true', 'Space selects');
    await screenshot(box, `exercises-${theme}-evidence-focus-selected`);
    await page.keyboard.press('Enter');
    assert.equal(await box.locator(`.dl-line[data-line="${lines[2]}"]`).getAttribute('aria-selected'), 'false', 'Enter toggles too');
    await page.keyboard.press('Space');
    await page.keyboard.press('End');
    assert.equal(await focusedLine(page), lines.at(-1), 'End goes to the last line');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedLine(page), lines.at(-1), 'ArrowDown stops at the last line');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedLine(page), lines[1], 'the line focused last is the tab stop');
    assert.deepEqual(await stops(), [lines[1]], 'still exactly one line in the tab order');

    // A click selects and moves the tab stop, without a keyboard focus ring.
    await box.locator(`.dl-line[data-line="${lines[3]}"]`).click();
    assert.deepEqual(await stops(), [lines[3]], 'a clicked line becomes the tab stop');
    assert.equal(await page.evaluate(() => document.activeElement.matches(':focus-visible')), false, 'no ring after a click');
    const selected = await box.locator('.dl-line[aria-selected="true"]').evaluateAll((ls) => ls.map((l) => l.dataset.line));
    assert.deepEqual(selected, [lines[2], lines[3]], 'Space and click selected these two');
    assert.deepEqual(errors.map(String), [], 'no page errors');
    await context.close();
  });
}

for (const theme of ['light', 'coal']) {
  test(`"Show answer" and Retry by keyboard keep focus on the question, every type (${theme})`, async () => {
    const { page, context, errors } = await open(theme);
    const ids = await firstOfEachType(page);
    for (const type of TYPES) {
      const box = q(page, ids[type]);
      await box.locator('.dumplab-show').focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'revealed', ids[type]);
      assert.equal(await focusIn(page, ids[type]), 'dumplab-retry', `${type}: after a reveal, focus is on Retry`);
      await page.keyboard.press('Enter');
      const at = await focusIn(page, ids[type]);
      assert.ok(!at.startsWith('outside'), `${type}: after Retry, focus is in the question (${at})`);
      assert.notEqual(at, 'dumplab-retry', `${type}: on what to answer, not on the hidden Retry`);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      assert.ok(!(await focusIn(page, ids[type])).startsWith('outside'), `${type}: Tab order continues from there`);
    }
    assert.deepEqual(errors.map(String), []);
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
  // Reset, after confirming (progress.test.mjs tests the dialog).
  await page.locator('.dumplab-reset').click();
  await page.locator('.dumplab-confirm-yes').click();
  assert.equal(await q(page, ids.count).getAttribute('data-state'), null, 'reset starts afresh');
  await page.reload();
  await page.waitForSelector('html[data-dumplab-ready="true"]');
  assert.equal(await q(page, ids.count).getAttribute('data-state'), null, 'and forgets it');
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
