// The keyboard's way through a page: skip links past the chrome and the
// lesson's glossary terms (theme/index.hbs, theme/exercises.js), measured
// against Tab alone; and in a question, what answers it comes before its
// "Wrap lines" toggle (DOM order = visual order, no tabindex tricks).
// The playground's "Skip to the source map" is tested with its map
// (playground.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, tabsUntil, useBook } from './support.mjs';

const LESSON = 'two-dumps.html';
const book = useBook();

async function open(file, options) {
  const opened = await openPage(book.browser, book.server.url, file, options);
  await opened.page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  return opened;
}

/** The text of the skip link that has focus, or null. */
const focusedSkip = (page) => page.evaluate(() => (document.activeElement?.closest('#dumplab-skip') ? document.activeElement.textContent : null));

/** A screenshot of the first evidence question after a wrong pick (its buttons, hint and "Wrap lines"). */
async function shootQuestion(page, name) {
  const box = page.locator('[data-type="evidence"]').first();
  await box.locator('.dl-line').first().click();
  await box.locator('.dumplab-check').click();
  await box.locator('.dumplab-verdict').waitFor();
  await screenshot(box, name);
}

const inFirstQuestion = () => !!document.activeElement?.closest('.dumplab-q') && document.activeElement.closest('.dumplab-q') === document.querySelector('.dumplab-q');

test('skip links lead past the chrome and the terms to the lesson and the first exercise', async () => {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    for (const theme of ['light', 'coal']) {
      const { page, context, errors } = await open(LESSON, { theme, viewport });
      // The first two tab stops, in the order they are read.
      await page.keyboard.press('Tab');
      assert.equal(await focusedSkip(page), 'Skip to the lesson', `${name}: the first tab stop`);
      const shown = await page.evaluate(() => {
        const r = document.activeElement.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.width > 0;
      });
      assert.ok(shown, `${name}: a focused skip link is on screen`);
      await screenshot(page, `keyboard-skip-${theme}-${name}`, { clip: { x: 0, y: 0, width: viewport.width, height: 160 } });
      await page.keyboard.press('Tab');
      assert.equal(await focusedSkip(page), 'Skip to the first exercise', `${name}: the second tab stop`);
      if (theme === 'coal') {
        await shootQuestion(page, `keyboard-question-${theme}-${name}`);
        await context.close();
        continue;
      }
      // "Skip to the first exercise": focus on the question, the next Tab on what answers it.
      await page.keyboard.press('Enter');
      assert.ok(await page.evaluate(inFirstQuestion), `${name}: Enter moves focus to the first exercise`);
      assert.equal(await page.evaluate(() => document.activeElement.classList.contains('dumplab-q')), true);
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(inFirstQuestion), `${name}: the next Tab stays in the question`);
      // Against Tab alone, from a fresh page.
      await page.reload();
      await page.waitForSelector('html[data-dumplab-ready="true"]');
      const plain = await tabsUntil(page, inFirstQuestion);
      console.log(`${LESSON} at ${viewport.width}px: ${plain} Tab presses to the first exercise, or 2 Tabs and Enter by the skip link`);
      assert.ok(plain > 3 && plain <= 300, `${name}: the first exercise is far by Tab alone (${plain})`);
      // "Skip to the lesson": the next Tab is in the lesson, past the sidebar and the menu bar.
      await page.reload();
      await page.waitForSelector('html[data-dumplab-ready="true"]');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'mdbook-content', `${name}: focus is on the lesson`);
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => !!document.activeElement.closest('main')), `${name}: the next Tab is in the lesson`);
      await shootQuestion(page, `keyboard-question-${theme}-${name}`);
      assert.deepEqual(errors.map(String), []);
      await context.close();
    }
  }
  // A page without exercises has only the first.
  const { page, context } = await open('intro.html');
  assert.deepEqual(await page.locator('#dumplab-skip a').allTextContents(), ['Skip to the lesson']);
  await context.close();
});

test('in a question with a dump, what answers it comes before "Wrap lines"', async () => {
  const { page, context, errors } = await open(LESSON);
  const ids = await page.$$eval('.dumplab-q', (qs) => qs.filter((q) => q.querySelector('.dl-viewer')).map((q) => q.dataset.dumplabQuestion));
  assert.ok(ids.length >= 6, `questions with a dump: ${ids.length}`);
  for (const id of ids) {
    const box = page.locator(`[data-dumplab-question="${id}"]`);
    assert.equal(await box.locator('.dl-wrap-toggle').count(), 1, `${id}: one toggle for the question's dumps`);
    assert.equal(await box.locator('figcaption .dl-wrap-toggle').count(), 0, `${id}: none above a dump`);
    // Tab through the question from its start; note what each stop is.
    await box.locator('.dumplab-q-type').click();
    const stops = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate((qid) => {
        const a = document.activeElement;
        if (!a.closest(`[data-dumplab-question="${qid}"]`)) return null;
        if (a.classList.contains('dl-wrap-toggle')) return 'wrap';
        if (a.matches('input, .dl-line, pre')) return 'answer';
        return a.className || a.tagName.toLowerCase();
      }, id);
      if (!at) break;
      stops.push(at);
    }
    assert.notEqual(stops[0], 'wrap', `${id}: the first tab stop is not "Wrap lines": ${stops}`);
    const wrap = stops.indexOf('wrap');
    assert.ok(wrap > stops.lastIndexOf('answer') && wrap > stops.indexOf('dumplab-check'), `${id}: "Wrap lines" comes after the answer and Check: ${stops}`);
  }
  // The toggle is after the buttons on screen too (same row, at its end).
  const box = page.locator('[data-type="evidence"]').first();
  const [check, wrap] = await Promise.all([box.locator('.dumplab-check').boundingBox(), box.locator('.dl-wrap-toggle').boundingBox()]);
  assert.ok(wrap.x > check.x && Math.abs(wrap.y + wrap.height / 2 - (check.y + check.height / 2)) < check.height, 'in the row of buttons, last');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});
