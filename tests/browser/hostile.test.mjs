// The hostile course in a real browser: hostile text in every authored field
// (prompt, options, notes, explanation, glossary, a dump line from a real
// `jax.named_scope`) must show as text and run nothing, before or after the
// learner answers, reveals, hovers a term and clicks every link.
//
// The book is built by the Rust test `hostile_course_data_stays_text`
// (`cargo test -p mdbook-dumplab --test hostile`) into
// target/tmp/hostile/book; `cargo xtask test` runs that first and passes the
// folder as DUMPLAB_HOSTILE_BOOK.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, screenshot, repoRoot } from './support.mjs';

const bookDir = path.resolve(process.env.DUMPLAB_HOSTILE_BOOK ?? path.join(repoRoot, 'target', 'tmp', 'hostile', 'book'));
let server;
let browser;

before(async () => {
  if (!fs.existsSync(path.join(bookDir, 'lesson.html'))) {
    throw new Error(`no hostile book at ${bookDir}: run \`cargo test -p mdbook-dumplab --test hostile\` first (cargo xtask test does)`);
  }
  server = await serve(bookDir);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `page`, recording dialogs and anything the page's scripts set. */
async function open(page) {
  const opened = await openPage(browser, server.url, page);
  const dialogs = [];
  opened.page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return { ...opened, dialogs };
}

async function pwned(page) {
  return page.evaluate(() => window.__pwned);
}

for (const name of ['lesson.html', 'glossary.html']) {
  test(`${name}: hostile course text runs nothing`, async () => {
    const { context, page, errors, dialogs } = await open(name);
    assert.equal(await pwned(page), undefined, 'a script ran on load');
    assert.doesNotMatch(await page.title(), /PWNED/);
    // Answer, reveal and retry every question; hover every term.
    for (const q of await page.locator('.dumplab-q').all()) {
      const option = q.locator('input[type=radio]').first();
      if (await option.count()) await option.check();
      const line = q.locator('.dl-line').first();
      if ((await q.getAttribute('data-mode')) === 'lines' && (await line.count())) await line.click();
      await q.locator('.dumplab-check').click();
      const show = q.locator('.dumplab-show');
      if (await show.isVisible()) await show.click();
    }
    for (const term of await page.locator('main .dumplab-term').all()) {
      await term.hover();
      await term.focus();
    }
    // Every link on the page: none may run script when followed.
    const hrefs = await page.locator('main a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of hrefs) assert.doesNotMatch(href, /^\s*(javascript|data|vbscript):/i, href);
    assert.equal(await pwned(page), undefined, 'a script ran after interaction');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors.map(String), []);
    // The hostile text is shown, as text.
    const text = await page.locator('main').innerText();
    if (name === 'lesson.html') {
      assert.match(text, /\{\{#include \.\.\/\.\.\/secret\.txt\}\}/);
      assert.match(text, /<\/script><script>window\.__pwned=1<\/script>/);
    }
    assert.equal(await page.locator('main h1, main h2').filter({ hasText: 'INJECTED' }).count(), 0);
    await screenshot(page, `hostile-${path.basename(name, '.html')}`, { fullPage: true });
    await context.close();
  });
}
