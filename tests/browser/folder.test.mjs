// "The dump folder" on the playground page (src/dumplab-playground-folder.js):
// a real --xla_dump_to folder (the softmax family's CPU folder, copied into a
// temporary folder) picked with the folder input, and a zip of it picked and
// dropped: the modules, the pass timeline against the files
// themselves (each numbered file changed or not against the one before it),
// the before/after view, the "first file where" box, the memory table
// against compiled.memory_analysis() as the generator recorded it in the
// family's fixture.toml (and a donated folder's aliasing); the
// hostile zips with small limits (a bomb by ratio, an entry that lies about
// its size, a zip that unpacks past the total, too many entries, `../` and
// absolute names, a file over the size limit, a binary file named .txt, a
// truncated zip), each with one message and the page still working after,
// and a zip whose every name is refused saying no module could be read;
// opening a file's before/after moving the focus to it (and back); 1280
// and 390 px with nothing overflowing, every memory figure visible, every
// column of the largest buffers readable without scrolling, and axe clean.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { openPage, repoRoot, screenshot, useBook } from './support.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const book = useBook();
const REAL = path.join(repoRoot, 'fixtures/softmax/folder.cpu');
const DONATED = path.join(repoRoot, 'fixtures/dynamic_update_loop/folder.cpu.donated');

/** compiled.memory_analysis() of a fixture folder, from its family's
 *  fixture.toml (`[provenance.folders."NAME".memory_analysis]`). */
function oracle(dir) {
  const toml = fs.readFileSync(path.join(path.dirname(dir), 'fixture.toml'), 'utf8').split('\n');
  const head = `[provenance.folders."${path.basename(dir)}".memory_analysis]`;
  const out = {};
  for (let i = toml.indexOf(head) + 1; i > 0 && i < toml.length && /^\w+ = \d+$/.test(toml[i]); i++) {
    const [k, v] = toml[i].split(' = ');
    out[k] = Number(v);
  }
  return out;
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dumplab-folder-'));

/** The real folder's files, relative paths with their bytes (subfolders too). */
function files(dir, prefix = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, `${prefix}${e.name}/`));
    else out.push({ name: `${prefix}${e.name}`, data: fs.readFileSync(p) });
  }
  return out;
}
const real = files(REAL);
// The folder as a reader has it: copied under a folder of its own name.
const folderDir = path.join(tmp, 'cpu_softmax');
for (const f of real) {
  fs.mkdirSync(path.dirname(path.join(folderDir, f.name)), { recursive: true });
  fs.writeFileSync(path.join(folderDir, f.name), f.data);
}

// ---- a small zip writer (stored or deflated entries; sizes may lie) ----------
const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf) => {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
/** A zip of `entries` [{ name, data, store, size (the size it states) }]. */
function zip(entries) {
  const locals = [];
  const central = [];
  let at = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = e.store ? e.data : zlib.deflateRawSync(e.data);
    const size = e.size ?? e.data.length;
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(e.store ? 0 : 8, 8);
    head.writeUInt32LE(crc32(e.data), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(size, 22);
    head.writeUInt16LE(name.length, 26);
    locals.push(head, name, packed);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(e.store ? 0 : 8, 10);
    c.writeUInt32LE(crc32(e.data), 16);
    c.writeUInt32LE(packed.length, 20);
    c.writeUInt32LE(size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(at, 42);
    central.push(c, name);
    at += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...locals, cd, end]);
}
const write = (name, buf) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, buf);
  return p;
};
// One entry stored, the rest deflated: both ways of the page's reader.
const realZip = write('cpu_softmax.zip', zip(real.map((f, i) => ({ ...f, store: i === 0 }))));

/** The numbered files by step, and whether each differs from the one before
 *  it (the first from before_optimizations), from the files themselves. */
