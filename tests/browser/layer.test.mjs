// What each built page loads of DumpLab (no browser, nothing timed): the
// playground's script and style only where the page holds the playground
// block, and every other page's DumpLab layer (the files under theme/ that
// it loads, the grading module inside theme/dumplab-wasm.js included) within
// 40 KiB gzipped, computed from the built files as `cargo xtask bench`
// reports it (gzip -9).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { bookDir } from './support.mjs';

const BUDGET = 40 * 1024;
const PLAYGROUND = /(^|\/)dumplab-playground[^/]*\.(js|css)$/;

/** Every built HTML page under `dir`, as paths relative to the book. */
function pages(dir = bookDir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...pages(path.join(dir, e.name), r));
    else if (e.name.endsWith('.html')) out.push(r);
  }
  return out;
}

/** The scripts and style sheets a page loads, resolved to book paths. */
function loads(page, html) {
  const urls = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g),
  ].map((m) => m[1]);
  return urls
    .filter((u) => !/^[a-z]+:/i.test(u))
    .map((u) => path.posix.normalize(path.posix.join(path.posix.dirname(page), u.split(/[?#]/)[0])));
}

const gz = new Map();
function gzipped(file) {
  if (!gz.has(file)) gz.set(file, zlib.gzipSync(fs.readFileSync(path.join(bookDir, file)), { level: 9 }).length);
  return gz.get(file);
}

const all = pages().map((page) => {
  const html = fs.readFileSync(path.join(bookDir, page), 'utf8');
  return { page, html, files: loads(page, html) };
});

test('the book has pages, the playground page and pages with live maps among them', () => {
  assert.ok(all.length > 10, `${all.length} pages`);
  assert.ok(all.some((p) => p.html.includes('data-dumplab-playground')), 'a page holds the playground');
  assert.ok(all.some((p) => p.html.includes('data-dumplab-livemap')), 'a page holds a live map');
});

test('only a page holding the playground loads its script and style', () => {
  for (const { page, html, files } of all) {
    for (const f of files) assert.ok(fs.existsSync(path.join(bookDir, f)), `${page} loads ${f}, which is not in the book`);
    const own = files.filter((f) => PLAYGROUND.test(f));
    if (html.includes('data-dumplab-playground')) {
      assert.deepEqual(own.map((f) => path.posix.basename(f)).sort(), ['dumplab-playground-collectives.js', 'dumplab-playground-diff.js', 'dumplab-playground-explain.js', 'dumplab-playground-folder.js', 'dumplab-playground-invisible.js', 'dumplab-playground-ledger.js', 'dumplab-playground-why.js', 'dumplab-playground.css', 'dumplab-playground.js'], page);
    } else {
      assert.deepEqual(own, [], `${page} loads the playground's files`);
    }
    // The lessons' live maps light up with theme/livemap.js, on every page.
    if (html.includes('data-dumplab-livemap')) assert.ok(files.some((f) => /^theme\/livemap-[0-9a-f]+\.js$/.test(f)), `${page}: no livemap.js`);
  }
});

test("every other page's DumpLab layer fits in 40 KiB gzipped", () => {
  const rows = [];
  for (const { page, html, files } of all) {
    if (html.includes('data-dumplab-playground')) continue;
    const layer = files.filter((f) => f.startsWith('theme/'));
    if (!layer.length) continue;
    const total = layer.reduce((n, f) => n + gzipped(f), 0);
    rows.push([page, total]);
    const list = layer.map((f) => `${f} ${gzipped(f)} B`).join(', ');
    assert.ok(
      total <= BUDGET,
      `${page} loads ${(total / 1024).toFixed(1)} KiB of theme/ gzipped, over ${BUDGET / 1024} KiB: ${list}` +
        (layer.some((f) => f.includes('dumplab-wasm') && gzipped(f) > 20000) ? ' (is theme/dumplab-wasm.js still raw wasm? `cargo xtask wasm` writes it gzipped)' : ''),
    );
  }
  assert.ok(rows.length > 10, `${rows.length} pages with a DumpLab layer`);
});
