// DumpLab playground: "Top suspects", drawn first for every dump the page
// reads, whatever it is (a compiled module, a fragment of one, HLO before
// optimization, an out-of-memory error, a memory-usage report, a JAX
// donation warning): the checker's `why` request, exactly `mdbook-dumplab
// why --json`'s object (schema: checker/src/why/json.rs), plus `lines`,
// [[line, text]] of the lines its findings and memory texts rest on.
// Loaded by the {{#dumplab-playground}} block only
// (preprocessor/src/playground.rs), after src/dumplab-playground-ledger.js
// (its number words) and before src/dumplab-playground.js, which adds
// `WORKER` to its worker and calls `window.dumplabWhy.section` for each
// dump above the reports. Shows: a backend picker (auto, cpu, gpu, tpu:
// asks again with the backend given), each input's scope sentence, kind and
// backend (and where it came from), the memory texts read (figures, the
// largest allocations), then the findings in rank order (title, summary,
// bytes and runs, the lines they rest on, what to try, the chapter), "No
// finding" and the `next` sentence; the lines in the dump viewer
// (theme/viewer.js), findings and lines linked both ways. Everything from
// the reply reaches the page as text nodes.
(() => {
  'use strict';
  const light = window.dumplabLight || ((node, on) => node.classList.toggle('dlp-lit', on));
  const words = (window.dumplabLedger && window.dumplabLedger.words) || { bytes: (n) => `${n} B` };
  const spelled = (window.dumplabInvisible && window.dumplabInvisible.spelled) || String;
  const root = typeof window.path_to_root === 'string' ? window.path_to_root : '';
  /** The picker's backends, in its order ('' : the text's own). */
  const BACKENDS = [['', 'auto (the one the text names)'], ['cpu', 'cpu'], ['gpu', 'gpu'], ['tpu', 'tpu']];
  /** The chapter of the findings (each finding names its section of it). */
  const CHAPTER = 'pastes.html';
  /** Allocations of a memory text listed before "and N more". */
  const SHOWN_ALLOCATIONS = 8;
  /** How often a finding is paid (`runs_basis`), as the command line words it. */
  const RUNS = {
    once: () => 'once per run',
    known_trip_count: (n) => `${n} trips, as its \`known_trip_count\` states`,
    derived: (n) => `${n} trips, from its counter and bound`,
    unknown: () => 'how many trips is not in the text',
  };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  /** Text with its `code` spans as code elements (never markup). */
  function rich(tag, cls, text) {
    const e = el(tag, cls);
    const parts = String(text).split('`');
    if (parts.length % 2 === 0) e.textContent = text;
    else parts.forEach((p, i) => e.append(i % 2 ? el('code', '', p) : p));
    return e;
  }
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
   * The section for one dump. `ctx`: { id (a unique prefix for ids), index
   * (the dump's place), name (its file's name, or ''), reply (the worker's
   * `why` answer), ask(backend) → Promise of another reply ('' : none given) }.
   */
  function section(ctx) {
    const sec = el('section', 'dlp-suspects');
    const h = el('h3', '', `Top suspects in dump ${ctx.index + 1}${ctx.name ? ` (${ctx.name})` : ''}`);
    h.id = `${ctx.id}-h`;
    sec.setAttribute('aria-labelledby', h.id);
    sec.append(h, rich('p', 'dlp-note', 'What DumpLab finds in this text, whatever it is (a module, a part of one, an error or a memory report), ranked by bytes times runs: a kernel\'s bytes times how often it runs (once where the text does not say), or the bytes a memory text names. The same answer as `mdbook-dumplab why`.'));
    const pick = picker(ctx);
    const body = el('div', 'dlp-sus-body');
    sec.append(pick.row, body);
    const draw = (reply) => {
      body.replaceChildren(...parts(ctx, reply));
      sec.dataset.findings = reply.error ? '' : reply.findings.map((f) => f.name).join(' ');
      sec.dataset.backend = pick.select.value;
    };
    draw(ctx.reply);
    let token = 0;
    pick.select.addEventListener('change', () => {
      const backend = pick.select.value;
      const mine = ++token;
      pick.status.textContent = `Reading it ${backend ? `as ${backend}` : 'with its own backend'}…`;
      ctx.ask(backend).then(
        (reply) => {
          if (mine !== token) return;
          pick.status.textContent = '';
          draw(reply);
        },
        (err) => {
          if (mine === token) pick.status.textContent = `The checker could not read this: ${err.message}.`;
        },
      );
    });
    return sec;
  }

  /** The backend picker: auto (the text's own) and the three backends. */
  function picker(ctx) {
    const row = el('div', 'dlp-row dlp-sus-row');
    const label = el('label', '', 'Backend: ');
    const select = el('select', 'dlp-sus-backend');
    select.id = `${ctx.id}-backend`;
    label.htmlFor = select.id;
    for (const [value, text] of BACKENDS) {
      const o = el('option', '', text);
      o.value = value;
      select.append(o);
    }
    const status = el('span', 'dlp-sus-status');
    status.setAttribute('role', 'status');
    row.append(label, select, ' ', status);
    return { row, select, status };
  }

  /** What follows the picker, for one reply. */
  function parts(ctx, r) {
    if (r.error) {
      const p = el('p', 'dlp-reason dlp-sus-error', `No answer: ${r.error}`);
      p.setAttribute('role', 'alert');
      return [p];
    }
    const links = linker(ctx, r);
    const out = [];
    for (const input of r.inputs) out.push(...inputParts(input));
    out.push(findingList(r, links));
    for (const input of r.inputs) if (input.next) out.push(rich('p', 'dlp-note dlp-sus-next', `Next: ${input.next}.`));
    if (links.numbers.length) out.push(lineViewer(ctx, r, links));
    return out;
  }

  // ---- what the text is ----------------------------------------------------
  /** An input's scope sentence, kind and backend, and its memory texts. */
  function inputParts(input) {
    const out = [rich('p', 'dlp-sus-scope', `${input.scope.sentence[0].toUpperCase()}${input.scope.sentence.slice(1)}.`)];
    const b = input.backend;
    const backend = !b ? 'not named by the text (pick one above to read it for one)'
      : input.backend_from === 'given' ? `${b} (given, not found in the text)` : `${b} (named by the text)`;
    const facts = el('p', 'dlp-sus-facts');
    if (input.scope.instructions > 0) facts.append(el('span', '', `kind: ${input.kind}`), ' · ');
    facts.append(el('span', 'dlp-sus-backend-from', `backend: ${backend}`));
    out.push(facts);
    if (input.memory.length) {
      const ul = el('ul', 'dlp-sus-memory');
      ul.setAttribute('aria-label', 'Memory texts read');
      for (const m of input.memory) ul.append(memoryText(m));
      out.push(ul);
    }
    return out;
  }

  /** One memory text: its kind and line, figures, text, largest allocations. */
  function memoryText(m) {
    const li = el('li', 'dlp-sus-mem');
    li.dataset.kind = m.kind;
    const head = el('span', 'dlp-sus-mem-head', `Line ${m.line}: ${m.kind}`);
    li.append(head);
    if (m.figures.length) li.append(': ', el('span', 'dlp-sus-figures', m.figures.map((f) => `${f.name} ${f.printed}`).join(', ')));
    li.append(el('code', 'dlp-sus-mem-text', m.text));
    if (m.allocations.length) {
      const ol = el('ol', 'dlp-sus-allocs');
      ol.setAttribute('aria-label', 'Largest allocations');
      for (const a of m.allocations.slice(0, SHOWN_ALLOCATIONS)) ol.append(allocation(a));
      li.append(el('span', 'dlp-sus-allocs-h', `Largest allocations (${m.allocations.length}):`), ol);
      const more = m.allocations.length - SHOWN_ALLOCATIONS;
      if (more > 0) li.append(rich('span', 'dlp-note', `… and ${more} more (\`mdbook-dumplab why --json\` lists them all).`));
    }
    if (m.arrays.length) li.append(el('span', 'dlp-sus-arrays', `Arrays named: ${m.arrays.join(', ')}`));
    return li;
  }

  /** One allocation: size, shape, and what else the report says of it. */
  function allocation(a) {
    const li = el('li');
    li.value = a.rank;
    const bits = [a.size ? a.size.printed : '?'];
    if (a.shape) bits.push(a.shape);
    const extra = [];
    if (a.unpadded) extra.push(`unpadded ${a.unpadded.printed}`);
    if (a.padding) extra.push(`padding ${a.padding.printed}`);
    if (a.expansion !== null) extra.push(`${a.expansion.toFixed(1)}×`);
    if (a.kind) extra.push(a.kind);
    li.append(el('span', 'dlp-sus-alloc', `${bits.join(' ')}${extra.length ? ` (${extra.join(', ')})` : ''}`), ` (line ${a.line})`);
    for (const [k, words] of [['label', 'XLA label'], ['operator', 'Operator']]) {
      if (!a[k]) continue;
      const p = el('span', 'dlp-sus-alloc-more', `${words}: `);
      p.append(el('code', '', a[k]));
      li.append(p);
    }
    return li;
  }

  // ---- the findings ----------------------------------------------------------
  function findingList(r, links) {
    if (!r.findings.length) {
      const p = el('p', 'dlp-sus-none', 'No finding: none of the findings DumpLab knows has its evidence in this text (');
      const a = el('a', '', 'the chapter lists them');
      a.href = `${root}${CHAPTER}`;
      p.append(a, ').');
      return p;
    }
    const ol = el('ol', 'dlp-sus-list');
    ol.setAttribute('aria-label', 'Findings, largest first');
    r.findings.forEach((f, i) => ol.append(finding(f, i, links)));
    if (!r.findings_total) return ol;
    const wrap = el('div');
    wrap.append(ol, rich('p', 'dlp-note', `The first ${r.findings.length} of ${r.findings_total} findings are shown; \`mdbook-dumplab why --json\` lists them all.`));
    return wrap;
  }

  /** "64.00 KiB × 128 runs (128 trips, as its `known_trip_count` states)". */
  function cost(f) {
    const runs = (RUNS[f.runs_basis] || (() => f.runs_basis))(f.runs);
    if (f.bytes === null) return `Runs: ${runs}.`;
    const times = f.runs === null ? ' (runs unknown: counted once)' : f.runs === 1 ? '' : ` × ${f.runs} runs`;
    return `Bytes: ${words.bytes(f.bytes)}${times}; ${runs}.`;
  }

  function finding(f, i, links) {
    const li = el('li', 'dlp-sus-finding');
    li.id = links.findingId(i);
    li.tabIndex = -1;
    li.dataset.name = f.name;
    const h = el('h4', 'dlp-sus-title');
    h.append(`${i + 1}. ${f.title} `, el('code', 'dlp-sus-name', f.name));
    li.append(h, rich('p', 'dlp-sus-summary', f.summary), rich('p', 'dlp-sus-cost', cost(f)));
    if (f.evidence.length) {
      const ul = el('ul', 'dlp-sus-evidence');
      ul.setAttribute('aria-label', 'The lines it rests on');
      for (const l of f.evidence) ul.append(evidenceLine(l, links));
      li.append(ul);
    }
    li.append(rich('p', 'dlp-sus-means', f.means), rich('p', 'dlp-sus-try', `Try: ${f.try}`));
    const read = el('a', 'dlp-learn dlp-sus-read', `read: ${f.chapter.replace('.html', '')}`);
    read.href = root + f.chapter;
    li.append(read);
    links.finding(i, li);
    return li;
  }

  /** "line 93 while: the loop the scatter became", the number a link to the line. */
  function evidenceLine(l, links) {
    const li = el('li');
    li.append(jump(`line ${l.line}`, `#${links.lineId(l.line)}`, () => links.goLine(l.line), `line ${l.line} in the dump viewer below`), ' ');
    if (l.name) li.append(el('code', 'dlp-sus-ins', l.name), ': ');
    li.append(rich('span', '', l.note));
    links.evidence(li, l.line);
    return li;
  }

  // ---- links between findings and lines --------------------------------------
  /** Per finding (index into `r.findings`): its entry and its lines, lit
   *  together on hover and focus; `goLine(n)`, `goFinding(i)` move focus. */
  function linker(ctx, r) {
    const entries = [];
    const lines = new Map();
    const byLine = new Map();
    r.findings.forEach((f, i) => {
      for (const l of f.evidence) {
        if (!byLine.has(l.line)) byLine.set(l.line, []);
        if (!byLine.get(l.line).includes(i)) byLine.get(l.line).push(i);
      }
    });
    const set = (nodes, on) => nodes.filter(Boolean).forEach((n) => light(n, on));
    const hover = (node, nodes) => {
      node.addEventListener('mouseenter', () => set(nodes(), true));
      node.addEventListener('mouseleave', () => set(nodes(), false));
      node.addEventListener('focusin', () => set(nodes(), true));
      node.addEventListener('focusout', () => set(nodes(), false));
    };
    return {
      numbers: [...byLine.keys()].sort((a, b) => a - b),
      findingId: (i) => `${ctx.id}-f${i}`,
      lineId: (n) => `${ctx.id}-L${n}`,
      finding(i, node) {
        entries[i] = node;
      },
      evidence(node, n) {
        hover(node, () => [lines.get(n)]);
      },
      line(n, span) {
        lines.set(n, span);
        hover(span, () => (byLine.get(n) || []).map((i) => entries[i]));
      },
      findingsOn: (n) => byLine.get(n) || [],
      goLine(n) {
        const node = lines.get(n);
        if (!node) return;
        node.focus();
        if (window.dumplabViewer) window.dumplabViewer.reveal(node);
      },
      goFinding(i) {
        const node = entries[i];
        if (!node) return;
        node.focus();
        node.scrollIntoView({ block: 'nearest' });
      },
    };
  }

  // ---- the lines in the dump viewer -------------------------------------------
  function lineViewer(ctx, r, links) {
    const texts = new Map(r.lines || []);
    const lines = links.numbers.map((n) => {
      const note = document.createDocumentFragment();
      links.findingsOn(n).slice(0, 4).forEach((i, j) => {
        if (j) note.append(' ');
        note.append(jump(`↑ ${i + 1}. ${r.findings[i].title}`, `#${links.findingId(i)}`, () => links.goFinding(i)));
      });
      return { n, text: texts.get(n) || '', note };
    });
    const hlo = r.inputs.some((i) => i.scope.instructions > 0);
    const caption = 'The lines the findings rest on (each links to its finding above)';
    const view = window.dumplabViewer.build({ lines, caption, name: spelled(`The lines of dump ${ctx.index + 1} the findings rest on`), lang: hlo ? 'hlo' : '' });
    view.classList.add('dlp-sus-lines');
    for (const span of view.querySelectorAll('.dl-line[data-line]')) {
      const n = Number(span.dataset.line);
      // Linked lines are targets, not answers: not lit until their finding is.
      span.classList.remove('dl-lit');
      span.id = links.lineId(n);
      span.tabIndex = -1;
      links.line(n, span);
    }
    return view;
  }

  // ---- the worker's side -------------------------------------------------------
  /** Added to the playground's worker (src/dumplab-playground.js), which
   *  answers `{op: 'why', slot, backend}` with it: the checker's reply, its
   *  findings cut to LIMIT, and `lines` ([[line, text]], long lines cut) of
   *  the lines the findings rest on, from the bytes the worker holds. */
  const WORKER = `
function whyOp(m) {
  const obj = JSON.parse(call('why\\n' + (m.backend || '') + '\\n', [stored[m.slot]]));
  if (!Array.isArray(obj.findings)) return obj;
  if (obj.findings.length > LIMIT) {
    obj.findings_total = obj.findings.length;
    obj.findings = obj.findings.slice(0, LIMIT);
  }
  const want = new Set();
  for (const f of obj.findings) for (const l of f.evidence) want.add(l.line);
  obj.lines = Object.entries(pick(stored[m.slot], want, 0)).map(([n, t]) => [Number(n), t]);
  return obj;
}
`;

  window.dumplabWhy = { section, WORKER };
})();