function story() {
  const passes = real.filter((f) => /^module_0000\.jit_fn\.\d{4}\./.test(f.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  const before = real.find((f) => f.name.endsWith('.before_optimizations.txt'));
  return passes.map((f, i) => ({ name: f.name, changed: !f.data.equals(i ? passes[i - 1].data : before.data) }));
}

async function playground(viewport) {
  const opened = await openPage(book.browser, book.server.url, 'playground.html', { viewport });
  await opened.page.locator('.dlp-folder').waitFor();
  return opened;
}
const status = (page) => page.locator('.dlp-folder-status');
const alert = (page) => page.locator('.dlp-folder-error');
async function indexed(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('.dlp-folder');
    return s && !s.hasAttribute('aria-busy') && (document.querySelector('.dlp-folder-status').textContent || document.querySelector('.dlp-folder-error').textContent);
  });
}
async function openZip(page, file) {
  await page.locator('.dlp-folder-zip').setInputFiles(file);
  await indexed(page);
}
async function openModule(page) {
  await page.locator('.dlp-folder-open').first().click();
  await page.locator('.dlp-folder-body[data-ready], .dlp-folder-body .dlp-reason').first().waitFor();
}
/** Opening a before/after (or an instruction's line) moves the focus to the
 *  view's heading, which is in sight; its "Back" button returns the focus to
 *  `opener`. */
async function focusedView(page, opener) {
  await page.waitForFunction(() => document.activeElement && document.activeElement.matches('.dlp-folder-view > h4'), null, { timeout: 5000 });
  const r = await page.evaluate(() => {
    const b = document.activeElement.getBoundingClientRect();
    return { top: b.top, bottom: b.bottom, h: innerHeight, live: document.activeElement.closest('[aria-live]') !== null };
  });
  assert.ok(r.top >= 0 && r.bottom <= r.h, `the view's heading is out of sight: ${JSON.stringify(r)}`);
  assert.equal(r.live, false);
  await page.locator('.dlp-folder-back').click();
  assert.ok(await opener.evaluate((b) => b === document.activeElement), 'Back does not return the focus');
}
/** The timeline as the page shows it: [step, changed?] per file. */
const timeline = (page) =>
  page.locator('.dlp-folder-step').evaluateAll((lis) => lis.map((li) => [Number(li.dataset.step), li.classList.contains('dlp-step-changed')]));

/** The memory table of the open module against the fixture's oracle. */
async function memoryAgainst(page, dir) {
  const want = oracle(dir);
  assert.ok(Object.keys(want).length >= 5, `no memory_analysis for ${dir}`);
  const figures = await page.locator('.dlp-folder-figures dd').evaluateAll((dds) => Object.fromEntries(dds.map((d) => [d.dataset.key, d.textContent])));
  if (!Object.keys(figures).length) {
    assert.match(await page.locator('.dlp-folder-memory').textContent(), /No memory figures/);
    return false;
  }
  // Allocations by type: no type without allocations (the command line
  // omits those); rows adding up to more than the total say why.
  const types = page.locator('.dlp-caption[id^="dlp-folder-types-"]').locator('xpath=..');
  const counts = (await types.locator('tbody td:nth-child(2)').allTextContents()).map(Number);
  assert.ok(counts.length && counts.every((n) => n > 0), `${dir}: ${counts}`);
  const total = Number((await types.locator('.dlp-caption').textContent()).match(/(\d+) in all/)[1]);
  const sum = counts.reduce((a, b) => a + b, 0);
  if (sum > total) assert.match(await types.locator('.dlp-table-note').textContent(), new RegExp(`^The rows add up to ${sum}, more than the ${total} allocations: one allocation can have more than one type`));
  else assert.equal(await types.locator('.dlp-table-note').count(), 0);
  const shown = (n) => (n < 1024 ? `${n} B` : new RegExp(`\\(${n.toLocaleString('en-US')} B\\)$`));
  for (const [key, oracleKey] of [['argument_bytes', 'argument_size_in_bytes'], ['output_bytes', 'output_size_in_bytes'], ['alias_bytes', 'alias_size_in_bytes'], ['temp_bytes', 'temp_size_in_bytes'], ['peak_bytes', 'peak_memory_in_bytes']]) {
    const w = shown(want[oracleKey]);
    if (typeof w === 'string') assert.equal(figures[key], w, `${dir} ${key}`);
    else assert.match(figures[key], w, `${dir} ${key}`);
  }
  // The largest buffer's instruction: its line in the optimized module.
  const ins = page.locator('.dlp-folder-ins').first();
  const name = (await ins.textContent()).replace(/\{[^}]*\}$/, '');
  await ins.click();
  await page.locator('.dlp-folder-insline').waitFor();
  assert.match(await page.locator('.dlp-folder-insline').textContent(), new RegExp(`^\\d+\\s*(ROOT )?%?${name.replace(/[.]/g, '\\.')} = `));
  return true;
}

