// Shared set-up of the browser tests: serve the built book over HTTP on a free
// loopback port and drive Debian's Chromium through playwright-core.
//
// The book must have been built first (`cargo xtask test` does it); set
// DUMPLAB_BOOK to test another build directory.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const bookDir = path.resolve(process.env.DUMPLAB_BOOK ?? path.join(repoRoot, 'book'));
/** Screenshots land here so that people can look at them. */
export const shotsDir = path.join(repoRoot, 'target', 'screenshots');

/** The five themes that mdBook ships. */
export const THEMES = ['light', 'rust', 'coal', 'navy', 'ayu'];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** Serves `root` on 127.0.0.1; resolves to { url, close }. */
export function serve(root = bookDir) {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`no built book at ${root}: run \`cargo xtask test\` (it builds the book first)`);
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Launches headless Chromium (Debian's, or CHROMIUM_PATH). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens `page` of the book in a fresh context with mdBook's theme preset
 * (mdBook reads `mdbook-theme` from localStorage before first paint).
 */
export async function openPage(browser, baseUrl, page, { theme = 'light', javaScriptEnabled = true, viewport } = {}) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: viewport ?? { width: 1280, height: 900 } });
  await context.addInitScript((t) => {
    try {
      localStorage.setItem('mdbook-theme', t);
    } catch {
      /* storage may be off; the default theme is fine then */
    }
  }, theme);
  const tab = await context.newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e));
  await tab.goto(new URL(page, baseUrl).href, { waitUntil: 'load' });
  return { context, page: tab, errors };
}

/** Writes a screenshot under target/screenshots/ and returns its path. */
export async function screenshot(page, name, options = {}) {
  fs.mkdirSync(shotsDir, { recursive: true });
  const file = path.join(shotsDir, `${name}.png`);
  await page.screenshot({ path: file, ...options });
  return file;
}

/**
 * For a test file: serves `root` and launches Chromium before its tests,
 * closes both after them. Read `book.server` and `book.browser` inside tests.
 */
export function useBook(root = bookDir) {
  const book = { server: null, browser: null };
  before(async () => {
    book.server = await serve(root);
    book.browser = await launch();
  });
  after(async () => {
    await book.browser?.close();
    await book.server?.close();
  });
  return book;
}

/** Question `id` on `page`. */
export const question = (page, id) => page.locator(`[data-dumplab-question="${id}"]`);

/**
 * Presses "Show answer" on question box `box` and reads the answer the
 * page's checker revealed: `{ mode, answer }`, where `answer` is an option
 * value, a number as typed, or the selected line numbers.
 */
export async function revealAnswer(box) {
  await box.locator('.dumplab-show').click();
  await box.locator('.dumplab-verdict').waitFor();
  const mode = await box.getAttribute('data-mode');
  let answer;
  if (mode === 'single') answer = await box.locator('.dumplab-option.dl-right').getAttribute('data-option');
  else if (mode === 'number') answer = await box.locator('.dumplab-number input').inputValue();
  else answer = await box.locator('.dl-line[aria-selected="true"]').evaluateAll((ls) => ls.map((l) => l.dataset.line));
  return { mode, answer };
}

/**
 * Presses Tab until `reached(document.activeElement)` holds in the page (a
 * function run there) and returns how many presses that took, or `max` + 1
 * when it never did.
 */
export async function tabsUntil(page, reached, max = 300) {
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(reached)) return n;
  }
  return max + 1;
}
