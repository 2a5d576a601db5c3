// DumpLab playground: invisible characters, one implementation for every
// section ("Read your own dump", "What changed", "The dump folder", and the
// ledger, explainer and collectives drawn inside the report). Loaded by the
// {{#dumplab-playground}} block first (preprocessor/src/playground.rs).
//
// Zero-width and bidi control characters (a U+200B inside `ENTRY`, a U+202E
// that makes a name read backwards) are invisible as text. Every one a
// section shows is replaced by a visible, styled ⟨U+202E⟩ span (in text
// nodes: `reveal`, and `watch` for whatever a section draws later), and
// spelled ⟨U+202E⟩ in the attributes a reader sees or hears (a tooltip, an
// accessible name; `spelled` for the others); the worker counts them in a
// dump's bytes (`WORKER`'s `invisibles`), the page in names (`tally`), and
// each section says once what it found (`note`).
(() => {
  'use strict';

  /** The characters, one row per range of code points: the soft hyphen
   *  and the combining grapheme joiner (nothing drawn mid-line), zero-width
   *  spaces and joiners, the bidi marks, embeddings, overrides and isolates
   *  (Unicode's Bidi_Control, U+061C included), the word joiner and the
   *  invisible operators, the BOM. */
  const RANGES = [
    [0x00ad, 0x00ad],
    [0x034f, 0x034f],
    [0x061c, 0x061c],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x2064],
    [0x2066, 0x2069],
    [0xfeff, 0xfeff],
  ];
  const hex = (cp) => cp.toString(16).toUpperCase().padStart(4, '0');
  const INVISIBLE = new RegExp(`[${RANGES.map(([a, b]) => (a === b ? `\\u${hex(a)}` : `\\u${hex(a)}-\\u${hex(b)}`)).join('')}]`);
  const INVISIBLES = new RegExp(INVISIBLE.source, 'g');
  const codeOf = (c) => `U+${hex(c.codePointAt(0))}`;

  /** `text` with each invisible character written as ⟨U+XXXX⟩ (for
   *  attributes and placeholders, which hold no markup). */
  const spelled = (text) => String(text).replace(INVISIBLES, (c) => `⟨${codeOf(c)}⟩`);

  /** Attributes a reader sees or hears (a tooltip, an accessible name)
   *  that a section may fill from a dump, a path or a file name. */
  const SHOWN = ['title', 'aria-label', 'aria-description', 'placeholder', 'alt'];
  const SHOWN_SELECTOR = SHOWN.map((a) => `[${a}]`).join(',');

  /** Spells the invisible characters of `e`'s shown attributes. */
  function spellAttributes(e) {
    for (const a of SHOWN) {
      const v = e.getAttribute(a);
      if (v !== null && INVISIBLE.test(v)) e.setAttribute(a, spelled(v));
    }
  }

  /** Replaces the invisible characters of the text nodes under `node` (or
   *  of `node`, a text node) by marker spans, and spells them in the
   *  shown attributes of the elements there. */
  function reveal(node) {
    const hits = [];
    if (node.nodeType === Node.TEXT_NODE) {
      if (INVISIBLE.test(node.data)) hits.push(node);
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      spellAttributes(node);
      for (const e of node.querySelectorAll(SHOWN_SELECTOR)) spellAttributes(e);
      const w = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) if (INVISIBLE.test(n.data)) hits.push(n);
    }
    for (const n of hits) {
      const frag = document.createDocumentFragment();
      let at = 0;
      for (const m of n.data.matchAll(INVISIBLES)) {
        if (m.index > at) frag.append(n.data.slice(at, m.index));
        const mark = document.createElement('span');
        mark.className = 'dlp-invisible';
        mark.textContent = `⟨${codeOf(m[0])}⟩`;
        mark.title = `An invisible character in the text: ${codeOf(m[0])}`;
        frag.append(mark);
        at = m.index + m[0].length;
      }
      if (at < n.data.length) frag.append(n.data.slice(at));
      n.replaceWith(frag);
    }
  }

  /** Reveals what `root` holds now and whatever is drawn into it later
   *  (a table's "show all", a chip's new figures, a text set later). */
  function watch(root) {
    reveal(root);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') {
          if (r.target.isConnected) reveal(r.target);
        } else if (r.type === 'attributes') spellAttributes(r.target);
        else for (const n of r.addedNodes) if (n.isConnected) reveal(n);
      }
    }).observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: SHOWN });
    return root;
  }

  /** The invisible characters of strings (file names, paths): { total, by:
   *  { 'U+202E': 2, ... } }, as the worker's `invisibles` counts bytes. */
  function tally(...texts) {
    const found = { total: 0, by: {} };
    for (const t of texts) {
      for (const m of String(t || '').matchAll(INVISIBLES)) {
        const k = codeOf(m[0]);
        found.by[k] = (found.by[k] || 0) + 1;
        found.total++;
      }
    }
    return found;
  }

  /** Counts added up: `sum(a, b, ...)`. */
  function sum(...all) {
    const found = { total: 0, by: {} };
    for (const f of all) {
      if (!f) continue;
      found.total += f.total;
      for (const [k, n] of Object.entries(f.by)) found.by[k] = (found.by[k] || 0) + n;
    }
    return found;
  }

  const kinds = (f) => Object.entries(f.by).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, n]) => `${k} ×${n}`).join(', ');
  const chars = (n) => `${n} invisible character${n === 1 ? '' : 's'}`;

  /** A section's one sentence on what it found, or null when nothing:
   *  `subject` says whose, with its verb ("this dump holds", "these dumps
   *  and their file names hold"), `parts` what each held ([label, found],
   *  label null for one part); `role="alert"`, class `dlp-invisible-note`. */
  function note(subject, parts) {
    const found = parts.filter(([, f]) => f && f.total);
    const total = found.reduce((s, [, f]) => s + f.total, 0);
    if (!total) return null;
    const detail = found.map(([label, f]) => (label ? `${label}: ${kinds(f)}` : kinds(f))).join('; ');
    const p = document.createElement('p');
    p.className = 'dlp-reason dlp-invisible-note';
    p.textContent = `Warning: ${subject} ${chars(total)} (zero-width or bidi control: ${detail}). The page shows each as ⟨U+…⟩. Inside a keyword (a U+200B in ENTRY) the checker does not see the keyword, and an instruction whose name holds one is not read (HLO names hold none), so its kernel or operand is missing from the report; in a name or a path, a bidi control can make the text read as something else.`;
    p.setAttribute('role', 'alert');
    return p;
  }

  /** The worker's counter, over a dump's UTF-8 bytes, from the same table:
   *  `invisibles(bytes)` is { total, by }. */
  const WORKER = `
const INVISIBLE_RANGES = ${JSON.stringify(RANGES)};
function invisibles(b) {
  const by = {};
  let total = 0;
  const hit = (cp) => {
    if (!INVISIBLE_RANGES.some(([a, z]) => cp >= a && cp <= z)) return;
    const k = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
    by[k] = (by[k] || 0) + 1;
    total++;
  };
  // Each range's lead byte (two- and three-byte sequences only).
  const leads = new Set(INVISIBLE_RANGES.flatMap(([a, z]) => [a, z].map((cp) => (cp < 0x800 ? 0xc0 | (cp >> 6) : 0xe0 | (cp >> 12)))));
  for (const lead of leads) {
    for (let i = b.indexOf(lead); i >= 0 && i + 1 < b.length; i = b.indexOf(lead, i + 1)) {
      if ((b[i + 1] & 0xc0) !== 0x80) continue;
      if (lead < 0xe0) hit(((lead & 0x1f) << 6) | (b[i + 1] & 0x3f));
      else if (i + 2 < b.length && (b[i + 2] & 0xc0) === 0x80) hit(((lead & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f));
    }
  }
  return { total, by };
}
`;

  window.dumplabInvisible = { RANGES, spelled, reveal, watch, tally, sum, note, WORKER };
})();
