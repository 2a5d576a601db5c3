// DumpLab playground: "What changed", the diff of two dumps (the checker's
// `diff` request, exactly `mdbook-dumplab diff --json`'s object; schema in
// checker/src/analysis/mod.rs, section "JSON of `diff`"). Loaded by the
// {{#dumplab-playground}} block only (preprocessor/src/playground.rs), after
// the ledger's script (its chip presets and number words) and before
// src/dumplab-playground.js, which calls `window.dumplabDiff.mount` with the
// checker's worker. Shows: two inputs (paste, drop or pick a file), an
// optional chip, the summary, the two dumps side by side in the dump viewer
// (theme/viewer.js) with each kernel's line marked by its status (a colour
// and a glyph), and the list of changes, biggest bytes change first; a
// kernel's line, its partners on the other side and its entry in the list
// light together on hover and focus. Lowered and jaxpr pairs: the verdict
// and the ops per source line. Dump text reaches the page as text nodes.
// The panes and their links (`window.dumplabDiff.panes`) also draw the
// source map's "Lowered | Compiled" dumps (src/dumplab-playground.js).
(() => {
  'use strict';
  const light = window.dumplabLight || ((node, on) => node.classList.toggle('dlp-lit', on));
  const ledger = window.dumplabLedger || {};
  /** The chip presets (`mdbook-dumplab diff --chip`), the ledger's table. */
  const CHIPS = ledger.CHIPS || [];
  const words = ledger.words || { si: String, bytes: (n) => `${n} B`, secs: (s) => `${s} s` };
  /** Entries of the list of changes drawn before "Show all". */
  const SHOWN_ENTRIES = 50;
  /** Rows of a lowered pair's table drawn before "Show all". */
  const SHOWN_ROWS = 50;

  /**
   * A kernel's status, one row each: the glyph beside its line (the cue
   * that is not a colour), the words of its accessible name and legend.
   */
  const STATUS = {
    matched: { glyph: '=', words: 'matched, unchanged' },
    changed: { glyph: '~', words: 'matched, changed' },
    split: { glyph: '<', words: 'part of a split (one kernel of A, several of B)' },
    merged: { glyph: '>', words: 'part of a merge (several kernels of A, one of B)' },
    added: { glyph: '+', words: 'added (in B only)' },
    removed: { glyph: '-', words: 'removed (in A only)' },
  };
  /** How a pair or group was matched (`basis`). */
  const BASIS = {
    identical: 'identical but for the names',
    provenance: 'the same op_names and source lines',
    source_line: 'grouped by source line',
    op_name: 'grouped by op_name',
    similar: 'the most similar provenance (a guess: check it in the dumps)',
    shape: 'no provenance: the same kind and shapes (a guess: check it in the dumps)',
    opcodes: 'no provenance: the same kind and opcodes, other shapes (a guess: check it in the dumps)',
  };
  /** A changed pair's `changes`, one row per field: its words from [A, B]. */
  const list = (xs) => (xs && xs.length ? xs.join(', ') : 'none');
  const CHANGES = {
    kind: (v) => `kind ${v[0]} → ${v[1]}`,
    detail: (v) => `${v[0] || 'none'} → ${v[1] || 'none'}`,
    ops_in: (v) => `now runs ${list(v)}`,
    ops_out: (v) => `no longer runs ${list(v)}`,
    op_names_in: (v) => `work moved in: ${list(v)}`,
    op_names_out: (v) => `work moved out: ${list(v)}`,
    details_in: (v) => `attributes or literals now: ${list(v)}`,
    details_out: (v) => `attributes or literals before: ${list(v)}`,
    shape: (v) => `shape ${v[0]} → ${v[1]}`,
    layout: (v) => `layout ${v[0]} → ${v[1]}`,
    operand_shapes: (v) => `operand shapes (${list(v[0])}) → (${list(v[1])})`,
    depth: (v) => `loop depth ${v[0]} → ${v[1]}`,
  };
  /** How a copy or transpose came in (`introduced[].how`). */
  const HOW = {
    added: 'a kernel with no partner in A',
    regrouped: 'a part of a split or merge',
    became: 'a matched kernel now of that kind',
    'fused-in': 'a matched fusion now running the opcode',
  };
  /** What a lowered pair's ops are (`format`). */
  const FORMATS = { stablehlo: 'StableHLO operations', hlo: 'HLO operations (before optimization)', jaxpr: 'jaxpr equations' };

  /** Zero-width and bidi control characters (src/dumplab-playground-invisible.js):
   *  the section is watched, so every text node it draws from a dump, a
   *  name or a file name shows them as ⟨U+202E⟩; attributes are spelled. */
  const invisible = window.dumplabInvisible;
  const spelled = invisible.spelled;
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  const count = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
  /** A signed figure: "+2.03 MiB", "−256", "±0"; "unknown" for null. */
  function signed(n, f) {
    if (n === null || n === undefined) return 'unknown';
    return `${n > 0 ? '+' : n < 0 ? '−' : '±'}${f(Math.abs(n))}`;
  }
  const bytes = (n) => words.bytes(n);
  const flops = (n) => words.si(n);
  const at = (side, r) => `${r.name} (${side} line ${r.line})`;
  /** Names this long are cut in the list's words (the dump's line has them whole). */
  const NAME_CHARS = 200;
  const clip = (t) => (t.length > NAME_CHARS ? `${t.slice(0, NAME_CHARS)} …` : t);

  // ---- the controls ----------------------------------------------------------
  /** The section and its controls, after the playground's block. */
  function controls() {
    const sec = el('section', 'dlp-diff');
    const h = el('h2', '', 'What changed: two dumps compared');
    h.id = 'dlp-diff-h';
    sec.setAttribute('aria-labelledby', h.id);
    sec.append(h, el('p', 'dlp-note', 'Give two compiled dumps of one function (two JAX versions, two backends, before and after a change), or two lowered ones, or two jaxprs. Kernels are matched by what they compute, never by their names.'));
    const inputs = el('div', 'dlp-inputs');
    const sides = ['A', 'B'].map((name, i) => {
      const box = el('div', 'dlp-input');
      box.dataset.side = name;
      const label = el('label', 'dlp-label', i ? 'Dump B (after)' : 'Dump A (before)');
      const text = el('textarea', 'dlp-text');
      text.id = `dlp-diff-text-${i}`;
      label.htmlFor = text.id;
      text.rows = 8;
      text.spellcheck = false;
      text.setAttribute('autocomplete', 'off');
      text.placeholder = `Paste dump ${name} here, or drop a file on this box`;
      const row = el('div', 'dlp-row');
      const pick = el('label', 'dlp-pick', 'Or pick a file: ');
      const file = el('input', 'dlp-file');
      file.type = 'file';
      file.accept = '.txt,.mlir,.hlo,.log,text/plain';
      pick.append(file);
      const clear = el('button', 'dlp-clear', 'Clear');
      clear.type = 'button';
      clear.setAttribute('aria-label', `Clear dump ${name}`);
      row.append(pick, ' ', clear);
      box.append(label, text, row);
      inputs.append(box);
      return { i, name, box, text, file, clear, placeholder: text.placeholder, held: 0, fileName: '', token: 0 };
    });
    const examples = exampleData();
    let pick = null;
    if (examples) {
      const prow = el('div', 'dlp-row dlp-diff-examples-row');
      const plabel = el('label', '', 'Or pick a pair from the course: ');
      pick = el('select', 'dlp-diff-example');
      pick.id = 'dlp-diff-example';
      plabel.htmlFor = pick.id;
      const first = el('option', '', 'choose a pair…');
      first.value = '';
      pick.append(first);
      examples.pairs.forEach((p, n) => {
        const o = el('option', '', p.label);
        o.value = String(n);
        pick.append(o);
      });
      prow.append(plabel, pick);
      sec.append(prow);
    }
    const row = el('div', 'dlp-row');
    const chipLabel = el('label', '', 'Chip for the lower bound (optional): ');
    const chip = el('select', 'dlp-diff-chip');
    chip.id = 'dlp-diff-chip';
    chipLabel.htmlFor = chip.id;
    const none = el('option', '', 'none');
    none.value = '';
    chip.append(none);
    for (const [name, full] of CHIPS) {
      const o = el('option', '', `${name} (${full})`);
      o.value = name;
      chip.append(o);
    }
    const run = el('button', 'dlp-diff-run', 'Compare');
    run.type = 'button';
    const status = el('span', 'dlp-diff-status');
    status.setAttribute('role', 'status');
    row.append(chipLabel, chip, ' ', run, ' ', status);
    const alert = el('p', 'dlp-reason dlp-diff-error');
    alert.setAttribute('role', 'alert');
    const out = el('div', 'dlp-diff-out');
    sec.append(inputs, row, alert, out);
    if (pick) sec.insertBefore(sec.querySelector('.dlp-diff-examples-row'), inputs);
    return { sec, sides, chip, run, status, alert, out, pick, examples };
  }

  /** The course's example pairs, from the page JSON the playground block
   *  carries: { dumps: { "family/file": text }, pairs: [{ label, a, b }] }. */
  function exampleData() {
    const node = document.querySelector('script.dlp-diff-examples');
    if (!node) return null;
    try {
      const data = JSON.parse(node.textContent);
      return data && Array.isArray(data.pairs) && data.pairs.length ? data : null;
    } catch (err) {
      return null;
    }
  }

  // ---- input: the playground's ways in, for two more dumps --------------------
  /** Wires a side's box: a file (picked, dropped or pasted) or a large paste
   *  goes to the worker at once (`ui.hold`); typed text when comparing. */
  function wireInput(ui, side, say) {
    const tooLarge = (what, size) => `${what} is ${words.bytes(size)}; the page reads dumps up to ${words.bytes(ui.maxBytes)}. Use \`mdbook-dumplab diff\` on the command line for larger ones.`;
    const hold = (name, shown, msg, transfer) => {
      const token = ++side.token;
      side.held = 0;
      side.fileName = name;
      side.text.value = shown;
      side.text.placeholder = shown ? side.placeholder : `${spelled(name) || 'Pasted text'}: held for the checker, not shown here (type or paste to replace it)`;
      say(`Handing ${name || 'the pasted text'} to the checker…`);
      return ui.hold(side.i, msg, transfer).then((r) => {
        if (token !== side.token) return;
        side.held = r.size;
        say(`Dump ${side.name}: ${name || 'pasted text'}, ${words.bytes(r.size)}, ready.`);
      }, (err) => say(`The checker could not start: ${err.message}.`, true));
    };
    const takeFile = (file) => {
      if (!file) return;
      if (file.size > ui.maxBytes) {
        say(tooLarge(file.name, file.size), true);
        return;
      }
      const reader = new FileReader();
      reader.onerror = () => say(`${file.name} could not be read.`, true);
      reader.onload = () => {
        const data = new Uint8Array(reader.result);
        if (data.subarray(0, 65536).indexOf(0) >= 0) {
          say(`${file.name} is not a text dump: it holds NUL bytes (a binary file?). Pick a jaxpr, StableHLO or HLO text dump.`, true);
          return;
        }
        const shown = data.length <= ui.shownBytes ? new TextDecoder().decode(data) : '';
        hold(file.name, shown, { bytes: data }, [data.buffer]);
      };
      reader.readAsArrayBuffer(file);
    };
    const forget = () => {
      side.token++;
      side.held = 0;
      side.fileName = '';
    };
    side.file.addEventListener('change', () => takeFile(side.file.files[0]));
    side.text.addEventListener('input', forget);
    side.text.addEventListener('paste', (e) => {
      const dt = e.clipboardData;
      if (dt && dt.files && dt.files[0]) {
        e.preventDefault();
        takeFile(dt.files[0]);
        return;
      }
      const t = dt ? dt.getData('text/plain') : '';
      if (t.length > ui.maxBytes) {
        e.preventDefault();
        say(tooLarge('This paste', t.length), true);
      } else if (t.length > ui.shownBytes) {
        e.preventDefault();
        hold('', '', { text: t });
      }
    });
    side.clear.addEventListener('click', () => {
      forget();
      side.text.value = '';
      side.file.value = '';
      side.text.placeholder = side.placeholder;
      side.text.focus();
    });
    side.box.addEventListener('dragover', (e) => {
      e.preventDefault();
      side.box.classList.add('dlp-drop');
    });
    side.box.addEventListener('dragleave', () => side.box.classList.remove('dlp-drop'));
    side.box.addEventListener('drop', (e) => {
      side.box.classList.remove('dlp-drop');
      const dt = e.dataTransfer;
      const f = dt && dt.files[0];
      if (f) {
        e.preventDefault();
        takeFile(f);
        return;
      }
      const t = dt ? dt.getData('text/plain') : '';
      if (t && (t.length > ui.shownBytes || e.target !== side.text)) {
        e.preventDefault();
        if (t.length > ui.shownBytes) hold('', '', { text: t });
        else {
          side.text.value = t;
          forget();
        }
      }
    });
  }

  /** Hands each side's typed text to the worker unless it holds the side's
   *  dump already; rejects with the sentence to show when a side is empty. */
  async function handOver(ui, sides) {
    for (const side of sides) {
      if (side.held) continue;
      const t = side.text.value;
      if (!t.trim()) throw new Error(`Dump ${side.name} is empty: paste a dump or pick a file for it.`);
      const token = side.token;
      const r = await ui.hold(side.i, { text: t });
      if (token === side.token) side.held = r.size;
    }
  }

  // ---- the items: what the lists and the panes show ---------------------------
  /**
   * Every row of both modules that the diff names, as items `{ id, status,
   * a: [{name, line}], b: [...], bytes, flops, ... }` (bytes, flops: the
   * change B less A, XLA's, null where unknown), in the diff's order.
   */
  function items(d) {
    const k = d.kernels;
    const out = [];
    const add = (fields) => {
      const it = item(fields);
      it.id = out.length;
      out.push(it);
    };
    const changed = new Map(k.changed.map((c) => [`${c.a_line} ${c.b_line}`, c]));
    const pairs = [...k.matched];
    const seen = new Set(pairs.map((p) => `${p.a_line} ${p.b_line}`));
    for (const c of k.changed) if (!seen.has(`${c.a_line} ${c.b_line}`)) pairs.push(c);
    for (const p of pairs) {
      const c = changed.get(`${p.a_line} ${p.b_line}`);
      add({ status: c ? 'changed' : 'matched', a: [{ name: p.a, line: p.a_line }], b: [{ name: p.b, line: p.b_line }], bytes: p.bytes_delta, flops: p.flops_delta, basis: p.basis, kind: p.kind, changes: c ? c.changes : null });
    }
    for (const g of k.merged) add({ status: 'merged', a: g.from.map((name, j) => ({ name, line: g.from_lines[j] })), b: [{ name: g.to, line: g.to_line }], bytes: g.bytes_delta, flops: g.flops_delta, basis: g.basis });
    for (const g of k.split) add({ status: 'split', a: [{ name: g.from, line: g.from_line }], b: g.to.map((name, j) => ({ name, line: g.to_lines[j] })), bytes: g.bytes_delta, flops: g.flops_delta, basis: g.basis });
    for (const r of k.added) add({ status: 'added', a: [], b: [{ name: r.name, line: r.line }], bytes: r.bytes, flops: r.flops, row: r });
    const neg = (n) => (n === null || n === undefined ? null : -n);
    for (const r of k.removed) add({ status: 'removed', a: [{ name: r.name, line: r.line }], b: [], bytes: neg(r.bytes), flops: neg(r.flops), row: r });
    return out;
  }

  /** Biggest bytes change first (either way), unknown last, else in the diff's order. */
  function biggestFirst(x, y) {
    const nx = x.bytes === null || x.bytes === undefined;
    const ny = y.bytes === null || y.bytes === undefined;
    if (nx || ny) return nx === ny ? x.id - y.id : nx ? 1 : -1;
    return Math.abs(y.bytes) - Math.abs(x.bytes) || x.id - y.id;
  }

  /** An item's entry in words: what it is, where, what changed, by how much. */
  function entryWords(it) {
    const figs = `bytes ${signed(it.bytes, bytes)}, flops ${signed(it.flops, flops)}`;
    const how = it.basis ? ` (${BASIS[it.basis] || it.basis})` : '';
    if (it.status === 'changed' || it.status === 'matched') {
      const changes = Object.entries(it.changes || {}).map(([key, v]) => (CHANGES[key] ? CHANGES[key](v) : `${key}: ${JSON.stringify(v)}`));
      return { head: `${at('A', it.a[0])} → ${at('B', it.b[0])}`, body: `${changes.join('; ') || 'unchanged'}; ${figs}; matched by${how.replace(/[()]/g, '')}` };
    }
    if (it.status === 'merged') return { head: `${count(it.a.length, 'kernel')} of A → ${at('B', it.b[0])}`, body: `merged: ${it.a.map((r) => at('A', r)).join(', ')}${how}; ${figs}` };
    if (it.status === 'split') return { head: `${at('A', it.a[0])} → ${count(it.b.length, 'kernel')} of B`, body: `split into ${it.b.map((r) => at('B', r)).join(', ')}${how}; ${figs}` };
    const r = it.row;
    const side = it.status === 'added' ? 'B' : 'A';
    const what = r.detail ? `${r.kind} ${r.detail}` : r.kind;
    const src = r.source_lines && r.source_lines.length ? `; from ${r.source_lines.map((l) => (typeof l === 'string' ? l : `${l.file}:${l.line}`)).join(', ')}` : '';
    const names = r.op_names && r.op_names.length ? `; op_names ${r.op_names.map(clip).join(', ')}` : '';
    const depth = r.depth ? `; inside a loop (depth ${r.depth})` : '';
    return { head: `${what} ${at(side, it[side.toLowerCase()][0])}`, body: `${r.shape}${names}${src}${depth}; ${figs} (XLA's)` };
  }

  // ---- linking: lines, partners and entries light together -------------------
  // Shared with the source map's "Lowered | Compiled" panes
  // (src/dumplab-playground.js), through `window.dumplabDiff.panes`. An item
  // is what lights as one: `{ a: [{name, line}], b: [...], nodes: { a, b,
  // list }, stops: { a, b } }` (`nodes`: the elements it lights, `stops`: its
  // lines' tab stops on each side); `item(fields)` adds the last two.
  const item = (fields) => ({ ...fields, nodes: { a: [], b: [], list: [] }, stops: { a: [], b: [] } });

  /** What the live region says when a diff's item is focused from `from`. */
  function diffWords(its, from) {
    const it = its[0];
    const other = from === 'a' ? it.b.map((r) => `B line ${r.line}, ${r.name}`) : from === 'b' ? it.a.map((r) => `A line ${r.line}, ${r.name}`) : [...it.a.map((r) => `A line ${r.line}`), ...it.b.map((r) => `B line ${r.line}`)];
    return other.length ? `Lit: ${other.join('; ')}.` : `No partner in ${from === 'a' ? 'B' : 'A'}.`;
  }

  /** The links of one result; `live`: the polite region that says what lit,
   *  in the words of `say(its, from)` (a diff's by default). */
  function linker(live, say = diffWords) {
    /** Per side, a marked line's items. */
    const byLine = { a: new Map(), b: new Map() };
    const set = (its, on) => {
      for (const it of its) for (const n of [...it.nodes.a, ...it.nodes.b, ...it.nodes.list]) light(n, on);
    };
    const reveal = (its, key) => {
      const first = its.map((it) => it.nodes[key][0]).find(Boolean);
      if (first && window.dumplabViewer) window.dumplabViewer.reveal(first);
    };
    const list = (x) => (Array.isArray(x) ? x : [x]);
    /** Lights (`on`) or darkens the items `x` (one or a list) and, lit,
     *  brings their first lines into view but on side `from`. */
    const show = (x, on, from) => {
      const its = list(x);
      set(its, on);
      if (!on) return;
      if (from !== 'b') reveal(its, 'b');
      if (from !== 'a') reveal(its, 'a');
    };
    /** `node` lights the items `x` on hover, `target` (else `node`) on
     *  focus, which the live region tells; `from`: 'a', 'b' or 'list'. */
    const wire = (node, x, from, target = node) => {
      const its = list(x);
      const on = () => show(its, true, from);
      const off = () => show(its, false, from);
      node.addEventListener('mouseenter', on);
      node.addEventListener('mouseleave', off);
      target.addEventListener('focus', () => {
        on();
        live.textContent = spelled(say(its, from));
      });
      target.addEventListener('blur', off);
    };
    return { byLine, show, wire };
  }

  /** Names a diff's pane line for assistive technology: side, line, name, status, partners. */
  function lineName(side, r, it) {
    const other = side === 'A' ? it.b : it.a;
    const to = other.length ? `; ${other.length > 1 ? 'with' : 'its partner'} ${other.map((o) => at(side === 'A' ? 'B' : 'A', o)).join(', ')}; Enter goes there` : '';
    return `${side} line ${r.line}, ${r.name}: ${STATUS[it.status].words}${to}`;
  }

  /**
   * One side's pane: the dump in the viewer, the lines in `o.marks` marked
   * (a class and a glyph) and linked. The glyph is the line's control (named
   * for assistive technology; Enter goes to the first line of its items on
   * the other side), one roving tab stop per pane, the arrows moving it
   * among the marked lines. `o`: { side ('A', a caption's word), key ('a'
   * or 'b': the side in the items), text ({ whole, lines }: the lines by
   * number), caption, name, lang, links (a `linker`), marks (a Map, line
   * number → { its, glyph, cls, label }) }.
   */
  function pane(o) {
    const { key, links } = o;
    const other = key === 'a' ? 'b' : 'a';
    const numbers = Object.keys(o.text.lines).map(Number).sort((x, y) => x - y);
    const lines = numbers.map((n) => ({ n, text: o.text.lines[n] }));
    const view = window.dumplabViewer.build({ lines, caption: o.caption, name: o.name, lang: o.lang });
    view.classList.add('dlp-diff-pane');
    view.dataset.side = o.side;
    const stops = [];
    for (const span of view.querySelectorAll('.dl-line[data-line]')) {
      const n = Number(span.dataset.line);
      const m = o.marks.get(n);
      const badge = el('span', 'dlp-badge', m ? m.glyph : ' ');
      span.insertBefore(badge, span.querySelector('.dl-src'));
      if (!m) {
        badge.setAttribute('aria-hidden', 'true');
        continue;
      }
      span.classList.add('dlp-diff-line', ...m.cls);
      span.dataset.item = m.its.map((it) => it.id).join(' ');
      badge.setAttribute('role', 'button');
      badge.setAttribute('aria-label', spelled(m.label));
      badge.tabIndex = stops.length ? -1 : 0;
      for (const it of m.its) {
        it.nodes[key].push(span);
        it.stops[key].push(badge);
      }
      links.byLine[key].set(n, m.its);
      links.wire(span, m.its, key, badge);
      stops.push({ badge, its: m.its });
    }
    stops.forEach(({ badge, its }, j) => {
      badge.addEventListener('focus', () => {
        for (const s of stops) s.badge.tabIndex = s.badge === badge ? 0 : -1;
      });
      badge.addEventListener('keydown', (e) => {
        const to = { ArrowDown: stops[j + 1], ArrowUp: stops[j - 1], Home: stops[0], End: stops[stops.length - 1] }[e.key];
        const go = e.key === 'Enter' || e.key === ' ';
        if (to !== undefined || go) e.preventDefault();
        if (to) to.badge.focus();
        if (go) {
          const there = its.map((it) => it.stops[other][0]).find(Boolean);
          if (there) there.focus();
        }
      });
    });
    return view;
  }

  /** A diff's pane of side 'A' or 'B': each kernel's line marked by its status. */
  function diffPane(side, text, fileName, its, links) {
    const key = side.toLowerCase();
    const marks = new Map();
    for (const it of its) for (const r of it[key]) marks.set(r.line, { its: [it], glyph: STATUS[it.status].glyph, cls: [`dlp-st-${it.status}`], label: lineName(side, r, it) });
    const n = Object.keys(text.lines).length;
    const what = text.whole ? `the whole dump, ${count(n, 'line')}` : `only the kernels' ${count(n, 'line')} (the dump is long)`;
    const caption = `Dump ${side}${fileName ? ` (${fileName})` : ''}: ${what}`;
    return pane({ side, key, text, caption, name: `Dump ${side}`, lang: 'hlo', links, marks });
  }

  // ---- the compiled result --------------------------------------------------
  /** The summary line: counts, XLA's bytes and flops, the lower bound. */
  function summary(d) {
    const s = d.summary;
    const p = el('p', 'dlp-diff-summary');
    for (const key of ['matched', 'changed', 'split', 'merged', 'added', 'removed', 'introduced', 'reordered', 'bytes_delta', 'flops_delta']) p.dataset[key.replace(/_(\w)/g, (m, c) => c.toUpperCase())] = String(s[key]);
    const counts = el('span', 'dlp-diff-counts', `${count(s.matched, 'kernel')} matched (${s.changed} changed), ${s.split} split, ${s.merged} merged, ${s.added} added, ${s.removed} removed.`);
    const xla = el('span', 'dlp-diff-xla', `XLA's bytes accessed ${bytes(d.a.xla.bytes_accessed)} → ${bytes(d.b.xla.bytes_accessed)} (${signed(s.bytes_delta, bytes)}); flops ${flops(d.a.xla.flops)} → ${flops(d.b.xla.flops)} (${signed(s.flops_delta, flops)}).`);
    p.append(counts, ' ', xla);
    if (d.chip) {
      p.dataset.lowerBoundDeltaS = String(s.lower_bound_delta_s);
      const lb = d.lower_bound_s || {};
      p.append(' ', el('span', 'dlp-diff-bound', `Lower bound on ${d.chip}: ${words.secs(lb.a)} → ${words.secs(lb.b)} (${signed(s.lower_bound_delta_s, words.secs)}).`));
    }
    return p;
  }

  /** The notes under the summary: XLA's uncosted rows, repairs, a stopped match. */
  function notes(d) {
    const out = [];
    const ua = d.a.xla.uncosted;
    const ub = d.b.xla.uncosted;
    if (ua || ub) out.push(el('p', 'dlp-note', `XLA costs no custom call: ${count(ua, 'instruction')} of A and ${ub} of B are left out of these figures.`));
    for (const [side, x] of [['A', d.a], ['B', d.b]]) if (x.repaired) out.push(el('p', 'dlp-note', `Dump ${side} was a damaged paste, repaired before reading; its line numbers are those of the paste.`));
    if (d.summary.truncated) out.push(el('p', 'dlp-reason', 'Matching stopped at its work budget: some kernels left unmatched here may have a partner.'));
    if (d.summary.empty) out.push(el('p', 'dlp-note dlp-diff-empty', 'Nothing differs: the two modules run the same kernels, names aside.'));
    if (!d.chip) out.push(el('p', 'dlp-note', 'Pick a chip above for the change in the lower bound on the time.'));
    return out;
  }

  /** The legend: each status's glyph and words. */
  function legend() {
    const ul = el('ul', 'dlp-diff-legend');
    ul.setAttribute('aria-label', 'What the marks beside the lines mean');
    for (const [key, s] of Object.entries(STATUS)) {
      const li = el('li', `dlp-st-${key}`);
      li.dataset.status = key;
      const g = el('span', 'dlp-badge', s.glyph);
      g.setAttribute('aria-hidden', 'true');
      li.append(g, ` ${s.words}`);
      ul.append(li);
    }
    return ul;
  }

  /** A list of entries, the first SHOWN_ENTRIES drawn, the rest on request. */
  function entries(cls, label, all, make) {
    const wrap = el('div', `dlp-diff-list ${cls}`);
    const h = el('h3', '', label);
    const ul = el('ul');
    wrap.append(h, ul);
    const add = (from, to) => {
      for (let i = from; i < to; i++) ul.append(make(all[i]));
    };
    add(0, Math.min(all.length, SHOWN_ENTRIES));
    if (all.length > SHOWN_ENTRIES) {
      const more = el('button', 'dlp-diff-more', `Show all ${all.length}`);
      more.type = 'button';
      more.addEventListener('click', () => {
        add(SHOWN_ENTRIES, all.length);
        more.remove();
      });
      wrap.append(more);
    }
    return wrap;
  }

  /** An item's entry: a button (it lights the item; pressed, it goes to A's line). */
  function entry(it, links) {
    const li = el('li', `dlp-diff-entry dlp-st-${it.status}`);
    li.dataset.item = String(it.id);
    li.dataset.status = it.status;
    const w = entryWords(it);
    const b = el('button', 'dlp-diff-item');
    b.type = 'button';
    const g = el('span', 'dlp-badge', STATUS[it.status].glyph);
    g.setAttribute('aria-hidden', 'true');
    b.append(g, el('span', 'dlp-diff-what', `${it.status}: `), el('span', 'dlp-diff-head', w.head));
    b.addEventListener('click', () => {
      const to = it.stops.a[0] || it.stops.b[0];
      if (to) to.focus();
    });
    it.nodes.list.push(li);
    links.wire(b, it, 'list');
    li.append(b, el('span', 'dlp-diff-body', w.body));
    return li;
  }

  /** Copies and transposes B runs and A did not, each linked to its item. */
  function introduced(d, links) {
    return entries('dlp-diff-introduced', `Copies and transposes introduced: ${d.introduced_total || d.introduced.length}`, d.introduced, (r) => {
      const li = el('li', 'dlp-diff-entry');
      const its = links.byLine.b.get(r.line);
      const b = el('button', 'dlp-diff-item', `a ${r.what} in ${at('B', r)}`);
      b.type = 'button';
      li.append(b, el('span', 'dlp-diff-body', `${r.how}: ${HOW[r.how] || r.how}`));
      if (its) {
        links.wire(b, its, 'list');
        b.addEventListener('click', () => its[0].stops.b[0] && its[0].stops.b[0].focus());
      }
      return li;
    });
  }

  /** What changed in the module itself: schedule, order, aliasing, entry layout. */
  function moduleChanges(d) {
    const m = d.module;
    const rows = [];
    if (m.scheduled) rows.push(`is_scheduled: ${m.scheduled[0]} → ${m.scheduled[1]}`);
    if (m.reordered) rows.push(`${count(m.reordered, 'matched kernel runs', 'matched kernels run')} in another order`);
    if (m.aliasing) rows.push(`input_output_alias: ${m.aliasing[0] || 'none'} → ${m.aliasing[1] || 'none'}`);
    if (m.entry_layout) rows.push(`entry_computation_layout: ${m.entry_layout[0] || 'none'} → ${m.entry_layout[1] || 'none'}`);
    if (!rows.length) return null;
    return entries('dlp-diff-module', 'The module', rows, (t) => el('li', 'dlp-diff-entry dlp-diff-modrow', t));
  }

  /** The result of two compiled modules. */
  function compiled(reply, names, live) {
    const d = reply.diff;
    const its = items(d);
    const links = linker(live);
    const parts = [summary(d), ...notes(d), legend()];
    const panes = el('div', 'dlp-diff-panes');
    panes.append(diffPane('A', reply.a, names[0], its, links), diffPane('B', reply.b, names[1], its, links));
    parts.push(panes);
    const k = d.kernels;
    const cut = ['matched', 'changed', 'merged', 'split', 'added', 'removed'].filter((key) => k[`${key}_total`]);
    if (cut.length) parts.push(el('p', 'dlp-note', `Long lists were cut for the page (${cut.map((key) => `${key}: the first ${k[key].length} of ${k[`${key}_total`]}`).join(', ')}); \`mdbook-dumplab diff --json\` lists them all.`));
    const changes = its.filter((it) => it.status !== 'matched').sort(biggestFirst);
    const same = its.length - its.filter((it) => it.status !== 'matched').length;
    parts.push(entries('dlp-diff-changes', `Changes, biggest bytes change first: ${changes.length}`, changes, (it) => entry(it, links)));
    parts.push(el('p', 'dlp-note', `${count(same, 'matched kernel is', 'matched kernels are')} unchanged (marked ${STATUS.matched.glyph} in the panes).`));
    if (d.introduced.length) parts.push(introduced(d, links));
    const mod = moduleChanges(d);
    if (mod) parts.push(mod);
    return parts;
  }

  // ---- lowered and jaxpr pairs ----------------------------------------------
  /** "stablehlo.add ×2, stablehlo.multiply ×1", or "none". */
  const ops = (o) => Object.entries(o).map(([op, n]) => `${op} ×${n}`).join(', ') || 'none';
  /** What changed on a line: "+stablehlo.rsqrt 1, −chlo.square 1". */
  function opDelta(a, b) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.map((op) => [op, (b[op] || 0) - (a[op] || 0)]).filter(([, n]) => n).map(([op, n]) => `${n > 0 ? '+' : '−'}${op} ×${Math.abs(n)}`).join(', ');
  }

  /** The verdict, in words: the same program or not, and why. */
  function verdict(d) {
    const s = d.summary;
    const what = FORMATS[d.format] || d.format;
    const p = el('p', 'dlp-diff-verdict');
    p.dataset.sameProgram = String(s.same_program);
    const where = s.unlocated ? ' (a side carries no source lines: its ops were compared as one program)' : '';
    if (s.same_program && s.moved) p.textContent = `The same ${what} on other source lines: the code moved in its file (or is another file's); compared as a whole the programs' ${what} are equal, and the entry signatures agree.`;
    else if (s.same_program) p.textContent = `The same program: every source line lowered to the same ${what} (${count(s.lines_same, 'line')}), and the entry signatures agree${where}. What differs after compiling is the compiler's doing, or how it was called.`;
    else p.textContent = `Not the same program: ${count(s.lines_changed, 'source line')} lowered to other ${what} (${s.lines_same} the same)${d.signature ? ', and the entry signatures differ' : ''}${where}.`;
    return p;
  }

  /** The result of two lowered programs or two jaxprs. */
  function lowered(d) {
    const parts = [verdict(d), el('p', 'dlp-note', `Read: ${count(d.a.ops, 'op')} in A, ${count(d.b.ops, 'op')} in B.`)];
    // Two HLO texts that prove neither kind (only hints): compared as
    // lowered programs all the same, as the command line says too.
    if (d.kind_unproved) parts.push(el('p', 'dlp-note dlp-diff-unproved', 'Neither text proves its kind (only hints of HLO before optimization): compared as lowered programs.'));
    if (d.signature) parts.push(el('p', 'dlp-note dlp-diff-signature', `Entry parameters: A (${d.signature.a.join(', ')}), B (${d.signature.b.join(', ')}).`));
    if (!d.lines.length) return parts;
    const wrap = el('div', 'dlp-table-wrap dlp-diff-lines');
    const cap = el('p', 'dlp-caption', `The source lines that differ: ${d.lines_total || d.lines.length}`);
    cap.id = 'dlp-diff-lines-cap';
    const scroll = el('div', 'dlp-scroll');
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-labelledby', cap.id);
    const t = el('table', 'dlp-table');
    t.setAttribute('aria-labelledby', cap.id);
    const head = el('tr');
    for (const h of ['source line', 'in A', 'in B', 'B less A']) {
      const th = el('th', '', h);
      th.scope = 'col';
      head.append(th);
    }
    const thead = el('thead');
    thead.append(head);
    const body = el('tbody');
    t.append(thead, body);
    scroll.append(t);
    wrap.append(cap, scroll);
    // One op a line (the table scrolls sideways in its region on a phone).
    const cell = (text) => {
      const td = el('td');
      const parts = text.split(', ');
      parts.forEach((p, j) => td.append(el('span', 'dlp-op', j < parts.length - 1 ? `${p}, ` : p)));
      return td;
    };
    const row = (l) => {
      const tr = el('tr');
      tr.append(el('td', '', l.file === null ? 'no source line' : `${l.file}:${l.line}`), cell(ops(l.a)), cell(ops(l.b)), cell(opDelta(l.a, l.b)));
      return tr;
    };
    const add = (from, to) => d.lines.slice(from, to).forEach((l) => body.append(row(l)));
    add(0, SHOWN_ROWS);
    if (d.lines.length > SHOWN_ROWS) {
      const more = el('button', 'dlp-diff-more', `Show all ${d.lines.length} rows`);
      more.type = 'button';
      more.addEventListener('click', () => {
        add(SHOWN_ROWS, d.lines.length);
        more.remove();
      });
      wrap.append(more);
    }
    parts.push(wrap);
    return parts;
  }

  // ---- the section ---------------------------------------------------------
  /**
   * Builds the section after `ctx.after` (the playground's block). `ctx`:
   * { after, maxBytes, shownBytes, hold(side, msg, transfer) → Promise of
   * {size} (the worker keeps the dump of side 0 or 1), diff(chip) → Promise
   * of { diff, a, b } (the report and each pane's { whole, lines }) }.
   */
  /** The section's one sentence on the invisible characters of dumps A
   *  and B (`found`, the worker's counts) and of their file names, as a
   *  list of none or one paragraph. */
  function invisibleNote(found, names) {
    const [a, b] = found || [];
    const p = invisible.note('the two dumps and their file names hold', [
      ['dump A', a],
      ['dump B', b],
      ['file names', invisible.tally(...names)],
    ]);
    return p ? [p] : [];
  }

  function mount(ctx) {
    const ui = controls();
    ui.maxBytes = ctx.maxBytes;
    ui.shownBytes = ctx.shownBytes;
    ui.hold = ctx.hold;
    const live = el('p', 'dlp-visually-hidden dlp-diff-live');
    live.setAttribute('aria-live', 'polite');
    ui.sec.append(live);
    const say = (text, bad) => {
      ui.status.textContent = bad ? '' : text;
      ui.alert.textContent = bad ? text : '';
    };
    for (const side of ui.sides) wireInput(ui, side, say);
    invisible.watch(ui.sec);
    let gen = 0;
    let shown = false;
    const compare = async () => {
      const mine = ++gen;
      ui.sec.setAttribute('aria-busy', 'true');
      say('Comparing…');
      try {
        await handOver(ui, ui.sides);
        const reply = await ctx.diff(ui.chip.value);
        if (mine !== gen) return;
        const names = ui.sides.map((s) => s.fileName);
        // Once, above the rest: what the two dumps and their names hold.
        const found = invisibleNote(reply.invisible, names);
        if (reply.diff.error) {
          ui.out.replaceChildren(...found);
          shown = false;
          // A lowered and a compiled dump: the pair the source map reads.
          const pair = reply.diff.compiled_side === 'A' || reply.diff.compiled_side === 'B';
          say(`${reply.diff.error.replace(/\.?$/, '.')}${pair ? ' To see how a lowered program became a compiled one, paste the two into the two boxes under “Your dumps” above: they draw the source map of that pair.' : ''}`, true);
          return;
        }
        ui.out.replaceChildren(...found, ...(reply.diff.kind === 'compiled' ? compiled(reply, names, live) : lowered(reply.diff)));
        ui.out.dataset.kind = reply.diff.kind;
        // Each pane opens at its first kernel (the entry computation comes last).
        for (const pre of ui.out.querySelectorAll('.dlp-diff-pane pre')) {
          const first = pre.querySelector('.dlp-diff-line');
          if (first && window.dumplabViewer) window.dumplabViewer.reveal(first);
        }
        shown = true;
        say(reply.diff.kind === 'compiled' ? 'Compared: the summary, both dumps and the changes are below.' : 'Compared: the verdict and the source lines that differ are below.');
      } catch (err) {
        if (mine !== gen) return;
        say(/^Dump [AB] is empty/.test(err.message) ? err.message : `The checker could not compare these: ${err.message}.`, true);
      } finally {
        if (mine === gen) ui.sec.removeAttribute('aria-busy');
      }
    };
    ui.run.addEventListener('click', compare);
    if (ui.pick) {
      ui.pick.addEventListener('change', () => {
        const pair = ui.examples.pairs[Number(ui.pick.value)];
        if (!pair) return;
        ui.sides.forEach((side, i) => {
          const key = i ? pair.b : pair.a;
          side.text.value = ui.examples.dumps[key] || '';
          side.text.dispatchEvent(new Event('input'));
          side.fileName = key;
        });
        compare();
      });
    }
    ui.chip.addEventListener('change', () => {
      if (shown) compare();
    });
    ctx.after.after(ui.sec);
    return ui.sec;
  }

  window.dumplabDiff = { mount, STATUS, BASIS, CHANGES, HOW, FORMATS, panes: { item, linker, pane } };
})();
