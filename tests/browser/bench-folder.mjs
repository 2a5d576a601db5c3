// Benchmark, not a test (no assertions): "The dump folder" in Chromium, the
// index of a real dump folder against reading the same folder natively, in
// one run:
//   - the page: the folder picked with the folder input until its modules are
//     listed (names and sizes only: the `folder-index` request), wall time
//     from the pick and the page's own figure (`data-index-ms`, from the
//     change event), median of RUNS, the first pick of a fresh page apart
//     (it starts the checker's worker); the same folder as a stored zip;
//   - the same names, 100,000 of them (the real folder's names repeated under
//     as many module ids as it takes), as a zip picked in the page;
//   - natively: `mdbook-dumplab folder DIR --json` on the real folder and on
//     the 100,000 empty files (it reads every file and tells each module's
//     pass story, more than the page's index does), median of RUNS.
// Prints one line per figure and the ratio page / native.
//
// usage: node tests/browser/bench-folder.mjs [RUNS] [DIR]
// DIR: a dump folder; by default the course's fixture folder with the most
// files (fixtures/*/folder.*). DUMPLAB_CLI: the command line (default the
// release build, else the debug one).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, repoRoot } from './support.mjs';

const runs = Number(process.argv[2] ?? 5);
const count = (dir) => {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? count(path.join(dir, e.name)) : 1;
  return n;
};
function largest() {
  const fx = path.join(repoRoot, 'fixtures');
  const dirs = fs.readdirSync(fx).flatMap((fam) => {
    const d = path.join(fx, fam);
    return fs.statSync(d).isDirectory() ? fs.readdirSync(d).filter((x) => x.startsWith('folder.')).map((x) => path.join(d, x)) : [];
  });
  return dirs.map((d) => [count(d), d]).sort((a, b) => b[0] - a[0])[0][1];
}
const dir = path.resolve(process.argv[3] ?? largest());
const cli = process.env.DUMPLAB_CLI ?? ['release', 'debug'].map((p) => path.join(repoRoot, 'target', p, 'mdbook-dumplab')).find((p) => fs.existsSync(p));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The folder's files: relative paths. */
function names(d, prefix = '') {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? names(path.join(d, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}
const real = names(dir);
// 100,000 names: the real ones under module ids 0000, 0001, ...
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dumplab-bench-folder-'));
const many = [];
for (let m = 0; many.length < 100000; m++) {
  const id = `module_${String(m).padStart(4, '0')}`;
  for (const n of real) if (many.length < 100000) many.push(n.replace(/^module_\d{4}/, id));
}
const manyDir = path.join(tmp, 'many');
for (const n of many) {
  fs.mkdirSync(path.dirname(path.join(manyDir, n)), { recursive: true });
  fs.writeFileSync(path.join(manyDir, n), '');
}
// The same as a stored zip (its central directory is what the page reads).
function storedZip(list) {
  const parts = [];
  const central = [];
  let at = 0;
  for (const n of list) {
    const name = Buffer.from(n);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(name.length, 26);
    parts.push(head, name);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(at, 42);
    central.push(c, name);
    at += 30 + name.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(list.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(list.length, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...parts, cd, end]);
}
// Over 65,535 entries a zip needs Zip64's end records; the count field is
// only a hint here, the page walks the directory: write Zip64 properly.
function zip64(list) {
  const body = storedZip(list);
  const end = body.subarray(body.length - 22);
  const cdSize = end.readUInt32LE(12);
  const cdOff = end.readUInt32LE(16);
  const rec = Buffer.alloc(56);
  rec.writeUInt32LE(0x06064b50, 0);
  rec.writeBigUInt64LE(44n, 4);
  rec.writeBigUInt64LE(BigInt(list.length), 24);
  rec.writeBigUInt64LE(BigInt(list.length), 32);
  rec.writeBigUInt64LE(BigInt(cdSize), 40);
  rec.writeBigUInt64LE(BigInt(cdOff), 48);
  const loc = Buffer.alloc(20);
  loc.writeUInt32LE(0x07064b50, 0);
  loc.writeBigUInt64LE(BigInt(cdOff + cdSize), 8);
  loc.writeUInt32LE(1, 16);
  const eocd = Buffer.from(end);
  eocd.writeUInt16LE(0xffff, 8);
  eocd.writeUInt16LE(0xffff, 10);
  return Buffer.concat([body.subarray(0, body.length - 22), rec, loc, eocd]);
}
/** A stored zip of the files `list` of `d`, with their bytes. */
function zipOf(d, list) {
  const parts = [];
  const central = [];
  let at = 0;
  for (const n of list) {
    const name = Buffer.from(n);
    const data = fs.readFileSync(path.join(d, n));
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(name.length, 26);
    parts.push(head, name, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(at, 42);
    central.push(c, name);
    at += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(list.length, 8);
  end.writeUInt16LE(list.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...parts, cd, end]);
}
const manyZip = path.join(tmp, 'many.zip');
fs.writeFileSync(manyZip, zip64(many));

const server = await serve();
const browser = await launch();
const page = { cold: [], warm: [], own: [], zip: [], many: [], manyOwn: [] };
const realZip = path.join(tmp, 'real.zip');
fs.writeFileSync(realZip, zipOf(dir, real));
try {
  for (let r = 0; r < runs; r++) {
    // A folder input takes one directory per page (Playwright hangs on a
    // second), so: a fresh page for the first pick, another where the
    // worker is started by two zips before the folder is picked.
    for (const warm of [false, true]) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(new URL('playground.html', server.url).href);
      await tab.locator('.dlp-folder').waitFor();
      const pick = async (sel, file, into, own) => {
        await tab.evaluate(() => delete document.querySelector('.dlp-folder').dataset.indexMs);
        const t0 = performance.now();
        await tab.locator(sel).setInputFiles(file);
        await tab.waitForFunction(() => document.querySelector('.dlp-folder').dataset.indexMs || document.querySelector('.dlp-folder-error').textContent, null, { timeout: 60000 });
        into.push((performance.now() - t0) / 1000);
        const err = await tab.locator('.dlp-folder-error').textContent();
        if (err) throw new Error(err);
        own.push(Number(await tab.evaluate(() => document.querySelector('.dlp-folder').dataset.indexMs)) / 1000);
      };
      if (!warm) await pick('.dlp-folder-dir', dir, page.cold, []);
      else {
        // (A file input fires no change for the file it holds already.)
        await pick('.dlp-folder-zip', realZip, [], []);
        await pick('.dlp-folder-zip', manyZip, page.many, page.manyOwn);
        await pick('.dlp-folder-zip', realZip, page.zip, []);
        await pick('.dlp-folder-dir', dir, page.warm, page.own);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
const native = (d) => {
  const times = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    execFileSync(cli, ['folder', d, '--json'], { maxBuffer: 1 << 30, stdio: ['ignore', 'ignore', 'inherit'] });
    times.push((performance.now() - t0) / 1000);
  }
  return median(times);
};
const nReal = native(dir);
const nMany = native(manyDir);
const s = (x) => `${x.toFixed(3)} s`;
console.log(`dump folder index, median of ${runs} (Chromium, loopback; native: ${path.relative(repoRoot, cli)}):`);
console.log(`  ${path.relative(repoRoot, dir)}: ${real.length} files`);
console.log(`    page, first pick (starts the worker)   ${s(median(page.cold))}`);
console.log(`    page, picked, the worker started       ${s(median(page.warm))} (the page's own figure ${s(median(page.own))})`);
console.log(`    page, a zip of it (stored)             ${s(median(page.zip))}`);
console.log(`    native, folder --json                  ${s(nReal)} (page / native ${(median(page.warm) / nReal).toFixed(2)}x)`);
console.log(`  100,000 names (the same, repeated under ${Math.ceil(100000 / real.length)} module ids)`);
console.log(`    page, a zip of them                    ${s(median(page.many))} (the page's own figure ${s(median(page.manyOwn))})`);
console.log(`    native, folder --json on empty files   ${s(nMany)} (page / native ${(median(page.many) / nMany).toFixed(2)}x)`);
fs.rmSync(tmp, { recursive: true, force: true });
