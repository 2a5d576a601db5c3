// DumpLab playground ("Read your own dump"): the block that
// `{{#dumplab-playground}}` leaves in a chapter, which also links this script
// and its style (preprocessor/src/playground.rs), so no other page loads
// them. Paste, drop or pick a dump;
// the checker (src/dumplab-playground-wasm.js, loaded on this page only) runs
// in a Web Worker made from a Blob, so the page stays responsive and works
// offline and from file://. Nothing leaves the page. Everything shown is built
// from DOM text nodes: dump text never becomes markup.
(() => {
  'use strict';
  // Source-map rows light the way the lessons' live maps do (theme/livemap.js).
  const light = window.dumplabLight || ((tr, on) => tr.classList.toggle('dlp-lit', on));

  const box = document.querySelector('[data-dumplab-playground]');
  if (!box) return;

  /** Dumps larger than this are refused with a message (wasm memory, tab memory). */
  const MAX_BYTES = 128 * 1024 * 1024;
  /** Rows shown per table before "show all". */
  const SHOWN_ROWS = 50;
  /** Dumps up to this size are shown in their text box; larger ones are
   *  held by the worker only (a textarea of megabytes freezes the page). */
  const SHOWN_BYTES = 262144;

  const root = typeof window.path_to_root === 'string' ? window.path_to_root : '';
  const status = box.querySelector('.dlp-status');
  const out = box.querySelector('.dlp-out');
  const run = box.querySelector('.dlp-run');
  // Zero-width and bidi control characters, shown as ⟨U+202E⟩ and counted
  // (src/dumplab-playground-invisible.js): whatever the report draws, now
  // or later (a table's "show all", the ledger's chip), shows them.
  const invisible = window.dumplabInvisible;
  const { reveal, spelled } = invisible;
  invisible.watch(out);
  const slots = Array.from(box.querySelectorAll('.dlp-input')).map((el, index) => ({
    el,
    index,
    text: el.querySelector('.dlp-text'),
    file: el.querySelector('.dlp-file'),
    clear: el.querySelector('.dlp-clear'),
    stored: 0, // bytes of a dump held by the worker (a file, a large paste), not by the page
    name: '', // the file's name; '' for a paste
    token: 0, // bumped by every new input, so a late hand-over does not win
    placeholder: el.querySelector('.dlp-text').placeholder,
    report: null,
  }));

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  // Inline `code` spans of the checker's notes, as DOM nodes (never markup).
  function rich(cls, text) {
    const span = el('span', cls);
    const parts = String(text).split('`');
    if (parts.length % 2 === 0) span.textContent = text;
    else parts.forEach((p, i) => span.append(i % 2 ? el('code', '', p) : p));
    return span;
  }
  function setStatus(text, bad) {
    status.textContent = text;
    reveal(status);
    status.classList.toggle('dlp-bad', !!bad);
  }

  /** `1 line`, `2 lines`. */
  const count = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
  const mib = (n) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

  // ---- the checker, in a worker --------------------------------------------
  const WORKER = `'use strict';
let ex = null;
function call(head, parts) {
  const h = new TextEncoder().encode(head);
  let total = h.length;
  for (const p of parts) total += p.length;
  const ptr = ex.dumplab_alloc(total);
  let mem = new Uint8Array(ex.memory.buffer);
  mem.set(h, ptr);
  let at = ptr + h.length;
  for (const p of parts) { mem.set(p, at); at += p.length; }
  const r = ex.dumplab_inspect(ptr, total);
  ex.dumplab_free(ptr, total);
  mem = new Uint8Array(ex.memory.buffer);
  const len = new DataView(ex.memory.buffer).getUint32(r, true);
  const text = new TextDecoder().decode(mem.slice(r + 4, r + 4 + len));
  ex.dumplab_free(r, len + 4);
  return text;
}
// Large reports are cut here, off the page's thread: the page shows at most
// LIMIT rows of each list (the totals stay), parsing and copying stay small.
const LIMIT = 2000;
function cap(m) {
  if (!m) return m;
  for (const k of ['kernels', 'lowered_ops', 'source_lines', 'lowered_without_source', 'kernels_without_source']) {
    if (Array.isArray(m[k]) && m[k].length > LIMIT) {
      m[k + '_total'] = m[k].length;
      m[k] = m[k].slice(0, LIMIT);
    }
  }
  for (const k of m.kernels || []) if (k.lowered_ops && k.lowered_ops.length > 50) k.lowered_ops = k.lowered_ops.slice(0, 50);
  for (const l of m.source_lines || []) if (l.lowered_ops && l.lowered_ops.length > 50) { l.lowered_ops_total = l.lowered_ops.length; l.lowered_ops = l.lowered_ops.slice(0, 50); }
  return m;
}
function reply(id, text, bytes) {
  const obj = JSON.parse(text);
  if (obj.map) cap(obj.map);
  if (!obj.error) obj.invisible = invisibles(bytes);
  self.postMessage({ id, obj });
}
// The ledger ("Where the time goes"): the report, its kernels cut to LIMIT,
// and the text of each kernel's line in the dump (the pasted line; long
// lines cut), found in one pass over the bytes the worker holds.
const LINE_CHARS = 400;
function cost(slot, chip) {
  const obj = JSON.parse(call('cost\\n' + chip + '\\n', [stored[slot]]));
  if (Array.isArray(obj.kernels) && obj.kernels.length > LIMIT) {
    obj.kernels_total = obj.kernels.length;
    obj.kernels = obj.kernels.slice(0, LIMIT);
  }
  if (obj.roofline && obj.roofline.ranked && obj.roofline.ranked.length > LIMIT) obj.roofline.ranked = obj.roofline.ranked.slice(0, LIMIT);
  return { cost: obj, lines: pick(stored[slot], new Set((obj.kernels || []).map((k) => k.line)), 0) };
}
// The texts of the lines in \`want\` and of the first \`first\` lines (by
// number, from 1), in one pass over the bytes: long lines cut, a last empty
// line left out.
function pick(bytes, want, first) {
  const lines = {};
  const dec = new TextDecoder();
  let n = 1;
  let at = 0;
  let left = want.size;
  while ((left > 0 || n <= first) && at <= bytes.length) {
    let end = bytes.indexOf(10, at);
    if (end < 0) end = bytes.length;
    if (at === bytes.length && n > 1) break;
    const wanted = want.has(n);
    if (wanted || n <= first) {
      let t = dec.decode(bytes.subarray(at, Math.min(end, at + 4 * LINE_CHARS)));
      if (t.endsWith('\\r')) t = t.slice(0, -1);
      lines[n] = t.length > LINE_CHARS ? t.slice(0, LINE_CHARS) + ' …' : t;
      if (wanted) left--;
    }
    n++;
    at = end + 1;
  }
  return lines;
}
// "Why these kernels" (src/dumplab-playground-explain.js): the explainer's
// answer for the dump held for m.slot, with XLA's fusion log m.log (text or
// bytes; none when absent), its kernels cut to LIMIT and its lines
// (\`lines\`, [[line, text]]) to those of the kernels kept and their
// producers, long lines cut.
function explain(m) {
  const log = typeof m.log === 'string' ? new TextEncoder().encode(m.log) : m.log || new Uint8Array(0);
  const obj = JSON.parse(call('explain\\n' + log.length + '\\n', [log, stored[m.slot]]));
  if (!Array.isArray(obj.kernels)) return obj;
  // The log's invisible characters (the dump's are the report's note).
  if (log.length) obj.log_invisible = invisibles(log);
  if (obj.kernels.length > LIMIT) {
    obj.kernels_total = obj.kernels.length;
    obj.kernels = obj.kernels.slice(0, LIMIT);
  }
  const want = new Set();
  for (const k of obj.kernels) {
    want.add(k.line);
    for (const i of k.inputs) if (i.from_line !== null) want.add(i.from_line);
  }
  obj.lines = (obj.lines || []).filter((l) => want.has(l[0])).map(([n, t]) => [n, t.length > LINE_CHARS ? t.slice(0, LINE_CHARS) + ' …' : t]);
  return obj;
}
// "Collectives" (src/dumplab-playground-collectives.js): the collectives of
// the dump held for m.slot on the chip m.chip (empty: its default), cut to
// LIMIT, and the lines (\`lines\`, [[line, text]]) of those kept, their
// dones and the kernels scheduled between, long lines cut.
function collectives(m) {
  const obj = JSON.parse(call('collectives\\n' + (m.chip || '') + '\\n', [stored[m.slot]]));
  if (!Array.isArray(obj.collectives)) return obj;
  if (obj.collectives.length > LIMIT) {
    obj.collectives_total = obj.collectives.length;
    obj.collectives = obj.collectives.slice(0, LIMIT);
  }
  const want = new Set();
  for (const c of obj.collectives) {
    want.add(c.line);
    if (c.done) want.add(c.done.line);
    for (const b of c.between) want.add(b.line);
  }
  obj.lines = Object.entries(pick(stored[m.slot], want, 0)).map(([n, t]) => [Number(n), t]);
  return obj;
}
// "What changed" (src/dumplab-playground-diff.js): the diff of the dumps held
// for m.a and m.b, on m.chip, its lists cut to LIMIT, and each side's lines
// for its pane: every line of a dump of up to PANE_LINES lines, else the
// lines the diff names.
const PANE_LINES = 3000;
function lineCount(bytes, max) {
  let n = 0;
  for (let at = 0; at < bytes.length && n <= max; n++) {
    const end = bytes.indexOf(10, at);
    if (end < 0) return n + 1;
    at = end + 1;
  }
  return n;
}
function pane(bytes, want) {
  const whole = lineCount(bytes, PANE_LINES) <= PANE_LINES;
  return { whole, lines: pick(bytes, want, whole ? PANE_LINES : 0) };
}
function diff(m) {
  const a = stored[m.a];
  const b = stored[m.b];
  const obj = JSON.parse(call('diff\\n' + (m.chip || '') + '\\n' + a.length + '\\n', [a, b]));
  // What each dump holds that the page shows as ⟨U+…⟩.
  const invisible = [invisibles(a), invisibles(b)];
  if (obj.error || obj.kind !== 'compiled') {
    if (Array.isArray(obj.lines) && obj.lines.length > LIMIT) { obj.lines_total = obj.lines.length; obj.lines = obj.lines.slice(0, LIMIT); }
    return { diff: obj, invisible };
  }
  const k = obj.kernels;
  for (const key of ['matched', 'changed', 'merged', 'split', 'added', 'removed']) {
    if (k[key].length > LIMIT) { k[key + '_total'] = k[key].length; k[key] = k[key].slice(0, LIMIT); }
  }
  if (obj.introduced.length > LIMIT) { obj.introduced_total = obj.introduced.length; obj.introduced = obj.introduced.slice(0, LIMIT); }
  const wa = new Set();
  const wb = new Set();
  for (const p of [...k.matched, ...k.changed]) { wa.add(p.a_line); wb.add(p.b_line); }
  for (const g of k.merged) { for (const l of g.from_lines) wa.add(l); wb.add(g.to_line); }
  for (const g of k.split) { wa.add(g.from_line); for (const l of g.to_lines) wb.add(l); }
  for (const r of k.removed) wa.add(r.line);
  for (const r of k.added) wb.add(r.line);
  for (const r of obj.introduced) wb.add(r.line);
  return { diff: obj, a: pane(a, wa), b: pane(b, wb), invisible };
}
// The source map's "Lowered | Compiled" panes: each side's lines (as for the
// diff's panes), the ones a source line names being its lowered ops' lines
// and its kernels' lines.
function mapPanes(map, low, comp) {
  const at = new Map(map.kernels.map((k) => [k.name, k.line]));
  const wl = new Set();
  const wc = new Set();
  for (const l of map.source_lines) {
    for (const o of l.lowered_ops) wl.add(o.line);
    for (const k of l.kernels) if (at.has(k)) wc.add(at.get(k));
  }
  return { lowered: pane(low, wl), compiled: pane(comp, wc) };
}
// The dumps, by input box: files and pastes are handed over (transferred,
// not copied) and kept here, so the page's thread never holds or copies them.
const stored = [];
self.onmessage = async (e) => {
  const m = e.data;
  try {
    if (typeof folderOp === 'function' && m.op.startsWith('folder-')) {
      self.postMessage({ id: m.id, obj: await folderOp(m) });
    } else if (m.op === 'init') {
      const bin = atob(m.wasm);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      // Gzipped by cargo xtask wasm; raw wasm is read as it is.
      const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
      const wasm = gz ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() : bytes;
      ex = (await WebAssembly.instantiate(wasm, {})).instance.exports;
      self.postMessage({ id: m.id, obj: {} });
    } else if (m.op === 'handback') {
      // Before this worker is ended (its wasm memory never shrinks): the
      // dumps of m.slots and the dump folder's files, handed back
      // (transferred) for the next worker.
      const keep = {};
      const buffers = new Set();
      for (const k of m.slots) if (stored[k]) { keep[k] = stored[k]; buffers.add(stored[k].buffer); }
      let f = null;
      if (typeof folder === 'object' && folder.id) {
        f = { id: folder.id, paths: folder.paths, bytes: folder.bytes, binary: folder.binary };
        for (const b of folder.bytes.values()) buffers.add(b.buffer);
        for (const x of folder.binary) buffers.add(x.bytes.buffer);
      }
      self.postMessage({ id: m.id, obj: { stored: keep, folder: f } }, [...buffers]);
    } else if (m.op === 'restore') {
      for (const [k, v] of Object.entries(m.stored)) stored[k] = v;
      if (m.folder && typeof folder === 'object') Object.assign(folder, m.folder);
      self.postMessage({ id: m.id, obj: {} });
    } else if (m.op === 'store') {
      // A paste comes as text: encoded here, off the page's thread.
      stored[m.slot] = m.text !== undefined ? new TextEncoder().encode(m.text) : m.bytes;
      self.postMessage({ id: m.id, obj: { size: stored[m.slot].length } });
    } else if (m.op === 'inspect') {
      reply(m.id, call('inspect\\n', [stored[m.slot]]), stored[m.slot]);
    } else if (m.op === 'cost') {
      self.postMessage({ id: m.id, obj: cost(m.slot, m.chip || '') });
    } else if (m.op === 'explain') {
      self.postMessage({ id: m.id, obj: explain(m) });
    } else if (m.op === 'collectives') {
      self.postMessage({ id: m.id, obj: collectives(m) });
    } else if (m.op === 'diff') {
      self.postMessage({ id: m.id, obj: diff(m) });
    } else if (m.op === 'why' && typeof whyOp === 'function') {
      self.postMessage({ id: m.id, obj: whyOp(m) });
    } else if (m.op === 'map') {
      const low = stored[m.lowered];
      const comp = stored[m.compiled];
      const map = cap(JSON.parse(call('map\\n' + low.length + '\\n', [low, comp])));
      self.postMessage({ id: m.id, obj: { map, panes: map.mismatch ? null : mapPanes(map, low, comp) } });
    }
  } catch (err) {
    self.postMessage({ id: m.id, error: String(err && err.message || err) });
  }
};`;

  // The dump folder's operations (src/dumplab-playground-folder.js), added
  // to the worker when that script is on the page.
  const FOLDER_OPS = window.dumplabFolder ? window.dumplabFolder.WORKER : '';
  // "Top suspects"' operation (src/dumplab-playground-why.js), likewise.
  const WHY_OPS = window.dumplabWhy ? window.dumplabWhy.WORKER : '';

  let worker = null;
  let ready = null;
  let nextId = 1;
  const pending = new Map();
  /** Workers started so far: the running one's number is the box's
   *  `data-worker` (the browser tests read it; nothing else does). */
  let workers = 0;
  /** What the last worker held for the other boxes and sections (their
   *  dumps, the dump folder's files), to hand to the next one. */
  let carried = null;
  /** The hand-back from a worker being ended, while it runs. */
  let releasing = null;
  /** A release asked for while requests were in flight: done when they end. */
  let wantRelease = null;
  /** After a dump this large was analysed, a new one starts a fresh worker. */
  const RELEASE_BYTES = 8 * 1024 * 1024;
  let heavy = false;

  function post(msg, transfer) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...msg, id }, transfer || []);
    });
  }

  /** Ends the worker, so that the memory its wasm grew to goes back to the
   *  system (wasm memory never shrinks): Clear does it, and a new dump
   *  after a large one. The dumps of every slot but `drop` (the other
   *  box, "What changed"'s A and B) and the dump folder's files are handed
   *  back first and given to the next worker, which starts when next
   *  asked for (`checker`). */
  function release(drop) {
    if (!worker || releasing) return;
    if (pending.size) {
      wantRelease = [...(wantRelease || []), ...drop];
      return;
    }
    wantRelease = null;
    heavy = false;
    const old = worker;
    const keep = [0, 1, 2, 3].filter((k) => !drop.includes(k));
    const back = post({ op: 'handback', slots: keep });
    worker = null;
    ready = null;
    releasing = back
      .then((obj) => {
        carried = obj;
      }, () => {
        carried = null;
      })
      .finally(() => {
        old.terminate();
        releasing = null;
      });
  }

  /** Gives a fresh worker what the last one handed back (transferred). */
  function restore() {
    const c = carried;
    carried = null;
    if (!c || (!Object.keys(c.stored).length && !c.folder)) return undefined;
    const buffers = new Set(Object.values(c.stored).map((b) => b.buffer));
    if (c.folder) {
      for (const b of c.folder.bytes.values()) buffers.add(b.buffer);
      for (const x of c.folder.binary) buffers.add(x.bytes.buffer);
    }
    return post({ op: 'restore', ...c }, [...buffers]);
  }

  function loadModule() {
    if (typeof window.dumplabPlaygroundWasm === 'string') return Promise.resolve(window.dumplabPlaygroundWasm);
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = root + 'dumplab-playground-wasm.js';
      s.onload = () => (typeof window.dumplabPlaygroundWasm === 'string' ? resolve(window.dumplabPlaygroundWasm) : reject(new Error('the checker script is empty')));
      s.onerror = () => reject(new Error('the checker script (dumplab-playground-wasm.js) did not load'));
      document.head.append(s);
    });
  }

  /** The worker's answer to one request. */
  function onReply(e) {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.error) p.reject(new Error(e.data.error));
    else p.resolve(e.data.obj);
    if (!pending.size && wantRelease) release(wantRelease);
  }

  function checker() {
    if (!ready) {
      ready = Promise.resolve(releasing).then(loadModule).then((wasm) => {
        if (!window.Worker || !window.WebAssembly) throw new Error('this browser has no Web Workers or WebAssembly');
        const url = URL.createObjectURL(new Blob([invisible.WORKER, WORKER, FOLDER_OPS, WHY_OPS], { type: 'text/javascript' }));
        const w = new Worker(url);
        worker = w;
        URL.revokeObjectURL(url);
        box.dataset.worker = String(++workers);
        w.onmessage = onReply;
        w.onerror = (e) => {
          if (worker !== w) return;
          for (const p of pending.values()) p.reject(new Error(e.message || 'the checker stopped'));
          pending.clear();
          // A fresh worker next time (for example after running out of memory).
          w.terminate();
          worker = null;
          ready = null;
        };
        return post({ op: 'init', wasm }).then(restore);
      });
      ready.catch(() => {
        ready = null;
      });
    }
    return ready;
  }

  // ---- input -----------------------------------------------------------------
  // Every way in goes one way: a picked or dropped file, and a paste or a
  // dropped text too large to show, is handed to the worker, which keeps it
  // (`hold`); only dumps up to SHOWN_BYTES are also shown in their box. The
  // page's thread never puts megabytes into a textarea (Chromium lays it out
  // in one task of seconds), never encodes or copies them twice.
  /** When the reader gave the input being analysed (a pick, drop or paste):
   *  the status counts from there, reading and handing over included. */
  let since = null;
  const tooLarge = (what, size) =>
    `${what} is ${mib(size)}; the page reads dumps up to ${mib(MAX_BYTES)}. Use \`mdbook-dumplab analyze\` on the command line for larger ones.`;

  /** Refuses what the reader gave `slot`: nothing of it is kept, and the
   *  report of what was there before goes too (it would describe a dump
   *  that is not there any more), with the reason in the status. */
  function refuse(slot, message) {
    slot.token++;
    slot.stored = 0;
    slot.text.value = '';
    slot.text.placeholder = slot.placeholder;
    generation++;
    out.replaceChildren();
    skipToMap(false);
    box.removeAttribute('aria-busy');
    setStatus(message, true);
  }
  const nulNote = (what) => `${what} holds NUL bytes (a binary file?): it is not a text dump. Give a jaxpr, StableHLO or HLO text dump.`;

  /** What the slot holds: a dump the worker has (`size`), typed text to
   *  hand over (`bytes`), a message saying why not (`error`), or null. */
  function inputOf(slot) {
    if (slot.stored) return { size: slot.stored };
    const t = slot.text.value;
    if (!t.trim()) return null;
    if (t.length > MAX_BYTES) return { error: tooLarge('This text', t.length) };
    if (t.includes('\u0000')) return { error: nulNote('This text') };
    const bytes = new TextEncoder().encode(t);
    return { bytes, size: bytes.length };
  }

  /** Hands a dump to the worker for `slot` (`msg`: `{ bytes }`, transferred,
   *  or `{ text }`), shows `shown` in the box (empty when too large), then
   *  analyses. `name`: the file's, or '' for a paste. */
  function hold(slot, name, shown, msg, transfer) {
    const token = ++slot.token;
    slot.name = name;
    slot.stored = 0;
    slot.text.value = shown;
    slot.text.placeholder = shown ? slot.placeholder : `${spelled(name) || 'Pasted text'}: held for the checker, not shown here (type or paste to replace it)`;
    setStatus(`Handing ${name || 'the pasted text'} to the checker…`);
    box.setAttribute('aria-busy', 'true');
    if (heavy) release([slot.index]);
    checker()
      .then(() => post({ op: 'store', slot: slot.index, ...msg }, transfer))
      .then((r) => {
        if (token !== slot.token) return;
        performance.mark('dumplab:stored');
        slot.stored = r.size;
        if (!shown) slot.text.placeholder = `${spelled(name) || 'Pasted text'}: ${mib(r.size)} loaded (not shown here; type or paste to replace it)`;
        analyse();
      })
      .catch((err) => setStatus(`The checker could not start: ${err.message}.`, true));
  }

  function takeFile(slot, file) {
    if (!file) return;
    since = performance.now();
    if (file.size > MAX_BYTES) {
      refuse(slot, tooLarge(file.name, file.size));
      return;
    }
    // At once, so that no "Analysed" of the dump before stands for this one.
    setStatus(`Reading ${file.name}…`);
    const reader = new FileReader();
    reader.onprogress = (e) => {
      if (e.lengthComputable) setStatus(`Reading ${file.name}: ${Math.round((100 * e.loaded) / e.total)}%`);
    };
    reader.onerror = () => setStatus(`${file.name} could not be read.`, true);
    reader.onload = () => {
      performance.mark('dumplab:read');
      const bytes = new Uint8Array(reader.result);
      if (bytes.subarray(0, 65536).indexOf(0) >= 0) {
        refuse(slot, `${file.name} is not a text dump: it holds NUL bytes (a binary file?). Pick a jaxpr, StableHLO or HLO text dump.`);
        return;
      }
      const shown = bytes.length <= SHOWN_BYTES ? new TextDecoder().decode(bytes) : '';
      hold(slot, file.name, shown, { bytes }, [bytes.buffer]);
    };
    reader.readAsArrayBuffer(file);
  }

  /** A pasted or dropped text: a large one goes the way a file goes (true);
   *  one small enough to show is left to the caller (false). `from`: when
   *  the reader gave it. */
  function takeText(slot, text, from = performance.now()) {
    since = from;
    if (text.length > MAX_BYTES) {
      refuse(slot, tooLarge('This paste', text.length));
      return true;
    }
    if (text.includes('\u0000')) {
      refuse(slot, nulNote('This paste'));
      return true;
    }
    if (text.length <= SHOWN_BYTES) return false;
    hold(slot, '', '', { text });
    return true;
  }

  /** A small paste into the box, where the reader's cursor is, analysed at
   *  once. (`execCommand('insertText')` would keep it undoable, but takes
   *  Chromium over a second for 100 KiB; `setRangeText` a few milliseconds.) */
  function insert(slot, text) {
    slot.text.focus();
    slot.text.setRangeText(text, slot.text.selectionStart, slot.text.selectionEnd, 'end');
    slot.token++;
    slot.stored = 0;
    analyse();
  }

  /** A paste: the text is taken from the clipboard with `getAsString`, which
   *  hands it over in a task of its own; `getData` would build a string of
   *  megabytes inside the paste event as well (twice the main-thread time). */
  function onPaste(slot, e) {
    const dt = e.clipboardData;
    const f = dt && dt.files && dt.files[0];
    if (f) {
      e.preventDefault();
      takeFile(slot, f);
      return;
    }
    const item = dt && Array.from(dt.items || []).find((i) => i.kind === 'string' && i.type === 'text/plain');
    if (!item) return; // no plain text: the box does what it does
    e.preventDefault();
    const at = performance.now();
    setStatus('Reading the pasted text…');
    item.getAsString((text) => {
      if (!takeText(slot, text, at)) insert(slot, text);
    });
  }

  for (const slot of slots) {
    slot.file.addEventListener('change', () => takeFile(slot, slot.file.files[0]));
    slot.text.addEventListener('input', () => {
      slot.token++;
      slot.stored = 0;
      schedule();
    });
    slot.text.addEventListener('paste', (e) => onPaste(slot, e));
    slot.clear.addEventListener('click', () => {
      // The dumps the worker holds for this box go with the worker.
      release([slot.index]);
      slot.token++;
      slot.stored = 0;
      slot.name = '';
      slot.text.value = '';
      slot.file.value = '';
      slot.text.placeholder = slot.placeholder;
      slot.report = null;
      analyse();
      slot.text.focus();
    });
    slot.el.addEventListener('dragover', (e) => {
      e.preventDefault();
      slot.el.classList.add('dlp-drop');
    });
    slot.el.addEventListener('dragleave', () => slot.el.classList.remove('dlp-drop'));
    slot.el.addEventListener('drop', (e) => {
      slot.el.classList.remove('dlp-drop');
      const dt = e.dataTransfer;
      const f = dt && dt.files[0];
      const t = !f && dt ? dt.getData('text/plain') : '';
      if (f) {
        e.preventDefault();
        takeFile(slot, f);
      } else if (!t || takeText(slot, t)) e.preventDefault();
      else if (e.target !== slot.text) {
        // Dropped beside the box: into the box, as if dropped on it.
        e.preventDefault();
        slot.text.value = t;
        slot.token++;
        slot.stored = 0;
      }
    });
  }
  run.addEventListener('click', () => {
    since = performance.now();
    analyse();
  });

  // "What changed" (src/dumplab-playground-diff.js), after this block: two
  // more dumps, A and B, held by the same worker (slots 2 and 3) and
  // compared by its `diff` request.
  let last = box;
  if (window.dumplabDiff) {
    last = window.dumplabDiff.mount({
      after: box,
      maxBytes: MAX_BYTES,
      shownBytes: SHOWN_BYTES,
      hold: (side, msg, transfer) => checker().then(() => post({ op: 'store', slot: 2 + side, ...msg }, transfer)),
      diff: (chip) => checker().then(() => post({ op: 'diff', a: 2, b: 3, chip })),
    });
  }
  // "The dump folder" (src/dumplab-playground-folder.js), after it: a whole
  // --xla_dump_to folder, its requests answered by the same worker.
  if (window.dumplabFolder) {
    window.dumplabFolder.mount({ after: last, ask: (msg, transfer) => checker().then(() => post(msg, transfer)) });
  }
  // Skip links to the sections after the reports (dozens of tab stops
  // further on once a dump is analysed), in page order after the map's.
  {
    const skips = document.getElementById('dumplab-skip');
    for (const [id, text] of [['dlp-diff-h', 'Skip to comparing two dumps'], ['dlp-folder-h', 'Skip to the dump folder']]) {
      if (!skips || !document.getElementById(id)) continue;
      const to = el('a', 'dlp-skip-later', text);
      to.href = `#${id}`;
      skips.append(to);
    }
  }

  let timer = null;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(analyse, 400);
  }

  // ---- analysis ----------------------------------------------------------------
  let generation = 0;
  async function analyse() {
    clearTimeout(timer);
    const gen = ++generation;
    const inputs = slots.map(inputOf);
    const bad = inputs.find((i) => i && i.error);
    if (bad) {
      // What is in the boxes cannot be read: no report of what was before.
      out.replaceChildren();
      skipToMap(false);
      setStatus(bad.error, true);
      return;
    }
    if (!inputs.some((i) => i)) {
      out.replaceChildren();
      skipToMap(false);
      setStatus('');
      return;
    }
    const total = inputs.reduce((n, i) => n + (i ? i.size : 0), 0);
    if (total >= RELEASE_BYTES) heavy = true;
    setStatus(`Analysing ${mib(total)}…`);
    box.setAttribute('aria-busy', 'true');
    // From the reader's pick, drop or paste when there was one (reading and
    // handing over included), else from now (typing, which waits for a pause).
    const started = since === null ? performance.now() : since;
    since = null;
    try {
      await checker();
      const reports = [];
      for (const [k, i] of inputs.entries()) {
        if (i && i.bytes) await post({ op: 'store', slot: k, bytes: i.bytes }, [i.bytes.buffer]);
        reports.push(i ? await post({ op: 'inspect', slot: k }) : null);
      }
      // The ledger of each compiled dump, on its default chip.
      for (const [k, r] of reports.entries()) {
        // "Top suspects", for whatever the text is, with its own backend.
        if (r && !r.error && window.dumplabWhy) r.why = await post({ op: 'why', slot: k, backend: '' }).catch((e) => ({ error: e.message }));
        if (r && r.kind === 'hlo-optimized') r.cost = await post({ op: 'cost', slot: k, chip: '' }).catch((e) => ({ cost: { error: e.message }, lines: {} }));
        // "Why these kernels", without a log (one is given in its section).
        // "Collectives", on the dump's default chip (shown where it runs any).
        if (r && r.kind === 'hlo-optimized' && window.dumplabCollectives) r.collectives = await post({ op: 'collectives', slot: k, chip: '' }).catch((e) => ({ error: e.message }));
        if (r && r.kind === 'hlo-optimized' && window.dumplabExplain) r.explain = await post({ op: 'explain', slot: k }).catch((e) => ({ error: e.message }));
      }
      let map = null;
      const kinds = reports.map((r) => r && r.kind);
      let lowIdx = kinds.findIndex((k) => k === 'stablehlo' || k === 'jaxpr' || k === 'hlo-unoptimized');
      // HLO that proves neither kind, whose hints suggest a module before
      // compilation: the lowered side only where no dump proves one, and
      // the map says its kind was not proved.
      // A likely kind (hints alone) is named as not proved too.
      const unproved = lowIdx < 0 ? reports.findIndex((r) => r && r.kind === 'unknown' && r.kind_guess === 'hlo-unoptimized')
        : (reports[lowIdx] && reports[lowIdx].kind_likely ? lowIdx : -1);
      if (unproved >= 0) lowIdx = unproved;
      const compIdx = kinds.findIndex((k) => k === 'hlo-optimized');
      if (lowIdx >= 0 && compIdx >= 0) {
        map = await post({ op: 'map', lowered: lowIdx, compiled: compIdx });
        map.names = [lowIdx, compIdx].map((k) => (slots[k].stored ? slots[k].name : ''));
        if (unproved >= 0) map.unproved = unproved;
      }
      if (gen !== generation) return;
      performance.mark('dumplab:analysed');
      await render(reports, map, gen);
      if (gen !== generation) return;
      performance.mark('dumplab:drawn');
      const secs = ((performance.now() - started) / 1000).toFixed(2);
      // A dump the checker could not read (not UTF-8) is not "analysed".
      const unread = reports.find((r) => r && r.error);
      if (unread) setStatus(`Not analysed: ${unread.error}`, true);
      else setStatus(`Analysed ${mib(total)} in ${secs} s.`);
    } catch (err) {
      if (gen !== generation) return;
      setStatus(`The checker could not analyse this: ${err.message}. The page still works: try a smaller or another dump.`, true);
    } finally {
      if (gen === generation) box.removeAttribute('aria-busy');
    }
  }

  // ---- rendering ---------------------------------------------------------------
  // Rows are made on demand (`make(i)`): the first SHOWN_ROWS now, the rest
  // when asked, so a report of thousands of kernels stays cheap to draw.
  // The table scrolls sideways in its own focusable, named region (keyboard
  // users can scroll it); its caption stays above, outside the scrolling.
  let tableIds = 0;
  function table(caption, headers, rows, make, cls) {
    const id = `dlp-table-${++tableIds}`;
    const wrap = el('div', `dlp-table-wrap ${cls || ''}`);
    const cap = el('p', 'dlp-caption', caption);
    cap.id = id;
    const scroll = el('div', 'dlp-scroll');
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-labelledby', id);
    const t = el('table', 'dlp-table');
    t.setAttribute('aria-labelledby', id);
    scroll.append(t);
    wrap.append(cap, scroll);
    const head = el('tr');
    for (const h of headers) head.append(el('th', '', h));
    const thead = el('thead');
    thead.append(head);
    t.append(thead);
    const body = el('tbody');
    t.append(body);
    const add = (from, to) => {
      const frag = document.createDocumentFragment();
      for (let i = from; i < to; i++) frag.append(make(i));
      body.append(frag);
    };
    add(0, Math.min(rows, SHOWN_ROWS));
    if (rows > SHOWN_ROWS) {
      const more = el('button', 'dlp-more', `Show all ${rows} rows`);
      more.type = 'button';
      more.addEventListener('click', () => {
        add(SHOWN_ROWS, rows);
        more.remove();
      });
      wrap.append(more);
    }
    return wrap;
  }
  function row(cells) {
    const tr = el('tr');
    for (const c of cells) {
      const td = el('td');
      if (c instanceof Node) td.append(c);
      else td.textContent = c === null || c === undefined ? '' : String(c);
      tr.append(td);
    }
    return tr;
  }
  const where = (l) => `${l.file}:${l.line}`;
  /** The length of a list before the worker cut it. */
  const total = (m, k) => m[k + '_total'] || m[k].length;
  /** A note under a table whose list the worker cut. */
  const cut = (m, k, what) =>
    m[k + '_total'] ? el('p', 'dlp-note', `The first ${m[k].length} of ${m[k + '_total']} ${what} are shown; \`mdbook-dumplab map --json\` lists them all.`) : null;
  const KIND_NAMES = {
    jaxpr: 'a jaxpr',
    stablehlo: 'StableHLO (lowered)',
    'hlo-unoptimized': 'HLO before optimization',
    'hlo-optimized': 'compiled HLO (after optimization)',
    unknown: 'unknown',
  };

  // The deciding lines in the one dump viewer (theme/viewer.js), each shown
  // once, lit with its clues marked and their notes and chapters under it.
  // A repaired paste shows the lines the checker read (prefixes removed,
  // a repr split, cut lines joined), numbered as pasted.
  // `index`: the dump's place, so that each viewer has a name of its own.
  function evidence(report, index) {
    const repaired = !!(report.unwrapped && report.unwrapped.length);
    const byLine = new Map();
    for (const e of report.evidence) {
      const r = e.repaired_line || e.line;
      if (!byLine.has(r)) byLine.set(r, { r, n: e.line, text: e.text, marks: [], notes: [] });
      const l = byLine.get(r);
      const a = Math.max(0, e.start - 1);
      l.marks.push([a, Math.max(a + 1, e.end - 1)]);
      const clue = el('span', 'dlp-clue');
      const link = el('a', 'dlp-learn', `learn: ${e.chapter.replace('.html', '')}`);
      link.href = root + e.chapter;
      clue.append(rich('', e.note), ' ', link);
      l.notes.push(clue);
    }
    const lines = [...byLine.values()].sort((x, y) => x.r - y.r).map((l) => {
      const note = document.createDocumentFragment();
      if (repaired) note.append(el('span', 'dlp-clue dlp-asp', l.r === l.n ? `Line ${l.n} as pasted, shown repaired.` : `Line ${l.n} as pasted, shown repaired (line ${l.r} of the repaired text).`));
      note.append(...l.notes);
      return { n: l.n, text: l.text, marks: l.marks, note };
    });
    const caption = repaired ? 'The deciding lines, repaired (numbered as pasted)' : 'The deciding lines';
    const view = window.dumplabViewer.build({ lines, caption, name: `The deciding lines of dump ${index + 1}`, lang: report.kind === 'jaxpr' ? 'jaxpr' : report.kind === 'stablehlo' ? 'mlir' : 'hlo' });
    view.classList.add('dlp-evidence');
    return view;
  }

  /** The deciding lines, folded away (closed at first, their count in
   *  the summary) so that the tables and sections below stay near the top. */
  function deciding(report, index) {
    const view = evidence(report, index);
    const n = view.querySelectorAll('.dl-line[data-line]').length;
    const fold = el('details', 'dlp-deciding');
    const summary = el('summary');
    summary.append(el('h4', '', `Why: the ${count(n, 'line')} that decided`));
    fold.append(summary, view);
    return fold;
  }

  /** Sub-rows shown under one control-flow row before a note says how many more. */
  const SHOWN_SUB_ROWS = 200;
  /** What a control-flow row of the entry is, with what it runs (its
   *  `control` entry of the report: the kernel tree's regions, see
   *  checker/src/inspect.rs) and a `while`'s stated trip count. */
  function controlWhat(k, c) {
    const regions = c ? c.items.filter((x) => x.type === 'region') : [];
    if (k.kind === 'loop') {
      const trips = !c ? '' : c.trip_count === null
        ? '; trip count not stated in the module (no known_trip_count)'
        : `; runs ${count(c.trip_count, 'trip')} (known_trip_count)`;
      return `loop: not a kernel; runs its condition and body below on each trip${trips}`;
    }
    if (k.kind === 'conditional') return `conditional: not a kernel; runs one of its ${count(regions.length, 'branch', 'branches')} below`;
    return `${k.kind}: not a kernel; the kernels of what it calls run${regions.length ? ' (below)' : ''}`;
  }
  /** The rows under a control-flow row: each region it runs (condition,
   *  body, branch, callee), then that region's kernels, indented by depth. */
  function controlRows(c) {
    const frag = document.createDocumentFragment();
    const ROLE = { condition: 'condition', body: 'body', branch: 'branch', callee: 'runs' };
    for (const x of c.items.slice(0, SHOWN_SUB_ROWS)) {
      let tr;
      if (x.type === 'region') {
        const label = el('span', 'dlp-region', `${x.role === 'branch' ? `branch ${x.branch}` : ROLE[x.role] || x.role}: `);
        label.append(el('code', '', x.computation));
        tr = row(['', label]);
        tr.lastChild.colSpan = 7;
        tr.classList.add('dlp-sub', 'dlp-sub-region');
      } else {
        const what = x.kernel === false ? `${x.kind}: not a kernel${x.trip_count !== null ? `; runs ${count(x.trip_count, 'trip')} (known_trip_count)` : ''}`
          : x.detail ? `${x.kind} ${x.detail}` : x.kind;
        tr = row(['', el('code', '', x.name), what, x.ops.join(', '), '', '', '', `dump line ${x.line}`]);
        tr.classList.add('dlp-sub');
      }
      tr.dataset.depth = String(x.depth);
      tr.children[1].style.paddingLeft = `${1.2 * x.depth}em`;
      frag.append(tr);
    }
    const more = c.items.length - SHOWN_SUB_ROWS;
    if (more > 0 || c.cut) {
      const tr = row(['', `… ${more > 0 ? `${more} more rows` : 'more rows'} under it, not shown here (\`mdbook-dumplab cost\` lists every kernel of the tree)`]);
      tr.lastChild.colSpan = 7;
      tr.classList.add('dlp-sub', 'dlp-sub-more');
      frag.append(tr);
    }
    return frag;
  }

  function kernelTable(map, control) {
    // An excerpt without its ENTRY computation: no kernel is run by it, and
    // an empty table with "?" for its name would say nothing true.
    if (!map.entry) return el('p', 'dlp-note dlp-no-entry', 'No ENTRY computation in this text (an excerpt?): the kernels are the ones the entry computation runs, so none can be listed. Paste the whole module, or the ENTRY computation with it.');
    const under = new Map((control || []).map((c) => [c.name, c]));
    const make = (i) => {
      const k = map.kernels[i];
      const c = k.kernel === false ? under.get(k.name) : undefined;
      // Control flow is not a kernel: what it runs is listed under it.
      const what = k.kernel === false ? controlWhat(k, c) : k.detail ? `${k.kind} ${k.detail}` : k.kind;
      const bytes = (b) => (k.kernel === false ? '—' : b === null ? '?' : mib(b));
      const tr = row([
        i + 1,
        el('code', '', k.name),
        what,
        k.ops.join(', '),
        `${k.operand_shapes.join(', ')} → ${k.shape}`,
        bytes(k.bytes_read),
        bytes(k.bytes_written),
        k.source_lines.length ? k.source_lines.map(where).join(', ') : 'no source line',
      ]);
      if (k.kernel === false) tr.classList.add('dlp-control');
      if (!c) return tr;
      const frag = document.createDocumentFragment();
      frag.append(tr, controlRows(c));
      return frag;
    };
    return table(
      `Kernels of the entry computation ${map.entry || '?'}, in run order: ${count(map.kernel_count, 'kernel')} (bytes from the shapes, an upper bound: operands in on-chip memory, scratch buffers and gathered tables count whole; the rows under a loop or conditional are what it runs)`,
      ['#', 'kernel', 'what it is', 'ops inside', 'shapes (operands → result)', 'reads', 'writes', 'source lines'],
      map.kernels.length,
      make,
      'dlp-kernels',
    );
  }

  // `unproved`: the text's kind is not proved (its hints suggest a module
  // before compilation), so the table reads it as that, and says so.
  function lineTable(map, unproved) {
    const make = (i) => {
      const l = map.source_lines[i];
      return row([where(l), l.lowered_ops_total || l.lowered_ops.length, l.lowered_ops.slice(0, 8).map((o) => o.op).join(', ') + (l.lowered_ops.length > 8 ? ', …' : '')]);
    };
    const t = table(`Ops per source line: ${count(total(map, 'source_lines'), 'line')}`, ['source line', 'ops', 'which'], map.source_lines.length, make, 'dlp-lines');
    const frag = el('div');
    if (unproved) frag.append(el('p', 'dlp-note dlp-unproved', 'The text does not prove its kind: these rows read it as the program before compilation, which its hints suggest (a guess). A compiled module\'s ops carry source lines the same way.'));
    frag.append(t);
    const bare = total(map, 'lowered_without_source');
    if (map.unlocated_hint) frag.append(el('p', 'dlp-note dlp-unlocated', unproved ? `Note: if this is the lowered text, ${map.unlocated_hint.replace(/^the lowered text /, 'it ')}.` : `Note: ${map.unlocated_hint}.`));
    frag.append(el('p', 'dlp-note', bare ? `${bare === 1 ? '1 op carries' : `${bare} ops carry`} no source line (${map.lowered_without_source.slice(0, 6).map((o) => `${o.name} ${o.op}`).join(', ')}${bare > 6 ? ', …' : ''}).` : 'Every op carries a source line.'));
    if (!map.source_lines.length) frag.append(el('p', 'dlp-note', 'No source lines in this dump: print StableHLO with `debug_info=True`, or a jaxpr with `source_info=True`, to see them.'));
    return frag;
  }

  /** "12 lines", or for a repaired paste "1 line pasted, 104 after repair". */
  function lineCount(r) {
    const after = r.repaired_lines === undefined ? r.lines : r.repaired_lines;
    if (!(r.unwrapped && r.unwrapped.length)) return count(r.lines, 'line');
    return `${count(r.lines, 'line')} pasted, ${after} after repair`;
  }

  /** The report's one sentence on the paste's invisible characters
   *  (`invisibles` in the worker: { total, by }). */
  function invisibleNote(inv) {
    return invisible.note('this dump holds', [[null, inv]]);
  }

  // `later`: parts drawn in later frames (tables), so that no single task
  // lays out the whole report.
  function report(i, r, later) {
    const sec = el('section', 'dlp-report');
    sec.setAttribute('aria-label', `Report on dump ${i + 1}`);
    sec.dataset.kind = r.kind;
    sec.dataset.backend = r.backend || '';
    sec.dataset.kernels = r.map && r.kind === 'hlo-optimized' ? String(r.map.kernel_count) : '';
    const name = slots[i].name && slots[i].stored ? ` (${slots[i].name})` : '';
    // A kind no line proves: named as not proved, with what the hints suggest.
    const heading = r.kind === 'unknown' && r.kind_guess ? `kind not proved (its hints suggest ${KIND_NAMES[r.kind_guess] || r.kind_guess}: a guess)`
      : r.kind_likely ? `${KIND_NAMES[r.kind] || r.kind} (likely, not proved)` : KIND_NAMES[r.kind] || r.kind;
    sec.append(el('h3', '', `Dump ${i + 1}${name}: ${heading}`));
    const facts = el('p', 'dlp-facts');
    // A kind no line proves: the hints' guess, worded as a guess.
    if (r.kind_guess) sec.dataset.kindGuess = r.kind_guess;
    const kindText = r.kind_guess ? `${r.kind}; a guess, not an answer: ${r.kind_guess} (suggested by rule ${r.kind_guess_rule}, a hint, never proof)` : r.kind;
    const backend = r.backend ? `${r.backend} (named by the text)`
      : r.backend_guess ? `none named (${r.backend_reason}); a guess, not an answer: ${r.backend_guess}`
        : 'none named in the text';
    sec.dataset.backendBasis = r.backend_basis || '';
    sec.dataset.dialect = r.dialect || '';
    facts.append(el('span', 'dlp-kind', `kind: ${kindText}`), ' · ', el('span', 'dlp-dialect', `dialect: ${r.dialect || 'unknown'}`), ' · ', el('span', 'dlp-backend', `backend: ${backend}`), ' · ', el('span', 'dlp-linecount', lineCount(r)));
    sec.append(facts);
    if (r.kind_likely) sec.append(el('p', 'dlp-reason dlp-likely', r.kind_likely));
    if (r.unwrapped && r.unwrapped.length) {
      // A damaged paste, repaired before reading: say what was undone.
      sec.append(el('p', 'dlp-note', 'This paste was repaired before reading; line numbers below are those of the text as pasted:'));
      const ul = el('ul', 'dlp-unwrapped');
      for (const u of r.unwrapped) {
        const li = el('li');
        li.append(rich('', u.note), ` (${count(u.lines, 'line')} from line ${u.first_line})`);
        ul.append(li);
      }
      sec.append(ul);
    }
    if (r.pasted_modules && r.pasted_modules.length) {
      // Several dumps one after another: read as one text, which no
      // printer makes.
      const w = el('p', 'dlp-reason dlp-pasted-modules', `Warning: ${r.pasted_modules.length} modules in one text (they start on lines ${r.pasted_modules.join(', ')}). They were read as one; paste each dump on its own.`);
      w.setAttribute('role', 'alert');
      sec.append(w);
    }
    if (r.invisible && r.invisible.total) sec.append(invisibleNote(r.invisible));
    // With a guess the reason explains, it reports no failure: a calm note.
    if (r.reason) sec.append(el('p', r.kind_guess ? 'dlp-reason dlp-reason-guess' : 'dlp-reason', `Why unknown: ${r.reason}`));
    if (r.evidence.length) sec.append(deciding(r, i));
    if (r.map && r.map.truncated) sec.append(el('p', 'dlp-reason', "Many kernels here share huge called computations: the checker stopped walking them early, so some kernels' source lines may be missing."));
    if (r.map && r.kind === 'hlo-optimized') later.push(() => sec.append(kernelTable(r.map, r.control), cut(r.map, 'kernels', 'kernels') || ''));
    // A chip picked in the ledger re-draws the dump's "Collectives" too.
    const onChip = [];
    if (r.cost && window.dumplabLedger) later.push(() => sec.append(ledger(i, r.cost, sec, onChip)));
    else if (r.map) later.push(() => sec.append(lineTable(r.map, r.kind === 'unknown'), cut(r.map, 'source_lines', 'source lines') || ''));
    if (r.collectives && window.dumplabCollectives) later.push(() => sec.append(collectivesSection(i, r.collectives, onChip) || ''));
    if (r.explain) later.push(() => sec.append(explainer(i, r.explain)));
    return sec;
  }

  // "Where the time goes" (src/dumplab-playground-ledger.js): the ledger of
  // dump `i`; another chip asks the worker again for this dump alone.
  let ledgers = 0;
  function ledger(i, reply, sec, onChip) {
    const gen = generation;
    const ask = (chip) => {
      if (gen !== generation) return Promise.reject(new Error('the dump changed'));
      onChip.forEach((f) => f(chip));
      return checker().then(() => post({ op: 'cost', slot: i, chip }));
    };
    return window.dumplabLedger.section({ id: `dlp-cost-${++ledgers}`, reply, ask, width: sec.clientWidth, lang: 'hlo' });
  }

  // "Collectives" (src/dumplab-playground-collectives.js): the collectives
  // of dump `i`; a chip picked in its ledger (`onChip`) asks the worker again
  // for this dump on that chip.
  let collectiveSections = 0;
  function collectivesSection(i, reply, onChip) {
    const gen = generation;
    const ask = (chip) =>
      gen !== generation ? Promise.reject(new Error('the dump changed')) : checker().then(() => post({ op: 'collectives', slot: i, chip }));
    return window.dumplabCollectives.section({ id: `dlp-coll-${++collectiveSections}`, reply, ask, watch: (f) => onChip.push(f) });
  }

  // "Why these kernels" (src/dumplab-playground-explain.js): why the kernels
  // of dump `i` are separate; a fusion log asks the worker again for this
  // dump with it (null: without one).
  let explainers = 0;
  function explainer(i, reply) {
    const gen = generation;
    const ask = (log) =>
      gen !== generation ? Promise.reject(new Error('the dump changed')) : checker().then(() => post({ op: 'explain', slot: i, ...(log === null ? {} : { log }) }));
    return window.dumplabExplain.section({ id: `dlp-why-${++explainers}`, reply, ask, maxBytes: MAX_BYTES, shownBytes: SHOWN_BYTES });
  }

  // "Top suspects" (src/dumplab-playground-why.js): the findings on dump
  // `i`; a backend picked asks the worker again for this dump with it.
  let suspectSections = 0;
  function suspects(i, reply) {
    const gen = generation;
    const ask = (backend) =>
      gen !== generation ? Promise.reject(new Error('the dump changed')) : checker().then(() => post({ op: 'why', slot: i, backend }));
    const name = slots[i].name && slots[i].stored ? slots[i].name : '';
    return window.dumplabWhy.section({ id: `dlp-sus-${++suspectSections}`, index: i, name, reply, ask });
  }

  /** The viewer's language of a lowered dump, by the map's `lowered_format`. */
  const LANGS = { stablehlo: 'mlir', jaxpr: 'jaxpr', hlo: 'hlo' };
  /** Lines and source lines named in one sentence before "and N more". */
  const NAMED = 12;
  /** "a, b, c", or "a, b, … and 3 more" past NAMED. */
  const some = (xs) => (xs.length > NAMED ? `${xs.slice(0, NAMED).join(', ')}, … and ${xs.length - NAMED} more` : xs.join(', '));
  /** "compiled lines 102, 106", "compiled line 102", "no compiled line". */
  const lineList = (word, rs) => {
    const ns = [...new Set(rs.map((r) => r.line))].sort((x, y) => x - y);
    return ns.length ? `${word} ${ns.length > 1 ? 'lines' : 'line'} ${some(ns)}` : `no ${word} line`;
  };

  // The source map's two dumps side by side, "Lowered" | "Compiled", in the
  // dump viewer: the panes of "What changed" (src/dumplab-playground-diff.js,
  // `window.dumplabDiff.panes`). An item per source line, its lines on side
  // `a` its lowered ops' lines and on side `b` its kernels' lines (the map's
  // own: `source_lines[].lowered_ops[].line` and the `line` of each kernel it
  // names). A marked line lights the lines of its source lines on the other
  // side and their rows in the table of source lines; `forRow(kind, i, tr)`
  // gives what a table's row lights in the panes. Null without the diff's
  // script, the panes' text (two different functions) or a source line.
  function sidePanes(map, texts, names) {
    const P = window.dumplabDiff && window.dumplabDiff.panes;
    if (!P || !texts || !window.dumplabViewer || !map.source_lines.length) return null;
    const kernelAt = new Map(map.kernels.map((k) => [k.name, k.line]));
    const kernelsOf = (list) => list.filter((k) => kernelAt.has(k)).map((k) => ({ name: k, line: kernelAt.get(k) }));
    const opsOf = (list) => list.map((o) => ({ name: `${o.name} ${o.op}`, line: o.line }));
    const items = map.source_lines.map((l, i) => Object.assign(P.item({ where: where(l), a: opsOf(l.lowered_ops), b: kernelsOf(l.kernels) }), { id: i }));
    const live = el('p', 'dlp-visually-hidden dlp-map-live');
    live.setAttribute('aria-live', 'polite');
    const sides = { a: 'Lowered', b: 'Compiled' };
    const across = (its, key) => lineList(sides[key].toLowerCase(), its.flatMap((it) => it[key]));
    const wheres = (its) => some(its.map((it) => it.where));
    const say = (its, from) => {
      const what = from === 'list' ? `${across(its, 'a')}; ${across(its, 'b')}` : across(its, from === 'a' ? 'b' : 'a');
      return `Lit: ${what} (${wheres(its)}).`;
    };
    const links = P.linker(live, say);
    const side = (key, text, name, lang) => {
      const word = sides[key];
      const other = key === 'a' ? 'b' : 'a';
      const marks = new Map();
      for (const it of items) {
        for (const r of it[key]) {
          if (!marks.has(r.line)) marks.set(r.line, { its: [], glyph: '•', cls: ['dlp-map-line'], r });
          const m = marks.get(r.line);
          if (!m.its.includes(it)) m.its.push(it);
        }
      }
      // Named by its source lines and the line Enter goes to: the first of
      // the first of them that has lines on the other side (the pane's).
      for (const m of marks.values()) {
        const to = m.its.find((it) => it[other].length);
        const there = to ? `Enter goes to ${sides[other].toLowerCase()} line ${Math.min(...to[other].map((r) => r.line))}` : `no ${sides[other].toLowerCase()} line`;
        m.label = `${word} line ${m.r.line}, ${m.r.name}: from ${wheres(m.its)}; ${there}`;
      }
      const n = Object.keys(text.lines).length;
      const what = text.whole ? `the whole dump, ${count(n, 'line')}` : `only the mapped ${count(n, 'line')} (the dump is long)`;
      return P.pane({ side: word, key, text, caption: `${word}${name ? ` (${name})` : ''}: ${what}`, name: `${word} dump`, lang, links, marks });
    };
    const views = [side('a', texts.lowered, names[0], LANGS[map.lowered_format] || 'mlir'), side('b', texts.compiled, names[1], 'hlo')];
    const spans = views.map((v) => new Map([...v.querySelectorAll('.dlp-diff-line')].map((sp) => [Number(sp.dataset.line), sp])));
    /** A table row's lines in the panes, as an item: a source line's own;
     *  a kernel's line and its ops'; an op's line and its kernels'. */
    const forRow = (kind, i, tr) => {
      if (kind === 'lines') {
        items[i].nodes.list.push(tr);
        return items[i];
      }
      const x = kind === 'kernels' ? map.kernels[i] : map.lowered_ops[i];
      const lines = kind === 'kernels' ? { a: opsOf(x.lowered_ops), b: [{ name: x.name, line: x.line }] } : { a: opsOf([x]), b: kernelsOf(x.kernels) };
      const it = P.item(lines);
      for (const key of ['a', 'b']) it.nodes[key] = it[key].map((r) => spans[key === 'a' ? 0 : 1].get(r.line)).filter(Boolean);
      return it;
    };
    const wrap = el('div', 'dlp-map-side');
    const panes = el('div', 'dlp-diff-panes dlp-map-panes');
    panes.append(...views);
    wrap.append(el('h4', '', 'Lowered | Compiled: the two dumps side by side'), el('p', 'dlp-note', "Marked (•): each source line's lowered ops and kernels. Hover or focus a marked line (the arrows move between them, Enter goes to the other side): the lines of its source lines light on the other side, and their rows in the table of source lines."), panes, live);
    return { wrap, links, forRow };
  }

  // The source map: each source line gets a colour; focusing or hovering a
  // kernel or a line lights up the other side, and the lines in the panes.
  function sourceMap(map, texts, names) {
    const sec = el('section', 'dlp-map');
    sec.setAttribute('aria-label', 'Source map');
    sec.append(el('h3', '', 'Source map: Python lines → lowered ops → kernels'));
    if (map.mismatch) {
      sec.append(el('p', 'dlp-reason', `These two dumps do not map: ${map.mismatch}.`));
      return sec;
    }
    const hue = (i) => `hsl(${Math.round((i * 137.508) % 360)}, 70%, 50%)`;
    const lineIdx = new Map(map.source_lines.map((l, i) => [where(l), i]));
    const kernelIdx = new Map(map.kernels.map((k, i) => [k.name, i]));
    const opKey = (o) => `${o.line} ${o.name}`;
    const opIdx = new Map(map.lowered_ops.map((o, i) => [opKey(o), i]));
    const chips = (lines) => {
      const span = el('span');
      for (const l of lines) {
        const c = el('span', 'dlp-chip');
        c.style.backgroundColor = hue(lineIdx.get(where(l)));
        c.title = where(l);
        span.append(c);
      }
      return span;
    };
    // Rows by table, filled as they are made (see `table`).
    const rows = { lines: [], kernels: [], ops: [] };
    // What lights up with each row: indices into the three tables.
    const ids = (list, idx, key) => list.map((x) => idx.get(key(x))).filter((i) => i !== undefined);
    const side = sidePanes(map, texts, names || []);
    const wire = (tr, kind, i, rel) => {
      rows[kind][i] = tr;
      tr.tabIndex = 0;
      tr.dataset[kind === 'lines' ? 'line' : kind === 'kernels' ? 'kernel' : 'op'] = String(i);
      const inPanes = side && side.forRow(kind, i, tr);
      const set = (on) => {
        light(tr, on);
        for (const [k, list] of Object.entries(rel)) for (const j of list) if (rows[k][j]) light(rows[k][j], on);
        if (inPanes) side.links.show(inPanes, on, 'list');
      };
      tr.addEventListener('mouseenter', () => set(true));
      tr.addEventListener('mouseleave', () => set(false));
      tr.addEventListener('focus', () => set(true));
      tr.addEventListener('blur', () => set(false));
      return tr;
    };
    const makeLine = (i) => {
      const l = map.source_lines[i];
      const label = el('span');
      label.append(chips([l]), ' ', where(l));
      const n = l.lowered_ops_total || l.lowered_ops.length;
      const tr = row([label, n, l.kernels.join(', ') || '(none: folded away or provenance lost)']);
      return wire(tr, 'lines', i, { kernels: ids(l.kernels, kernelIdx, (x) => x), ops: ids(l.lowered_ops, opIdx, opKey) });
    };
    const makeKernel = (i) => {
      const k = map.kernels[i];
      const tr = row([el('code', '', k.name), k.detail ? `${k.kind} ${k.detail}` : k.kind, chips(k.source_lines), k.source_lines.map(where).join(', ') || 'provenance lost', k.lowered_ops.length]);
      return wire(tr, 'kernels', i, { lines: ids(k.source_lines, lineIdx, where), ops: ids(k.lowered_ops, opIdx, opKey) });
    };
    const makeOp = (i) => {
      const o = map.lowered_ops[i];
      const label = el('span');
      label.append(chips(o.source_lines), ' ', o.source_lines.map(where).join(', ') || 'no source line');
      const tr = row([o.line, el('code', '', o.name), o.op, label, o.kernels.join(', ') || '(no kernel)']);
      return wire(tr, 'ops', i, { lines: ids(o.source_lines, lineIdx, where), kernels: ids(o.kernels, kernelIdx, (x) => x) });
    };
    if (side) sec.append(side.wrap);
    sec.append(el('p', 'dlp-note', `Focus or hover a row: its Python lines, lowered ops and kernels light up in all three tables${side ? ', and their lines in the dumps above' : ''}.`));
    sec.append(table(`Python source lines: ${total(map, 'source_lines')}`, ['source line', 'lowered ops', 'kernels'], map.source_lines.length, makeLine, 'dlp-map-lines'));
    sec.append(table(`Kernels, in run order: ${total(map, 'kernels')}`, ['kernel', 'what it is', 'line colours', 'source lines', 'lowered ops'], map.kernels.length, makeKernel, 'dlp-map-kernels'));
    sec.append(table(`Lowered ops: ${total(map, 'lowered_ops')}`, ['line', 'op', 'what', 'source line', 'kernels'], map.lowered_ops.length, makeOp, 'dlp-map-ops'));
    for (const note of [cut(map, 'source_lines', 'source lines'), cut(map, 'kernels', 'kernels'), cut(map, 'lowered_ops', 'lowered ops')]) if (note) sec.append(note);
    const lost = map.kernels_without_source;
    const nLost = total(map, 'kernels_without_source');
    sec.append(el('p', 'dlp-note', nLost ? `Kernels whose provenance is lost: ${nLost} (${lost.slice(0, 20).join(', ')}${nLost > 20 ? ', …' : ''}).` : 'Every kernel names its source lines.'));
    const bare = map.lowered_without_source;
    const nBare = total(map, 'lowered_without_source');
    sec.append(el('p', 'dlp-note', nBare ? `Lowered ops without a source line: ${nBare} (${bare.slice(0, 8).map((o) => `${o.name} ${o.op}`).join(', ')}${nBare > 8 ? ', …' : ''}).` : 'Every lowered op names its source line.'));
    return sec;
  }

  /** Resolves after the page has had a chance to draw (or 50 ms, in a hidden tab). */
  const nextFrame = () =>
    new Promise((resolve) => {
      let done = false;
      const go = () => {
        if (!done) {
          done = true;
          resolve();
        }
      };
      requestAnimationFrame(() => setTimeout(go, 0));
      setTimeout(go, 50);
    });

  // "Skip to the source map" among the page's skip links (theme/index.hbs)
  // while a map is shown: the map comes after both reports.
  function skipToMap(on) {
    const skips = document.getElementById('dumplab-skip');
    const old = skips && skips.querySelector('.dlp-skip-map');
    if (old) old.remove();
    if (!on || !skips) return;
    const to = el('a', 'dlp-skip-map', 'Skip to the source map');
    to.href = '#dlp-map';
    // The map comes before the sections below the reports.
    skips.insertBefore(to, skips.querySelector('.dlp-skip-later'));
  }
  async function render(reports, map, gen) {
    const later = [];
    const frag = document.createDocumentFragment();
    // "Top suspects" of every dump first, above the reports.
    reports.forEach((r, i) => {
      if (r && r.why && window.dumplabWhy) frag.append(suspects(i, r.why));
    });
    reports.forEach((r, i) => {
      if (!r) return;
      if (r.error) {
        const sec = el('section', 'dlp-report');
        sec.dataset.kind = 'error';
        sec.append(el('h3', '', `Dump ${i + 1}`), el('p', 'dlp-reason', r.error));
        frag.append(sec);
      } else frag.append(report(i, r, later));
    });
    skipToMap(false);
    if (map) {
      later.push(() => {
        const sec = sourceMap(map.map, map.panes, map.names);
        sec.id = 'dlp-map';
        if (map.unproved !== undefined) sec.querySelector('h3').after(el('p', 'dlp-note dlp-map-unproved', `Dump ${map.unproved + 1}'s text does not prove that it is HLO before optimization (its hints make it likely, not proved): read here as the lowered dump.`));
        out.append(sec);
        // Each pane opens at its first marked line (the entry computation comes last).
        for (const pre of sec.querySelectorAll('.dlp-map-panes pre')) window.dumplabViewer.reveal(pre.querySelector('.dlp-diff-line'));
        skipToMap(true);
      });
    }
    else if (reports.filter(Boolean).length === 2) frag.append(el('p', 'dlp-note', 'For a source map, give one lowered dump (StableHLO, jaxpr or HLO before optimization) and one compiled HLO dump.'));
    out.replaceChildren(frag);
    for (const draw of later) {
      await nextFrame();
      if (gen !== generation) return;
      draw();
    }
  }
})();
