// DumpLab playground: "Collectives", for each compiled dump that runs at
// least one (the checker's `collectives` request: exactly `mdbook-dumplab
// collectives --json`'s object, plus `lines`, [[line, text]] of the
// collectives' lines, their dones' and the kernels scheduled between; see
// checker/src/collectives/json.rs). Loaded by the {{#dumplab-playground}}
// block only (preprocessor/src/playground.rs), after the ledger's script (it
// reads the ledger's number words) and before src/dumplab-playground.js,
// which calls `window.dumplabCollectives.section` after each compiled dump's
// ledger. Shows: the summary (how many, on how many partitions, start/done
// pairs and those with work between), the backend's note, the chip and its
// interconnect with the figure's source; a table, one row per collective
// (its line, name, opcode, schedule, devices, payload and at least bytes per
// device, the time bound on the chip, which sharding made it, its source
// line) with the kernels scheduled between a start and its done under its
// row; that those are the schedule XLA planned, not a measurement; and the
// lines in the dump viewer (theme/viewer.js), rows and lines linked both
// ways. Everything from the report reaches the page as text nodes.
(() => {
  'use strict';
  const light = window.dumplabLight || ((node, on) => node.classList.toggle('dlp-lit', on));
  const words = (window.dumplabLedger && window.dumplabLedger.words) || { bytes: (n) => `${n} B`, secs: (s) => `${s} s` };

  /**
   * The schedules (`schedule`), one row each: the table's words. A schedule
   * the page has no row for is shown by its id and marked
   * (`data-unknown-schedule`); tests/browser/collectives.test.mjs fails when
   * a schedule of checker/src/collectives/schedule.rs has no row here.
   */
  const SCHEDULES = {
    sync: () => 'synchronous',
    'pair-empty': () => 'start/done, nothing between',
    'pair-overlap': (c) => `start/done, ${count(c.between.length, 'kernel')} between`,
    'pair-unordered': () => 'start/done, order not fixed by the dump',
  };
  /**
   * How the peers were printed (`peers.form`), one row each: the devices in
   * words. Same rule as SCHEDULES (checker/src/collectives/json.rs `form`).
   */
  const FORMS = {
    list: (p) => groups(p, 'listed'),
    iota: (p) => groups(p, 'iota'),
    mesh: (p) => groups(p, 'mesh'),
    none: (p) => groups(p, 'no replica_groups'),
    unread: () => 'groups not read',
    pairs: (p) => (p.groups === null ? 'pairs not read' : `${count(p.groups, 'source-target pair')}, ${p.moving_pairs === null ? '?' : p.moving_pairs} to another device`),
    channel: (p) => (p.host_transfer ? 'the host (is_host_transfer=true)' : 'a channel peer'),
  };
  /** "2 groups × 2 devices (iota)", or "groups not read (iota)". */
  function groups(p, form) {
    if (p.groups === null || p.group_size === null) return `groups not read (${form})`;
    return `${count(p.groups, 'group')} × ${count(p.group_size, 'device')} (${form})`;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  // Inline `code` spans of the checker's sentences, as DOM nodes (never markup).
  function rich(tag, cls, text) {
    const e = el(tag, cls);
    const parts = String(text).split('`');
    if (parts.length % 2 === 0) e.textContent = text;
    else parts.forEach((p, i) => e.append(i % 2 ? el('code', '', p) : p));
    return e;
  }
  /** For pairs where some devices send to themselves: who moves the at-least bytes. */
  const senders = (c) => {
    const p = c.peers || {};
    return p.moving_pairs !== null && p.moving_pairs !== undefined && p.groups !== null && p.moving_pairs < p.groups && c.at_least_bytes
      ? ` on each of the ${p.moving_pairs} devices that send elsewhere, 0 on the others`
      : '';
  };
  const count = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
  /** "256.00 KiB (262144 B)"; "unknown". */
  const bytes = (n) => (n === null || n === undefined ? 'unknown' : n < 1024 ? `${n} B` : `${words.bytes(n)} (${n} B)`);
  const str = (v) => (v === null || v === undefined ? '' : String(v));

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
   * The section for one dump, or null where the reply has no collective
   * (or is an error: the ledger above says what the checker could not read).
   * `ctx`: { id (a unique prefix for ids), reply (the worker's `collectives`
   * answer), ask(chip) → Promise of another reply, on that chip ('' for the
   * default), watch(f): f(chip) is called when the ledger's chip changes }.
   */
  function section(ctx) {
    const first = ctx.reply;
    if (!first || first.error || !Array.isArray(first.collectives) || !first.collectives.length) return null;
    const sec = el('section', 'dlp-coll');
    const h = el('h4', '', 'Collectives');
    h.id = `${ctx.id}-h`;
    sec.setAttribute('aria-labelledby', h.id);
    const status = el('p', 'dlp-coll-status');
    status.setAttribute('role', 'status');
    const body = el('div', 'dlp-coll-body');
    const draw = (r) => {
      sec.dataset.chip = r.chip.name || '';
      body.replaceChildren(...parts(ctx, r));
    };
    draw(first);
    sec.append(h, status, body);
    let token = 0;
    if (ctx.watch && ctx.ask) {
      ctx.watch((chip) => {
        const mine = ++token;
        status.textContent = `Bounding the collectives on ${chip || 'the default chip'}…`;
        ctx.ask(chip).then(
          (r) => {
            if (mine !== token) return;
            status.textContent = r.error ? `No collectives on that chip: ${r.error}` : '';
            if (!r.error && Array.isArray(r.collectives)) draw(r);
          },
          (err) => {
            if (mine === token) status.textContent = `The checker could not read the collectives: ${err.message}.`;
          },
        );
      });
    }
    return sec;
  }

  /** The section's parts for one reply: the summary, the note, the chip, the table, the lines. */
  function parts(ctx, r) {
    const out = [summary(r)];
    if (r.note) out.push(rich('p', 'dlp-note dlp-coll-note', `${r.note}.`));
    out.push(chipLine(r.chip));
    const links = linker(ctx, r);
    out.push(table(ctx, r, links));
    if (r.collectives_total) {
      const p = el('p', 'dlp-note', `The first ${r.collectives.length} of ${r.collectives_total} collectives (in schedule order) are listed here; `);
      p.append(el('code', '', 'mdbook-dumplab collectives --json'), ' lists them all.');
      out.push(p);
    }
    out.push(planned(r.summary), lineViewer(ctx, r, links));
    return out;
  }

  /** "3 collectives on 4 partitions: 2 synchronous, 1 start/done pair (1 with work between)." */
  function summary(r) {
    const s = r.summary;
    const pairs = s.pair_empty + s.pair_overlap + s.pair_unordered;
    const on = r.partitions === null ? 'on an unstated number of partitions' : `on ${count(r.partitions, 'partition')}`;
    const p = el('p', 'dlp-coll-summary', `${count(s.count, 'collective')} ${on}: ${s.sync} synchronous, ${count(pairs, 'start/done pair')} (${s.pair_overlap} with work scheduled between).`);
    Object.assign(p.dataset, { count: s.count, partitions: str(r.partitions), sync: s.sync, pairs, overlap: s.pair_overlap, atLeast: str(s.at_least_bytes) });
    if (s.at_least_bytes !== null) p.append(' ', el('span', 'dlp-coll-total', `Each collective's busiest device, summed: at least ${bytes(s.at_least_bytes)} moved between devices.`));
    return p;
  }

  /** Under the table: what the kernels between are (a schedule, not a
   *  measurement), or, where every collective is synchronous, that none overlaps. */
  function planned(s) {
    if (s.sync === s.count) return el('p', 'dlp-note dlp-coll-planned', 'Every collective here is synchronous: the device waits for each exchange, and no start/done pair plans any overlap.');
    return el('p', 'dlp-note dlp-coll-planned', 'The kernels between a start and its done are the order XLA scheduled, the overlap it planned, not a measurement: only a profile shows whether they run at the same time.');
  }

  /** The chip the bounds are on, its interconnect and the figure's source. */
  function chipLine(chip) {
    const p = el('p', 'dlp-coll-chip');
    const ic = chip.interconnect;
    if (!chip.name || !ic) {
      p.append(`No chip, so no time bound: ${chip.why.replace(/: pass --chip for a roofline$/, '')}.`);
      return p;
    }
    p.dataset.bytesPerS = String(ic.bytes_per_s);
    p.append(`On ${chip.name} (${chip.why}): ${ic.name} at ${words.si ? words.si(ic.bytes_per_s, 'B/s') : `${ic.bytes_per_s} B/s`}${ic.derived ? ` (${ic.derived})` : ''}. Source: `);
    const src = /^https:\/\//.test(ic.url) ? el('a', 'dlp-coll-source', ic.source) : el('span', 'dlp-coll-source', ic.source);
    if (src.tagName === 'A') src.href = ic.url;
    p.append(src, ', which says ', el('q', 'dlp-coll-quote', ic.quote), ". A time bound below is from bandwidth alone, over the chip's total for both directions and all its links: a collective's fixed latency, which the dump does not state, comes on top.");
    return p;
  }

  // ---- links between rows and lines --------------------------------------------
  /** Per collective (index into `r.collectives`): its row and its lines (its
   *  own, its done's, the kernels' between), lit together on hover and focus. */
  function linker(ctx, r) {
    const rows = [];
    const lines = new Map();
    const byLine = new Map();
    const mine = (c) => [c.line, ...(c.done ? [c.done.line] : []), ...c.between.map((b) => b.line)];
    r.collectives.forEach((c, i) => {
      for (const n of mine(c)) {
        if (!byLine.has(n)) byLine.set(n, []);
        if (!byLine.get(n).includes(i)) byLine.get(n).push(i);
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
      rowId: (i) => `${ctx.id}-c${i}`,
      lineId: (n) => `${ctx.id}-L${n}`,
      numbers: () => [...byLine.keys()].sort((a, b) => a - b),
      on: (n) => byLine.get(n) || [],
      row(i, tr) {
        rows[i] = tr;
        hover(tr, () => mine(r.collectives[i]).map((n) => lines.get(n)));
      },
      line(n, span) {
        lines.set(n, span);
        hover(span, () => (byLine.get(n) || []).map((i) => rows[i]));
      },
      goLine(n) {
        const node = lines.get(n);
        if (!node) return;
        node.focus();
        if (window.dumplabViewer) window.dumplabViewer.reveal(node);
      },
      goRow(i) {
        const node = rows[i];
        if (!node) return;
        node.focus();
        node.scrollIntoView({ block: 'nearest' });
      },
    };
  }

  // ---- the table ---------------------------------------------------------------
  /** The columns, one row each: the header and the cell's content. */
  const COLUMNS = [
    { id: 'line', head: 'line', cell: (c, i, L) => jump(`line ${c.line}`, `#${L.lineId(c.line)}`, () => L.goLine(c.line), `${c.name}: line ${c.line} in the dump`) },
    { id: 'name', head: 'name', cell: (c) => el('code', 'dlp-coll-name', c.name) },
    { id: 'opcode', head: 'opcode', cell: (c) => el('code', '', c.opcode) },
    { id: 'schedule', head: 'schedule', cell: (c) => schedule(c) },
    { id: 'devices', head: 'devices', cell: (c) => devices(c) },
    { id: 'payload', head: 'payload per device', num: true, cell: (c) => bytes(c.payload_bytes) },
    { id: 'at-least', head: 'at least per device', num: true, cell: (c) => `${bytes(c.at_least_bytes)}${senders(c)}` },
    { id: 'seconds', head: 'time bound on the chip', num: true, cell: (c, i, L, r) => (c.seconds === null ? (r.chip.name ? 'unknown' : 'no chip') : `≥ ${words.secs(c.seconds)}`) },
    { id: 'origin', head: 'made by', cell: (c) => origin(c) },
    { id: 'source', head: 'source line', cell: (c) => (c.source ? `${c.source.file}:${c.source.line}` : 'none in the dump') },
  ];

  function table(ctx, r, links) {
    const wrap = el('div', 'dlp-table-wrap dlp-coll-table dlp-stack');
    const cap = el('p', 'dlp-caption', `Collectives, in schedule order: ${r.collectives_total || r.collectives.length}; the bytes each device must move, whatever the algorithm, and those over the interconnect's bandwidth: a lower bound`);
    cap.id = `${ctx.id}-cap`;
    const scroll = el('div', 'dlp-scroll');
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-labelledby', cap.id);
    const t = el('table', 'dlp-table');
    t.setAttribute('aria-labelledby', cap.id);
    // Explicit roles: the narrow screen stacks the cells (display: block).
    t.setAttribute('role', 'table');
    const head = el('tr');
    head.setAttribute('role', 'row');
    for (const col of COLUMNS) {
      const th = el('th', '', col.head);
      th.scope = 'col';
      th.setAttribute('role', 'columnheader');
      th.dataset.col = col.id;
      head.append(th);
    }
    const thead = el('thead');
    thead.setAttribute('role', 'rowgroup');
    thead.append(head);
    const body = el('tbody');
    body.setAttribute('role', 'rowgroup');
    r.collectives.forEach((c, i) => {
      body.append(row(r, c, i, links));
      if (c.between.length) body.append(betweenRow(c, links));
    });
    t.append(thead, body);
    scroll.append(t);
    wrap.append(cap, scroll);
    return wrap;
  }

  function row(r, c, i, links) {
    const tr = el('tr', 'dlp-coll-row');
    tr.setAttribute('role', 'row');
    tr.id = links.rowId(i);
    tr.tabIndex = -1;
    const p = c.peers;
    // The figures as the report has them, for whoever reads the page's data.
    Object.assign(tr.dataset, {
      name: c.name, line: c.line, opcode: c.opcode, schedule: c.schedule, done: c.done ? c.done.line : '',
      between: c.between.map((b) => b.line).join(' '), form: p.form, groups: str(p.groups), groupSize: str(p.group_size),
      moving: str(p.moving_pairs), channel: str(p.channel_id), payload: str(c.payload_bytes), atLeast: str(c.at_least_bytes),
      seconds: str(c.seconds), origin: c.origin, source: c.source ? `${c.source.file}:${c.source.line}` : '',
    });
    for (const col of COLUMNS) {
      const td = el('td');
      td.setAttribute('role', 'cell');
      td.dataset.col = col.id;
      td.dataset.label = col.head;
      if (col.num) td.className = 'dlp-num';
      const content = col.cell(c, i, links, r);
      if (typeof content === 'string') td.textContent = content;
      else td.append(content);
      tr.append(td);
    }
    links.row(i, tr);
    return tr;
  }

  /** "start/done, 2 kernels between", with XLA:GPU's is_sync and the schedule's sentence. */
  function schedule(c) {
    const span = el('span', 'dlp-coll-schedule');
    const say = SCHEDULES[c.schedule];
    if (!say) span.dataset.unknownSchedule = c.schedule;
    span.append(say ? say(c) : c.schedule);
    span.title = c.schedule_says;
    if (c.gpu_is_sync !== null) span.append(' ', el('span', 'dlp-coll-sync', `(XLA:GPU's is_sync=${c.gpu_is_sync})`));
    return span;
  }

  /** The devices in words, with the groups or pairs as printed and the channel. */
  function devices(c) {
    const p = c.peers;
    const span = el('span', 'dlp-coll-devices');
    const say = FORMS[p.form];
    if (!say) span.dataset.unknownForm = p.form;
    span.append(say ? say(p) : p.form);
    if (p.raw) span.append(' ', el('code', 'dlp-coll-raw', p.raw));
    if (p.channel_id !== null) span.append(` channel_id=${p.channel_id}`);
    return span;
  }

  /** Which sharding made it: the origin's id, its sentence as the text, the basis below. */
  function origin(c) {
    const span = el('span', 'dlp-coll-origin');
    span.append(el('code', 'dlp-coll-origin-id', c.origin), ': ', el('span', 'dlp-coll-origin-says', c.origin_says || c.origin));
    if (c.basis) span.append(rich('span', 'dlp-coll-basis', c.basis));
    return span;
  }

  /** Under a start's row: the kernels XLA scheduled before its done. */
  function betweenRow(c, links) {
    const tr = el('tr', 'dlp-sub dlp-coll-between');
    tr.setAttribute('role', 'row');
    const td = el('td');
    td.setAttribute('role', 'cell');
    td.colSpan = COLUMNS.length;
    td.dataset.label = 'between';
    const p = el('span');
    p.append(`Scheduled between ${c.name} and its done${c.done ? ` (line ${c.done.line})` : ''}: `);
    c.between.forEach((b, j) => {
      if (j) p.append(', ');
      const item = el('span', 'dlp-coll-kernel');
      item.dataset.line = String(b.line);
      item.append(el('code', '', b.name), ' (', jump(`line ${b.line}`, `#${links.lineId(b.line)}`, () => links.goLine(b.line), `${b.name}: line ${b.line} in the dump`), ')');
      p.append(item);
    });
    p.append('.');
    td.append(p);
    tr.append(td);
    return tr;
  }

  // ---- the lines in the dump viewer -------------------------------------------
  function lineViewer(ctx, r, links) {
    const texts = new Map(r.lines || []);
    const lines = links.numbers().map((n) => {
      const note = document.createDocumentFragment();
      links.on(n).slice(0, 4).forEach((i, j) => {
        const c = r.collectives[i];
        if (j) note.append(' ');
        const what = n === c.line ? '' : c.done && n === c.done.line ? ' (its done)' : ' (scheduled between)';
        note.append(jump(`↑ ${c.name}${what} in the table`, `#${links.rowId(i)}`, () => links.goRow(i)));
      });
      return { n, text: texts.get(n) || '', note };
    });
    const view = window.dumplabViewer.build({ lines, caption: "The collectives' lines in the dump, their dones' and the kernels between (each links to its row above)", name: "The collectives' lines in the dump", lang: 'hlo' });
    view.classList.add('dlp-coll-lines');
    for (const span of view.querySelectorAll('.dl-line[data-line]')) {
      const n = Number(span.dataset.line);
      span.classList.remove('dl-lit');
      span.id = links.lineId(n);
      span.tabIndex = -1;
      links.line(n, span);
    }
    return view;
  }

  window.dumplabCollectives = { section, SCHEDULES, FORMS };
})();
