// DumpLab playground: "Why these kernels", for each compiled dump (the
// checker's `explain` request: `mdbook-dumplab explain --json`'s object, plus
// `lines`, [[line, text]] of the kernels' lines; see checker/src/explain/json.rs).
// Loaded by the {{#dumplab-playground}} block only (preprocessor/src/playground.rs),
// before src/dumplab-playground.js, which calls `window.dumplabExplain.section`
// after each compiled dump's ledger. Shows: the summary (boundaries, explained,
// unknown) and, where some are unknown, how to make XLA log its reasons (or that
// the backend does not); an optional input for XLA's fusion log (paste, drop or
// pick a file), which asks the checker again with it and says what it added; per
// kernel with inputs from other kernels, each such input with its producer, the
// answer, its basis, its sentence, XLA's message and the other reasons found;
// copies and transposes with their layouts, bytes and source lines; the reasons'
// sentences (the report's `reasons`: the page keeps no copy of them); and the
// kernels' lines in the dump viewer (theme/viewer.js), entries and lines linked
// both ways. Everything from the report reaches the page as text nodes.
(() => {
  'use strict';
  const light = window.dumplabLight || ((node, on) => node.classList.toggle('dlp-lit', on));
  const words = (window.dumplabLedger && window.dumplabLedger.words) || { bytes: (n) => `${n} B` };
  /** Kernels listed before "Show all". */
  const SHOWN_KERNELS = 40;
  /** What decided an answer (`basis`), in words. */
  const BASIS = { 'xla-log': "XLA's log", rule: "DumpLab's rule", 'not-in-log': "what XLA's complete log does not name (an inference)", 'dump-folder': "the compile's dump folder" };
  /** Where an input that is not another kernel's output comes from (`from`): [one, many]. */
  const SOURCES = { parameter: ['a parameter', 'parameters'], constant: ['a constant', 'constants'], tuple: ['a tuple element', 'tuple elements'], unknown: ['an input not traced', 'inputs not traced'] };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const count = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
  const bytes = (n) => (n === null || n === undefined ? 'unknown' : words.bytes(n));

  /** A same-page link that moves focus (a plain #fragment would not focus a line). */
  function jump(content, href, go, label) {
    const a = el('a', 'dlp-jump');
    a.append(content);
    a.href = href;
    if (label) a.setAttribute('aria-label', label);
    a.addEventListener('click', (e) => {
      e.preventDefault();
      go();
    });
    return a;
  }

  /**
   * The section for one dump. `ctx`: { id (a unique prefix for ids), reply
   * (the worker's `explain` answer), ask(log) → Promise of another reply
   * (log: text or bytes, null for none), maxBytes, shownBytes }.
   */
  function section(ctx) {
    const sec = el('section', 'dlp-why');
    const h = el('h4', '', 'Why these kernels');
    h.id = `${ctx.id}-h`;
    sec.setAttribute('aria-labelledby', h.id);
    sec.append(h);
    const first = ctx.reply;
    if (first.error) {
      sec.append(el('p', 'dlp-reason', `No explanation: ${first.error}`));
      return sec;
    }
    sec.append(el('p', 'dlp-note', "For every input of a kernel that comes from another kernel: why the two are separate kernels. Without a log the reasons are DumpLab's rules, read from the dump; with XLA's fusion log of the same compile, XLA's own words come first. Where no rule is sure, the answer is unknown; where a guess is offered beside it, it is named as a guess."));
    // The summary, the log's box below it, then the kernels: a log redraws
    // the summary and the kernels, never the box.
    const top = el('div', 'dlp-why-top');
    const body = el('div', 'dlp-why-body');
    const draw = (reply, before) => {
      const parts = explained(ctx, reply, before);
      top.replaceChildren(...parts.top);
      body.replaceChildren(...parts.body);
      sec.dataset.log = reply.log ? 'yes' : '';
    };
    const logBox = logInput(ctx, (reply) => draw(reply, first));
    draw(first, null);
    sec.append(top, logBox, body);
    return sec;
  }

  // ---- the log's input ---------------------------------------------------------
  /** The fusion log's box: a paste, a dropped or picked file; `show(reply)`
   *  draws each answer the checker gives with it (or without, once removed). */
  function logInput(ctx, show) {
    const box = el('div', 'dlp-input dlp-why-log');
    const label = el('label', 'dlp-label', "Optional: XLA's fusion log of this compile");
    const text = el('textarea', 'dlp-text');
    text.id = `${ctx.id}-log`;
    label.htmlFor = text.id;
    text.rows = 4;
    text.spellcheck = false;
    text.setAttribute('autocomplete', 'off');
    text.placeholder = 'Paste what XLA printed on standard error here, or drop the file on this box';
    const placeholder = text.placeholder;
    const row = el('div', 'dlp-row');
    const pick = el('label', 'dlp-pick', 'Or pick a file: ');
    const file = el('input', 'dlp-file');
    file.type = 'file';
    file.accept = '.txt,.log,text/plain';
    pick.append(file);
    const run = el('button', 'dlp-why-run', 'Explain with this log');
    run.type = 'button';
    const clear = el('button', 'dlp-clear', 'Remove the log');
    clear.type = 'button';
    const status = el('span', 'dlp-why-status');
    status.setAttribute('role', 'status');
    row.append(pick, ' ', run, ' ', clear, ' ', status);
    box.append(label, text, row);
    let held = null; // a large file's bytes, held by the page, not shown
    let token = 0;
    const ask = (log) => {
      const mine = ++token;
      status.textContent = log === null ? 'Explaining without a log…' : 'Explaining with the log…';
      status.classList.remove('dlp-bad');
      ctx.ask(log).then(
        (reply) => {
          if (mine !== token) return;
          status.textContent = reply.error ? `No explanation: ${reply.error}` : '';
          status.classList.toggle('dlp-bad', !!reply.error);
          if (!reply.error) show(reply);
        },
        (err) => {
          if (mine !== token) return;
          status.textContent = `The checker could not explain this: ${err.message}.`;
          status.classList.add('dlp-bad');
        },
      );
    };
    const take = (f) => {
      if (f.size > ctx.maxBytes) {
        status.textContent = `${f.name} is ${bytes(f.size)}; the page reads logs up to ${bytes(ctx.maxBytes)}. Use \`mdbook-dumplab explain DUMP --log FILE\` on the command line.`;
        status.classList.add('dlp-bad');
        return;
      }
      const mine = ++token;
      f.arrayBuffer().then((buf) => {
        if (mine !== token) return;
        const b = new Uint8Array(buf);
        if (b.length <= ctx.shownBytes) {
          held = null;
          text.value = new TextDecoder().decode(b);
          text.placeholder = placeholder;
        } else {
          held = b;
          text.value = '';
          text.placeholder = `${f.name} (${bytes(b.length)}) is held by the page, too large to show; type or paste here to replace it`;
        }
        ask(held || text.value || null);
      }, (err) => {
        status.textContent = `Could not read ${f.name}: ${err.message}.`;
        status.classList.add('dlp-bad');
      });
    };
    text.addEventListener('input', () => {
      held = null;
      text.placeholder = placeholder;
    });
    file.addEventListener('change', () => {
      if (file.files[0]) take(file.files[0]);
      file.value = '';
    });
    run.addEventListener('click', () => ask(held || text.value || null));
    clear.addEventListener('click', () => {
      held = null;
      text.value = '';
      text.placeholder = placeholder;
      ask(null);
    });
    box.addEventListener('dragover', (e) => {
      e.preventDefault();
      box.classList.add('dlp-drop');
    });
    box.addEventListener('dragleave', () => box.classList.remove('dlp-drop'));
    box.addEventListener('drop', (e) => {
      box.classList.remove('dlp-drop');
      const f = e.dataTransfer && e.dataTransfer.files[0];
      if (!f) return;
      e.preventDefault();
      take(f);
    });
    return box;
  }

  // ---- the explanation -----------------------------------------------------------
  /** Whether input `i` joins two kernels (`reason` null: from a parameter or a constant). */
  const isBoundary = (i) => i.reason !== null && i.reason !== undefined;
  /** Whether kernel `k` has an entry: an input from another kernel, or copy facts. */
  const listed = (k) => k.inputs.some(isBoundary) || !!k.copy;

  /** The parts drawn for one reply; `before`, the reply without a log (to say what a log added). */
  function explained(ctx, r, before) {
    const top = [summary(r)];
    const ask = asking(r);
    if (ask) top.push(ask);
    if (r.log) top.push(logLine(r, before));
    const found = r.log_invisible && window.dumplabInvisible && window.dumplabInvisible.note('the fusion log holds', [[null, r.log_invisible]]);
    if (found) top.push(found);
    const parts = [];
    const titles = new Map((r.reasons || []).map((x) => [x.id, x]));
    const entries = r.kernels.map((k, i) => ({ k, i })).filter((e) => listed(e.k));
    const links = linker(ctx, r);
    if (entries.length) parts.push(kernelList(ctx, r, entries, titles, links));
    const rest = r.kernels.length - entries.length;
    if (rest) parts.push(el('p', 'dlp-note dlp-why-rest', `${r.kernels_total ? `Of the first ${r.kernels.length}, ` : ''}${count(rest, 'kernel')} ${rest === 1 ? 'has' : 'have'} no input from another kernel and ${rest === 1 ? 'is' : 'are'} no copy: nothing to explain, not listed.`));
    if (r.kernels_total) {
      const p = el('p', 'dlp-note', `The first ${r.kernels.length} of ${r.kernels_total} kernels (in run order) are explained here; `);
      p.append(el('code', '', 'mdbook-dumplab explain --json'), ' explains them all.');
      parts.push(p);
    }
    if (titles.size) parts.push(legend(r));
    if (entries.length) parts.push(lineViewer(ctx, r, entries, links));
    return { top, body: parts };
  }

  /** "4 boundaries between the 4 kernels of this dump: 4 explained, 0 unknown." */
  function summary(r) {
    const s = r.summary;
    const p = el('p', 'dlp-why-summary', `${count(s.boundaries, 'boundary', 'boundaries')} between the ${count(r.kernels_total || r.kernels.length, 'kernel')} of this dump: ${s.explained} explained, ${s.unknown} unknown.`);
    Object.assign(p.dataset, { boundaries: s.boundaries, explained: s.explained, unknown: s.unknown });
    if (!r.log) p.append(' ', el('span', 'dlp-why-basis', "No log: the reasons are DumpLab's rules, read from the dump."));
    return p;
  }

  /** Where some are unknown: how to make XLA log its reasons, or that this backend does not. */
  function asking(r) {
    if (!r.summary.unknown || !r.ask) return null;
    const p = el('p', 'dlp-note dlp-why-ask');
    if (r.ask.flags) {
      p.append(`For the unknown ones, XLA can say why: compile with the environment variables `, el('code', 'dlp-why-flags', r.ask.flags), ` set and give what it prints on standard error in the box below (${r.ask.note}).`);
    } else {
      p.append(`The unknown ones stay unknown: ${r.ask.note}.`);
    }
    return p;
  }

  /** What the log was and what it added. */
  function logLine(r, before) {
    const l = r.log;
    const p = el('p', 'dlp-why-logline');
    Object.assign(p.dataset, { lines: l.lines, decisions: l.decisions, fused: l.fused, notFused: l.not_fused, unresolved: l.unresolved, unread: l.unread, pass: l.pass || '' });
    if (!l.lines) {
      p.append("XLA's log: no line of a fusion pass in it (was it printed with the flags above, by the same compile?); the reasons are still DumpLab's rules.");
      return p;
    }
    p.append("XLA's log (", el('code', '', l.pass || 'no pass named'), `): ${count(l.lines, 'line')} of its fusion passes read, ${count(l.decisions, 'decision')} (${l.fused} fused, ${l.not_fused} not fused)`);
    p.append(l.unresolved ? `; ${l.unresolved} of them not tied to two kernels of this dump (about parameters, tuple elements, constants or names this dump no longer has)${l.same_kernel ? `, ${l.same_kernel} inside one kernel` : ''}.` : '; each tied to the kernels of this dump.');
    if (l.unread) p.append(` ${count(l.unread, 'line')} of a fusion pass not understood.`);
    const inXla = r.kernels.reduce((n, k) => n + k.inputs.filter((i) => i.basis === 'xla-log').length, 0);
    const added = el('span', 'dlp-why-added', ` What it added: ${count(inXla, 'boundary', 'boundaries')} now in XLA's own words`);
    if (before && before.summary.unknown !== r.summary.unknown) added.append(`; unknown ${before.summary.unknown} → ${r.summary.unknown}`);
    added.append('.');
    p.append(added);
    return p;
  }

  // ---- links between entries and lines ------------------------------------------
  /** Per kernel (index into `r.kernels`): its entry and its dump line, lit
   *  together on hover and focus; `go(i, 'entry'|'line')` moves focus there. */
  function linker(ctx, r) {
    const entries = [];
    const lines = new Map();
    const byLine = new Map();
    r.kernels.forEach((k, i) => {
      if (!byLine.has(k.line)) byLine.set(k.line, []);
      byLine.get(k.line).push(i);
    });
    const set = (nodes, on) => nodes.filter(Boolean).forEach((n) => light(n, on));
    const hover = (node, nodes) => {
      node.addEventListener('mouseenter', () => set(nodes(), true));
      node.addEventListener('mouseleave', () => set(nodes(), false));
      node.addEventListener('focusin', () => set(nodes(), true));
      node.addEventListener('focusout', () => set(nodes(), false));
    };
    return {
      entryId: (i) => `${ctx.id}-k${i}`,
      lineId: (n) => `${ctx.id}-L${n}`,
      ensure: null, // set by the list: draws every entry
      entry(i, node) {
        entries[i] = node;
        hover(node, () => [lines.get(r.kernels[i].line)]);
      },
      input(node, line) {
        hover(node, () => [lines.get(line)]);
      },
      line(n, span) {
        lines.set(n, span);
        hover(span, () => (byLine.get(n) || []).map((i) => entries[i]));
      },
      kernelsOn: (n) => byLine.get(n) || [],
      hasEntry: (i) => listed(r.kernels[i]),
      goLine(n) {
        const node = lines.get(n);
        if (!node) return;
        node.focus();
        if (window.dumplabViewer) window.dumplabViewer.reveal(node);
      },
      goEntry(i) {
        if (!entries[i] && this.ensure) this.ensure();
        const node = entries[i];
        if (!node) return;
        node.focus();
        node.scrollIntoView({ block: 'nearest' });
      },
    };
  }

  // ---- the kernels ---------------------------------------------------------------
  function kernelList(ctx, r, entries, titles, links) {
    const wrap = el('div', 'dlp-why-kernels');
    const cap = el('p', 'dlp-caption', `Kernels with an input from another kernel, or a copy, in run order: ${entries.length}`);
    cap.id = `${ctx.id}-cap`;
    const ol = el('ol', 'dlp-why-list');
    ol.setAttribute('aria-labelledby', cap.id);
    wrap.append(cap, ol);
    let shown = 0;
    const add = (to) => {
      const frag = document.createDocumentFragment();
      for (const e of entries.slice(shown, to)) frag.append(entry(r, e.k, e.i, titles, links));
      ol.append(frag);
      shown = Math.max(shown, to);
    };
    add(Math.min(entries.length, SHOWN_KERNELS));
    if (entries.length > shown) {
      const more = el('button', 'dlp-more dlp-why-more', `Show all ${entries.length} kernels`);
      more.type = 'button';
      links.ensure = () => {
        add(entries.length);
        more.remove();
      };
      more.addEventListener('click', () => links.ensure());
      wrap.append(more);
    }
    return wrap;
  }

  /** A reason's title from the report's `reasons` (its id where the report has none). */
  const titleOf = (titles, id) => (titles.has(id) ? titles.get(id).title : id);

  function entry(r, k, i, titles, links) {
    const li = el('li', 'dlp-why-kernel');
    li.id = links.entryId(i);
    li.tabIndex = -1;
    li.dataset.kernel = k.name;
    const head = el('p', 'dlp-why-khead');
    head.append(el('code', 'dlp-why-name', k.name), ` ${k.detail ? `${k.kind} ${k.detail}` : k.kind}`);
    if (k.depth) head.append(`, inside a loop or conditional (depth ${k.depth})`);
    head.append(', ', jump(`line ${k.line}`, `#${links.lineId(k.line)}`, () => links.goLine(k.line), `${k.name}: line ${k.line} in the dump`));
    li.append(head);
    if (k.copy) li.append(copyFacts(k.copy));
    const ul = el('ul', 'dlp-why-inputs');
    for (const inp of k.inputs.filter(isBoundary)) ul.append(input(inp, titles, links));
    if (ul.children.length) li.append(ul);
    const others = k.inputs.filter((x) => !isBoundary(x));
    if (others.length) {
      // Grouped by where they come from: "parameters (inputs 1, 2), a constant (input 3)".
      const by = new Map();
      for (const x of others) by.set(x.from, [...(by.get(x.from) || []), x.operand]);
      const say = [...by].map(([from, ns]) => {
        const [one, many] = SOURCES[from] || [from, from];
        return ns.length === 1 ? `${one} (input ${ns[0]})` : `${many} (inputs ${ns.join(', ')})`;
      });
      li.append(el('p', 'dlp-why-others', `Also reads: ${say.join(', ')}.`));
    }
    links.entry(i, li);
    return li;
  }

  /** One input from another kernel: producer, answer, basis, sentence, XLA's words, all reasons. */
  function input(inp, titles, links) {
    const li = el('li', 'dlp-why-input');
    Object.assign(li.dataset, { operand: inp.operand, from: inp.from, reason: inp.reason, basis: inp.basis || '' });
    const from = el('p', 'dlp-why-from');
    from.append(`Input ${inp.operand} from `);
    if (inp.from_line !== null) from.append(jump(el('code', '', inp.from), `#${links.lineId(inp.from_line)}`, () => links.goLine(inp.from_line), `${inp.from}: line ${inp.from_line} in the dump`), ` (line ${inp.from_line})`);
    else from.append(el('code', '', inp.from));
    if (inp.via && inp.via.length) {
      from.append(', through ');
      inp.via.forEach((v, j) => from.append(j ? ', ' : '', el('code', '', v)));
    }
    li.append(from);
    const answer = el('p', 'dlp-why-answer');
    if (inp.reason === 'unknown') {
      answer.classList.add('dlp-why-unknown');
      answer.append(el('strong', 'dlp-why-title', 'unknown'));
    } else {
      answer.append(el('strong', 'dlp-why-title', titleOf(titles, inp.reason)), ' (', el('code', 'dlp-why-id', inp.reason), '), by ', el('span', `dlp-why-by dlp-why-by-${inp.basis}`, BASIS[inp.basis] || inp.basis));
    }
    li.append(answer, el('p', 'dlp-why-detail', inp.detail));
    if (inp.xla) {
      // XLA's words, once: the sentence above quotes them when XLA's log decided.
      const x = el('p', 'dlp-why-xla');
      x.dataset.message = inp.xla.message;
      if (inp.detail && inp.detail.includes(inp.xla.message)) x.append(`From XLA's log, line ${inp.xla.line}.`);
      else x.append("XLA's message: ", el('q', 'dlp-why-message', inp.xla.message), ` (log line ${inp.xla.line})`);
      li.append(x);
    }
    const found = inp.reasons || [];
    if (found.length > 1 || (found.length === 1 && found[0].id !== inp.reason)) {
      const d = el('details', 'dlp-why-all');
      d.append(el('summary', '', `Every reason found (${found.length})`));
      const ul = el('ul');
      for (const f of found) {
        const item = el('li', 'dlp-why-found');
        Object.assign(item.dataset, { id: f.id, basis: f.basis });
        item.append(el('strong', '', titleOf(titles, f.id)), ' (', el('code', '', f.id), `), by ${BASIS[f.basis] || f.basis} — `, el('span', 'dlp-why-found-detail', f.detail));
        ul.append(item);
      }
      d.append(ul);
      li.append(d);
    }
    if (inp.from_line !== null) links.input(li, inp.from_line);
    return li;
  }

  /** A copy's or transpose's facts: layouts each side, the shape, bytes moved, source lines. */
  function copyFacts(c) {
    const dl = el('dl', 'dlp-why-copy');
    Object.assign(dl.dataset, { from: c.from_layout || '', to: c.to_layout || '', bytes: c.bytes === null ? '' : c.bytes });
    const add = (term, ...desc) => {
      const dd = el('dd');
      dd.append(...desc);
      dl.append(el('dt', '', term), dd);
    };
    const moved = (l) => (/S\((\d+)\)/.exec(l || '') || [null, '0'])[1];
    const otherSpace = c.from_layout && c.to_layout && moved(c.from_layout) !== moved(c.to_layout);
    const same = c.changes_layout === false ? (otherSpace ? ' (the same dimension order and tiles, another memory space)' : ' (the same layout)') : c.changes_layout === null ? ' (whether it changes is unknown)' : '';
    add('layout', el('code', '', c.from_layout || 'unknown'), ' → ', el('code', '', c.to_layout || 'unknown'), same);
    add('shape', el('code', '', c.shape), ` (${c.opcode})`);
    add('bytes', c.bytes === null ? 'unknown (the ledger cannot count it)'
      : c.hbm_bytes !== null && c.hbm_bytes !== undefined && c.hbm_bytes !== c.bytes
        ? `${bytes(c.bytes)} read and written; to and from HBM ${bytes(c.hbm_bytes)} (on-chip arrays left out, tile padding counted; the ledger's estimate)`
        : `${bytes(c.bytes)} read and written (${c.bytes} B, the ledger's estimate)`);
    add('source lines', (c.source_lines || []).length ? c.source_lines.map(([f, l]) => `${f}:${l}`).join(', ') : 'none in the dump');
    return dl;
  }

  /** The reasons' sentences, as the report states them. */
  function legend(r) {
    const wrap = el('div', 'dlp-why-reasons');
    wrap.append(el('p', 'dlp-caption', 'The reasons above'));
    const dl = el('dl');
    for (const x of r.reasons) {
      const dt = el('dt');
      dt.append(el('strong', '', x.title), ' (', el('code', '', x.id), ')');
      dl.append(dt, el('dd', '', x.sentence));
    }
    wrap.append(dl);
    return wrap;
  }

  // ---- the kernels' lines in the dump viewer -------------------------------------
  function lineViewer(ctx, r, entries, links) {
    const texts = new Map(r.lines || []);
    const want = new Set();
    for (const { k } of entries) {
      want.add(k.line);
      for (const inp of k.inputs) if (inp.from_line !== null) want.add(inp.from_line);
    }
    const lines = [...want].sort((a, b) => a - b).map((n) => {
      const note = document.createDocumentFragment();
      links.kernelsOn(n).slice(0, 4).forEach((i, j) => {
        const k = r.kernels[i];
        if (j) note.append(' ');
        if (links.hasEntry(i)) note.append(jump(`↑ ${k.name}: explained above`, `#${links.entryId(i)}`, () => links.goEntry(i)));
        else note.append(el('span', '', `${k.name}: no input from another kernel`));
      });
      return { n, text: texts.get(n) || '', note };
    });
    const view = window.dumplabViewer.build({ lines, caption: 'The kernels and their producers in the dump (each links to its entry above)', name: 'The kernels and their producers in the dump', lang: 'hlo' });
    view.classList.add('dlp-why-lines');
    for (const span of view.querySelectorAll('.dl-line[data-line]')) {
      const n = Number(span.dataset.line);
      span.classList.remove('dl-lit');
      span.id = links.lineId(n);
      span.tabIndex = -1;
      links.line(n, span);
    }
    return view;
  }

  window.dumplabExplain = { section };
})();
