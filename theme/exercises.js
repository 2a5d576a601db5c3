// DumpLab exercises: questions rendered by `mdbook-dumplab`, graded in the
// browser by the Rust checker compiled to wasm (theme/dumplab-wasm.js carries
// the module). Answers stay sealed in the page; the wasm unseals and grades.
// Progress lives in localStorage per question, keyed by the question's
// content hash, so an edited question starts fresh. Anything unreadable in
// storage is ignored. The course's question hashes per chapter come with
// every page (<script class="dumplab-course">, preprocessor/src/progress.rs),
// so the sidebar shows "answered right / total" for every chapter, and the
// end of a chapter sums it up and offers to retry what was missed.
(() => {
  'use strict';
  const root = document.documentElement;
  // Code blocks and wide tables in the prose scroll sideways: a keyboard
  // must reach them too (only those that do scroll take a tab stop).
  for (const c of document.querySelectorAll('main pre > code, main .table-wrapper')) {
    if (!c.hasAttribute('tabindex') && c.scrollWidth > c.clientWidth) c.tabIndex = 0;
  }
  const questions = Array.from(document.querySelectorAll('.dumplab-q'));
  const PREFIX = 'dumplab:v1:';
  const OUTCOMES = ['correct', 'partial', 'wrong', 'invalid', 'revealed'];
  let exportsPromise = null;
  // Per question: `again(forget)` makes it fresh, `firstInput()` where to focus.
  const controls = new Map();

  function checker() {
    if (!exportsPromise) {
      exportsPromise = Promise.resolve().then(() => {
        const b64 = window.dumplabWasm;
        if (typeof b64 !== 'string' || !window.WebAssembly) throw new Error('no checker');
        const bin = atob(b64);
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        // Gzipped by `cargo xtask wasm` (a third less to send); raw wasm too.
        const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
        if (gz && typeof DecompressionStream !== 'function') throw new Error('no checker');
        const wasm = gz ? new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() : bytes;
        return Promise.resolve(wasm).then((w) => WebAssembly.instantiate(w, {})).then((r) => r.instance.exports);
      });
    }
    return exportsPromise;
  }

  const esc = (s) => String(s).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  const unesc = (s) => s.replace(/\\(.)/g, (_, c) => ({ t: '\t', n: '\n', r: '\r' })[c] || c);

  // One request record in, verdict records out (see checker/src/grade.rs).
  function call(ex, fields) {
    const enc = new TextEncoder().encode(fields.map(esc).join('\t'));
    const p = ex.dumplab_alloc(enc.length);
    new Uint8Array(ex.memory.buffer, p, enc.length).set(enc);
    const r = ex.dumplab_call(p, enc.length);
    ex.dumplab_free(p, enc.length);
    const len = new DataView(ex.memory.buffer).getUint32(r, true);
    const text = new TextDecoder().decode(new Uint8Array(ex.memory.buffer, r + 4, len).slice());
    ex.dumplab_free(r, len + 4);
    const v = { notes: [], lines: [], answer: null, explain: '', message: '', outcome: 'invalid', hint: null };
    for (const line of text.split('\n')) {
      if (!line) continue;
      const f = line.split('\t').map(unesc);
      if (f[0] === 'outcome') v.outcome = f[1];
      else if (f[0] === 'message' || f[0] === 'error') v.message = f[1];
      else if (f[0] === 'note') v.notes.push({ target: f[1], mark: f[2], text: f[3] });
      else if (f[0] === 'line') v.lines.push({ line: f[1], note: f[2] });
      else if (f[0] === 'answer') v.answer = { text: f[1], ids: f[2].split(',') };
      else if (f[0] === 'explain') v.explain = f[1];
      else if (f[0] === 'hint') v.hint = { first: Number(f[1]), last: Number(f[2]), text: f[3] };
    }
    return v;
  }

  // What was saved this page view, for when storage is off.
  const memo = new Map();
  const valid = (s) => !!s && typeof s === 'object' && OUTCOMES.includes(s.o) && typeof s.a === 'string' && s.a.length < 400;
  // The saved record of the question with content hash `hash`, or null.
  function record(hash) {
    try {
      const s = JSON.parse(localStorage.getItem(PREFIX + hash));
      return valid(s) ? s : null;
    } catch (e) {
      /* unreadable, tampered or storage off: what this view saved, if anything */
      return memo.has(hash) ? memo.get(hash) : null;
    }
  }
  const load = (q) => record(q.dataset.dumplabHash);
  function save(q, o, a) {
    const hash = q.dataset.dumplabHash;
    memo.set(hash, o ? { o, a } : null);
    try {
      if (o) localStorage.setItem(PREFIX + hash, JSON.stringify({ o, a }));
      else localStorage.removeItem(PREFIX + hash);
    } catch (e) {
      /* storage off: progress lasts for this page view */
    }
  }
  const solved = (hash) => (record(hash) || {}).o === 'correct';

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  // Inline `code` spans of authored text, built as DOM nodes (never as HTML).
  function rich(parent, text) {
    const parts = String(text).split('`');
    if (parts.length % 2 === 0) return parent.append(text);
    parts.forEach((p, i) => parent.append(i % 2 ? el('code', '', p) : p));
  }

  let progress = null;
  // Every view of progress, from storage: this page's line, the summary at
  // the end of the chapter, the sidebar.
  function updateProgress() {
    if (progress) {
      const done = questions.filter((q) => solved(q.dataset.dumplabHash)).length;
      progress.firstChild.textContent = `Exercises on this page: ${done} of ${questions.length} answered right. `;
    }
    updateSummary();
    updateSidebar();
  }

  // The course's chapters: [{ page, questions: [hash] }], or [] when the
  // page's list is missing or malformed.
  function courseChapters() {
    const block = document.querySelector('script.dumplab-course');
    try {
      const c = JSON.parse(block ? block.textContent : 'null');
      if (!c || c.version !== 1 || !Array.isArray(c.chapters)) return [];
      return c.chapters.filter(
        (ch) => ch && typeof ch.page === 'string' && Array.isArray(ch.questions) && ch.questions.every((h) => typeof h === 'string'),
      );
    } catch (e) {
      return [];
    }
  }
  const chapters = courseChapters();
  const base = typeof path_to_root === 'string' ? path_to_root : '';
  const pathOf = (href) => new URL(href, location.href).pathname.replace(/\/index\.html$/, '/');
  // Each chapter's sidebar link gets "right / total", and a tick when all
  // are right; the link's name says it in words.
  function updateSidebar() {
    const links = Array.from(document.querySelectorAll('#mdbook-sidebar a[href]'));
    for (const ch of chapters) {
      const want = pathOf(base + ch.page);
      const link = links.find((a) => !a.classList.contains('header-in-summary') && pathOf(a.href) === want);
      if (!link) continue;
      const done = ch.questions.filter(solved).length;
      const all = ch.questions.length;
      let badge = link.querySelector('.dumplab-toc-progress');
      if (!badge) {
        badge = el('span', 'dumplab-toc-progress');
        badge.append(el('span', 'dumplab-toc-count'), el('span', 'dl-sr'));
        badge.firstChild.setAttribute('aria-hidden', 'true');
        link.append(badge);
      }
      badge.dataset.done = String(done);
      badge.dataset.total = String(all);
      badge.classList.toggle('dumplab-toc-complete', done === all);
      badge.firstChild.textContent = done === all ? `\u2713 ${done}/${all}` : `${done}/${all}`;
      badge.lastChild.textContent = `, exercises: ${done} of ${all} answered right`;
    }
  }

  // One question's parts, shared by the steps below.
  function partsOf(q) {
    const code = q.querySelector('pre[data-selectable]');
    const ui = {
      q,
      mode: q.dataset.mode,
      id: q.dataset.dumplabQuestion,
      actions: q.querySelector('.dumplab-actions'),
      feedback: q.querySelector('.dumplab-feedback'),
      code,
      lines: code ? Array.from(code.querySelectorAll('.dl-line')) : [],
      number: q.querySelector('.dumplab-number input'),
      check: el('button', 'dumplab-check', 'Check'),
      show: el('button', 'dumplab-show', 'Show answer'),
      retry: el('button', 'dumplab-retry', 'Retry'),
    };
    for (const b of [ui.check, ui.show, ui.retry]) b.type = 'button';
    ui.retry.hidden = true;
    // First in the row: theme/viewer.js may have put the dump's "Wrap lines"
    // toggle here already, and it comes after what answers the question.
    ui.actions.prepend(ui.check, ui.show, ui.retry);
    return ui;
  }

  // An evidence question's dump: a multi-select listbox, one tab stop
  // (WAI-ARIA roving tabindex).
  function setupLines(ui) {
    const { q, code, lines } = ui;
    const toggle = (l) => {
      if (q.dataset.state !== 'correct' && q.dataset.state !== 'revealed') {
        l.setAttribute('aria-selected', String(l.getAttribute('aria-selected') !== 'true'));
      }
    };
    code.setAttribute('role', 'listbox');
    code.setAttribute('aria-multiselectable', 'true');
    code.setAttribute('aria-labelledby', q.id + '-prompt');
    lines.forEach((l, i) => {
      l.tabIndex = i ? -1 : 0;
      l.setAttribute('role', 'option');
      l.setAttribute('aria-selected', 'false');
      // The option's name is its own text, so it matches what is seen
      // (WCAG 2.5.3): the line number, read as "line N", then the code.
      const ln = l.querySelector('.dl-ln');
      if (ln) {
        ln.removeAttribute('aria-hidden');
        ln.prepend(el('span', 'dl-sr', 'line '));
      }
      l.addEventListener('click', () => toggle(l));
    });
    code.addEventListener('focusin', (e) => {
      if (lines.includes(e.target)) lines.forEach((l) => (l.tabIndex = l === e.target ? 0 : -1));
    });
    code.addEventListener('keydown', (e) => {
      // Lines in a closed fold (source-location tables) are skipped.
      const shown = lines.filter((l) => !l.closest('details:not([open])'));
      const i = shown.indexOf(e.target);
      const k = e.key;
      const to = { Home: 0, End: shown.length - 1, ArrowUp: i - 1, ArrowDown: i + 1 }[k];
      if (i < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
      if (k === ' ' || k === 'Enter') toggle(e.target);
      else if (to === undefined) return;
      else if (shown[to]) shown[to].focus();
      e.preventDefault();
    });
  }

  function answerOf(ui) {
    if (ui.mode === 'single') {
      const r = ui.q.querySelector('input[type=radio]:checked');
      return r ? r.value : '';
    }
    if (ui.mode === 'number') return ui.number.value;
    return ui.lines.filter((l) => l.getAttribute('aria-selected') === 'true').map((l) => l.dataset.line).join(',');
  }
  function restoreAnswer(ui, a) {
    if (ui.mode === 'single') {
      ui.q.querySelectorAll('input[type=radio]').forEach((r) => (r.checked = r.value === a));
    } else if (ui.mode === 'number') ui.number.value = a;
    else {
      const set = a.split(',');
      ui.lines.forEach((l) => l.setAttribute('aria-selected', String(set.includes(l.dataset.line))));
    }
  }
  function clearFeedback(ui) {
    const { q, code } = ui;
    ui.feedback.textContent = '';
    q.querySelectorAll('.dl-note').forEach((n) => n.remove());
    q.querySelectorAll('.dl-hit, .dl-extra, .dl-lit, .dl-right, .dl-wrong, .dl-look').forEach((n) =>
      n.classList.remove('dl-hit', 'dl-extra', 'dl-lit', 'dl-right', 'dl-wrong', 'dl-look', 'dl-look-first', 'dl-look-last'),
    );
    q.querySelectorAll('input').forEach((i) => (i.disabled = false));
    ui.lines.forEach((l) => l.removeAttribute('aria-describedby'));
    if (code) code.removeAttribute('aria-readonly');
    delete q.dataset.state;
  }
  // The dump lines of this question (the shown snippet, not candidates).
  function shownPre(ui) {
    return ui.code || ui.q.querySelector('.dumplab-dump pre');
  }
  function shownLine(ui, n) {
    const pre = shownPre(ui);
    return pre ? pre.querySelector(`.dl-line[data-line="${CSS.escape(String(n))}"]`) : null;
  }
  // Brings a line to the middle of its scrolling dump, and into the page's
  // view with as little scrolling as it takes; then `keep` (the focused
  // control) back into view if that moved it out: focus stays visible.
  function bring(l, keep) {
    if (!l || !l.scrollIntoView) return;
    const box = l.closest('pre');
    if (box && box.scrollHeight > box.clientHeight) {
      const d = l.getBoundingClientRect().top - box.getBoundingClientRect().top;
      box.scrollTop += d - box.clientHeight / 2;
    }
    l.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (keep && keep !== document.body && keep.scrollIntoView) keep.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  // The verdict and the notes on the picks (options or lines marked).
  function showVerdict(ui, v) {
    const { q, mode, code, feedback } = ui;
    const head = el('p', 'dumplab-verdict dl-' + v.outcome);
    const strong = el('strong');
    rich(strong, v.message);
    head.append(strong);
    feedback.append(head);
    const list = el('ul', 'dumplab-notes');
    for (const n of v.notes) {
      if (mode === 'single') {
        const opt = q.querySelector(`.dumplab-option[data-option="${CSS.escape(n.target)}"]`);
        if (opt) opt.classList.add(n.mark === 'hit' ? 'dl-right' : 'dl-wrong');
      } else if (mode === 'lines') {
        const l = code.querySelector(`.dl-line[data-line="${CSS.escape(n.target)}"]`);
        if (l) l.classList.add(n.mark === 'hit' ? 'dl-hit' : 'dl-extra');
      }
      if (n.text) {
        const li = el('li', 'dl-' + n.mark);
        li.append(el('strong', '', mode === 'lines' ? `Line ${n.target}: ` : n.mark === 'hit' ? 'Your pick: ' : 'Why not: '));
        rich(li, n.text);
        list.append(li);
      }
    }
    if (list.childNodes.length) feedback.append(list);
  }

  // After a wrong or partly right answer: outline where to look again,
  // without marking any line as the answer. A hint over the whole excerpt
  // ("Look for ...": no lines to point at) outlines nothing.
  function showHint(ui, v, interactive) {
    if (!v.hint || (v.outcome !== 'wrong' && v.outcome !== 'partial')) return;
    let region = [];
    for (let n = v.hint.first; n <= v.hint.last; n++) {
      const l = shownLine(ui, n);
      if (l) region.push(l);
    }
    const pre = shownPre(ui);
    const all = pre ? pre.querySelectorAll('.dl-line[data-line]').length : 0;
    if (region.length && region.length === all) region = [];
    region.forEach((l) => l.classList.add('dl-look'));
    if (region.length) {
      region[0].classList.add('dl-look-first');
      region[region.length - 1].classList.add('dl-look-last');
    }
    const p = el('p', 'dumplab-look');
    p.append(el('strong', '', 'Hint: '));
    rich(p, v.hint.text);
    ui.feedback.append(p);
    if (interactive && region.length) bring(region[0], document.activeElement);
  }

  // The notes on the dump's lines, the answer marked, the explanation.
  function showAnswer(ui, v) {
    const { q, mode, code } = ui;
    const target = code || q.querySelector('pre');
    for (const { line, note } of v.lines) {
      const l = target && target.querySelector(`.dl-line[data-line="${CSS.escape(line)}"]`);
      if (!l) continue;
      l.classList.add('dl-lit');
      const n = el('span', 'dl-note');
      rich(n, note);
      l.after(n);
      if (code) {
        // The note describes its option.
        n.id = `${q.id}-n${line}`;
        n.setAttribute('aria-hidden', 'true');
        l.setAttribute('aria-describedby', n.id);
      }
    }
    if (v.answer && mode === 'single') {
      for (const idv of v.answer.ids) {
        const opt = q.querySelector(`.dumplab-option[data-option="${CSS.escape(idv)}"]`);
        if (opt) opt.classList.add('dl-right');
      }
    }
    if (v.answer && mode === 'number' && v.outcome === 'revealed') ui.number.value = v.answer.ids[0];
    if (v.answer && mode === 'lines' && v.outcome === 'revealed') restoreAnswer(ui, v.answer.ids.join(','));
    if (v.explain) {
      const p = el('p', 'dumplab-explain');
      rich(p, v.explain);
      ui.feedback.append(p);
    }
  }

  // The buttons, focus and what is saved, once the verdict is shown.
  function settle(ui, v, a, interactive, hadFocus) {
    const { q, code, check, show, retry } = ui;
    const done = v.outcome === 'correct' || v.outcome === 'revealed';
    // "Show answer": bring the first marked line into view.
    if (interactive && v.outcome === 'revealed' && v.lines.length) bring(shownLine(ui, v.lines[0].line), document.activeElement);
    if (done) q.querySelectorAll('input').forEach((i) => (i.disabled = true));
    if (code && done) code.setAttribute('aria-readonly', 'true');
    // Not done yet: Check (try again) and "Show answer"; Retry only once
    // it is done (right or shown). Hiding the focused button would drop
    // focus to <body>: keep it on the question, on Retry (what comes next).
    retry.hidden = !done;
    check.hidden = done;
    show.hidden = done;
    if (hadFocus && done && !retry.hidden) {
      retry.focus({ preventScroll: true });
      retry.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    // A checked answer replaces what was saved; a reveal never takes
    // away a right answer kept through a Retry.
    const kept = load(q);
    if (v.outcome !== 'invalid' && !(v.outcome === 'revealed' && kept && kept.o === 'correct')) save(q, v.outcome, a);
    // A saved answer that no longer grades (tampered storage, a changed
    // question) is dropped rather than trusted.
    else if (v.outcome === 'invalid' && !interactive && kept) save(q, null);
    updateProgress();
  }

  function render(ui, v, a, interactive) {
    const hadFocus = interactive && ui.q.contains(document.activeElement);
    clearFeedback(ui);
    ui.q.dataset.state = v.outcome;
    showVerdict(ui, v);
    showHint(ui, v, interactive);
    showAnswer(ui, v);
    settle(ui, v, a, interactive, hadFocus);
  }

  function setup(q) {
    const ui = partsOf(q);
    const { check, show, retry, number } = ui;
    if (ui.code) setupLines(ui);
    if (number) {
      number.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          check.click();
        }
      });
    }
    function run(op, a, interactive) {
      return checker().then(
        (ex) => {
          const fields = [op, ui.id, q.dataset.dumplabHash, q.dataset.dumplabKey];
          if (op === 'grade') fields.push(a);
          render(ui, call(ex, fields), a, interactive);
        },
        () => {
          ui.feedback.textContent = 'The checker could not load, so answers cannot be graded here.';
        },
      );
    }
    check.addEventListener('click', () => run('grade', answerOf(ui), true));
    show.addEventListener('click', () => run('reveal', '', true));
    // Back to a fresh question. A right answer stays saved until a new one
    // is checked, so it keeps counting; anything else is forgotten (a
    // retried question is "not tried", after a reload too), and `forget`
    // (Reset) forgets a right answer as well.
    function again(forget) {
      const kept = load(q);
      clearFeedback(ui);
      restoreAnswer(ui, '');
      retry.hidden = true;
      check.hidden = show.hidden = false;
      if (forget || (kept && kept.o !== 'correct')) save(q, null);
      else if (kept && kept.o === 'correct') {
        const note = el('p', 'dumplab-kept', 'Your earlier right answer still counts until you check a new one.');
        ui.feedback.append(note);
      }
      updateProgress();
    }
    const firstInput = () => q.querySelector('input:not(:disabled), .dl-line[tabindex="0"]') || check;
    retry.addEventListener('click', () => {
      again(false);
      firstInput().focus();
    });
    controls.set(q, { again, firstInput });

    const saved = load(q);
    if (!saved) return Promise.resolve();
    restoreAnswer(ui, saved.a);
    return saved.o === 'revealed' ? run('reveal', '') : run('grade', saved.a);
  }

  // The end of the chapter: how many are right, links to those answered
  // wrong or shown and to the first not tried, and one button that retries
  // only those missed (right answers stay as they are).
  let summary = null;
  function updateSummary() {
    if (!summary) return;
    const open = questions.filter((q) => !solved(q.dataset.dumplabHash));
    const missed = open.filter((q) => q.dataset.state);
    const untried = open.filter((q) => !q.dataset.state);
    const right = questions.length - open.length;
    const status = summary.querySelector('.dumplab-summary-status');
    const list = summary.querySelector('.dumplab-summary-missed');
    const rest = summary.querySelector('.dumplab-summary-untried');
    const button = summary.querySelector('.dumplab-summary-retry');
    status.textContent = open.length
      ? `${right} of ${questions.length} answered right.`
      : `All ${questions.length} answered right.`;
    list.textContent = '';
    for (const q of missed) {
      const li = el('li');
      li.append(link(q), ` (${WHY[q.dataset.state] || 'not right yet'})`);
      list.append(li);
    }
    list.hidden = !missed.length;
    rest.textContent = '';
    if (untried.length) {
      const first = link(untried[0]);
      // A prompt ends in its own `?` or `.`: add none after it.
      rest.append(`Not answered yet: ${untried.length}. The first: `, first, /[.?!:]$/.test(first.textContent) ? '' : '.');
    }
    rest.hidden = !untried.length;
    button.hidden = !missed.length;
    button.textContent = missed.length === 1 ? 'Retry the one you missed' : `Retry the ${missed.length} you missed`;
  }
  // A link to question `q`, named by its type and prompt.
  function link(q) {
    const a = el('a');
    a.href = '#' + q.id;
    const type = q.querySelector('.dumplab-q-type');
    const prompt = q.querySelector('.dumplab-q-prompt');
    a.textContent = `${type ? type.textContent + ': ' : ''}${prompt ? prompt.textContent : q.id}`;
    return a;
  }
  const WHY = { wrong: 'answered wrong', partial: 'partly right', revealed: 'answer shown', invalid: 'not an answer' };
  function buildSummary() {
    summary = el('section', 'dumplab-summary');
    summary.setAttribute('aria-labelledby', 'dumplab-summary-title');
    const title = el('h2', 'dumplab-summary-title', 'Your exercises in this chapter');
    title.id = 'dumplab-summary-title';
    const button = el('button', 'dumplab-summary-retry');
    button.type = 'button';
    button.addEventListener('click', () => {
      const missed = questions.filter((q) => !solved(q.dataset.dumplabHash) && q.dataset.state);
      missed.forEach((q) => controls.get(q).again(false));
      if (missed.length) {
        missed[0].scrollIntoView({ block: 'start' });
        controls.get(missed[0]).firstInput().focus({ preventScroll: true });
      }
    });
    summary.append(title, el('p', 'dumplab-summary-status'), el('ul', 'dumplab-summary-missed'), el('p', 'dumplab-summary-untried'), button);
    const main = document.querySelector('main') || questions[questions.length - 1].parentNode;
    main.append(summary);
  }

  // "Reset progress" asks first, in a modal <dialog>: focus starts on
  // Cancel, Escape cancels, focus returns to the button either way.
  function confirmReset(opener) {
    const dialog = el('dialog', 'dumplab-confirm');
    dialog.setAttribute('aria-labelledby', 'dumplab-confirm-title');
    dialog.setAttribute('aria-describedby', 'dumplab-confirm-text');
    const title = el('h2', '', 'Reset this chapter\u2019s exercises?');
    title.id = 'dumplab-confirm-title';
    const text = el('p', '', `Your answers to the ${questions.length} exercises on this page will be forgotten. Other chapters keep theirs.`);
    text.id = 'dumplab-confirm-text';
    const yes = el('button', 'dumplab-confirm-yes', 'Reset');
    const no = el('button', 'dumplab-confirm-no', 'Cancel');
    yes.type = no.type = 'button';
    const row = el('div', 'dumplab-confirm-actions');
    row.append(yes, no);
    dialog.append(title, text, row);
    document.body.append(dialog);
    const close = () => dialog.close();
    no.addEventListener('click', close);
    // Escape cancels (here: mdBook's page-wide key handlers stop the
    // browser's own Escape from reaching a dialog).
    dialog.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      close();
    });
    yes.addEventListener('click', () => {
      questions.forEach((q) => controls.get(q).again(true));
      close();
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener.focus();
    });
    dialog.showModal();
    no.focus();
  }

  if (!questions.length) {
    updateSidebar();
    window.addEventListener('storage', updateSidebar);
    root.dataset.dumplabReady = 'true';
    return;
  }
  progress = el('div', 'dumplab-progress');
  progress.append(document.createTextNode(''));
  const reset = el('button', 'dumplab-reset', 'Reset progress');
  reset.type = 'button';
  reset.setAttribute('aria-haspopup', 'dialog');
  reset.addEventListener('click', () => confirmReset(reset));
  progress.append(reset);
  questions[0].before(progress);
  // "Skip to the first exercise", after the page's "Skip to the lesson"
  // (theme/index.hbs): past the chrome and the lesson's glossary terms.
  const skips = document.getElementById('dumplab-skip');
  if (skips) {
    const to = el('a', '', 'Skip to the first exercise');
    to.href = '#' + questions[0].id;
    skips.append(to);
  }
  buildSummary();
  updateProgress();
  window.addEventListener('storage', updateProgress);
  Promise.all(questions.map(setup))
    .then(() => checker())
    .then(() => {
      // Benchmarks and tests wait for these: every question is answerable now.
      questions.forEach((q) => (q.dataset.ready = 'true'));
      root.dataset.dumplabReadyMs = String(Math.round(performance.now()));
      root.dataset.dumplabReady = 'true';
    })
    .catch(() => {
      root.dataset.dumplabReady = 'failed';
    });
})();
