// Benchmark, not a test (no assertions): time from navigation to the first
// exercise question being answerable (the wasm checker loaded and the
// question marked ready), median of N cold loads. Run by `cargo xtask bench`.
//
// usage: node tests/browser/bench-ready.mjs [RUNS]

import { serve, launch } from './support.mjs';

/** A question is answerable once the page marks it ready for input. */
export const READY = '[data-dumplab-question][data-ready]';

const runs = Number(process.argv[2] ?? 5);
const server = await serve();
const browser = await launch();
const times = [];
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(new URL('two-dumps.html', server.url).href);
    await page.waitForSelector(READY, { timeout: 30000 });
    // The page stamps the moment it became answerable; the browser's own
    // DOMContentLoaded of the same load is the baseline beside it.
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      return {
        ready: Number(document.documentElement.dataset.dumplabReadyMs ?? performance.now()),
        dcl: nav ? nav.domContentLoadedEventEnd : NaN,
      };
    });
    times.push(t);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ready = median(times.map((t) => t.ready));
const dcl = median(times.map((t) => t.dcl));
console.log(`lesson page, median of ${runs} cold loads (Chromium, loopback), from navigation start:`);
console.log(`  DOMContentLoaded (baseline)          ${dcl.toFixed(1)} ms`);
console.log(`  first question answerable            ${ready.toFixed(1)} ms (${(ready / dcl).toFixed(2)}x the baseline)`);
console.log(`  all loads, answerable: ${times.map((t) => t.ready.toFixed(0)).join(', ')} ms`);
