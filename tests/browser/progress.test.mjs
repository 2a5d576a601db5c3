// Progress across the course: "right / total" per chapter in the sidebar
// (kept over reloads and across chapters), the end-of-chapter summary that
// retries only what was missed (forgotten, after a reload too), a Reset that
// asks first, a Retry that keeps a right answer until a new one is checked
// and forgets any other, and stored progress that is
// never trusted when tampered with. Right answers are never written here:
// each comes from the page's own checker ("Show answer", in a throwaway
// browser context).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, revealAnswer, screenshot, useBook } from './support.mjs';

const book = useBook();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function ready(page) {
  await page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
}

async function open(file, { theme = 'light', viewport = DESKTOP } = {}) {
  const opened = await openPage(book.browser, book.server.url, file, { theme, viewport });
  await ready(opened.page);
  return opened;
}

/** Goes to another chapter in the same tab (same storage). */
async function go(page, file) {
  await page.goto(new URL(file, book.server.url).href);
  await ready(page);
}

const q = (page, id) => page.locator(`[data-dumplab-question="${id}"]`);
const state = (page, id) => q(page, id).getAttribute('data-state');

/** Question ids of `file` in page order, with their answer mode. */
async function questionsOf(page) {
  return page.$$eval('[data-dumplab-question]', (qs) => qs.map((x) => ({ id: x.dataset.dumplabQuestion, mode: x.dataset.mode })));
}

/** The right answer of question `id` on `file`, from the page's checker. */
async function learn(file, id) {
  const { page, context } = await open(file);
  const box = q(page, id);
  const found = await revealAnswer(box);
  await context.close();
  return found;
}

/** Answers question `id` with `answer` and waits for its verdict. */
async function answerWith(page, id, mode, answer) {
  const box = q(page, id);
  if (mode === 'single') await box.locator(`input[type=radio][value="${answer}"]`).check();
  else if (mode === 'number') await box.locator('.dumplab-number input').fill(String(answer));
  else for (const line of answer) await box.locator(`.dl-line[data-line="${line}"]`).click();
  await box.locator('.dumplab-check').click();
  await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state, id);
  return state(page, id);
}

/** A wrong answer to a question whose right answer is `answer`. */
async function wrongOf(page, id, mode, answer) {
  if (mode === 'number') return String(Number(answer) + 1);
  if (mode === 'single') {
    const values = await q(page, id).locator('input[type=radio]').evaluateAll((rs) => rs.map((r) => r.value));
    return values.find((v) => v !== answer);
  }
  const lines = await q(page, id).locator('.dl-line').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  return lines.filter((l) => !answer.includes(l)).slice(0, 1);
}

/** The sidebar's badge per chapter page: "done/total" and whether complete. */
async function sidebar(page) {
  return page.$$eval('#mdbook-sidebar .dumplab-toc-progress', (bs) =>
    Object.fromEntries(
      bs.map((b) => [
        new URL(b.closest('a').href).pathname.split('/').pop(),
        { done: Number(b.dataset.done), total: Number(b.dataset.total), complete: b.classList.contains('dumplab-toc-complete'), name: b.closest('a').textContent },
      ]),
    ),
  );
}

const pageLine = (page) => page.locator('.dumplab-progress').textContent();

