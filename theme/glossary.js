// Glossary tooltips (see preprocessor/src/glossary/ and theme/glossary.css).
//
// The preprocessor marks terms as <span class="dumplab-term" data-term="id">
// and appends <script type="application/json" class="dumplab-glossary"> with
// each term's definition. This script:
//   - shows one floating tooltip, appended to <body> (never inside the prose,
//     so copying a paragraph or reader mode gives the sentence alone),
//     on mouse hover and on keyboard focus; a tap toggles it on touch
//     screens; Escape closes it; Enter or Space on a term moves focus to the
//     tooltip's "taught in" link (a term taught on this page has none: its
//     tooltip says "Taught on this page");
//   - gives each term aria-describedby pointing at one hidden definition
//     element per term, so screen readers hear the definition once (the
//     visible tooltip's text is aria-hidden);
//   - turns off the CSS-only fallback (html.dumplab-js);
//   - makes the terms of one section (between two headings) one tab stop:
//     Tab reaches the first term (or the one focused last), the arrow keys,
//     Home and End move among the section's terms, so a keyboard passes a
//     section's terms with one Tab on its way to the exercises
//     (ARCHITECTURE.md, "Glossary terms and the keyboard").
(function () {
  'use strict';

  const terms = document.querySelectorAll('.dumplab-term[data-term]');
  if (terms.length === 0) return;
  document.documentElement.classList.add('dumplab-js');

  // The terms of each section, in order, by term element (a heading starts
  // a new section); each group is one tab stop (a roving tabindex).
  const groups = new Map();
  let section = [];
  for (const node of document.querySelectorAll('h1, h2, h3, h4, h5, h6, .dumplab-term[data-term]')) {
    if (!node.classList.contains('dumplab-term')) {
      section = [];
      continue;
    }
    section.push(node);
    groups.set(node, section);
    node.tabIndex = section.length === 1 ? 0 : -1;
  }
  const roving = (term) => {
    for (const t of groups.get(term) || []) t.tabIndex = t === term ? 0 : -1;
  };
  const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };
  for (const term of groups.keys()) {
    term.addEventListener('focus', () => roving(term));
    // On the term itself, before mdBook's document-level arrow keys (which
    // turn the page): a handled key goes no further.
    term.addEventListener('keydown', (e) => {
      const step = MOVES[e.key];
      if (step === undefined || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const group = groups.get(term);
      const i = group.indexOf(term);
      const to = Math.max(0, Math.min(group.length - 1, i + step));
      e.preventDefault();
      e.stopPropagation();
      if (to !== i) group[to].focus();
    });
  }

  const data = Object.create(null);
  for (const block of document.querySelectorAll('script.dumplab-glossary')) {
    try {
      Object.assign(data, JSON.parse(block.textContent));
    } catch (e) {
      /* a broken block only costs its tooltips */
    }
  }
  const root = typeof path_to_root === 'string' ? path_to_root : '';
  // Whether `entry`'s chapter is this page: its tooltip then says "Taught on
  // this page" and links nowhere (a link to where the reader already is).
  const page = (u) => u.pathname.replace(/\/index\.html$/, '/');
  const here = (entry) => page(new URL(root + entry.href, location.href)) === page(location);

  // One hidden description per term, outside the prose.
  const defs = document.createElement('div');
  defs.className = 'dumplab-defs';
  defs.id = 'dumplab-defs';
  defs.hidden = true;
  document.body.appendChild(defs);
  const described = new Set();
  function describe(term) {
    const id = term.dataset.term;
    const entry = data[id];
    if (!entry) return;
    const descId = 'dumplab-def-' + id;
    if (!described.has(id)) {
      const scratch = document.createElement('div');
      scratch.innerHTML = entry.definition; // sanitized at build time
      const span = document.createElement('span');
      span.id = descId;
      span.textContent = scratch.textContent + (here(entry) ? ' Taught on this page.' : ' Taught in: ' + entry.chapter + '.');
      defs.appendChild(span);
      described.add(id);
    }
    term.setAttribute('aria-describedby', descId);
  }
  terms.forEach(describe);

  const tip = document.createElement('div');
  tip.className = 'dumplab-tooltip';
  tip.id = 'dumplab-tooltip';
  tip.hidden = true;
  document.body.appendChild(tip);

  let current = null; // the term whose tooltip is open
  let openedBy = null; // 'hover' | 'focus' | 'tap'
  let hideTimer = 0;
  let lastPointer = 'mouse';
  let quietFocus = false; // focus moved back by us: do not reopen

  function fill(term) {
    const entry = data[term.dataset.term];
    tip.textContent = '';
    const def = document.createElement('span');
    def.className = 'dumplab-tooltip-def';
    def.setAttribute('aria-hidden', 'true');
    const head = document.createElement('span');
    head.className = 'dumplab-tooltip-term';
    head.textContent = entry ? entry.term : term.textContent;
    def.appendChild(head);
    def.appendChild(document.createTextNode(': '));
    const body = document.createElement('span');
    if (entry) body.innerHTML = entry.definition; // sanitized at build time
    else body.textContent = term.dataset.def || '';
    // This part is aria-hidden (the description already says it): keep its
    // links out of the keyboard order too.
    for (const a of body.querySelectorAll('a')) a.tabIndex = -1;
    def.appendChild(body);
    tip.appendChild(def);
    const taught = document.createElement('span');
    taught.className = 'dumplab-tooltip-taught';
    if (entry && here(entry)) taught.textContent = 'Taught on this page.';
    else {
      taught.appendChild(document.createTextNode('Taught in '));
      const link = document.createElement('a');
      link.href = entry ? root + entry.href : '#';
      link.textContent = entry ? entry.chapter : term.dataset.taught || '';
      taught.appendChild(link);
      taught.appendChild(document.createTextNode('.'));
    }
    tip.appendChild(taught);
    const group = groups.get(term);
    if (group && group.length > 1) {
      const keys = document.createElement('span');
      keys.className = 'dumplab-tooltip-keys';
      keys.setAttribute('aria-hidden', 'true');
      keys.textContent = `\u2190 \u2192 the other ${group.length - 1} term${group.length > 2 ? 's' : ''} of this section`;
      tip.appendChild(keys);
    }
  }

  function place() {
    if (!current) return;
    const rects = current.getClientRects();
    const r = rects.length ? rects[0] : current.getBoundingClientRect();
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    const left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8));
    let top = r.bottom + 6;
    if (top + h > window.innerHeight - 8 && r.top - h - 6 >= 8) top = r.top - h - 6;
    tip.style.left = left + 'px';
    tip.style.top = top + 'px';
  }

  function show(term, how) {
    clearTimeout(hideTimer);
    if (current !== term) {
      if (current) current.classList.remove('dumplab-open');
      current = term;
      fill(term);
    }
    openedBy = how;
    term.classList.add('dumplab-open');
    tip.hidden = false;
    place();
  }

  function hide() {
    clearTimeout(hideTimer);
    if (current) current.classList.remove('dumplab-open');
    current = null;
    openedBy = null;
    tip.hidden = true;
  }

  function hideSoon() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 250);
  }

  const termOf = (node) => (node && node.closest ? node.closest('.dumplab-term[data-term]') : null);

  document.addEventListener('pointerdown', (e) => {
    lastPointer = e.pointerType || 'mouse';
  }, true);

  document.addEventListener('pointerover', (e) => {
    if (e.pointerType !== 'mouse') return;
    const term = termOf(e.target);
    if (term) show(term, openedBy === 'focus' && current === term ? 'focus' : 'hover');
    else if (tip.contains(e.target)) clearTimeout(hideTimer);
  });

  document.addEventListener('pointerout', (e) => {
    if (e.pointerType !== 'mouse' || openedBy !== 'hover') return;
    const to = e.relatedTarget;
    if (to && (tip.contains(to) || (current && current.contains(to)))) return;
    if (termOf(e.target) || tip.contains(e.target)) hideSoon();
  });

  document.addEventListener('focusin', (e) => {
    const term = termOf(e.target);
    if (term) {
      if (quietFocus) {
        quietFocus = false;
        return;
      }
      if (lastPointer === 'touch' || lastPointer === 'pen') return; // the tap handler decides
      show(term, 'focus');
    } else if (tip.contains(e.target)) {
      clearTimeout(hideTimer);
    } else if (current && openedBy !== 'hover') {
      hide();
    }
  });

  document.addEventListener('focusout', (e) => {
    const to = e.relatedTarget;
    if (!current || openedBy === 'hover' || openedBy === 'tap') return;
    if (to && (tip.contains(to) || to === current)) return;
    if (termOf(e.target) === current || tip.contains(e.target)) hide();
  });

  document.addEventListener('click', (e) => {
    const term = termOf(e.target);
    if (term && (lastPointer === 'touch' || lastPointer === 'pen')) {
      if (current === term && !tip.hidden) hide();
      else show(term, 'tap');
      return;
    }
    if (!term && current && !tip.contains(e.target)) hide();
  });

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && current) {
      const term = current;
      const inside = tip.contains(document.activeElement);
      hide();
      if (inside) {
        quietFocus = true;
        term.focus();
      }
      e.stopPropagation();
      return;
    }
    const term = termOf(e.target);
    if (term && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      show(term, 'focus');
      const link = tip.querySelector('.dumplab-tooltip-taught a');
      if (link) link.focus();
    }
  });

  window.addEventListener('scroll', place, { passive: true, capture: true });
  window.addEventListener('resize', place, { passive: true });
})();
