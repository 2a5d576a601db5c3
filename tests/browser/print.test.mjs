// print.html: the answer key appendix shows in print only and matches what
// each question's own checker reveals ("Show answer", the sealed key
// unsealed by the wasm); the instructors' chapter (book.toml `print-omit`)
// stays out of print.html but prints from its own page; the key answers no
// search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openPage, screenshot, bookDir, useBook } from './support.mjs';

const book = useBook();

/** Question ids in page order on `file`, with what "Show answer" reveals. */
async function revealed(file) {
  const { page, context } = await openPage(book.browser, book.server.url, file);
  await page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  const out = {};
  for (const id of await page.$$eval('[data-dumplab-question]', (qs) => qs.map((q) => q.dataset.dumplabQuestion))) {
    const box = page.locator(`[data-dumplab-question="${id}"]`);
    await box.locator('.dumplab-show').click();
    await page.waitForFunction((i) => document.querySelector(`[data-dumplab-question="${i}"]`).dataset.state === 'revealed', id);
    const mode = await box.getAttribute('data-mode');
    let ids;
    if (mode === 'single') ids = await box.locator('.dumplab-option.dl-right').evaluateAll((os) => os.map((o) => o.dataset.option));
    else if (mode === 'number') ids = [await box.locator('.dumplab-number input').inputValue()];
    else ids = await box.locator('.dl-line[aria-selected="true"]').evaluateAll((ls) => ls.map((l) => l.dataset.line));
    out[id] = ids.join(',');
  }
  await context.close();
  return out;
}

test('the answer key in print.html holds every question, each as its checker reveals it', async () => {
  const { page, context, errors } = await openPage(book.browser, book.server.url, 'print.html');
  const entries = await page.$$eval('.dumplab-key-entry', (es) =>
    es.map((e) => ({ id: e.dataset.dumplabKeyFor, answer: e.dataset.answer, href: e.querySelector('.dumplab-key-q a').getAttribute('href') })),
  );
  const printed = await page.$$eval('main [data-dumplab-question]', (qs) => qs.map((q) => q.dataset.dumplabQuestion));
  assert.ok(entries.length >= 20, `the key lists ${entries.length} questions`);
  assert.deepEqual(entries.map((e) => e.id), printed, 'one entry per question of the book, in book order');
  // In print.html each entry links to its question on the same page.
  for (const e of entries) {
    assert.ok(e.href.startsWith('#'), `${e.id}: ${e.href} stays in print.html`);
    assert.equal(await page.locator(`[id="${e.href.slice(1)}"]`).getAttribute('data-dumplab-question'), e.id);
  }
  // Against the checker, chapter by chapter (the key's own page links each
  // entry to its chapter).
  const web = await openPage(book.browser, book.server.url, 'answer-key.html');
  const chapterOf = Object.fromEntries(
    await web.page.$$eval('.dumplab-key-entry', (es) =>
      es.map((e) => [e.dataset.dumplabKeyFor, e.querySelector('.dumplab-key-q a').getAttribute('href').split('#')[0]]),
    ),
  );
  await web.context.close();
  const chapters = [...new Set(Object.values(chapterOf))];
  assert.ok(chapters.length >= 2, `chapters: ${chapters}`);
  let compared = 0;
  for (const file of chapters) {
    const truth = await revealed(file);
    for (const e of entries.filter((x) => chapterOf[x.id] === file)) {
      assert.equal(e.answer, truth[e.id], `${file} ${e.id}: the key says what "Show answer" says`);
      compared++;
    }
  }
  assert.equal(compared, entries.length, 'every entry was compared');
  // Print only: hidden on screen (a note says where it is), shown in print.
  const key = page.locator('.dumplab-answer-key .dumplab-key-chapter').first();
  assert.equal(await key.isVisible(), false, 'not on screen');
  assert.equal(await page.locator('.dumplab-key-screen').isVisible(), true, 'a note on screen says where the key is');
  await page.emulateMedia({ media: 'print' });
  assert.equal(await key.isVisible(), true, 'in print');
  assert.equal(await page.locator('.dumplab-key-screen').isVisible(), false);
  assert.match(await page.locator('.dumplab-key-entry').first().textContent(), /Answer:/);
  await key.scrollIntoViewIfNeeded();
  await screenshot(key, 'print-answer-key');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test("the instructors' chapter is left out of print.html, not out of its own page", async () => {
  const { page, context } = await openPage(book.browser, book.server.url, 'print.html');
  await page.emulateMedia({ media: 'print' });
  const omitted = page.locator('main > .dumplab-print-omit');
  assert.equal(await omitted.count(), 1, 'one chapter is omitted (book.toml print-omit)');
  assert.match(await omitted.locator('h1').first().textContent(), /Adding fixtures and exercises/);
  assert.equal(await omitted.isVisible(), false, 'not printed');
  const pageBreak = await omitted.evaluate((o) => getComputedStyle(o.previousElementSibling).display);
  assert.equal(pageBreak, 'none', 'nor the page break before it (no blank page)');
  const others = await page.locator('main h1:visible').count();
  assert.ok(others >= 10, `the other chapters print (${others} titles)`);
  await page.emulateMedia({ media: 'screen' });
  assert.equal(await omitted.isVisible(), false, 'print.html on screen leaves it out too');
  await context.close();

  const own = await openPage(book.browser, book.server.url, 'instructors.html');
  await own.page.emulateMedia({ media: 'print' });
  assert.equal(await own.page.locator('main h1').first().isVisible(), true, 'its own page prints');
  await own.context.close();
});

test('the answer key answers no search', () => {
  const index = fs.readdirSync(bookDir).find((f) => /^searchindex-[0-9a-f]+\.js$/.test(f));
  const text = fs.readFileSync(path.join(bookDir, index), 'utf8');
  assert.ok(text.includes('two-dumps.html'), 'the index lists chapters');
  assert.ok(!text.includes('answer-key.html'), 'but not the answer key');
});