test('the sidebar counts right answers on two chapters, across pages and a reload', async () => {
  const { page, context, errors } = await open('fusion.html');
  const before = await sidebar(page);
  assert.ok(Object.keys(before).length >= 2, `chapters with exercises: ${JSON.stringify(before)}`);
  for (const [file, b] of Object.entries(before)) {
    assert.equal(b.done, 0, `${file} starts at 0`);
    const total = await page.context().newPage().then(async (p) => {
      await p.goto(new URL(file, book.server.url).href);
      const n = await p.locator('[data-dumplab-question]').count();
      await p.close();
      return n;
    });
    assert.equal(b.total, total, `${file}: the sidebar total is the chapter's number of questions`);
  }
  // Fusion: one right, one wrong.
  const fusion = await questionsOf(page);
  const [f0, f1] = fusion.filter((x) => x.mode !== 'lines');
  const a0 = await learn('fusion.html', f0.id);
  const a1 = await learn('fusion.html', f1.id);
  assert.equal(await answerWith(page, f0.id, a0.mode, a0.answer), 'correct');
  assert.notEqual(await answerWith(page, f1.id, a1.mode, await wrongOf(page, f1.id, a1.mode, a1.answer)), 'correct');
  let s = await sidebar(page);
  assert.equal(s['fusion.html'].done, 1, 'the sidebar updates as soon as an answer is checked');
  assert.match(s['fusion.html'].name, new RegExp(`1 of ${fusion.length} answered right`), 'the link says it in words');

  // Layouts: every question right, in the same tab.
  await go(page, 'layouts.html');
  assert.equal((await sidebar(page))['fusion.html'].done, 1, 'another chapter shows fusion progress');
  const layouts = await questionsOf(page);
  for (const x of layouts) {
    const a = await learn('layouts.html', x.id);
    assert.equal(await answerWith(page, x.id, a.mode, a.answer), 'correct', x.id);
  }
  s = await sidebar(page);
  assert.deepEqual([s['layouts.html'].done, s['layouts.html'].complete], [layouts.length, true], 'a finished chapter is ticked');
  assert.match(await page.locator('#mdbook-sidebar .dumplab-toc-complete').textContent(), /\u2713/);

  // A reload, and a third chapter: both counts stay.
  await page.reload();
  await ready(page);
  await go(page, 'two-dumps.html');
  s = await sidebar(page);
  assert.equal(s['fusion.html'].done, 1);
  assert.equal(s['layouts.html'].done, layouts.length);
  assert.equal(s['two-dumps.html'].done, 0);
  await go(page, 'intro.html');
  assert.equal((await sidebar(page))['fusion.html'].done, 1, 'a page without exercises shows the course too');
  assert.deepEqual(errors.map(String), []);

  // Screenshots of the sidebar with progress.
  const storage = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  for (const theme of ['light', 'coal']) {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const shot = await openPage(book.browser, book.server.url, 'fusion.html', { theme, viewport });
      await shot.page.evaluate((entries) => {
        for (const [k, v] of JSON.parse(entries)) localStorage.setItem(k, v);
      }, storage);
      await shot.page.reload();
      await ready(shot.page);
      if (name === 'phone') {
        await shot.page.locator('#mdbook-sidebar-toggle').click();
        await shot.page.waitForFunction(() => document.documentElement.classList.contains('sidebar-visible'));
        await shot.page.waitForTimeout(400);
      }
      assert.ok(await shot.page.locator('#mdbook-sidebar .dumplab-toc-progress').first().isVisible(), `${theme} ${name}: badges show`);
      await screenshot(shot.page, `progress-sidebar-${theme}-${name}`);
      await shot.context.close();
    }
  }
  await context.close();
});

