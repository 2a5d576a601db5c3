// DumpLab playground: "The dump folder", a whole `--xla_dump_to` folder read
// in the page (the checker's `folder-index`, `folder-module`, `folder-first`
// and `line-diff` requests; the JSON is `mdbook-dumplab folder --json`'s,
// schema in checker/src/folder/json.rs). Loaded by the {{#dumplab-playground}}
// block only (preprocessor/src/playground.rs), before
// src/dumplab-playground.js, which adds this script's worker operations
// (`window.dumplabFolder.worker`) to its worker and calls `mount`.
//
// Ways in: a folder picked (`webkitdirectory`) or dropped (walked with
// `webkitGetAsEntry`), or a .zip picked or dropped, unpacked here: its
// central directory read from the end of the file, each entry inflated with
// the browser's `DecompressionStream('deflate-raw')` (stored entries as they
// are; any other method refused) only when its module is opened. Names and
// sizes are indexed first, so a folder of thousands of files opens at once;
// a module's files are read and handed to the checker when it is opened.
//
// Hostile input: every limit is in `LIMITS` (tests set small ones). A zip
// with more entries than `maxEntries`, one whose entries would unpack to
// more than `maxTotalBytes`, a truncated or damaged zip: refused whole, with
// one message. An entry stored with a ratio over `maxRatio`, over
// `maxFileBytes`, encrypted or of another method: listed, not read. While
// inflating, an entry that grows past its stated size, or past the limits,
// is stopped there. Names with `../`, absolute paths and duplicates are the
// checker's index problems; a name with a line break or a tab is left out
// here (the request is one name a line). A binary file (NUL bytes, not
// UTF-8) is listed, never parsed. Everything from the folder reaches the
// page as text nodes; nothing leaves the page.
(() => {
  'use strict';

  /** The page's limits: one object, so tests can make them small. */
  const LIMITS = {
    /** Files (and folders, in a zip) of one folder at most. */
    maxEntries: 100000,
    /** Bytes of one file read at most; a larger one is listed, not read. */
    maxFileBytes: 256 * 1024 * 1024,
    /** Bytes of one module's files read at most (the rest listed, not read). */
    maxModuleBytes: 512 * 1024 * 1024,
    /** Bytes a zip's entries may unpack to, all together. */
    maxTotalBytes: 4 * 1024 * 1024 * 1024,
    /** Unpacked bytes per packed byte, for entries over `ratioFrom` bytes. */
    maxRatio: 200,
    /** Entries smaller than this are not held to `maxRatio`. */
    ratioFrom: 1024 * 1024,
    /** Bytes of a zip's central directory at most. */
    maxDirectoryBytes: 64 * 1024 * 1024,
    /** Pass files listed in the timeline before "show all". */
    shownSteps: 400,
    /** Lines of a before/after view drawn before "show all". */
    shownDiffLines: 2000,
  };

  /** Zero-width and bidi control characters (src/dumplab-playground-invisible.js):
   *  the section is watched, so every text node it draws from a file, a
   *  path or a name shows them as ⟨U+202E⟩. */
  const invisible = window.dumplabInvisible;
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  const count = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
  const bytes = (n) => {
    if (n === null || n === undefined) return 'unknown';
    if (n >= 1073741824) return `${(n / 1073741824).toFixed(2)} GiB`;
    if (n >= 1048576) return `${(n / 1048576).toFixed(2)} MiB`;
    if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
    return `${n} B`;
  };
  /** Exact bytes beside the rounded ones: "2.00 MiB (2,097,152 B)". */
  const exact = (n) => (n === null || n === undefined ? 'unknown' : n < 1024 ? `${n} B` : `${bytes(n)} (${n.toLocaleString('en-US')} B)`);

  /** A refusal of the whole folder: its message is what the page says. */
  class Refusal extends Error {}

  // ---- a folder picked or dropped --------------------------------------------
  /** A picked folder's files (`webkitRelativePath` starts with the folder's
   *  own name, which is not part of the paths in it). */
  function fromPicked(list) {
    const files = Array.from(list);
    if (files.length > LIMITS.maxEntries) throw new Refusal(`This folder holds ${files.length} files; the page reads folders of up to ${LIMITS.maxEntries}. Use \`mdbook-dumplab folder\` on the command line for larger ones.`);
    return files.map((f) => {
      const rel = f.webkitRelativePath || f.name;
      const cut = rel.indexOf('/');
      return { path: cut >= 0 ? rel.slice(cut + 1) : rel, size: f.size, read: () => f.arrayBuffer().then((b) => new Uint8Array(b)) };
    });
  }

  const entryFile = (e) => new Promise((resolve, reject) => e.file(resolve, reject));
  /** A dropped folder, walked (its entries counted as they come: the walk
   *  stops past `maxEntries`). */
  async function fromDropped(root) {
    const found = [];
    const stack = [[root, '']];
    let seen = 0;
    while (stack.length) {
      const [dir, prefix] = stack.pop();
      const reader = dir.createReader();
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const e of batch) {
          if (++seen > LIMITS.maxEntries) throw new Refusal(`This folder holds more than ${LIMITS.maxEntries} files and folders; the page reads folders of up to ${LIMITS.maxEntries}. Use \`mdbook-dumplab folder\` on the command line for larger ones.`);
          if (e.isDirectory) stack.push([e, `${prefix}${e.name}/`]);
          else found.push({ path: `${prefix}${e.name}`, entry: e });
        }
      }
    }
    const out = [];
    for (let i = 0; i < found.length; i += 256) {
      const files = await Promise.all(found.slice(i, i + 256).map((f) => entryFile(f.entry)));
      files.forEach((file, j) => out.push({ path: found[i + j].path, size: file.size, read: () => file.arrayBuffer().then((b) => new Uint8Array(b)) }));
    }
    return out;
  }

  // ---- a zip --------------------------------------------------------------------
  const slice = async (file, from, to) => new DataView(await file.slice(from, to).arrayBuffer());
  const u64 = (v, at) => Number(v.getBigUint64(at, true));
  const damaged = (name, what) => new Refusal(`${name} is not a zip file the page can read: ${what}. Zip the folder again (or use \`mdbook-dumplab folder\` on the unpacked folder).`);

  /** The end of the central directory: { count, size, offset }. */
  async function zipEnd(file) {
    const tailLen = Math.min(file.size, 65535 + 22);
    const tail = await slice(file, file.size - tailLen, file.size);
    let at = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.getUint32(i, true) === 0x06054b50) {
        at = i;
        break;
      }
    }
    if (at < 0) throw damaged(file.name, 'its end record is missing (it is truncated, or no zip)');
    let end = { count: tail.getUint16(at + 10, true), size: tail.getUint32(at + 12, true), offset: tail.getUint32(at + 16, true) };
    if (end.count === 0xffff || end.size === 0xffffffff || end.offset === 0xffffffff) {
      // Zip64: the locator just before the end record names the real one.
      if (at < 20 || tail.getUint32(at - 20, true) !== 0x07064b50) throw damaged(file.name, 'its Zip64 end record is missing');
      const where = u64(tail, at - 20 + 8);
      if (where + 56 > file.size) throw damaged(file.name, 'it is truncated (its Zip64 end record lies past its end)');
      const z = await slice(file, where, where + 56);
      if (z.getUint32(0, true) !== 0x06064b50) throw damaged(file.name, 'its Zip64 end record is damaged');
      end = { count: u64(z, 32), size: u64(z, 40), offset: u64(z, 48) };
    }
    return end;
  }

  /** A central directory entry's Zip64 sizes and offset, where its fields say 0xffffffff. */
  function zip64Fields(v, at, len, fields) {
    for (let p = at; p + 4 <= at + len; ) {
      const id = v.getUint16(p, true);
      const n = v.getUint16(p + 2, true);
      if (id === 0x0001) {
        let q = p + 4;
        for (const key of ['size', 'csize', 'offset']) {
          if (fields[key] === 0xffffffff && q + 8 <= p + 4 + n) {
            fields[key] = u64(v, q);
            q += 8;
          }
        }
        return;
      }
      p += 4 + n;
    }
  }

  /** A zip's entries, names and sizes only, from its central directory. */
  async function fromZip(file) {
    const end = await zipEnd(file);
    if (end.count > LIMITS.maxEntries) throw new Refusal(`${file.name} holds ${end.count} entries; the page reads folders of up to ${LIMITS.maxEntries} files. Use \`mdbook-dumplab folder\` on the unpacked folder.`);
    if (end.offset + end.size > file.size) throw damaged(file.name, 'it is truncated (its central directory lies past its end)');
    if (end.size > LIMITS.maxDirectoryBytes) throw new Refusal(`${file.name}'s list of entries is ${bytes(end.size)}; the page reads lists of up to ${bytes(LIMITS.maxDirectoryBytes)}.`);
    const v = await slice(file, end.offset, end.offset + end.size);
    const names = new TextDecoder();
    const out = [];
    let total = 0;
    let seen = 0;
    for (let p = 0; p < v.byteLength; ) {
      if (p + 46 > v.byteLength || v.getUint32(p, true) !== 0x02014b50) throw damaged(file.name, 'its central directory is damaged');
      if (++seen > LIMITS.maxEntries) throw new Refusal(`${file.name} holds more than ${LIMITS.maxEntries} entries; the page reads folders of up to ${LIMITS.maxEntries} files.`);
      const flags = v.getUint16(p + 8, true);
      const method = v.getUint16(p + 10, true);
      const nameLen = v.getUint16(p + 28, true);
      const extraLen = v.getUint16(p + 30, true);
      const commentLen = v.getUint16(p + 32, true);
      const f = { csize: v.getUint32(p + 20, true), size: v.getUint32(p + 24, true), offset: v.getUint32(p + 42, true) };
      if (p + 46 + nameLen + extraLen > v.byteLength) throw damaged(file.name, 'its central directory is damaged');
      const path = names.decode(new Uint8Array(v.buffer, v.byteOffset + p + 46, nameLen));
      zip64Fields(v, p + 46 + nameLen, extraLen, f);
      p += 46 + nameLen + extraLen + commentLen;
      if (path.endsWith('/')) continue; // a folder
      total += f.size;
      if (total > LIMITS.maxTotalBytes) throw new Refusal(`${file.name} would unpack to more than ${bytes(LIMITS.maxTotalBytes)}, the most the page unpacks (a zip bomb?). Nothing of it was unpacked.`);
      let why = null;
      if (flags & 1) why = 'it is encrypted';
      else if (method !== 0 && method !== 8) why = `it is compressed with method ${method}; the page unpacks stored and deflated entries only`;
      else if (f.size > LIMITS.ratioFrom && f.size > LIMITS.maxRatio * Math.max(f.csize, 1)) why = `it would unpack ${Math.round(f.size / Math.max(f.csize, 1))} times larger than it is packed (a zip bomb?); the page unpacks up to ${LIMITS.maxRatio} times`;
      else if (method === 0 && f.csize !== f.size) why = 'it is stored with two different sizes (a damaged zip)';
      const entry = { path, size: f.size, why };
      entry.read = () => readEntry(file, f, method, path);
      out.push(entry);
    }
    return withoutTop(out);
  }

  /** A zip of a folder (`zip -r dump.zip dump/`) names every entry under
   *  the folder's own name, which is not part of the paths in it (as a
   *  picked folder's name is not): cut when every entry has it. */
  function withoutTop(entries) {
    const first = entries.length ? entries[0].path.split('/')[0] : '';
    // Never `..` or `.`: the checker's index refuses those names, with the name as it is.
    if (!first || first === '..' || first === '.' || /^module_\d+\./.test(first) || !entries.every((e) => e.path.startsWith(`${first}/`))) return entries;
    for (const e of entries) e.path = e.path.slice(first.length + 1);
    return entries;
  }

  /** Unpacks one entry: stored as it is, or inflated, stopped as soon as it
   *  grows past its stated size (or the limits). */
  async function readEntry(file, f, method, path) {
    const head = await slice(file, f.offset, Math.min(file.size, f.offset + 30));
    if (head.byteLength < 30 || head.getUint32(0, true) !== 0x04034b50) throw new Error(`${path}: its entry in the zip is damaged or truncated`);
    const start = f.offset + 30 + head.getUint16(26, true) + head.getUint16(28, true);
    if (start + f.csize > file.size) throw new Error(`${path}: the zip is truncated (the entry's data lies past its end)`);
    const packed = file.slice(start, start + f.csize);
    if (method === 0) return new Uint8Array(await packed.arrayBuffer());
    const cap = Math.min(f.size, LIMITS.maxFileBytes);
    const out = new Uint8Array(cap);
    let n = 0;
    const reader = packed.stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (n + value.length > cap) {
          reader.cancel().catch(() => {});
          throw new Error(`${path}: it unpacks to more than the ${bytes(f.size)} the zip says (a damaged or hostile zip); stopped there`);
        }
        out.set(value, n);
        n += value.length;
      }
    } catch (err) {
      if (/stopped there/.test(err.message)) throw err;
      throw new Error(`${path}: it could not be inflated (the zip is damaged or truncated)`);
    }
    if (n !== f.size) throw new Error(`${path}: it unpacks to ${n} bytes, the zip says ${f.size} (a damaged zip)`);
    return out;
  }

  // ---- the worker's side ---------------------------------------------------------
  // Added to the playground's worker (src/dumplab-playground.js), where `call`
  // asks the checker. The open module's files stay there, so the line diff,
  // the search and an instruction's line need no second reading.
  const WORKER = `
const folder = { id: '', paths: [], bytes: new Map(), binary: [] };
const fatal = new TextDecoder('utf-8', { fatal: true });
function folderRecords() {
  const enc = new TextEncoder();
  const parts = [];
  for (const p of folder.paths) { const b = folder.bytes.get(p); parts.push(enc.encode(p + '\\n' + b.length + '\\n'), b); }
  // The binary files too: the checker lists them not read, and a search
  // says when the first file may be one of them.
  for (const f of folder.binary) parts.push(enc.encode(f.path + '\\n' + f.bytes.length + '\\n'), f.bytes);
  return parts;
}
// Line \`n\` of a text (cut), if it holds \`name\`.
function lineAt(bytes, n, name) {
  let at = 0;
  for (let i = 1; i < n && at >= 0; i++) { at = bytes.indexOf(10, at); if (at >= 0) at++; }
  if (at < 0) return null;
  let end = bytes.indexOf(10, at);
  if (end < 0) end = bytes.length;
  const line = new TextDecoder().decode(bytes.subarray(at, Math.min(end, at + 2400)));
  if (!line.includes(name)) return null;
  return { line: n, text: line.length > 600 ? line.slice(0, 600) + ' …' : line };
}
// The line defining instruction \`name\` in a text: its number and text (cut).
function defines(bytes, name) {
  const text = new TextDecoder().decode(bytes);
  const want = [name + ' = ', '%' + name + ' = '];
  let n = 0;
  for (let at = 0; at <= text.length; ) {
    let end = text.indexOf('\\n', at);
    if (end < 0) end = text.length;
    n++;
    let t = text.slice(at, end).trimStart();
    if (t.startsWith('ROOT ')) t = t.slice(5);
    if (want.some((w) => t.startsWith(w))) { const line = text.slice(at, end); return { line: n, text: line.length > 600 ? line.slice(0, 600) + ' …' : line }; }
    at = end + 1;
  }
  return null;
}
async function folderOp(m) {
  if (m.op === 'folder-index') return JSON.parse(call('folder-index\\n', [new TextEncoder().encode(m.lines)]));
  if (m.op === 'folder-open') {
    folder.id = m.module; folder.paths = []; folder.bytes = new Map(); folder.binary = [];
    const binary = [];
    for (const f of m.files) {
      const b = f.bytes;
      let text = b.indexOf(0) < 0;
      if (text) { try { fatal.decode(b); } catch (e) { text = false; } }
      if (!text) { binary.push(f.path); folder.binary.push(f); continue; }
      folder.paths.push(f.path); folder.bytes.set(f.path, b);
    }
    if (!folder.paths.length) return { module: null, binary };
    const obj = JSON.parse(call('folder-module\\n' + m.module + '\\n', folderRecords()));
    obj.binary = binary;
    // The invisible characters of the files read (\`invisibles\`, the page's counter).
    const found = { total: 0, by: {} };
    for (const b of folder.bytes.values()) {
      const f = invisibles(b);
      found.total += f.total;
      for (const [k, n] of Object.entries(f.by)) found.by[k] = (found.by[k] || 0) + n;
    }
    obj.invisible = found;
    return obj;
  }
  if (m.op === 'folder-diff') {
    const a = folder.bytes.get(m.a); const b = folder.bytes.get(m.b);
    if (!a || !b) return { error: (a ? m.b : m.a) + ' was not read (see the files listed, not read, above): nothing to compare.' };
    return JSON.parse(call('line-diff\\n' + a.length + '\\n', [a, b]));
  }
  if (m.op === 'folder-first') return JSON.parse(call('folder-first\\n' + folder.id + '\\n' + m.query.replace(/\\n/g, ' ') + '\\n', folderRecords()));
  if (m.op === 'folder-line') { const b = folder.bytes.get(m.path); return { found: b ? (m.line ? lineAt(b, m.line, m.name) : null) || defines(b, m.name) : null }; }
  return { error: 'unknown folder request' };
}`;

  // ---- the section ---------------------------------------------------------------
  function controls() {
    const sec = el('section', 'dlp-folder');
    const h = el('h2', '', 'The dump folder: every file XLA wrote');
    h.id = 'dlp-folder-h';
    sec.setAttribute('aria-labelledby', h.id);
    const note = el('p', 'dlp-note', 'Pick or drop the folder that --xla_dump_to wrote (with --xla_dump_hlo_pass_re=.* it also writes the module between passes, in numbered files), or a .zip of it. The page lists its modules at once and reads a module\'s files when you open it; nothing leaves the page.');
    const drop = el('div', 'dlp-folder-drop');
    const row = el('div', 'dlp-row');
    const dirLabel = el('label', 'dlp-pick', 'Pick a folder: ');
    const dir = el('input', 'dlp-folder-dir');
    dir.type = 'file';
    dir.webkitdirectory = true;
    dir.multiple = true;
    dirLabel.append(dir);
    const zipLabel = el('label', 'dlp-pick', 'Or a .zip of it: ');
    const zip = el('input', 'dlp-folder-zip');
    zip.type = 'file';
    zip.accept = '.zip,application/zip';
    zipLabel.append(zip);
    row.append(dirLabel, zipLabel);
    drop.append(row, el('p', 'dlp-note', 'Or drop the folder or the .zip on this box.'));
    const status = el('p', 'dlp-folder-status');
    status.setAttribute('role', 'status');
    const alert = el('p', 'dlp-reason dlp-folder-error');
    alert.setAttribute('role', 'alert');
    const out = el('div', 'dlp-folder-out');
    sec.append(h, note, drop, status, alert, out);
    return { sec, drop, dir, zip, status, alert, out };
  }

  /** What the page says of a folder in which no module could be read:
   *  every file refused (the refusals are listed under "Problems"), some
   *  refused and the rest in no module, or none named as a module's. */
  function noModule(what, n, index) {
    const refused = Math.max(0, n - index.unknown.length);
    const rest = n - refused;
    const named = 'named as a module\'s file (module_NNNN.name.…)';
    if (!n) return `${what}: no module could be read: it holds no file.`;
    if (!rest) return `${what}: no module could be read: ${n === 1 ? 'its one file was' : `all ${n} of its files were`} refused, for the reasons listed under Problems below.`;
    if (refused) return `${what}: no module could be read: ${count(refused, 'file')} ${refused === 1 ? 'was' : 'were'} refused (see Problems below) and ${rest === 1 ? 'the other one is not' : `none of the other ${rest} is`} ${named}.`;
    return `${what}: no module could be read: ${n === 1 ? 'its one file is not' : `none of its ${n} files is`} ${named}. Is this the folder --xla_dump_to wrote?`;
  }

  /** The `folder-index` request's body: one `<size>\t<path>` a line; names
   *  that cannot be one line are left out, each with a problem. */
  function indexLines(entries) {
    const lines = [];
    const left = [];
    for (const e of entries) {
      if (/[\n\r\t]/.test(e.path)) left.push({ path: e.path.replace(/[\n\r\t]/g, ' '), message: 'its name holds a line break or a tab: left out' });
      else lines.push(`${e.size}\t${e.path}\n`);
    }
    return { text: lines.join(''), left };
  }

  /** "after algsimp, before simplify-sorts" for a pass file. */
  function passWords(p) {
    const parts = [];
    if (p.pass) parts.push(`after ${p.pass}`);
    if (p.next) parts.push(`before ${p.next}`);
    return `${p.pipeline || ''}${parts.length ? `: ${parts.join(', ')}` : ''}`;
  }
  const stepName = (p) => String(p.step).padStart(4, '0');

  /** What a changed file's delta says, one phrase per part that is not empty. */
  const DELTA = {
    instructions: (d) => (d.added.count || d.removed.count ? `instructions ${d.before} → ${d.after} (+${d.added.count} −${d.removed.count})` : null),
    kernels: (d) => (d.added.count || d.removed.count ? `kernels ${d.before} → ${d.after} (+${d.added.count} −${d.removed.count})` : null),
    copies: (d) => (d.new.count ? `copies added: ${d.new.count} (${d.new.names.join(', ')})` : null),
    transposes: (d) => (d.new.count ? `transposes added: ${d.new.count} (${d.new.names.join(', ')})` : null),
    collectives: (d) => (d.new.count ? `collectives added: ${d.new.count} (${d.new.names.join(', ')})` : null),
    fusions_formed: (d) => (d.count ? `fusions formed: ${d.count} (${d.fusions.map((f) => (f.kind ? `${f.name} ${f.kind}` : f.name)).join(', ')})` : null),
  };
  /** The delta's words; a key without a row in DELTA is named as it is
   *  (the browser test fails on any such key). */
  function deltaWords(d) {
    if (!d) return '';
    const out = [];
    for (const [k, v] of Object.entries(d)) {
      const f = DELTA[k];
      const w = f ? f(v) : `${k}: ${JSON.stringify(v)}`;
      if (w) out.push(w);
    }
    return out.join('; ') || 'the text changed; no instruction or kernel was added or removed';
  }

  /** The memory figures (`memory` of `folder --json`), one row each: key,
   *  words. A figure the files cannot give is null, shown "unknown". */
  const FIGURES = [
    ['argument_bytes', 'Arguments (parameters)'],
    ['output_bytes', 'Outputs (maybe-live-out)'],
    ['alias_bytes', 'Outputs aliased to parameters'],
    ['temp_bytes', 'Temporaries (preallocated-temp)'],
    ['host_bytes', 'Host memory (S(5))'],
    ['peak_bytes', "Peak, XLA's way"],
    ['static_bytes', "The peak's static part (parameters, constants, outputs)"],
    ['live_range_peak_bytes', "The live-range file's own peak (the values live at its peak step, added up; not XLA's peak)"],
  ];
  window.dumplabFolder = { LIMITS, WORKER, DELTA, FIGURES, mount, fromZip, Refusal };

  // ---- the views (each given `app`: the mounted section's ctx, ui, generation and files) ----
  /** The index: modules (each opened on request), files outside any, problems. */
  function folderView(app, index, n) {
    const parts = [];
    parts.push(el('p', 'dlp-folder-summary', `${count(index.modules.length, 'module')}, ${count(n, 'file')}; ${count(index.unknown.length, 'file')} outside any module.`));
    if (index.problems.length) {
      const wrap = el('div', 'dlp-folder-problems');
      wrap.append(el('h3', '', `Problems: ${index.problems.length}`));
      const ul = el('ul');
      for (const p of index.problems.slice(0, 200)) ul.append(el('li', '', `${p.path}: ${p.message}`));
      if (index.problems.length > 200) ul.append(el('li', '', `… and ${index.problems.length - 200} more`));
      wrap.append(ul);
      parts.push(wrap);
    }
    const list = el('ul', 'dlp-folder-modules');
    for (const m of index.modules) {
      const li = el('li', 'dlp-folder-module');
      li.dataset.module = m.id;
      const b = el('button', 'dlp-folder-open', `${m.id} ${m.name}${m.cl ? ` (${m.cl})` : ''}`);
      b.type = 'button';
      b.setAttribute('aria-expanded', 'false');
      const info = el('span', 'dlp-note', `${count(m.passes.length, 'pass file')}, ${count(m.files.length, 'file')}, ${bytes(m.files.reduce((s, f) => s + f.size, 0))}`);
      const body = el('div', 'dlp-folder-body');
      body.hidden = true;
      b.addEventListener('click', () => {
        const on = b.getAttribute('aria-expanded') !== 'true';
        b.setAttribute('aria-expanded', String(on));
        body.hidden = !on;
        if (on && !body.dataset.loaded) {
          body.dataset.loaded = 'true';
          openModule(app, m, body);
        }
      });
      li.append(b, ' ', info, body);
      list.append(li);
    }
    parts.push(list);
    if (index.unknown.length) {
      const d = el('details', 'dlp-folder-unknown');
      d.append(el('summary', '', `Files outside any module: ${index.unknown.length}`));
      const ul = el('ul');
      for (const p of index.unknown.slice(0, 500)) ul.append(el('li', '', p));
      d.append(ul);
      parts.push(d);
    }
    return parts;
  }

  /** The section's one sentence (in `app.note`, above the index) on the
   *  invisible characters of the folder's paths and of the files read. */
  function foundNote(app) {
    const p = invisible.note("this folder's names and the files read so far hold", [
      ['names', app.names],
      ['files read', invisible.sum(...app.read.values())],
    ]);
    app.note.replaceChildren(...(p ? [p] : []));
  }

  /** Reads module `m`'s parsed files (step order, within the limits) and
   *  hands them to the checker; draws the module into `body`. */
  async function openModule(app, m, body) {
    const mine = app.gen;
    const msg = el('p', 'dlp-folder-progress');
    msg.setAttribute('role', 'status');
    body.replaceChildren(msg);
    const notRead = [];
    const files = [];
    const transfer = [];
    let total = 0;
    const wanted = m.files.filter((f) => f.parsed);
    try {
      for (const [i, f] of wanted.entries()) {
        msg.textContent = `Reading ${m.id}: file ${i + 1} of ${wanted.length}…`;
        const src = app.sources.get(f.path);
        if (!src) continue;
        if (src.why) {
          notRead.push(`${f.path}: not read: ${src.why}`);
          continue;
        }
        if (f.size > LIMITS.maxFileBytes) {
          notRead.push(`${f.path}: not read: ${bytes(f.size)}, over the page's limit of ${bytes(LIMITS.maxFileBytes)} a file`);
          continue;
        }
        if (total + f.size > LIMITS.maxModuleBytes) {
          notRead.push(`${f.path}: not read: the module's files passed the page's limit of ${bytes(LIMITS.maxModuleBytes)}`);
          continue;
        }
        try {
          const b = await src.read();
          total += b.length;
          files.push({ path: f.path, bytes: b });
          transfer.push(b.buffer);
        } catch (err) {
          notRead.push(`${err.message}`.startsWith(f.path) ? err.message : `${f.path}: not read: ${err.message}`);
        }
        if (mine !== app.gen) return;
      }
      if (!files.length) {
        body.replaceChildren(...notReadList(notRead), el('p', 'dlp-note', `None of ${m.id}'s files was read: nothing to show.`));
        body.dataset.ready = 'true';
        return;
      }
      msg.textContent = `Reading ${m.id}: the checker reads ${count(files.length, 'file')} (${bytes(total)})…`;
      const r = await app.ctx.ask({ op: 'folder-open', module: m.id, files }, transfer);
      if (mine !== app.gen) return;
      if (r.error) throw new Error(r.error);
      for (const p of r.binary || []) notRead.push(`${p}: not read: it is not text (NUL bytes, or not UTF-8)`);
      if (!r.module) {
        body.replaceChildren(...notReadList(notRead), el('p', 'dlp-note', `None of ${m.id}'s files was read: nothing to show.`));
        body.dataset.ready = 'true';
        return;
      }
      app.read.set(m.id, r.invisible);
      foundNote(app);
      body.replaceChildren(...moduleView(app, r.module, notRead));
      body.dataset.ready = 'true';
    } catch (err) {
      if (mine !== app.gen) return;
      body.replaceChildren(el('p', 'dlp-reason', `The page could not read ${m.id}: ${err.message}.`));
      delete body.dataset.loaded;
    }
  }

  /** One module: what was not read, the timeline, the search, the memory. */
  function notReadList(notRead) {
    if (!notRead.length) return [];
    const ul = el('ul', 'dlp-folder-notread');
    for (const t of notRead) ul.append(el('li', 'dlp-reason', t));
    return [el('p', 'dlp-note', 'Listed, not read:'), ul];
  }

  function moduleView(app, mod, notRead) {
    const parts = notReadList(notRead);
    // What the view shows is told in one sentence (a polite live region),
    // never the view itself: a diff of thousands of lines is not read out.
    const view = el('div', 'dlp-folder-view');
    view.live = el('p', 'dlp-visually-hidden dlp-folder-live');
    view.live.setAttribute('aria-live', 'polite');
    parts.push(timeline(app, mod, view), search(app, mod, view), view, view.live, memory(app, mod, view));
    return parts;
  }

  /** The file a pass file is compared with: the numbered one before it,
   *  or `before_optimizations` for the first. */
  function before(mod, i) {
    if (i > 0) return mod.passes[i - 1].path;
    const f = mod.files.find((x) => x.kind === 'before-optimizations');
    return f ? f.path : null;
  }

  /** The pass timeline: changed files shown, runs of unchanged ones folded. */
  function timeline(app, mod, view) {
    const wrap = el('div', 'dlp-folder-timeline');
    const h = el('h4', '', `Pass files: ${mod.passes.length}`);
    const changed = mod.passes.filter((p) => p.changed === true).length;
    const unknown = mod.passes.filter((p) => p.changed === null).length;
    wrap.append(h, el('p', 'dlp-note', `Each file is the module as XLA wrote it at that step, named after the pass before it and the one after it. ${count(changed, 'file')} changed the text of the file before it${unknown ? `; ${unknown} could not be compared (each one says why)` : ''}. A pass that wrote no file is not listed: the folder does not say what it did. A file with the same text as the file before does not show that its pass did nothing: the pass may have reported a change that does not show in the printed module, or the file is a pipeline-start or in-pass file, written whatever happened. Press a file for its before/after view.`));
    const ol = el('ol', 'dlp-folder-steps');
    let fold = null;
    const shown = Math.min(mod.passes.length, LIMITS.shownSteps);
    for (let i = 0; i < shown; i++) {
      const p = mod.passes[i];
      const li = stepItem(app, mod, i, view);
      if (p.changed === false) {
        if (!fold) {
          fold = el('li', 'dlp-folder-fold');
          const d = el('details');
          d.append(el('summary'), el('ol', 'dlp-folder-steps'));
          fold.append(d);
          fold.n = 0;
          ol.append(fold);
        }
        fold.n++;
        fold.querySelector('summary').textContent = `${count(fold.n, 'file')} with the same text as the file before`;
        fold.querySelector('ol').append(li);
      } else {
        fold = null;
        ol.append(li);
      }
    }
    wrap.append(ol);
    if (mod.passes.length > shown) wrap.append(el('p', 'dlp-note', `The first ${shown} of ${mod.passes.length} pass files are listed; \`mdbook-dumplab folder DIR --json\` lists them all.`));
    return wrap;
  }

  function stepItem(app, mod, i, view) {
    const p = mod.passes[i];
    const li = el('li', `dlp-folder-step dlp-step-${p.changed === null ? 'unknown' : p.changed ? 'changed' : 'same'}`);
    li.dataset.step = String(p.step);
    const b = el('button', 'dlp-folder-pass');
    b.type = 'button';
    b.append(el('span', 'dlp-folder-num', stepName(p)), ' ', el('span', '', passWords(p)));
    b.addEventListener('click', () => showDiff(app, mod, i, view, null, b));
    li.append(b);
    const words = p.changed === null ? p.note || 'not compared' : p.changed ? deltaWords(p.delta) : 'same text as the file before';
    li.append(el('span', 'dlp-folder-delta', words));
    return li;
  }

  /** Starts what the view shows (the before/after of a pass file, or an
   *  instruction's line), opened by button `opener`: its heading, which
   *  takes the focus and is scrolled to the top (the view lies below the
   *  timeline and the search box, often out of sight), and a button back
   *  to `opener`. The view is not a live region: its one-sentence summary
   *  goes to `view.live`. Returns a token: the view is still this one's
   *  while `view.token` is it. */
  function present(view, title, opener, back) {
    const token = {};
    view.token = token;
    const h = el('h4', 'dlp-folder-viewh', title);
    h.tabIndex = -1;
    const parts = [h];
    if (opener) {
      const ret = el('button', 'dlp-folder-back', back);
      ret.type = 'button';
      // Back to the button that opened the view; where that is gone (a
      // newer search replaced its answer), to the module's search box.
      ret.addEventListener('click', () => {
        const to = opener.isConnected ? opener : view.parentNode && view.parentNode.querySelector('.dlp-folder-q');
        if (to) to.focus();
      });
      parts.push(ret);
    }
    view.replaceChildren(...parts);
    h.focus({ preventScroll: true });
    h.scrollIntoView({ block: 'start' });
    return token;
  }

  /** The before/after view of pass file `i`: the line diff with the file before it. */
  async function showDiff(app, mod, i, view, mark, opener) {
    const p = mod.passes[i];
    const a = before(mod, i);
    const mine = present(view, `Step ${stepName(p)}, ${passWords(p)}: before/after`, opener, opener && opener.classList.contains('dlp-folder-found-go') ? 'Back to the search' : `Back to step ${stepName(p)} in the list`);
    if (!a) {
      view.append(el('p', 'dlp-note', 'No file before this one in the folder: nothing to compare it with.'));
      return;
    }
    const r = await app.ctx.ask({ op: 'folder-diff', a, b: p.path });
    if (view.token !== mine) return;
    if (r.error) {
      view.append(el('p', 'dlp-reason', r.error));
      return;
    }
    view.append(el('p', 'dlp-note dlp-folder-diffsum', `Before: ${a}. After: ${p.path}. ${count(r.removed, 'line')} removed, ${count(r.added, 'line')} added${r.truncated ? '; the diff stopped at its work budget, so some changed parts are shown removed and added whole' : ''}${r.cut ? `; only the first ${r.hunks.reduce((s, h) => s + h.lines.length, 0)} lines of the hunks are shown` : ''}.`));
    view.live.textContent = `Below: the before/after of step ${stepName(p)}, ${count(r.removed, 'line')} removed, ${count(r.added, 'line')} added.`;
    if (!r.hunks.length) {
      view.append(el('p', 'dlp-note', 'The two files have the same lines.'));
      return;
    }
    view.append(hunks(r, mark));
    // The marked line is scrolled to inside the listing's own box, so the
    // page stays at the view's heading.
    const hit = view.querySelector('.dlp-fd-mark');
    const box = view.querySelector('.dlp-fd');
    if (hit && box) box.scrollTop += hit.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3;
  }

  /** The hunks as a numbered listing: a glyph (−, +, space) and both line numbers. */
  function hunks(r, mark) {
    const wrap = el('div', 'dlp-scroll dlp-fd');
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', 'Before/after: removed lines marked −, added lines +');
    const pre = el('pre', 'dlp-fd-hunks');
    let left = LIMITS.shownDiffLines;
    const draw = (lines) => {
      for (const l of lines) {
        const line = el('span', `dlp-fd-line dlp-fd-${l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same'}`);
        const glyph = l.op === '+' ? '+' : l.op === '-' ? '−' : ' ';
        line.append(el('span', 'dlp-fd-n', l.a === null ? '' : String(l.a)), el('span', 'dlp-fd-n', l.b === null ? '' : String(l.b)), el('span', 'dlp-fd-g', glyph), el('span', 'dlp-fd-t', l.text));
        if (mark && l.op !== '-' && l.b === mark) line.classList.add('dlp-fd-mark');
        pre.append(line);
      }
    };
    const rest = [];
    for (const h of r.hunks) {
      const head = `@@ −${h.a_start},${h.a_lines} +${h.b_start},${h.b_lines} @@`;
      if (left <= 0) {
        rest.push([head, h.lines]);
        continue;
      }
      pre.append(el('span', 'dlp-fd-head', head));
      draw(h.lines.slice(0, left));
      if (h.lines.length > left) rest.push([null, h.lines.slice(left)]);
      left -= h.lines.length;
    }
    wrap.append(pre);
    if (rest.length) {
      const more = el('button', 'dlp-diff-more', 'Show all lines');
      more.type = 'button';
      more.addEventListener('click', () => {
        for (const [head, lines] of rest) {
          if (head) pre.append(el('span', 'dlp-fd-head', head));
          draw(lines);
        }
        more.remove();
      });
      const box = el('div');
      box.append(wrap, more);
      return box;
    }
    return wrap;
  }

  /** "First file where …": the checker's `first` over the module's texts. */
  function search(app, mod, view) {
    const form = el('form', 'dlp-folder-search dlp-row');
    const id = `dlp-folder-q-${mod.id}`;
    const label = el('label', '', 'First file where this appears (an instruction name, an opcode or a fusion kind): ');
    const input = el('input', 'dlp-folder-q');
    input.id = id;
    label.htmlFor = id;
    input.type = 'search';
    input.placeholder = 'copy.3, transpose, kLoop';
    input.setAttribute('autocomplete', 'off');
    const go = el('button', 'dlp-folder-find', 'Find');
    go.type = 'submit';
    const answer = el('p', 'dlp-folder-found');
    answer.setAttribute('role', 'status');
    form.append(label, input, go);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const q = input.value.trim();
      if (!q) return;
      answer.textContent = 'Looking…';
      const r = await app.ctx.ask({ op: 'folder-first', query: q }).catch((err) => ({ error: err.message }));
      answer.replaceChildren();
      if (r.error) {
        answer.append(el('span', 'dlp-reason', r.error));
        return;
      }
      const f = r.found;
      if (!f) {
        answer.textContent = `"${q}" appears in no file of ${mod.id} as an instruction's name, an opcode or a fusion kind.`;
        return;
      }
      const where = f.step === null || f.step === undefined ? f.path : `step ${String(f.step).padStart(4, '0')} (${f.path})`;
      const names = (f.instructions || []).map((x) => `${x.name} (line ${x.line})`).join(', ');
      answer.append(`First in ${where}, as ${f.matched === 'opcode' ? 'an opcode' : f.matched === 'fusion kind' ? 'a fusion kind' : "an instruction's name"}: ${count(f.count, 'instruction')}${names ? `, ${names}` : ''}. `);
      const unread = f.unread_before || [];
      if (unread.length) answer.append(`Or first in an earlier file that could not be read: ${unread.join(', ')}. `);
      const i = mod.passes.findIndex((p) => p.path === f.path);
      if (i >= 0) {
        const b = el('button', 'dlp-folder-pass dlp-folder-found-go', 'Show its before/after');
        b.type = 'button';
        const line = f.instructions && f.instructions[0] ? f.instructions[0].line : null;
        b.addEventListener('click', () => showDiff(app, mod, i, view, line, b));
        answer.append(b);
      }
    });
    const wrap = el('div');
    wrap.append(form, answer);
    return wrap;
  }

  /** A table with a caption above it, in its own focusable scrolling region.
   *  `nums`: the columns of figures (right-aligned, one line). `note`: one
   *  sentence beside the table (under its caption, and its description).
   *  `stack`: on a narrow screen each row is drawn as a list of "header:
   *  value" lines (dumplab-playground.css), so every column is read without
   *  scrolling sideways; the table's roles are given explicitly, since a
   *  table drawn as blocks loses them in some browsers. */
  function grid(id, caption, headers, rows, { nums = [], note = null, stack = false } = {}) {
    const wrap = el('div', `dlp-table-wrap${stack ? ' dlp-stack' : ''}`);
    const cap = el('p', 'dlp-caption', caption);
    cap.id = id;
    wrap.append(cap);
    if (note) {
      const n = el('p', 'dlp-note dlp-table-note', note);
      n.id = `${id}-note`;
      wrap.append(n);
    }
    const scroll = el('div', 'dlp-scroll');
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-labelledby', id);
    const t = el('table', 'dlp-table');
    t.setAttribute('aria-labelledby', id);
    if (note) t.setAttribute('aria-describedby', `${id}-note`);
    const role = (e, r) => {
      if (stack) e.setAttribute('role', r);
      return e;
    };
    role(t, 'table');
    const head = role(el('tr'), 'row');
    for (const x of headers) {
      const th = role(el('th', '', x), 'columnheader');
      th.scope = 'col';
      head.append(th);
    }
    const thead = role(el('thead'), 'rowgroup');
    thead.append(head);
    const body = role(el('tbody'), 'rowgroup');
    for (const cells of rows) {
      const tr = role(el('tr'), 'row');
      for (const [j, c] of cells.entries()) {
        const td = role(el('td', typeof c === 'number' || nums.includes(j) ? 'dlp-num' : ''), 'cell');
        if (stack) td.dataset.label = headers[j];
        if (c instanceof Node) td.append(c);
        else td.textContent = c === null || c === undefined ? 'unknown' : c;
        tr.append(td);
      }
      body.append(tr);
    }
    t.append(thead, body);
    scroll.append(t);
    wrap.append(scroll);
    return wrap;
  }

  /** A path that may break after each `/` (and nowhere else, unless one
   *  part alone is wider than its column). */
  function pathBreaks(path) {
    const span = el('span', 'dlp-folder-path');
    const parts = String(path).split('/');
    parts.forEach((part, i) => {
      span.append(i < parts.length - 1 ? `${part}/` : part);
      if (i < parts.length - 1) span.append(document.createElement('wbr'));
    });
    return span;
  }

  /** Shows line `line` of `path` (or, without a number, the line that
   *  defines instruction `name`) in the view. */
  async function showLine(app, view, path, name, line, opener) {
    const got = await app.ctx.ask({ op: 'folder-line', path, name, line });
    present(view, `${name} in ${path}`, opener, 'Back to the memory table');
    if (!got.found) view.append(el('p', 'dlp-note', `No line of ${path} defines ${name}.`));
    else {
      const pre = el('pre', 'dlp-fd-hunks dlp-folder-insline');
      const l = el('span', 'dlp-fd-line');
      l.append(el('span', 'dlp-fd-n', String(got.found.line)), el('span', 'dlp-fd-t', got.found.text));
      pre.append(l);
      const box = el('div', 'dlp-scroll');
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', `Line ${got.found.line} of ${path}`);
      box.append(pre);
      view.append(box);
    }
    view.live.textContent = got.found ? `Line ${got.found.line} of ${path}, which defines ${name}.` : `No line of ${path} defines ${name}.`;
  }

  /** The memory table: the figures and their bases, allocations by type,
   *  the largest buffers (each instruction a button that shows its line
   *  in the optimized module), the aliasing and the parameters without
   *  an alias with the usual causes (possibilities, never the reason). */
  function memory(app, mod, view) {
    const wrap = el('div', 'dlp-folder-memory');
    wrap.append(el('h4', '', 'Memory'));
    const m = mod.memory;
    if (!m) {
      wrap.append(el('p', 'dlp-note', 'No memory figures for this module: the checker read no buffer assignment of it.'));
      return wrap;
    }
    const dl = el('dl', 'dlp-cost-totals dlp-folder-figures');
    for (const [key, words] of FIGURES) {
      if (!(key in m)) continue;
      const dd = el('dd', '', exact(m[key]));
      dd.dataset.key = key;
      dl.append(el('dt', '', words), dd);
    }
    wrap.append(dl);
    for (const k of ['temp_basis', 'peak_basis']) if (m[k]) wrap.append(el('p', 'dlp-note', `${k === 'temp_basis' ? 'Temporaries' : 'Peak'}: ${m[k]}`));
    const id = (what) => `dlp-folder-${what}-${mod.id}`;
    // A type no allocation has is not shown (as the command line omits it).
    const types = (m.by_type || []).filter((t) => t.allocations);
    if (types.length) {
      const sum = types.reduce((n, t) => n + t.allocations, 0);
      const note = sum > m.allocations ? `The rows add up to ${sum}, more than the ${m.allocations} allocations: one allocation can have more than one type (an output that is also maybe-live-out, say).` : null;
      wrap.append(grid(id('types'), `Allocations by type: ${m.allocations} in all`, ['type', 'allocations', 'bytes'], types.map((t) => [t.type, t.allocations, t.bytes === null ? null : exact(t.bytes)]), { nums: [2], note }));
    }
    // The module the buffer assignment names instructions of: the optimized
    // one (XLA:TPU's, after buffer assignment, where it writes that one).
    const optimized = ['after-optimizations', 'after-buffer-assignment'].map((k) => mod.files.find((f) => f.kind === k && f.parsed)).find(Boolean);
    const largest = m.largest || [];
    if (largest.length) {
      const rows = largest.map((r) => {
        const v = (r.values || [])[0];
        const name = r.instruction || null;
        let ins = name;
        if (name && optimized) {
          ins = el('button', 'dlp-folder-ins', name);
          ins.type = 'button';
          // The value's instruction without its shape index (`copy-start{0}`).
          ins.addEventListener('click', () => showLine(app, view, optimized.path, name.replace(/\{[^}]*\}$/, ''), v && v.module_line, ins));
        }
        const cell = el('span');
        cell.append(ins || 'unknown');
        if (r.values && r.values.length > 1) cell.append(' ', el('span', 'dlp-folder-more', `(+${r.values.length - 1} more)`));
        return [r.allocation, exact(r.bytes), (r.types || []).join(', '), cell, r.source ? pathBreaks(r.source) : null];
      });
      wrap.append(grid(id('largest'), `The largest buffers: ${largest.length}`, ['allocation', 'bytes', 'type', 'instruction', 'source line'], rows, { nums: [1], stack: true }));
    }
    wrap.append(aliasing(m));
    return wrap;
  }

  /** A parameter's shape index, shown only inside a tuple (` {1}`). */
  const index = (i) => (i && i !== '{}' ? ` ${i}` : '');

  /** The module's input_output_alias as checked, and the parameters no
   *  alias names. */
  function aliasing(m) {
    const box = el('div', 'dlp-folder-alias');
    const al = m.aliases || [];
    box.append(el('p', 'dlp-note', al.length ? `Aliasing (the module's input_output_alias): ${count(al.length, 'output shares', 'outputs share')} a parameter's buffer.` : "Aliasing: the module's input_output_alias names no parameter: no output reuses a parameter's buffer."));
    if (al.length) {
      const ul = el('ul');
      const how = (a) => a.via_donor === true ? '; XLA made this alias from a buffer donor (buffer_donor before optimizations)' : a.via_donor === false ? '; JAX paired them (the alias is there before optimizations)' : '';
      for (const a of al) ul.append(el('li', '', `parameter ${a.parameter}${index(a.parameter_index)} → output ${a.output_index} (${a.kind}): ${a.allocation === null ? 'no allocation holds that parameter' : a.shares_allocation ? `both in allocation ${a.allocation}${how(a)}` : `allocation ${a.allocation} is not marked maybe-live-out`}`));
      box.append(ul);
    }
    const un = m.unaliased_parameters || [];
    if (un.length) {
      box.append(el('p', 'dlp-note', `Parameters without an output alias: ${un.length}. A donation JAX could not use leaves no trace in the folder (only its warning "Some donated buffers were not usable" does); one it handed to XLA shows as buffer_donor in the header. What the folder shows of each, as the checker reads it (possibilities, not the reason, unless it says donated):`));
      const ul = el('ul', 'dlp-folder-unaliased');
      for (const u of un.slice(0, 50)) {
        // The sentences come with the checker's JSON: no second copy here.
        const why = (u.causes || []).map((c) => c.text);
        ul.append(el('li', '', `parameter ${u.parameter}${index(u.parameter_index)} ${u.shape} (${exact(u.bytes)})${why.length ? `: ${why.join('; or ')}` : ''}`));
      }
      box.append(ul);
    }
    return box;
  }

  /**
   * Builds the section after `ctx.after`. `ctx.ask(msg, transfer)` sends one
   * of this script's worker operations and resolves to its reply.
   */
  function mount(ctx) {
    const ui = controls();
    // `names`, `read`, `note`: the invisible characters found (`foundNote`).
    const app = { ctx, ui, gen: 0, sources: new Map(), names: null, read: new Map(), note: el('div', 'dlp-folder-invisible') };
    invisible.watch(ui.sec);
    const say = (text, bad) => {
      ui.status.textContent = bad ? '' : text;
      ui.alert.textContent = bad ? text : '';
    };
    const open = async (get, what) => {
      const mine = ++app.gen;
      app.sources = new Map();
      ui.out.replaceChildren();
      ui.sec.setAttribute('aria-busy', 'true');
      say(`Listing ${what}…`);
      const t0 = performance.now();
      try {
        const entries = await get();
        if (mine !== app.gen) return;
        say(`Indexing ${count(entries.length, 'file')}…`);
        const { text, left } = indexLines(entries);
        const index = await ctx.ask({ op: 'folder-index', lines: text });
        if (mine !== app.gen) return;
        if (index.error) throw new Refusal(index.error);
        for (const e of entries) if (!app.sources.has(e.path)) app.sources.set(e.path, e);
        index.problems = [...left, ...(index.problems || [])];
        app.names = invisible.tally(what, ...entries.map((e) => e.path));
        app.read = new Map();
        foundNote(app);
        ui.out.replaceChildren(app.note, ...folderView(app, index, entries.length));
        const ms = performance.now() - t0;
        ui.sec.dataset.indexMs = String(Math.round(ms));
        if (index.modules.length) say(`${what}: ${count(entries.length, 'file')}, ${count(index.modules.length, 'module')}, indexed in ${(ms / 1000).toFixed(2)} s. Open a module to read its files.`);
        else say(noModule(what, entries.length, index), true);
      } catch (err) {
        if (mine !== app.gen) return;
        ui.out.replaceChildren();
        app.sources = new Map();
        say(err instanceof Refusal ? err.message : `The page could not read ${what}: ${err.message}.`, true);
      } finally {
        if (mine === app.gen) ui.sec.removeAttribute('aria-busy');
      }
    };

    // ---- ways in ----
    ui.dir.addEventListener('change', () => {
      const list = ui.dir.files;
      if (!list || !list.length) return;
      const top = (list[0].webkitRelativePath || '').split('/')[0] || 'the folder';
      open(async () => fromPicked(list), top);
    });
    ui.zip.addEventListener('change', () => {
      const f = ui.zip.files && ui.zip.files[0];
      if (f) open(() => fromZip(f), f.name);
    });
    ui.drop.addEventListener('dragover', (e) => {
      e.preventDefault();
      ui.drop.classList.add('dlp-drop');
    });
    ui.drop.addEventListener('dragleave', () => ui.drop.classList.remove('dlp-drop'));
    ui.drop.addEventListener('drop', (e) => {
      e.preventDefault();
      ui.drop.classList.remove('dlp-drop');
      const dt = e.dataTransfer;
      if (!dt) return;
      const items = Array.from(dt.items || []);
      const entry = items.length && items[0].webkitGetAsEntry ? items[0].webkitGetAsEntry() : null;
      if (entry && entry.isDirectory) {
        open(() => fromDropped(entry), entry.name);
        return;
      }
      const f = dt.files && dt.files[0];
      if (f && /\.zip$/i.test(f.name)) open(() => fromZip(f), f.name);
      else if (f) say(`${f.name} is neither a folder nor a .zip: drop the folder that --xla_dump_to wrote, or a .zip of it.`, true);
    });
    ctx.after.after(ui.sec);
    return ui.sec;
  }
})();
