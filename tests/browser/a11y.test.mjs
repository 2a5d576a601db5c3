// axe-core on every page of the book, in all five themes, mdBook's own
// chrome included: no serious or critical violation anywhere. mdBook's
// template and colours are overridden where they failed (theme/index.hbs,
// theme/chrome.css; ARCHITECTURE.md says what differs from upstream).
// All five themes at 1280x800; light and coal at a 390x844 phone width too;
// print.html (every chapter on one page) in light.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { openPage, bookDir, THEMES, useBook } from './support.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const book = useBook();

const pages = fs.readdirSync(bookDir).filter((f) => f.endsWith('.html') && !['print.html', 'toc.html'].includes(f));

/** Serious and critical violations on the open page, one line per node. */
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const r = await page.evaluate(() => axe.run({ resultTypes: ['violations'] }));
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${String(n.target)}: ${n.failureSummary?.split('\n').slice(1, 2).join(' ') ?? ''}`));
}

async function scan(theme, viewport, list = pages) {
  const found = [];
  for (const p of list) {
    const { page, context } = await openPage(book.browser, book.server.url, p, { theme, viewport });
    for (const v of await violations(page)) found.push(`${p} ${theme} ${viewport.width}: ${v}`);
    await context.close();
  }
  return found;
}

test('the book has its pages', () => {
  assert.ok(pages.length >= 12, `pages: ${pages}`);
  for (const p of ['index.html', '404.html', 'two-dumps.html', 'answer-key.html', 'glossary.html']) assert.ok(pages.includes(p), p);
});

for (const theme of THEMES) {
  test(`every page in ${theme} at 1280x800: no serious or critical axe violation`, async () => {
    assert.deepEqual(await scan(theme, { width: 1280, height: 800 }), []);
  });
}

for (const theme of ['light', 'coal']) {
  test(`every page in ${theme} at 390x844: no serious or critical axe violation`, async () => {
    assert.deepEqual(await scan(theme, { width: 390, height: 844 }), []);
  });
}

// What only shows after a reader acts: a glossary tooltip with its link,
// and a question's feedback after "Show answer".
for (const theme of THEMES) {
  test(`an open tooltip and revealed feedback in ${theme}: no serious or critical axe violation`, async () => {
    const { page, context } = await openPage(book.browser, book.server.url, 'fusion.html', { theme, viewport: { width: 1280, height: 800 } });
    const box = page.locator('[data-dumplab-question]').first();
    await box.locator('.dumplab-show').click();
    await box.locator('.dumplab-verdict').waitFor();
    await page.locator('.dumplab-term').first().focus();
    await page.locator('.dumplab-tooltip:not([hidden])').waitFor();
    assert.deepEqual(await violations(page), []);
    await context.close();
  });
}

test('print.html in light: no serious or critical axe violation', async () => {
  assert.deepEqual(await scan('light', { width: 1280, height: 800 }, ['print.html']), []);
});

test("mdBook's sidebar toggle is a button a keyboard can use, its state announced", async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const { page, context, errors } = await openPage(book.browser, book.server.url, 'fusion.html', { viewport: { width, height } });
    const toggle = page.locator('#mdbook-sidebar-toggle');
    assert.equal(await toggle.evaluate((b) => b.tagName), 'BUTTON');
    const visible = () => page.evaluate(() => document.documentElement.classList.contains('sidebar-visible'));
    const start = await visible();
    assert.equal(await toggle.getAttribute('aria-expanded'), String(start));
    await toggle.focus();
    for (const want of [!start, start]) {
      await page.keyboard.press('Enter');
      await page.waitForFunction((w) => document.documentElement.classList.contains('sidebar-visible') === w, want);
      assert.equal(await toggle.getAttribute('aria-expanded'), String(want), `${width}: aria-expanded follows`);
      assert.equal(await page.locator('#mdbook-sidebar').getAttribute('aria-hidden'), String(!want));
      await page.waitForTimeout(350); // mdBook's slide
      assert.equal(await page.locator('#mdbook-sidebar a.active').isVisible(), want, `${width}: the sidebar ${want ? 'shows' : 'hides'}`);
    }
    assert.deepEqual(errors.map(String), []);
    await context.close();
  }
});
