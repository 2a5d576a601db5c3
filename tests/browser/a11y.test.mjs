// axe-core on every page of the book, at desktop and phone width.
// - Light theme: no serious or critical violation at all, except mdBook's
//   sidebar toggle (`#mdbook-sidebar-toggle`, an `aria-label` on a `<label>`:
//   mdBook's own chrome).
// - All five themes: none on DumpLab's own elements (questions, dumps,
//   tooltips, maps, the playground). mdBook's dark themes have contrast
//   problems of their own (sidebar, links); they are not ours to fail on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { openPage, bookDir, THEMES, useBook } from './support.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const MDBOOK_CHROME = ['#mdbook-sidebar-toggle'];
const book = useBook();

const pages = fs
  .readdirSync(bookDir)
  .filter((f) => f.endsWith('.html') && !['print.html', 'toc.html', '404.html', 'index.html'].includes(f));

async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const r = await page.evaluate(() => axe.run({ resultTypes: ['violations'] }));
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => ({ id: v.id, target: String(n.target), html: n.html })))
    .filter((n) => !MDBOOK_CHROME.some((c) => n.target.includes(c)));
}

/** Whether a violating node is DumpLab's markup rather than mdBook's. */
const ours = (n) => /dumplab|dlp-|dl-|data-dumplab/.test(n.target + n.html);

test('every page in light, at 1280 and 390: no serious or critical axe violation', async () => {
  assert.ok(pages.length >= 10, `pages: ${pages}`);
  const found = [];
  for (const width of [1280, 390]) {
    for (const p of pages) {
      const { page, context } = await openPage(book.browser, book.server.url, p, { viewport: { width, height: 800 } });
      for (const v of await violations(page)) found.push(`${p} ${width}: ${v.id} at ${v.target}`);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});

test('every page in all five themes: none on DumpLab\'s own elements', async () => {
  const found = [];
  for (const theme of THEMES) {
    for (const p of pages) {
      const { page, context } = await openPage(book.browser, book.server.url, p, { theme });
      for (const v of (await violations(page)).filter(ours)) found.push(`${p} ${theme}: ${v.id} at ${v.target}`);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});
