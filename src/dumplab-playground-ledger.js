// DumpLab playground: "Where the time goes", the cost ledger of a compiled
// dump (the checker's `cost` reply, exactly `mdbook-dumplab cost --json`'s
// object; schema beside `analyze`'s in checker/src/analysis/mod.rs). Loaded
// before src/dumplab-playground.js by the {{#dumplab-playground}} block only
// (preprocessor/src/playground.rs), which calls `window.dumplabLedger.section`
// for each compiled dump it reports on. Shows: the chip picker, the totals,
// the roofline total and overhead, a sortable table of kernels, the roofline
// chart (inline SVG, log-log), the reasons legend and the kernels' lines in
// the dump viewer (theme/viewer.js), rows, points and lines linked both ways.
// Everything from the dump reaches the page as DOM text nodes, never markup.
(() => {
  'use strict';
  const light = window.dumplabLight || ((node, on) => node.classList.toggle('dlp-lit', on));
  const SVG = 'http://www.w3.org/2000/svg';
  /** Rows drawn before "Show all". */
  const SHOWN_ROWS = 50;
  /** Points in the chart at most (the largest lower bounds). */
  const MAX_POINTS = 200;
  /** Points named beside themselves (the largest lower bounds). */
  const LABELLED = 5;

  /** The chip presets, in the picker's order (`mdbook-dumplab cost --chip`). */
  const CHIPS = [
    ['v5e', 'TPU v5e'],
    ['v6e', 'TPU v6e'],
    ['h100', 'H100 SXM'],
    ['h200', 'H200 SXM'],
    ['a100', 'A100 SXM 80 GB'],
  ];
  /** The compute roofs drawn, where the chip has the peak (`chip.peaks`). */
  const ROOFS = [
    ['bf16', 'bf16 matrix peak'],
    ['tf32', 'tf32 matrix peak'],
    ['f32_vector', 'f32 vector peak'],
  ];

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  const count = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;

  // ---- numbers in words ------------------------------------------------------
  const SI = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  /** 806354944 → "806.355 M"; null → "unknown". */
  function si(n, unit = '') {
    if (n === null || n === undefined) return 'unknown';
    const a = Math.abs(n);
    for (const [f, p] of SI) if (a >= f) return `${(n / f).toFixed(3)} ${p}${unit}`;
    return `${Number.isInteger(n) ? n : n.toPrecision(3)}${unit ? ` ${unit}` : ''}`;
  }
  /** Bytes in binary units, as the command line prints them. */
  function bytes(n) {
    if (n === null || n === undefined) return 'unknown';
    if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GiB`;
    if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(2)} MiB`;
    if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(2)} KiB`;
    return `${n} B`;
  }
  /** Seconds: "2.561 µs". */
  function secs(s) {
    if (s === null || s === undefined) return 'unknown';
    if (s === 0) return '0 s';
    for (const [f, u] of [[1, 's'], [1e-3, 'ms'], [1e-6, 'µs']]) if (s >= f) return `${(s / f).toFixed(3)} ${u}`;
    return `${(s / 1e-9).toFixed(1)} ns`;
  }
  /** HBM bytes of an estimate: padded bytes (or bytes) less those on chip. */
  function hbm(e) {
    const b = e.bytes_padded !== null && e.bytes_padded !== undefined ? e.bytes_padded : e.bytes_accessed;
    return b === null || b === undefined ? null : Math.max(0, b - (e.bytes_on_chip || 0));
  }
  /** "1 instruction's flops and 1 instruction's bytes accessed", or '' when XLA knew all. */
  function unknownWords(u) {
    const parts = [['flops', 'flops'], ['transcendentals', 'transcendentals'], ['bytes_accessed', 'bytes accessed']]
      .filter(([k]) => u && u[k] > 0)
      .map(([k, w]) => `the ${w} of ${count(u[k], 'instruction')}`);
    return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0] || '';
  }

  /** One run's lower bound times its runs (unknown runs counted once): the
   *  command line's ranking key (`roofline.ranked`); null where unknown. */
  function allRuns(k) {
    if (k.lower_bound_s === null || k.lower_bound_s === undefined) return null;
    return k.lower_bound_s * (k.runs === null ? 1 : k.runs);
  }
  /** Why a kernel has no verdict (`bound` null), in a few words. */
  function noVerdict(k, c) {
    if (!c.chip.name) return 'no chip';
    if (k.estimate.flops === null) return 'flops unknown';
    return 'not all of its flops have a roof on this chip';
  }
  /**
   * What bounds a kernel (`bound`), one row each: the table's words. A
   * bound with no row is shown by its id (tests/browser/ledger.test.mjs
   * fails on one).
   */
  const BOUNDS = { memory: 'memory', compute: 'compute', link: 'link (the interconnect)' };
  /** XLA:TPU's own estimate of a kernel's cycles, where the dump carries one. */
  const cycles = (k) => (k.estimated_cycles === undefined ? null : k.estimated_cycles);

  // ---- the table's columns: one row per column -------------------------------
  /**
   * In the table's order (the narrow screen's: the name, the bounds, then the
   * rest). `head(c)`: the header; `key(k)`: the value sorted by (null:
   * unknown, sorted last); `cell(k, c)`: the text (else the key); `up`: sorted
   * A to Z first (else largest first); `num`: right-aligned; `when(c)`: shown
   * only where it holds.
   */
  const COLUMNS = [
    { id: 'kernel', head: () => 'kernel', key: (k) => k.name, up: true },
    {
      id: 'all', head: () => 'lower bound, all runs', key: allRuns, num: true,
      cell: (k) => (allRuns(k) === null ? 'unknown' : k.runs === null ? `≥ ${secs(allRuns(k))} (runs unknown: counted once)` : secs(allRuns(k))),
    },
    { id: 'bound', head: () => 'bound', key: (k) => k.bound, cell: (k, c) => (k.bound ? BOUNDS[k.bound] || k.bound : `— (${noVerdict(k, c)})`) },
    { id: 'per-run', head: () => 'lower bound, per run', key: (k) => k.lower_bound_s, cell: (k) => secs(k.lower_bound_s), num: true },
    { id: 'runs', head: () => 'runs', key: (k) => k.runs, cell: (k) => (k.runs === null ? 'unknown (trip count not stated)' : String(k.runs)), num: true },
    { id: 'flops', head: () => 'flops', key: (k) => k.estimate.flops, cell: (k) => si(k.estimate.flops), num: true },
    { id: 'bytes', head: (c) => (c.chip.name ? 'HBM bytes' : 'memory bytes'), key: (k) => hbm(k.estimate), cell: (k) => bytes(hbm(k.estimate)), num: true },
    { id: 'intensity', head: () => 'intensity (flop/B)', key: (k) => k.intensity, cell: (k) => (k.intensity === null ? '—' : k.intensity.toFixed(2)), num: true },
    { id: 'kind', head: () => 'kind', key: (k) => (k.detail ? `${k.kind} ${k.detail}` : k.kind), up: true },
    {
      id: 'cycles', head: () => "XLA:TPU's estimate (cycles)", key: cycles, num: true,
      cell: (k) => (cycles(k) === null ? '—' : String(cycles(k))), when: (c) => c.kernels.some((k) => cycles(k) !== null),
    },
  ];
  /** The column sorted first: the bound over all runs, largest first (`roofline.ranked`). */
  const FIRST_SORT = 'all';

  function compare(cols, col, dir) {
    const key = cols[col].key;
    return (a, b) => {
      const x = key(a.k);
      const y = key(b.k);
      const nx = x === null || x === undefined;
      const ny = y === null || y === undefined;
      if (nx || ny) return nx === ny ? a.i - b.i : nx ? 1 : -1;
      const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
      return c ? c * dir : a.i - b.i;
    };
  }

  /**
   * The section for one dump. `ctx`: { id (a unique prefix for ids), reply
   * (the worker's `{ cost, lines }`: the report and the kernels' line texts
   * by line number), ask(chip) → Promise of another reply, on that chip
   * ('' for the default), width (px the chart may take), lang }.
   */
  function section(ctx) {
    const sec = el('section', 'dlp-cost');
    const h = el('h4', '', 'Where the time goes');
    h.id = `${ctx.id}-h`;
    sec.setAttribute('aria-labelledby', h.id);
    sec.append(h);
    const first = ctx.reply.cost;
    if (first.error) {
      sec.append(el('p', 'dlp-reason', `No ledger: ${first.error}`));
      return sec;
    }
    const picker = chipPicker(ctx, first.chip);
    sec.append(picker.row);
    const body = el('div', 'dlp-cost-body');
    sec.append(body);
    body.append(...ledger(ctx, ctx.reply));
    let token = 0;
    picker.select.addEventListener('change', () => {
      const chip = picker.select.value;
      const mine = ++token;
      picker.status.textContent = `Costing on ${chip || 'the default chip'}…`;
      ctx.ask(chip).then(
        (reply) => {
          if (mine !== token) return;
          picker.status.textContent = '';
          if (reply.cost.error) body.replaceChildren(el('p', 'dlp-reason', `No ledger: ${reply.cost.error}`));
          else body.replaceChildren(...ledger(ctx, reply));
          sec.dataset.chip = reply.cost.chip ? reply.cost.chip.name || '' : '';
        },
        (err) => {
          if (mine === token) picker.status.textContent = `The checker could not cost this: ${err.message}.`;
        },
      );
    });
    sec.dataset.chip = first.chip.name || '';
    return sec;
  }

  /** The chip picker: the default (named, with why) and the five presets. */
  function chipPicker(ctx, chip) {
    const row = el('div', 'dlp-row dlp-chip-row');
    const label = el('label', '', 'Chip for the roofline: ');
    const select = el('select', 'dlp-chip-pick');
    select.id = `${ctx.id}-chip`;
    label.htmlFor = select.id;
    const def = el('option', '', chip.name ? `Default for this dump: ${chip.name}` : 'Default for this dump: none');
    def.value = '';
    select.append(def);
    for (const [name, words] of CHIPS) {
      const o = el('option', '', `${name} (${words})`);
      o.value = name;
      select.append(o);
    }
    const status = el('span', 'dlp-cost-status');
    status.setAttribute('role', 'status');
    row.append(label, select, ' ', status);
    // The command line's advice ("pass --chip") is the picker's here.
    const why = el('p', 'dlp-note dlp-chip-default', chip.name ? `The default is ${chip.name} (${chip.full_name}): ${chip.why}.` : `No chip by default: ${chip.why.replace(/: pass --chip for a roofline$/, '')}. Pick a chip above for a roofline.`);
    const wrap = el('div');
    wrap.append(row, why);
    return { row: wrap, select, status };
  }

  /** The parts that follow the picker, for one reply. */
  function ledger(ctx, reply) {
    const c = reply.cost;
    const parts = [caveat(c.chip, c.kernels.some((k) => k.link)), ...(c.chip.name ? [chipLine(c.chip)] : []), totals(c)];
    if (c.repaired && c.repaired.length) parts.push(el('p', 'dlp-note', `Costed on the repaired text (${c.repaired.join('; ')}); line numbers are those of the paste.`));
    if (c.unread) parts.push(el('p', 'dlp-reason', `${count(c.unread, 'line')} of the dump could not be read; their instructions are not in the ledger.`));
    const links = linker(ctx, c);
    if (c.roofline) parts.push(chart(ctx, c, links));
    parts.push(kernelTable(ctx, c, links));
    if (c.kernels_total) {
      const p = el('p', 'dlp-note dlp-cost-cut', `The first ${c.kernels.length} of ${c.kernels_total} kernels (in run order) are in the table and the chart; `);
      p.append(el('code', '', 'mdbook-dumplab cost --json'), ' lists them all.');
      parts.push(p);
    }
    const legend = reasons(c);
    if (legend) parts.push(legend);
    parts.push(lineViewer(ctx, c, reply.lines, links));
    return parts;
  }

  /** What the figures are and are not: the model's assumptions, on a chip. */
  function caveat(chip, links) {
    if (!chip.name) {
      return el('p', 'dlp-note dlp-cost-caveat', "No chip: no roofline, no lower bound on the time. XLA's figures and DumpLab's estimate below are counts from the dump alone, whatever the chip; only a profile measures time.");
    }
    return el('p', 'dlp-note dlp-cost-caveat', `This is a lower bound on the time, from the dump alone, under a simple model: each kernel takes at least its flops over the peak and its HBM bytes over the bandwidth${links ? ", and a collective at least the bytes each device must move over the interconnect's bandwidth (the bound marked link)" : ''}. `
      + "The model assumes that every byte comes from HBM (a kernel whose data sits in a cache, such as the H100's 50 MB L2, can beat the bound) "
      + 'and that kernels run one after another (asynchronous copies that overlap other work can make the module faster than the sum). Only a profile measures time.');
  }

  /** The chip the figures are on, its peaks and their sources. */
  function chipLine(chip) {
    const p = el('p', 'dlp-cost-chip');
    const peaks = chip.peaks || {};
    const figs = ROOFS.filter(([k]) => peaks[k]).map(([k, w]) => `${w} ${si(peaks[k], 'FLOP/s')}`);
    if (peaks.hbm_bandwidth) figs.push(`HBM bandwidth ${si(peaks.hbm_bandwidth, 'B/s')}`);
    if (peaks.interconnect) figs.push(`interconnect ${si(peaks.interconnect, 'B/s')}`);
    p.append(`On ${chip.full_name} (${chip.name}): ${figs.join(', ')}. Sources: `);
    const seen = new Set();
    for (const s of chip.source || []) {
      if (seen.has(s.url) || !/^https:\/\//.test(s.url)) continue;
      if (seen.size) p.append(', ');
      seen.add(s.url);
      const a = el('a', '', s.title);
      a.href = s.url;
      p.append(a);
    }
    p.append('.');
    return p;
  }

  /** XLA's figures (their unknowns in words), DumpLab's estimate, the roofline total. */
  function totals(c) {
    const dl = el('dl', 'dlp-cost-totals');
    const x = c.totals.xla;
    const e = c.totals.estimate;
    // The figures as the report has them, for whoever reads the page's data.
    Object.assign(dl.dataset, {
      xlaFlops: x.flops, xlaBytes: x.bytes_accessed, xlaUnknown: JSON.stringify(x.unknown),
      flops: e.flops, bytes: e.bytes_accessed, hbm: hbm(e), lower: c.roofline ? c.roofline.lower_bound_s : '',
    });
    const add = (term, ...desc) => {
      const dd = el('dd');
      dd.append(...desc);
      dl.append(el('dt', '', term), dd);
    };
    const unknown = unknownWords(x.unknown);
    const notKernel = c.totals.not_kernel_bytes
      ? [`; ${bytes(c.totals.not_kernel_bytes)} of them are for instructions that launch nothing (`, el('code', '', 'not-a-kernel'), ' below)']
      : [];
    add("XLA's figures", el('code', '', 'HloCostAnalysis'), " (XLA's generic cost model, as ", el('code', '', 'hlo_module_cost_analysis'), ` computes it): ${si(x.flops)} flops, ${si(x.transcendentals)} transcendentals, ${bytes(x.bytes_accessed)} accessed`,
      ...notKernel, unknown ? `; XLA could not cost ${unknown} (it adds −1 for each to its own sum), so these are the sums of what it could cost.` : '.');
    const padded = e.bytes_padded !== e.bytes_accessed ? ` (${bytes(e.bytes_padded)} with tile padding)` : '';
    const onChip = e.bytes_on_chip ? `, of which ${bytes(e.bytes_on_chip)} in on-chip memory` : '';
    // HBM traffic: on a chip, and only where it differs from the bytes accessed.
    const traffic = c.chip.name && hbm(e) !== e.bytes_accessed ? `; ${bytes(hbm(e))} of HBM traffic` : '';
    const eUnknown = unknownWords(e.unknown);
    add("DumpLab's estimate", `${si(e.flops)} flops, ${si(e.transcendentals)} transcendentals, ${bytes(e.bytes_accessed)} accessed${padded}${onChip}${traffic}` +
      (eUnknown ? `; unknown: ${eUnknown}, not counted.` : '.'));
    const r = c.roofline;
    if (r) {
      const least = r.runs_known ? '' : ' (at least: a loop states no trip count, so its kernels are counted once)';
      if (r.overlapping_pairs > 0) {
        add('Kernels summed, one after another', `${secs(r.lower_bound_s)}: the kernels' lower bounds over all their runs, summed${least}; no lower bound on the module here: ${r.overlapping_pairs === 1 ? '1 collective start/done pair' : `${r.overlapping_pairs} collective start/done pairs`} with work scheduled between may run at the same time as that work.`);
      } else {
        add('Lower bound on the module', `${secs(r.lower_bound_s)}: the kernels' lower bounds over all their runs, summed, one after another${least}.`);
      }
      const runs = `${r.runs_known ? '' : 'at least '}${count(r.kernel_runs, 'kernel run')}`;
      const over = r.overhead_s === null
        ? `${r.overhead_assumption}.`
        : `${runs} × ${secs(r.overhead_per_kernel_s)} = ${r.runs_known ? '' : 'at least '}${secs(r.overhead_s)}, on top of ${r.overlapping_pairs > 0 ? 'the sum' : 'the lower bound'} (${r.overhead_assumption}).`;
      add('Fixed overhead per kernel', over);
    }
    const linked = c.kernels.filter((k) => k.link);
    if (linked.length && c.chip.peaks && c.chip.peaks.interconnect) {
      const least = linked.reduce((n, k) => n + k.link.bytes, 0);
      const src = (c.chip.source || []).find((s) => s.figure === 'interconnect');
      add('Over the interconnect', `${count(linked.length, 'collective')}: each one's busiest device, summed, at least ${bytes(least)}, whatever the algorithm, at ${si(c.chip.peaks.interconnect, 'B/s')}${src ? ` (${src.derived ? `${src.derived}; ` : ''}${src.title}: "${src.quote}")` : ''}; each one's bytes are under its line below, and "Collectives" says why.`);
    }
    return dl;
  }

  /** The reasons legend: why the estimate differs from XLA's figures. */
  function reasons(c) {
    const ids = Object.keys(c.reasons || {});
    if (!ids.length) return null;
    const wrap = el('div', 'dlp-cost-reasons');
    wrap.append(el('p', 'dlp-caption', "Where DumpLab's estimate differs from XLA's figures, and why"));
    const dl = el('dl');
    for (const id of ids) dl.append(el('dt', '', id), el('dd', '', c.reasons[id]));
    wrap.append(dl);
    return wrap;
  }

  // ---- links between rows, points and lines ----------------------------------
  /**
   * Per kernel (index into `c.kernels`): its row, point and dump line, lit
   * together on hover and focus; `go(i, 'row'|'line')` moves focus there.
   */
  function linker(ctx, c) {
    const rows = [];
    const points = [];
    const lines = new Map(); // dump line number → its element
    const byLine = new Map(); // dump line number → kernel indices
    c.kernels.forEach((k, i) => {
      if (!byLine.has(k.line)) byLine.set(k.line, []);
      byLine.get(k.line).push(i);
    });
    const parts = (i) => [rows[i], points[i], lines.get(c.kernels[i].line)].filter(Boolean);
    const set = (list, on) => {
      for (const i of list) for (const n of parts(i)) light(n, on);
    };
    const hover = (node, list) => {
      node.addEventListener('mouseenter', () => set(list, true));
      node.addEventListener('mouseleave', () => set(list, false));
      node.addEventListener('focusin', () => set(list, true));
      node.addEventListener('focusout', () => set(list, false));
    };
    return {
      rowId: (i) => `${ctx.id}-k${i}`,
      lineId: (n) => `${ctx.id}-L${n}`,
      ensureRow: null, // set by the table: draws every row
      row(i, tr) {
        rows[i] = tr;
        hover(tr, [i]);
      },
      point(i, g) {
        points[i] = g;
        hover(g, [i]);
      },
      line(n, span) {
        lines.set(n, span);
        hover(span, byLine.get(n) || []);
      },
      kernelsOn: (n) => byLine.get(n) || [],
      go(i, where) {
        if (where === 'row' && !rows[i] && this.ensureRow) this.ensureRow();
        const node = where === 'row' ? rows[i] : lines.get(c.kernels[i].line);
        if (!node) return;
        node.focus();
        if (where === 'line' && window.dumplabViewer) window.dumplabViewer.reveal(node);
        else node.scrollIntoView({ block: 'nearest' });
      },
    };
  }
  /** A same-page link that moves focus (a plain #fragment would not focus a row). */
  function jump(text, href, go) {
    const a = el('a', 'dlp-jump', text);
    a.href = href;
    a.addEventListener('click', (e) => {
      e.preventDefault();
      go();
    });
    return a;
  }

  // ---- the table -------------------------------------------------------------
  function kernelTable(ctx, c, links) {
    const cols = COLUMNS.filter((col) => !col.when || col.when(c));
    const wrap = el('div', 'dlp-table-wrap dlp-cost-kernels');
    const bytesWhat = c.chip.name ? "HBM bytes are the estimate's bytes (with TPU tile padding) less those in on-chip memory" : "memory bytes are the estimate's bytes accessed";
    const cap = el('p', 'dlp-caption', `Kernels: ${count(c.kernels_total || c.kernels.length, 'kernel')}, by their lower bound over all runs (one run's times its runs; press a column's header to sort by it); ${bytesWhat}`);
    cap.id = `${ctx.id}-cap`;
    const scroll = el('div', 'dlp-scroll');
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-labelledby', cap.id);
    const t = el('table', 'dlp-table');
    t.setAttribute('aria-labelledby', cap.id);
    const head = el('tr');
    const ths = cols.map((column, col) => {
      const th = el('th');
      th.scope = 'col';
      th.dataset.col = column.id;
      const b = el('button', 'dlp-sort', column.head(c));
      b.type = 'button';
      b.addEventListener('click', () => sortBy(col));
      th.append(b);
      head.append(th);
      return th;
    });
    for (const name of ['line in the dump', 'source lines']) head.append(el('th', '', name));
    const thead = el('thead');
    thead.append(head);
    const body = el('tbody');
    t.append(thead, body);
    scroll.append(t);
    wrap.append(cap, scroll);
    if (cols.some((col) => col.id === 'cycles')) {
      wrap.append(el('p', 'dlp-note dlp-cost-cycles', "XLA:TPU's estimate (cycles) is the compiler's own estimate of a kernel's cycles, from its backend_config in the dump: not a measurement, and the dump carries no clock to turn it into seconds."));
    }
    const order = c.kernels.map((k, i) => ({ k, i }));
    const first = cols.findIndex((col) => col.id === FIRST_SORT);
    let sort = { col: first, dir: -1 };
    let shown = Math.min(order.length, SHOWN_ROWS);
    let more = null;
    const draw = () => {
      order.sort(compare(cols, sort.col, sort.dir));
      ths.forEach((th, col) => {
        if (col === sort.col) th.setAttribute('aria-sort', sort.dir > 0 ? 'ascending' : 'descending');
        else th.removeAttribute('aria-sort');
      });
      const frag = document.createDocumentFragment();
      for (const { k, i } of order.slice(0, shown)) frag.append(kernelRow(k, i, c, cols, links));
      body.replaceChildren(frag);
    };
    const sortBy = (col) => {
      sort = { col, dir: sort.col === col ? -sort.dir : cols[col].up ? 1 : -1 };
      draw();
    };
    links.ensureRow = () => {
      if (shown < order.length) {
        shown = order.length;
        draw();
        if (more) more.remove();
      }
    };
    draw();
    if (order.length > shown) {
      more = el('button', 'dlp-cost-more', `Show all ${order.length} rows`);
      more.type = 'button';
      more.addEventListener('click', () => links.ensureRow());
      wrap.append(more);
    }
    return wrap;
  }

  function kernelRow(k, i, c, cols, links) {
    const tr = el('tr');
    tr.id = links.rowId(i);
    tr.tabIndex = -1;
    tr.dataset.kernel = String(i);
    // The figures as the report has them, for whoever reads the page's data.
    tr.dataset.flops = String(k.estimate.flops);
    tr.dataset.hbm = String(hbm(k.estimate));
    tr.dataset.bound = k.bound || '';
    tr.dataset.lower = String(k.lower_bound_s);
    tr.dataset.all = String(allRuns(k));
    for (const column of cols) {
      const td = el('td');
      td.dataset.col = column.id;
      if (column.id === 'kernel') {
        const code = el('code', '', k.name);
        if (k.depth) td.style.paddingLeft = `${0.5 + k.depth}em`;
        td.append(code);
        if (k.depth) td.append(el('span', 'dlp-visually-hidden', ` (inside a loop, depth ${k.depth})`));
      } else td.textContent = column.cell ? column.cell(k, c) : column.key(k);
      if (column.num) td.className = 'dlp-num';
      if (column.id === 'bound' && !k.bound) td.className = 'dlp-no-verdict';
      tr.append(td);
    }
    const at = el('td');
    at.dataset.col = 'line';
    at.append(jump(`line ${k.line}`, `#${links.lineId(k.line)}`, () => links.go(i, 'line')));
    const src = el('td', '', k.source_lines.length ? k.source_lines.map((l) => `${l.file}:${l.line}`).join(', ') : 'no source line');
    src.dataset.col = 'source';
    tr.append(at, src);
    links.row(i, tr);
    return tr;
  }

  // ---- the kernels' lines in the dump viewer ---------------------------------
  function lineViewer(ctx, c, texts, links) {
    const numbers = [...new Set(c.kernels.map((k) => k.line))].sort((a, b) => a - b);
    const lines = numbers.map((n) => {
      const note = document.createDocumentFragment();
      for (const i of links.kernelsOn(n).slice(0, 4)) note.append(kernelNote(c.kernels[i], () => links.go(i, 'row'), `#${links.rowId(i)}`));
      return { n, text: (texts && texts[n]) || '', note };
    });
    const view = window.dumplabViewer.build({ lines, caption: "The kernels' lines in the dump (each links to its row in the table)", name: "The kernels' lines in the dump", lang: ctx.lang || 'hlo' });
    view.classList.add('dlp-cost-lines');
    for (const span of view.querySelectorAll('.dl-line[data-line]')) {
      const n = Number(span.dataset.line);
      // Linked lines are targets, not answers: not lit until their kernel is.
      span.classList.remove('dl-lit');
      span.id = links.lineId(n);
      span.tabIndex = -1;
      links.line(n, span);
    }
    return view;
  }

  /** XLA's figure of a kernel in words: "unknown" where XLA could not cost it. */
  function xlaWords(x) {
    const one = (v, u, w) => (u ? `${w} unknown` : `${w === 'bytes' ? bytes(v) : si(v)}${w === 'bytes' ? '' : ` ${w}`}`);
    return `${one(x.flops, x.unknown.flops, 'flops')}, ${one(x.bytes_accessed, x.unknown.bytes_accessed, 'bytes')}`;
  }
  /** Under a kernel's line: the link to its row, XLA's figures, why the
   *  estimate differs (the legend's ids) and how it is bounded (its notes). */
  function kernelNote(k, go, href) {
    const box = el('span', 'dlp-kernel-note');
    box.append(jump(`↑ ${k.name} in the table`, href, go), ` HloCostAnalysis: ${xlaWords(k.xla)}.`);
    if (cycles(k) !== null) box.append(` XLA:TPU's estimate: ${cycles(k)} cycles (the compiler's estimate, not a measurement; the dump carries no clock to turn it into seconds).`);
    if (k.estimate.reasons.length) {
      box.append(' The estimate differs: ');
      k.estimate.reasons.forEach((r, j) => box.append(j ? ', ' : '', el('code', '', r)));
      box.append('.');
    }
    const notes = k.notes || [];
    if (notes.length) box.append(` Bound: ${notes.join('; ')}.`);
    if (k.link) box.append(' ', el('span', 'dlp-cost-link', `Over the interconnect: at least ${bytes(k.link.bytes)} per device (${k.link.bytes} B), at least ${secs(k.link.seconds)}.`));
    return box;
  }

  // ---- the roofline chart ----------------------------------------------------
  /** Decades from `lo` to `hi` (powers of ten). */
  function decades(lo, hi) {
    const out = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
    return out;
  }
  /** Tick labels: 0.01, 1, 100, 10 k, 1 T. */
  function tick(v) {
    if (v < 1) return String(Number(v.toPrecision(1)));
    for (const [f, p] of SI) if (v >= f) return `${v / f} ${p}`;
    return String(v);
  }

  /**
   * The kernels the chart plots, by their bound over all runs (largest
   * first, ties in ledger order), and those it leaves out: `verdict`, those
   * with no verdict (where they would sit says nothing: a point at flops over
   * a bound that leaves some flops out would rise above the compute roof);
   * `zero`, those a log axis cannot place; `over`, those above every roof drawn.
   */
  function plottable(c, top) {
    const out = { pts: [], verdict: 0, link: 0, zero: 0, over: 0 };
    c.kernels.forEach((k, i) => {
      if (!k.bound) out.verdict++;
      else if (k.bound === 'link') out.link++;
      else if (!(k.intensity > 0 && k.lower_bound_s > 0 && k.estimate.flops > 0)) out.zero++;
      else if (k.estimate.flops / k.lower_bound_s > top * (1 + 1e-9)) out.over++;
      else out.pts.push({ k, i, x: k.intensity, y: k.estimate.flops / k.lower_bound_s });
    });
    out.pts.sort((a, b) => allRuns(b.k) - allRuns(a.k) || a.i - b.i);
    return out;
  }
  /** The kernels left out of the chart, and why, in a sentence. */
  function leftOut(all) {
    const why = [];
    if (all.verdict) why.push(`${count(all.verdict, 'kernel')} with no verdict (flops unknown, or not all of its flops have a roof on this chip: see the bound column)`);
    if (all.link) why.push(`${count(all.link, 'collective')} bounded by the interconnect (a roof this chart does not draw: see the bound column)`);
    if (all.zero) why.push(`${count(all.zero, 'kernel')} with no flops or no HBM bytes (a log axis has no zero)`);
    if (all.over) why.push(`${count(all.over, 'kernel')} above every roof drawn (their peak is not one this chart draws)`);
    return why.length ? ` Not plotted: ${why.join('; ')}.` : '';
  }

  function chart(ctx, c, links) {
    const peaks = c.chip.peaks || {};
    const bw = peaks.hbm_bandwidth;
    const roofs = ROOFS.filter(([k]) => peaks[k]).map(([k, w]) => ({ k, w, v: peaks[k] }));
    const fig = el('figure', 'dlp-roofline');
    if (!bw || !roofs.length) {
      fig.append(el('figcaption', 'dlp-note', `No roofline: ${c.chip.name} has no HBM bandwidth or no compute peak in its preset.`));
      return fig;
    }
    const top = Math.max(...roofs.map((r) => r.v));
    const all = plottable(c, top);
    const pts = all.pts.slice(0, MAX_POINTS);
    const xs = [...pts.map((p) => p.x), top / bw];
    const ys = [...pts.map((p) => p.y), top, Math.min(...roofs.map((r) => r.v))];
    const x0 = 10 ** Math.floor(Math.log10(Math.min(...xs) / 2));
    const x1 = 10 ** Math.ceil(Math.log10(Math.max(...xs) * 4));
    const y0 = 10 ** Math.floor(Math.log10(Math.max(Math.min(...ys, bw * x0), 1) / 2));
    const y1 = 10 ** Math.ceil(Math.log10(top * 1.5));
    const W = Math.max(300, Math.min(720, ctx.width || 640));
    const H = W < 500 ? 300 : 360;
    const m = { l: 52, r: 22, t: 12, b: 42 };
    const sx = (v) => m.l + ((Math.log10(v) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0))) * (W - m.l - m.r);
    const sy = (v) => H - m.b - ((Math.log10(v) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))) * (H - m.t - m.b);
    const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'dlp-roof-svg', 'aria-labelledby': `${ctx.id}-svg-t`, 'aria-describedby': `${ctx.id}-svg-d` });
    s.append(svg('title', { id: `${ctx.id}-svg-t` }, `Roofline on ${c.chip.name}: arithmetic intensity (flop per HBM byte) against attainable flop/s (flops over the lower bound of one run), log-log`));
    s.append(svg('desc', { id: `${ctx.id}-svg-d` }, `The memory roof rises with the HBM bandwidth (${si(bw, 'B/s')}); the compute roofs are ${roofs.map((r) => `${r.w} ${si(r.v, 'FLOP/s')}`).join(', ')}. ${count(pts.length, 'kernel')} plotted, each at its intensity and its flops over its lower bound per run${pts.length ? `; the ${Math.min(LABELLED, pts.length)} with the largest lower bounds over all runs are named where their names fit` : ''}.${leftOut(all)} The table below holds the same figures.`));
    axes(s, { x0, x1, y0, y1, sx, sy, W, H, m });
    // Boxes a label may not overlap: every point's dot, the labels placed.
    const taken = [];
    for (const p of pts) {
      p.cx = sx(p.x);
      p.cy = sy(p.y);
      taken.push({ x: p.cx - 7, y: p.cy - 7, w: 14, h: 14 });
    }
    const area = { x0: m.l, x1: W - m.r, y0: m.t, y1: H - m.b };
    roofLines(s, { bw, roofs, x0, x1, y0, sx, sy, area, taken });
    const groups = pts.map((p, j) => point(p, j < LABELLED ? taken : null, { area, links }));
    s.append(...groups);
    const tip = tipper(s, W, H);
    pts.forEach((p, j) => tip.attach(groups[j], p));
    fig.append(s);
    const cap = el('figcaption', 'dlp-note', `Roofline on ${c.chip.full_name}: each point is a kernel at its flops over its lower bound per run; the names are those of the largest bounds over all runs (focus or hover a point for its figures, press Enter to go to its row).`);
    if (all.pts.length > pts.length) cap.append(` The ${pts.length} kernels with the largest lower bounds over all runs are plotted.`);
    cap.append(leftOut(all));
    fig.prepend(cap);
    return fig;
  }

  function axes(s, { x0, x1, y0, y1, sx, sy, W, H, m }) {
    const g = svg('g', { class: 'dlp-roof-axes', 'aria-hidden': 'true' });
    const xd = decades(x0, x1).filter((v) => v >= x0 && v <= x1);
    // Every decade labelled while they are 48 px apart, else every other one.
    const xstep = (W - m.l - m.r) / Math.max(1, xd.length - 1) < 48 ? 2 : 1;
    xd.forEach((v, j) => {
      g.append(svg('line', { x1: sx(v), x2: sx(v), y1: m.t, y2: H - m.b, class: 'dlp-roof-grid' }));
      if (j % xstep === 0) g.append(svg('text', { x: sx(v), y: H - m.b + 14, 'text-anchor': 'middle' }, tick(v)));
    });
    const yd = decades(y0, y1).filter((v) => v >= y0 && v <= y1);
    const step = yd.length > 8 ? 2 : 1;
    yd.forEach((v, j) => {
      g.append(svg('line', { x1: m.l, x2: W - m.r, y1: sy(v), y2: sy(v), class: 'dlp-roof-grid' }));
      if (j % step === 0) g.append(svg('text', { x: m.l - 4, y: sy(v) + 4, 'text-anchor': 'end' }, tick(v)));
    });
    g.append(svg('rect', { x: m.l, y: m.t, width: W - m.l - m.r, height: H - m.t - m.b, class: 'dlp-roof-frame' }));
    g.append(svg('text', { x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle' }, 'arithmetic intensity (flop per HBM byte)'));
    g.append(svg('text', { x: 12, y: (m.t + H - m.b) / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${(m.t + H - m.b) / 2})` }, 'attainable flop/s'));
    s.append(g);
  }

  /** The first box of `spots` ([x, baseline y, anchored at its end]) for
   *  `chars` characters inside `area` that overlaps nothing `taken`; it is
   *  taken. Null when none is free. */
  function freeSpot(spots, chars, area, taken) {
    const w = chars * 7; // 11 px type: wider than its glyphs on average
    for (const [x, y, end] of spots) {
      const box = { x: end ? x - w : x, y: y - 11, w, h: 14 };
      const inside = box.x >= area.x0 && box.x + box.w <= area.x1 && box.y >= area.y0 && box.y + box.h <= area.y1;
      if (inside && !taken.some((b) => box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h)) {
        taken.push(box);
        return { x, y, anchor: end ? 'end' : 'start' };
      }
    }
    return null;
  }

  /** The roofs and their labels, each where it overlaps no dot and no other
   *  label (else left out: the chip line above and the desc name every roof). */
  function roofLines(s, { bw, roofs, x0, x1, y0, sx, sy, area, taken }) {
    const g = svg('g', { class: 'dlp-roof-roofs', 'aria-hidden': 'true' });
    const top = Math.max(...roofs.map((r) => r.v));
    const from = Math.max(x0, y0 / bw);
    const label = (spots, text) => {
      const at = freeSpot(spots, text.length, area, taken);
      if (at) g.append(svg('text', { x: at.x, y: at.y, 'text-anchor': at.anchor, class: 'dlp-roof-label' }, text));
    };
    g.append(svg('line', { x1: sx(from), y1: sy(bw * from), x2: sx(top / bw), y2: sy(top), class: 'dlp-roof-mem' }));
    // Along the memory roof, from its foot: above the line, then below it.
    const along = [0, 0.15, 0.3, 0.45].map((t) => from * (top / bw / from) ** t);
    label([...along.map((x) => [sx(x) + 6, sy(bw * x) - 6, false]), ...along.map((x) => [sx(x) + 8, sy(bw * x) + 14, false])], `HBM ${si(bw, 'B/s')}`);
    roofs.forEach((r, j) => {
      g.append(svg('line', { x1: sx(r.v / bw), y1: sy(r.v), x2: sx(x1), y2: sy(r.v), class: `dlp-roof-compute dlp-roof-${r.k}` }));
      // At the right end, above or below the line; else at its left end.
      const [a, b] = j ? [14, -5] : [-5, 14];
      const [right, left] = [sx(x1) - 4, sx(r.v / bw) + 6];
      label([[right, sy(r.v) + a, true], [right, sy(r.v) + b, true], [left, sy(r.v) + a, false], [left, sy(r.v) + b, false]], `${r.w} ${si(r.v, 'FLOP/s')}`);
    });
    s.append(g);
  }

  /** Where a point's name goes: above or below, right or left of its dot,
   *  inside the chart; null when every spot would overlap a label or a dot. */
  function labelSpot(cx, cy, chars, area, taken) {
    return freeSpot([[cx + 8, cy - 6, false], [cx + 8, cy + 16, false], [cx - 8, cy - 6, true], [cx - 8, cy + 16, true]], chars, area, taken);
  }

  /** A point's figures, one line each: its name first. */
  function pointLines(p) {
    const k = p.k;
    const over = k.runs === null ? `≥ ${secs(allRuns(k))} over all runs (runs unknown: counted once)` : `${secs(allRuns(k))} over all ${count(k.runs, 'run')}`;
    return [k.name, `${k.intensity.toFixed(2)} flop/B, ${si(p.y, 'FLOP/s')} attainable`, `${k.bound}-bound, at least ${secs(k.lower_bound_s)} per run`, over];
  }

  function point(p, taken, { area, links }) {
    const k = p.k;
    const lines = pointLines(p);
    const words = `${lines[0]}: ${lines.slice(1).join(', ')}`;
    const g = svg('g', { class: 'dlp-pt', tabindex: 0, role: 'link', 'aria-label': `${words}; go to its row`, 'data-kernel': p.i });
    g.append(svg('title', {}, words));
    g.append(svg('circle', { cx: p.cx, cy: p.cy, r: 5 }));
    const name = k.name.length > 24 ? `${k.name.slice(0, 23)}…` : k.name;
    const at = taken && labelSpot(p.cx, p.cy, name.length, area, taken);
    if (at) g.append(svg('text', { x: at.x, y: at.y, 'text-anchor': at.anchor, class: 'dlp-pt-label', 'aria-hidden': 'true' }, name));
    const go = () => links.go(p.i, 'row');
    g.addEventListener('click', go);
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        go();
      }
    });
    links.point(p.i, g);
    return g;
  }

  /** The figures of the point under focus or the pointer, in a box beside
   *  it (a <title> shows on hover only, and not to the keyboard). */
  function tipper(s, W, H) {
    const g = svg('g', { class: 'dlp-roof-tip', 'aria-hidden': 'true', visibility: 'hidden' });
    const rect = svg('rect', { rx: 3, x: 0, y: 0 });
    const text = svg('text', { x: 6, y: 17 });
    g.append(rect, text);
    s.append(g);
    let on = null;
    const show = (node, p) => {
      on = node;
      text.replaceChildren(...pointLines(p).map((l, j) => svg('tspan', { x: 6, dy: j ? 14 : 0, class: j ? '' : 'dlp-tip-name' }, l)));
      const b = text.getBBox();
      const w = Math.min(W, b.width + 12);
      const h = b.height + 10;
      let x = p.cx + 12;
      if (x + w > W) x = Math.max(0, p.cx - 12 - w);
      let y = p.cy - h - 10;
      if (y < 0) y = Math.min(H - h, p.cy + 12);
      rect.setAttribute('width', w);
      rect.setAttribute('height', h);
      g.setAttribute('transform', `translate(${x} ${y})`);
      g.setAttribute('visibility', 'visible');
    };
    const hide = (node) => {
      if (on !== node) return;
      on = null;
      g.setAttribute('visibility', 'hidden');
    };
    return {
      attach(node, p) {
        node.addEventListener('focus', () => show(node, p));
        node.addEventListener('blur', () => hide(node));
        node.addEventListener('mouseenter', () => show(node, p));
        node.addEventListener('mouseleave', () => (document.activeElement === node ? null : hide(node)));
      },
    };
  }

  // The chip presets and the number words are also the diff's
  // (src/dumplab-playground-diff.js): one table, one way to write a figure.
  window.dumplabLedger = { section, CHIPS, words: { si, bytes, secs } };
})();