test('a real folder, picked: its module, the timeline against the files, before/after, first file where, memory', async () => {
  const { page, context, errors } = await playground();
  await page.locator('.dlp-folder-dir').setInputFiles(folderDir);
  await indexed(page);
  assert.equal(await alert(page).textContent(), '');
  assert.match(await status(page).textContent(), new RegExp(`cpu_softmax: ${real.length} files, 1 module, indexed in`));
  assert.match(await page.locator('.dlp-folder-open').textContent(), /^module_0000 jit_fn$/);
  await openModule(page);
  const want = story();
  const shown = await timeline(page);
  assert.deepEqual(shown, want.map((s) => [Number(s.name.split('.')[2]), s.changed]));
  // Unchanged runs are folded, closed, with their count.
  const folds = await page.locator('.dlp-folder-fold summary').allTextContents();
  const unchanged = want.filter((s) => !s.changed).length;
  assert.equal(folds.reduce((n, t) => n + Number(t.match(/^(\d+) files? with the same text/)[1]), 0), unchanged);
  assert.equal(await page.locator('.dlp-folder-fold details[open]').count(), 0);
  // Every changed file says what changed; no delta key went without words.
  for (const t of await page.locator('.dlp-step-changed .dlp-folder-delta').allTextContents()) {
    assert.ok(t && !/[{}"]/.test(t), t);
  }
  // algsimp (step 6): the before/after view shows its multiply.
  const step6Button = page.locator('.dlp-folder-step[data-step="6"] .dlp-folder-pass');
  await step6Button.click();
  await page.locator('.dlp-fd-hunks').waitFor();
  await focusedView(page, step6Button);
  const added = await page.locator('.dlp-fd-add .dlp-fd-t').allTextContents();
  assert.ok(added.some((t) => t.includes('ROOT %multiply = f32[512,1024]{1,0} multiply(%exp.1, %broadcast.1)')), added.join('\n'));
  assert.match(await page.locator('.dlp-folder-diffsum').textContent(), /Before: module_0000\.jit_fn\.0005\..*\d+ lines? removed, \d+ lines? added/);
  // One sentence in the live region says what the view shows; the view is not live.
  assert.match(await page.locator('.dlp-folder-live').textContent(), /^Below: the before\/after of step 0006, \d+ lines? removed, \d+ lines? added\.$/);
  assert.equal(await page.locator('.dlp-folder-view[aria-live]').count(), 0);
  // The search box: the first file where the multiply appears is step 6's.
  await page.locator('.dlp-folder-q').fill('multiply');
  await page.locator('.dlp-folder-find').click();
  await page.locator('.dlp-folder-found button').waitFor();
  const step6 = real.find((f) => f.name.startsWith('module_0000.jit_fn.0006.'));
  const line = String(step6.data).split('\n').findIndex((l) => l.includes(' %multiply = ')) + 1;
  assert.equal(await page.locator('.dlp-folder-found').textContent(), `First in step 0006 (${step6.name}), as an instruction's name: 1 instruction, multiply (line ${line}). Show its before/after`);
  await page.locator('.dlp-folder-found button').click();
  await page.locator('.dlp-fd-mark').waitFor();
  assert.match(await page.locator('.dlp-fd-mark').textContent(), /ROOT %multiply/);
  await focusedView(page, page.locator('.dlp-folder-found button'));
  await page.locator('.dlp-folder-q').fill('all-reduce');
  await page.locator('.dlp-folder-find').click();
  await page.waitForFunction(() => /appears in no file/.test(document.querySelector('.dlp-folder-found').textContent));
  // Memory: the figures equal compiled.memory_analysis() of this compile
  // wherever the checker gives them (its memory hooks wired; unwired, the
  // module says it has none).
  await memoryAgainst(page, REAL);
  assert.deepEqual(errors, []);
  await context.close();
});

test('invisible characters in a folder\'s names and files: each shown as ⟨U+…⟩, counted once', async () => {
  // A file name holding U+2066 (outside any module), the zip's own name
  // another, a U+202E and a word joiner (U+2060) inside op_names of the
  // module's first file.
  const before = real.find((f) => f.name.endsWith('.before_optimizations.txt'));
  const hostile = [...real.map((f) => (f === before ? { ...f, data: Buffer.from(String(f.data).replace('jit(fn)', 'jit(f\u202en)').replace('jit(fn)', 'jit(f\u2060n)')) } : f)), { name: 'notes\u2066.txt', data: Buffer.from('a note\n') }];
  const file = write('soft\u2066max.zip', zip(hostile));
  const raw = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
  for (const width of [390, 1280]) {
    const { page, context, errors } = await playground({ width, height: 900 });
    await openZip(page, file);
    const note = page.locator('.dlp-folder-out .dlp-invisible-note');
    assert.equal(await note.count(), 1, 'one note in the section');
    assert.match(await note.textContent(), /^Warning: this folder's names and the files read so far hold 2 invisible characters \(zero-width or bidi control: names: U\+2066 ×2\)\./);
    await openModule(page);
    assert.equal(await note.count(), 1, 'still one note');
    assert.match(await note.textContent(), /hold 4 invisible characters \(zero-width or bidi control: names: U\+2066 ×2; files read: U\+202E ×1, U\+2060 ×1\)\./);
    await page.locator('.dlp-folder').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await screenshot(page, `folder-invisible-${width}`, { fullPage: false });
    if (width === 1280) {
      // The status (the zip's name) and the files outside any module show
      // the characters; none is left raw in the section, attributes too.
      assert.match(await status(page).textContent(), /^soft⟨U\+2066⟩max\.zip: /);
      assert.equal(await page.locator('.dlp-folder-unknown li .dlp-invisible').textContent(), '⟨U+2066⟩');
      const text = await page.locator('.dlp-folder').evaluate((s) => s.textContent + Array.from(s.querySelectorAll('*'), (e) => Array.from(e.attributes, (x) => (x.name === 'value' ? '' : x.value)).join(' ')).join(' '));
      assert.doesNotMatch(text, raw);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a zip of it, picked and dropped, and the folder dropped: the same modules and timeline', async () => {
  const { page, context, errors } = await playground();
  await openZip(page, realZip);
  assert.match(await status(page).textContent(), new RegExp(`cpu_softmax.zip: ${real.length} files, 1 module`));
  await openModule(page);
  assert.deepEqual(await timeline(page), story().map((s) => [Number(s.name.split('.')[2]), s.changed]));
  await page.locator('.dlp-folder-step[data-step="17"] .dlp-folder-pass').click();
  await page.locator('.dlp-fd-hunks').waitFor();
  assert.ok((await page.locator('.dlp-fd-add .dlp-fd-t').allTextContents()).some((t) => t.includes('%broadcast_divide_fusion = f32[512]{0} fusion(')));
  // A zip of the folder itself (zip -r): its entries under the folder's
  // name, which is cut as a picked folder's is, folder entries skipped.
  await openZip(page, write('under.zip', zip([{ name: 'cpu_softmax/', data: Buffer.alloc(0), store: true }, ...real.map((f) => ({ ...f, name: `cpu_softmax/${f.name}` }))])));
  assert.match(await status(page).textContent(), new RegExp(`^under.zip: ${real.length} files, 1 module`));
  assert.equal(await page.locator('.dlp-folder-unknown').count(), 0);
  // A donated folder: its aliasing and memory figures.
  const donated = write('donated.zip', zip(files(DONATED)));
  await openZip(page, donated);
  await openModule(page);
  if (await memoryAgainst(page, DONATED)) assert.match(await page.locator('.dlp-folder-alias').textContent(), /parameter 0 → output \{\} \(may-alias\): both in allocation \d+; JAX paired them/);
  // The parameter not donated: the checker's own sentence, not a copy of it.
  assert.match(await page.locator('.dlp-folder-unaliased').textContent(), /parameter 1 f32\[128\] \(512 B\): it was not donated; or it was donated and JAX dropped it/);
  // Dropped on the box: read the same way.
  const bytes = [...fs.readFileSync(realZip)];
  await page.evaluate((b) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(b)], 'dropped.zip', { type: 'application/zip' }));
    document.querySelector('.dlp-folder-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, bytes);
  await page.waitForFunction(() => /^dropped\.zip: /.test(document.querySelector('.dlp-folder-status').textContent));
  // A dropped folder is walked through its entries (webkitGetAsEntry): here
  // a stand-in of the browser's entries holding the real files, read in
  // batches as readEntries gives them; past maxEntries the walk stops.
  const dropFolder = (list, limit) =>
    page.evaluate(([list, limit]) => {
      if (limit) window.dumplabFolder.LIMITS.maxEntries = limit;
      const dir = (name) => ({ name, isDirectory: true, kids: [], createReader() {
        const all = [...this.kids];
        return { readEntries: (ok) => setTimeout(() => ok(all.splice(0, 10))) };
      } });
      const root = dir('dropped_folder');
      for (const f of list) {
        const parts = f.name.split('/');
        let at = root;
        for (const p of parts.slice(0, -1)) {
          let d = at.kids.find((k) => k.name === p);
          if (!d) at.kids.push((d = dir(p)));
          at = d;
        }
        const file = new File([new Uint8Array(f.data)], parts[parts.length - 1]);
        at.kids.push({ name: file.name, isDirectory: false, file: (ok) => setTimeout(() => ok(file)) });
      }
      const ev = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(ev, 'dataTransfer', { value: { items: [{ webkitGetAsEntry: () => root }], files: [] } });
      document.querySelector('.dlp-folder-drop').dispatchEvent(ev);
    }, [list, limit]);
  const plain = real.map((f) => ({ name: f.name, data: [...f.data] }));
  await dropFolder(plain);
  await page.waitForFunction(() => /^dropped_folder: /.test(document.querySelector('.dlp-folder-status').textContent));
  assert.match(await status(page).textContent(), new RegExp(`^dropped_folder: ${real.length} files, 1 module`));
  await openModule(page);
  assert.deepEqual(await timeline(page), story().map((s) => [Number(s.name.split('.')[2]), s.changed]));
  await dropFolder(plain, 20);
  await page.waitForFunction(() => document.querySelector('.dlp-folder-error').textContent);
  assert.match(await alert(page).textContent(), /^This folder holds more than 20 files and folders; the page reads folders of up to 20\./);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every fixture folder (CPU, H100, TPU v5e) opens: the pass files of each module, none unread, no page error', async () => {
  const fx = path.join(repoRoot, 'fixtures');
  const dirs = fs.readdirSync(fx).flatMap((fam) => {
    const d = path.join(fx, fam);
    return fs.statSync(d).isDirectory() ? fs.readdirSync(d).filter((x) => x.startsWith('folder.')).map((x) => path.join(d, x)) : [];
  });
  assert.ok(dirs.some((d) => d.endsWith('.gpu')) && dirs.some((d) => d.endsWith('.tpu')), `${dirs}`);
  const { page, context, errors } = await playground();
  for (const d of dirs) {
    const list = files(d);
    await openZip(page, write(`${path.basename(path.dirname(d))}-${path.basename(d)}.zip`, zip(list)));
    assert.equal(await alert(page).textContent(), '', d);
    const mods = await page.locator('.dlp-folder-module').evaluateAll((lis) => lis.map((li) => li.dataset.module));
    assert.ok(mods.length >= 1, d);
    for (const id of mods) {
      // The numbered files of this module, as named (TPU's carry a cl_NNN part).
      const numbered = list.filter((f) => f.name.startsWith(`${id}.`) && /\.\d{4}\.[^/]*\.txt$/.test(f.name) && !f.name.includes('/')).length;
      const li = page.locator(`.dlp-folder-module[data-module="${id}"]`);
      await li.locator('.dlp-folder-open').click();
      await li.locator('.dlp-folder-body[data-ready], .dlp-folder-body .dlp-reason').first().waitFor();
      assert.equal(await li.locator('.dlp-folder-step').count(), numbered, `${d} ${id}`);
      assert.equal(await li.locator('.dlp-folder-notread').count(), 0, `${d} ${id}`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('hostile zips with small limits: one message each, memory bounded, the page still works', async () => {
  const { page, context, errors } = await playground();
  const text = Buffer.from('HloModule m\n\nENTRY %e () -> f32[] {\n  ROOT %c = f32[] constant(1)\n}\n');
  const bomb = Buffer.alloc(2 * 1024 * 1024); // zeros: a thousand to one
  const mod = (what) => `module_0000.jit_f.${what}`;
  const cases = [
    // Refused whole: nothing listed.
    { name: 'truncated.zip', buf: fs.readFileSync(realZip).subarray(0, 4000), whole: /truncated\.zip is not a zip file the page can read: its end record is missing/ },
    { name: 'many.zip', buf: zip(Array.from({ length: 60 }, (_, i) => ({ name: `f${i}.txt`, data: text }))), limits: { maxEntries: 50 }, whole: /many\.zip holds 60 entries; the page reads folders of up to 50 files/ },
    { name: 'total.zip', buf: zip([{ name: mod('before_optimizations.txt'), data: bomb }]), limits: { maxTotalBytes: 1024 * 1024 }, whole: /would unpack to more than 1\.00 MiB, the most the page unpacks \(a zip bomb\?\)/ },
    // Listed, not read: the message when the module is opened.
    { name: 'ratio.zip', buf: zip([{ name: mod('before_optimizations.txt'), data: bomb }]), opened: /before_optimizations\.txt: not read: it would unpack \d+ times larger than it is packed \(a zip bomb\?\)/ },
    { name: 'lies.zip', buf: zip([{ name: mod('before_optimizations.txt'), data: bomb, size: 1000 }]), limits: { maxRatio: 1e9 }, opened: /before_optimizations\.txt: it unpacks to more than the 1000 B the zip says \(a damaged or hostile zip\); stopped there/ },
    { name: 'large.zip', buf: zip([{ name: mod('before_optimizations.txt'), data: text }]), limits: { maxFileBytes: 16 }, opened: /before_optimizations\.txt: not read: \d+ B, over the page's limit of 16 B a file/ },
    { name: 'binary.zip', buf: zip([{ name: mod('before_optimizations.txt'), data: Buffer.from([0x48, 0x00, 0xff, 0x00]) }]), opened: /before_optimizations\.txt: not read: it is not text/ },
    // The checker's index refuses the names.
    { name: 'names.zip', buf: zip([{ name: '../module_0000.jit_f.before_optimizations.txt', data: text }, { name: '/etc/module_0001.jit_g.before_optimizations.txt', data: text }]), problems: 2 },
    { name: 'up.zip', buf: zip([{ name: '../module_0000.jit_f.before_optimizations.txt', data: text }, { name: '../module_0001.jit_g.before_optimizations.txt', data: text }]), problems: 2 },
  ];
  const defaults = await page.evaluate(() => ({ ...window.dumplabFolder.LIMITS }));
  for (const c of cases) {
    await page.evaluate(([d, l]) => Object.assign(window.dumplabFolder.LIMITS, d, l || {}), [defaults, c.limits]);
    await openZip(page, write(c.name, c.buf));
    if (c.whole) {
      assert.match(await alert(page).textContent(), c.whole, c.name);
      assert.equal(await page.locator('.dlp-folder-out').evaluate((o) => o.childElementCount), 0, c.name);
    } else if (c.opened) {
      assert.equal(await alert(page).textContent(), '', c.name);
      await openModule(page);
      assert.match(await page.locator('.dlp-folder-body').textContent(), c.opened, c.name);
    } else {
      const ps = await page.locator('.dlp-folder-problems li').allTextContents();
      assert.equal(ps.length, c.problems, `${c.name}: ${ps}`);
      // Every name refused: no module, and the page says so (and why).
      assert.equal(await alert(page).textContent(), `${c.name}: no module could be read: all 2 of its files were refused, for the reasons listed under Problems below.`);
      assert.equal(await status(page).textContent(), '');
    }
    // The page keeps working: the real zip opens after each.
    await page.evaluate((d) => Object.assign(window.dumplabFolder.LIMITS, d), defaults);
    await openZip(page, realZip);
    assert.equal(await alert(page).textContent(), '', `after ${c.name}`);
    assert.match(await status(page).textContent(), /1 module/, `after ${c.name}`);
  }
  // A picked folder over the entry limit (a fresh page: one folder a page).
  {
    const fresh = await playground();
    await fresh.page.evaluate(() => (window.dumplabFolder.LIMITS.maxEntries = 10));
    await fresh.page.locator('.dlp-folder-dir').setInputFiles(folderDir);
    await indexed(fresh.page);
    assert.match(await alert(fresh.page).textContent(), new RegExp(`^This folder holds ${real.length} files; the page reads folders of up to 10\\.`));
    await fresh.context.close();
  }
  // Names from the folder are text, never markup.
  await openZip(page, write('markup.zip', zip([{ name: 'module_0000.<img src=x onerror=alert(1)>.before_optimizations.txt', data: text }])));
  assert.equal(await page.locator('.dlp-folder img').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`at ${width} px: nothing overflows, the memory figures and the largest buffers are readable, axe finds nothing serious`, async () => {
    const { page, context, errors } = await playground({ width, height });
    await openZip(page, realZip);
    await openModule(page);
    // Every memory figure: a box of its own width, its text all shown.
    const cells = await page.locator('.dlp-folder-figures dd').evaluateAll((dds) =>
      dds.map((d) => ({ key: d.dataset.key, width: d.getBoundingClientRect().width, scroll: d.scrollWidth, client: d.clientWidth })));
    assert.ok(cells.length >= 5);
    for (const c of cells) assert.ok(c.width > 0 && c.scroll <= c.client, `${width} px: ${JSON.stringify(c)}`);
    // The largest buffers: no column hidden behind a sideways scroll at any
    // width (stacked on a phone), and no cell cut.
    const largest = await page.locator('.dlp-caption[id^="dlp-folder-largest-"] + .dlp-scroll').evaluate((s) => ({
      scroll: s.scrollWidth,
      client: s.clientWidth,
      cut: [...s.querySelectorAll('td')].filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.textContent),
    }));
    assert.ok(largest.scroll <= largest.client + 1, `${width} px: ${JSON.stringify(largest)}`);
    assert.deepEqual(largest.cut, []);
    // Pressed from the keyboard, a file's before/after comes into sight with the focus.
    const step6 = page.locator('.dlp-folder-step[data-step="6"] .dlp-folder-pass');
    await step6.focus();
    await page.keyboard.press('Enter');
    await page.locator('.dlp-fd-hunks').waitFor();
    await focusedView(page, step6);
    await page.locator('.dlp-folder-fold summary').first().click();
    const over = await page.evaluate(() => {
      const w = document.documentElement.clientWidth;
      return [...document.querySelectorAll('.dlp-folder *')].filter((e) => {
        if (e.closest('.dlp-scroll')) return false;
        const r = e.getBoundingClientRect();
        return r.width && r.right > w + 1;
      }).map((e) => `${e.tagName}.${e.className}`).slice(0, 5);
    });
    assert.deepEqual(over, []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1));
    // Screenshots and axe in a light and a dark theme (mdBook's class on <html>).
    await page.addScriptTag({ path: axePath });
    for (const theme of ['light', 'coal']) {
      await page.evaluate((t) => {
        document.documentElement.classList.remove('light', 'rust', 'coal', 'navy', 'ayu');
        document.documentElement.classList.add(t);
      }, theme);
      await page.locator('.dlp-folder').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await screenshot(page, `folder-${width}-${theme}`, { fullPage: false });
      await page.locator('.dlp-folder-view').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await screenshot(page, `folder-diff-${width}-${theme}`, { fullPage: false });
      await page.locator('.dlp-folder-memory').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await screenshot(page, `folder-memory-${width}-${theme}`, { fullPage: false });
      const found = await page.evaluate(async () => {
        const r = await axe.run(document.querySelector('.dlp-folder'), { resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`);
      });
      assert.deepEqual(found, [], theme);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
