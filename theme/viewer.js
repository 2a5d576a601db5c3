// The dump viewer's behaviour (markup: preprocessor/src/viewer/, look:
// theme/viewer.css), on every page:
// - a "Wrap lines" toggle on every box (one per question, after its
//   buttons), one setting for the whole book, remembered in localStorage
//   (anything unreadable there is ignored);
// - marked lines (answers lit by theme/exercises.js, hints, evidence) are
//   brought into view inside their own box, with their note, whenever they
//   are marked: after a reload that restores progress, and after feedback.
//   Only the box scrolls, never the page; a fold holding the line opens.
// - `window.dumplabViewer.build(...)`: the same markup built from text
//   nodes, for dumps that only exist in the browser (src/dumplab-playground.js).
(() => {
  'use strict';
  const root = document.documentElement;
  const WRAP_KEY = 'dumplab:v1:wrap';
  const MARKED = '.dl-line.dl-look-first, .dl-line.dl-lit, .dl-line.dl-hit';

  function readWrap() {
    try {
      const v = localStorage.getItem(WRAP_KEY);
      return v === '1' ? true : v === '0' ? false : null;
    } catch (e) {
      return null; /* storage off */
    }
  }
  function writeWrap(on) {
    try {
      localStorage.setItem(WRAP_KEY, on ? '1' : '0');
    } catch (e) {
      /* storage off: the setting lasts for this page view */
    }
  }
  function setWrap(on) {
    root.classList.toggle('dl-wrap', on);
    for (const b of document.querySelectorAll('.dl-wrap-toggle')) b.setAttribute('aria-pressed', String(on));
  }

  // mdBook turns the pages on ArrowLeft and ArrowRight (a listener on the
  // document): inside a dump box those keys scroll the box (or move between
  // its lines) and must not leave the page.
  const KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'];
  function keepKeys(pre) {
    pre.addEventListener('keydown', (e) => {
      if (KEYS.includes(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) e.stopPropagation();
    });
  }

  // A box's toggle sits in its caption, above it; a question's dumps share
  // one, in the question's row of buttons: the question (its prompt and what
  // answers it) comes first in the tab order, in the DOM as on screen.
  function addToggle(figure) {
    const question = figure.closest('.dumplab-q');
    const actions = question && question.querySelector('.dumplab-actions');
    let place = actions;
    if (!place) {
      place = figure.querySelector('figcaption');
      if (!place) {
        place = document.createElement('figcaption');
        figure.prepend(place);
      }
    }
    if (place.querySelector('.dl-wrap-toggle')) return;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'dl-wrap-toggle';
    b.textContent = 'Wrap lines';
    b.setAttribute('aria-pressed', String(root.classList.contains('dl-wrap')));
    b.addEventListener('click', () => {
      const on = !root.classList.contains('dl-wrap');
      setWrap(on);
      writeWrap(on);
    });
    place.append(b);
  }

  // Scrolls `line`'s box (not the page) so that the line and the note
  // after it are visible; centred when they fit, from the top when not.
  function reveal(line) {
    const box = line && line.closest('pre.dumplab-code');
    if (!box) return;
    for (let d = line.closest('details'); d && box.contains(d); d = d.parentElement.closest('details')) d.open = true;
    const note = line.nextElementSibling && line.nextElementSibling.classList.contains('dl-note') ? line.nextElementSibling : null;
    const b = box.getBoundingClientRect();
    const l = line.getBoundingClientRect();
    const bottom = note ? note.getBoundingClientRect().bottom : l.bottom;
    const top = l.top - b.top + box.scrollTop - box.clientTop;
    const height = bottom - l.top;
    const inView = l.top >= b.top + box.clientTop && bottom <= b.top + box.clientTop + box.clientHeight;
    if (!inView) box.scrollTop = Math.max(0, height < box.clientHeight ? top - (box.clientHeight - height) / 2 : top - 4);
    if (l.left < b.left) box.scrollLeft = 0;
  }

  // Boxes whose marks changed, revealed once per frame.
  const pending = new Set();
  let frame = 0;
  function schedule(box) {
    pending.add(box);
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        for (const p of pending) reveal(p.querySelector(MARKED));
        pending.clear();
      });
    }
  }
  function watch() {
    const seen = new MutationObserver((records) => {
      for (const r of records) {
        const t = r.target;
        if (r.type === 'attributes' && t.matches && t.matches(MARKED)) schedule(t.closest('pre.dumplab-code'));
        else if (r.type === 'childList' && t.matches && t.matches('pre.dumplab-code') && t.querySelector(MARKED)) schedule(t);
      }
    });
    seen.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The viewer's markup from plain text: `lines` is [{ n, text, mark: [from,
  // to] (characters, optional) or marks: [[from, to], ...], note: Node
  // (optional) }], in order; a gap
  // in the numbers shows as a gap line. Text reaches the page as text nodes.
  function build({ lines, caption, name, lang }) {
    const figure = el('figure', 'dumplab-dump dl-viewer');
    if (lang) figure.dataset.lang = lang;
    figure.append(el('figcaption', '', caption));
    const pre = el('pre', 'dumplab-code');
    if (lang) pre.dataset.lang = lang;
    const digits = String(lines.reduce((m, l) => Math.max(m, l.n), 1)).length;
    pre.style.setProperty('--dl-digits', String(digits));
    pre.tabIndex = 0;
    pre.setAttribute('role', 'region');
    pre.setAttribute('aria-label', name || caption);
    let previous = null;
    for (const l of lines) {
      if (previous !== null && l.n > previous + 1) pre.append(el('span', 'dl-line dl-gap', `${' '.repeat(digits + 1)}⋮\n`));
      previous = l.n;
      const line = el('span', 'dl-line');
      line.dataset.line = String(l.n);
      const ln = el('span', 'dl-ln', String(l.n).padStart(digits));
      ln.setAttribute('aria-hidden', 'true');
      const src = el('span', 'dl-src');
      const chars = Array.from(l.text);
      // Marks in order, overlapping ones merged.
      const marks = [];
      for (const [a, b] of (l.marks || (l.mark ? [l.mark] : [])).slice().sort((x, y) => x[0] - y[0])) {
        const last = marks[marks.length - 1];
        if (last && a <= last[1]) last[1] = Math.max(last[1], b);
        else marks.push([a, b]);
      }
      let at = 0;
      for (const [a, b] of marks) {
        src.append(chars.slice(at, a).join(''), el('mark', '', chars.slice(a, b).join('')));
        at = b;
      }
      src.append(chars.slice(at).join(''));
      line.append(ln, src, '\n');
      pre.append(line);
      if (l.note) {
        line.classList.add('dl-lit');
        const note = el('span', 'dl-note');
        note.append(l.note);
        pre.append(note);
      }
    }
    figure.append(pre);
    addToggle(figure);
    keepKeys(pre);
    return figure;
  }

  window.dumplabViewer = { build, reveal };
  const saved = readWrap();
  if (saved !== null) setWrap(saved);
  for (const f of document.querySelectorAll('figure.dl-viewer')) addToggle(f);
  for (const pre of document.querySelectorAll('pre.dumplab-code')) keepKeys(pre);
  for (const box of document.querySelectorAll('pre.dumplab-code')) if (box.querySelector(MARKED)) schedule(box);
  watch();
})();