test('retry keeps a right answer until a new one is checked', async () => {
  const { page, context, errors } = await open('fusion.html');
  const [x] = (await questionsOf(page)).filter((y) => y.mode === 'number');
  const a = await learn('fusion.html', x.id);
  const box = q(page, x.id);
  await answerWith(page, x.id, a.mode, a.answer);
  assert.match(await pageLine(page), /: 1 of/);
  await box.locator('.dumplab-retry').click();
  assert.equal(await state(page, x.id), null, 'the question is fresh');
  assert.match(await box.locator('.dumplab-kept').textContent(), /still counts/, 'and says the earlier answer counts');
  assert.match(await pageLine(page), /: 1 of/, 'the page still counts it');
  assert.equal((await sidebar(page))['fusion.html'].done, 1, 'so does the sidebar');
  // "Show answer" now takes nothing away either.
  await box.locator('.dumplab-show').click();
  await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'revealed', x.id);
  assert.equal((await sidebar(page))['fusion.html'].done, 1, 'a reveal after a retry keeps the right answer');
  await page.reload();
  await ready(page);
  assert.equal(await state(page, x.id), 'correct', 'a reload in between finds it right');
  // A new checked answer replaces it.
  await q(page, x.id).locator('.dumplab-retry').click();
  assert.notEqual(await answerWith(page, x.id, a.mode, String(Number(a.answer) + 1)), 'correct');
  assert.match(await pageLine(page), /: 0 of/, 'a wrong answer checked after a retry counts');
  assert.equal((await sidebar(page))['fusion.html'].done, 0);
  // A question retried when it was not right is "not tried", a reload later too.
  await q(page, x.id).locator('.dumplab-show').click();
  await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'revealed', x.id);
  await q(page, x.id).locator('.dumplab-retry').click();
  await page.reload();
  await ready(page);
  assert.equal(await state(page, x.id), null, 'a retried wrong or shown answer is forgotten');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('reset asks first, in a dialog a keyboard can answer', async () => {
  const { page, context, errors } = await open('layouts.html');
  const [x] = await questionsOf(page);
  const a = await learn('layouts.html', x.id);
  await answerWith(page, x.id, a.mode, a.answer);
  const reset = page.locator('.dumplab-reset');
  const dialog = page.locator('dialog.dumplab-confirm');
  // Escape cancels; focus returns to Reset; nothing is lost.
  await reset.focus();
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  assert.equal(await dialog.evaluate((d) => d.open && d.matches(':modal')), true, 'a modal dialog');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-confirm-no', 'focus starts on Cancel');
  assert.match(await page.evaluate(() => {
    const d = document.querySelector('dialog.dumplab-confirm');
    return document.getElementById(d.getAttribute('aria-labelledby')).textContent;
  }), /Reset/, 'the dialog is named');
  await screenshot(page, 'progress-reset-dialog-light-desktop');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-reset', 'focus is back on Reset');
  assert.equal(await state(page, x.id), 'correct', 'Escape keeps progress');
  // Cancel keeps it too.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await state(page, x.id), 'correct', 'Cancel keeps progress');
  // Shift+Tab from Cancel reaches Reset; Enter resets this chapter only.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-confirm-yes');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await state(page, x.id), null, 'reset clears the page');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'dumplab-reset');
  assert.equal((await sidebar(page))['layouts.html'].done, 0);
  await page.reload();
  await ready(page);
  assert.equal(await state(page, x.id), null, 'and storage');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('the summary lists what was missed and retries only that', async () => {
  for (const theme of ['light', 'coal']) {
    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const { page, context, errors } = await open('fusion.html', { theme, viewport });
      const qs = (await questionsOf(page)).filter((x) => x.mode !== 'lines');
      const [right, wrong, shown] = qs;
      const ar = await learn('fusion.html', right.id);
      const aw = await learn('fusion.html', wrong.id);
      await answerWith(page, right.id, ar.mode, ar.answer);
      await answerWith(page, wrong.id, aw.mode, await wrongOf(page, wrong.id, aw.mode, aw.answer));
      await q(page, shown.id).locator('.dumplab-show').click();
      await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'revealed', shown.id);
      const summary = page.locator('.dumplab-summary');
      const total = qs.length + (await page.locator('[data-mode="lines"]').count());
      assert.match(await summary.locator('.dumplab-summary-status').textContent(), new RegExp(`^1 of ${total} answered right`));
      const missed = await summary.locator('.dumplab-summary-missed a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.deepEqual(missed, [`#q-${wrong.id}`, `#q-${shown.id}`], 'the missed ones, in page order');
      assert.match(await summary.locator('.dumplab-summary-untried').textContent(), new RegExp(`Not answered yet: ${total - 3}`));
      const button = summary.locator('.dumplab-summary-retry');
      assert.equal(await button.textContent(), 'Retry the 2 you missed');
      await summary.scrollIntoViewIfNeeded();
      await screenshot(summary, `progress-summary-${theme}-${name}`);
      await button.focus();
      await page.keyboard.press('Enter');
      assert.equal(await state(page, wrong.id), null, 'the wrong one is fresh');
      assert.equal(await state(page, shown.id), null, 'the shown one is fresh');
      assert.equal(await state(page, right.id), 'correct', 'the right one stays right');
      const inside = await page.evaluate((i) => document.querySelector(`[data-dumplab-question="${i}"]`).contains(document.activeElement), wrong.id);
      assert.ok(inside, 'focus moves into the first retried question');
      assert.equal(await button.isVisible(), false, 'nothing left to retry');
      if (theme === 'light' && name === 'desktop') {
        // What was retried stays "not tried" after a reload; the right answer stays.
        await page.reload();
        await ready(page);
        assert.deepEqual(
          [await state(page, right.id), await state(page, wrong.id), await state(page, shown.id)],
          ['correct', null, null],
          'after a reload: the retried ones not tried, the right one right',
        );
        assert.equal(await summary.locator('.dumplab-summary-missed').isVisible(), false, 'nothing missed any more');
      }
      assert.deepEqual(errors.map(String), []);
      await context.close();
    }
  }
});

test('tampered progress never counts, in the sidebar or the summary', async () => {
  const { page, context, errors } = await open('layouts.html');
  const hashes = await page.$$eval('[data-dumplab-question]', (qs) => qs.map((x) => x.dataset.dumplabHash));
  await page.evaluate((hs) => {
    localStorage.setItem('dumplab:v1:' + hs[0], JSON.stringify({ o: 'correct', a: 5 }));
    if (hs[1]) localStorage.setItem('dumplab:v1:' + hs[1], '{"o":"correct"');
    // Well-formed, but an answer that is not one of the question's: the
    // page regrades it and drops the record.
    if (hs[2]) localStorage.setItem('dumplab:v1:' + hs[2], JSON.stringify({ o: 'correct', a: 'zzz' }));
  }, hashes);
  await page.reload();
  await ready(page);
  assert.equal((await sidebar(page))['layouts.html'].done, 0);
  assert.match(await page.locator('.dumplab-summary-status').textContent(), /^0 of/);
  if (hashes[2]) {
    const kept = await page.evaluate((h) => localStorage.getItem('dumplab:v1:' + h), hashes[2]);
    assert.equal(kept, null, 'a saved answer that does not grade is dropped');
  }
  // A broken course list costs the sidebar its badges, not the page.
  await page.evaluate(() => {
    document.querySelector('script.dumplab-course').textContent = '{"version":1,"chapters":[{"page":1}]}';
  });
  assert.deepEqual(errors.map(String), []);
  await context.close();
});
