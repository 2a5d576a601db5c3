// Live source maps ({{#dumplab-map}}, rendered at build time by
// preprocessor/src/livemap.rs), on every page: focusing or hovering a line
// lights its kernels, and the other way. `window.dumplabLight(tr, on)` is the
// one lighting rule, shared with the playground's source map
// (src/dumplab-playground.js): a row lit by hover and by focus at once stays
// lit until both end.
(() => {
  'use strict';
  const litCount = new WeakMap();
  function light(tr, on) {
    const n = Math.max(0, (litCount.get(tr) || 0) + (on ? 1 : -1));
    litCount.set(tr, n);
    tr.classList.toggle('dlp-lit', n > 0);
  }
  window.dumplabLight = light;

  for (const fig of document.querySelectorAll('[data-dumplab-livemap]')) {
    const lines = Array.from(fig.querySelectorAll('tr[data-line]'));
    const kernels = Array.from(fig.querySelectorAll('tr[data-kernel]'));
    const ids = (s) => (s || '').split(' ').filter(Boolean).map(Number);
    const wire = (tr, others, list) => {
      const set = (on) => {
        light(tr, on);
        for (const i of ids(tr.dataset[list])) if (others[i]) light(others[i], on);
      };
      tr.addEventListener('mouseenter', () => set(true));
      tr.addEventListener('mouseleave', () => set(false));
      tr.addEventListener('focus', () => set(true));
      tr.addEventListener('blur', () => set(false));
    };
    for (const tr of lines) wire(tr, kernels, 'kernels');
    for (const tr of kernels) wire(tr, lines, 'lines');
  }
})();
