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
    const t = await page.evaluate(() => performance.now());
    times.push(t);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
const median = times.length % 2 ? times[(times.length - 1) / 2] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
console.log(`first question answerable after navigation, median of ${runs} cold loads (Chromium, loopback):`);
console.log(`  ${median.toFixed(1)} ms (all: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
