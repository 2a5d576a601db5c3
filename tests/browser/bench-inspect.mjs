// Benchmark, not a test (no assertions): the playground's analysis of large
// compiled dumps in Chromium. For each dump (a path under the served book):
//   - the wasm call alone (`dumplab_inspect`, the same function `cargo bench
//     --bench inspect` times natively), median of RUNS, on the main thread;
//   - the page end to end: the file picked in the playground, read, analysed
//     in its worker and the report drawn, with the longest main-thread task
//     seen meanwhile (PerformanceObserver `longtask`);
//   - the same text pasted (Ctrl+V from the clipboard), end to end, with its
//     longest task.
// Prints per dump: `wasm-cost FILE BYTES SECONDS` (the cost request alone),
// then `wasm FILE BYTES SECONDS` and, for the pick and then the paste,
// `WALL_SECONDS LONGEST_TASK_MS STATUS_SECONDS` (what the page's status said
// it took).
// Run by `cargo xtask bench`.
//
// usage: node tests/browser/bench-inspect.mjs RUNS BOOK_RELATIVE_PATH...

import path from 'node:path';
import { serve, launch, bookDir } from './support.mjs';

const runs = Number(process.argv[2] ?? 3);
const files = process.argv.slice(3);
const server = await serve();
const browser = await launch();
try {
  for (const file of files) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(new URL('playground.html', server.url).href);
    const timeWasm = (head) => page.evaluate(
      async ({ url, runs, head }) => {
        if (typeof window.dumplabPlaygroundWasm !== 'string') {
          await new Promise((resolve, reject) => {
            const s = document.createElement('script');
            s.src = 'dumplab-playground-wasm.js';
            s.onload = resolve;
            s.onerror = reject;
            document.head.append(s);
          });
        }
        const bin = atob(window.dumplabPlaygroundWasm);
        const mod = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) mod[i] = bin.charCodeAt(i);
        // Gzipped by `cargo xtask wasm` (older scripts carry raw wasm).
        const gz = mod[0] === 0x1f && mod[1] === 0x8b;
        const wasmBytes = gz ? await new Response(new Blob([mod]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() : mod;
        const ex = (await WebAssembly.instantiate(wasmBytes, {})).instance.exports;
        const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
        head = new TextEncoder().encode(head);
        const times = [];
        for (let r = 0; r < runs; r++) {
          const len = head.length + body.length;
          const p = ex.dumplab_alloc(len);
          const mem = new Uint8Array(ex.memory.buffer);
          mem.set(head, p);
          mem.set(body, p + head.length);
          const t0 = performance.now();
          const reply = ex.dumplab_inspect(p, len);
          times.push((performance.now() - t0) / 1000);
          const n = new DataView(ex.memory.buffer).getUint32(reply, true);
          ex.dumplab_free(p, len);
          ex.dumplab_free(reply, n + 4);
        }
        times.sort((a, b) => a - b);
        return { bytes: body.length, median: times[Math.floor(times.length / 2)] };
      },
      { url: new URL(file, server.url).href, runs, head },
    );
    const wasm = await timeWasm('inspect\n');
    // The cost ledger, the playground's `cost` request (default chip).
    const cost = await timeWasm('cost\n\n');
    console.log(`wasm-cost ${path.basename(file)} ${cost.bytes} ${cost.median.toFixed(6)}`);
    // The page end to end, in a fresh tab: picked, then pasted.
    const endToEnd = async (give, prepare) => {
      const tab = await context.newPage();
      await tab.goto(new URL('playground.html', server.url).href);
      if (prepare) await prepare(tab);
      await tab.evaluate(() => {
        window.__longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
        }).observe({ type: 'longtask', buffered: false });
      });
      const t0 = Date.now();
      await give(tab);
      await tab.waitForFunction(() => /^Analysed|could not/.test(document.querySelector('.dlp-status').textContent), null, { timeout: 120000 });
      const secs = (Date.now() - t0) / 1000;
      const longest = await tab.evaluate(() => window.__longest);
      // What the page said it took (`Analysed … in N s.`), beside the wall time.
      const said = /in ([0-9.]+) s\./.exec(await tab.locator('.dlp-status').textContent());
      await tab.close();
      return `${secs.toFixed(3)} ${longest.toFixed(0)} ${said ? said[1] : 'NaN'}`;
    };
    const pick = await endToEnd((tab) => tab.locator('.dlp-input[data-slot="0"] .dlp-file').setInputFiles(path.join(bookDir, file)));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const paste = await endToEnd(
      async (tab) => {
        await tab.locator('#dlp-text-0').focus();
        await tab.keyboard.press('Control+V');
      },
      // On the clipboard before the clock starts: the reader copied it earlier.
      (tab) => tab.evaluate(async (url) => navigator.clipboard.writeText(await (await fetch(url)).text()), new URL(file, server.url).href),
    );
    console.log(`wasm ${path.basename(file)} ${wasm.bytes} ${wasm.median.toFixed(6)} ${pick} ${paste}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
