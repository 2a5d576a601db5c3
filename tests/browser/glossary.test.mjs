// Glossary tooltips in a real browser: hover, focus, Escape, touch, search,
// copy, screen-reader description, JavaScript off, themes and print.
//
// Run after building the book (`cargo xtask test` does both):
//   node --test tests/browser/
// DUMPLAB_BOOK=/some/dir points at another build. Screenshots land in
// target/screenshots/glossary-*.png: look at them after changing the CSS.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openPage, screenshot, bookDir, THEMES, useBook } from './support.mjs';

const LESSON = 'two-dumps.html';
const book = useBook();

/** The first marked term `id` in the lesson's prose. */
function termLocator(page, id) {
  return page.locator(`main .dumplab-term[data-term="${id}"]`).first();
}

/** The page's glossary data, as the preprocessor wrote it. */
async function glossaryData(page) {
  return page.evaluate(() => {
    const data = {};
    for (const s of document.querySelectorAll('script.dumplab-glossary')) Object.assign(data, JSON.parse(s.textContent));
    return data;
  });
}

async function tooltipState(page) {
  return page.evaluate(() => {
    const tip = document.getElementById('dumplab-tooltip');
    if (!tip) return { exists: false };
    const link = tip.querySelector('.dumplab-tooltip-taught a');
    return {
      exists: true,
      visible: !tip.hidden && tip.getBoundingClientRect().height > 0,
      text: tip.textContent,
      href: link ? link.href : null,
      linkText: link ? link.textContent : null,
      insideMain: Boolean(tip.closest('main')),
    };
  });
}

test('the lesson marks the core terms, never inside code, links or headings', async () => {
  const { context, page, errors } = await openPage(book.browser, book.server.url, LESSON);
  const ids = await page.$$eval('main .dumplab-term', (els) => [...new Set(els.map((e) => e.dataset.term))]);
  for (const id of ['xla', 'fusion', 'jaxpr', 'stablehlo']) assert.ok(ids.includes(id), `no tooltip for ${id} in ${ids}`);
  const misplaced = await page.$$eval('main .dumplab-term', (els) =>
    els.filter((e) => e.closest('code, pre, a, h1, h2, h3, h4, h5, h6')).map((e) => e.outerHTML),
  );
  assert.deepEqual(misplaced, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('hover shows the definition and a working "taught in" link; Escape closes it', async () => {
  const { context, page, errors } = await openPage(book.browser, book.server.url, LESSON);
  const data = await glossaryData(page);
  const term = termLocator(page, 'xla');
  await term.hover();
  const state = await tooltipState(page);
  assert.ok(state.visible, 'tooltip visible on hover');
  assert.equal(state.insideMain, false, 'tooltip lives outside the prose');
  const definition = await term.getAttribute('data-def');
  assert.ok(state.text.includes(definition), `${state.text} should include ${definition}`);
  assert.equal(state.linkText, data.xla.chapter);
  assert.equal(state.href, new URL(data.xla.href, new URL(LESSON, book.server.url)).href);
  const res = await fetch(state.href);
  assert.equal(res.status, 200, `taught-in link ${state.href} resolves`);
  await page.keyboard.press('Escape');
  assert.equal((await tooltipState(page)).visible, false, 'Escape closes');
  // The pointer can travel from the term into the tooltip and follow its link.
  await page.mouse.move(0, 0);
  await term.hover();
  await page.locator('#dumplab-tooltip .dumplab-tooltip-taught a').click();
  await page.waitForURL(state.href);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a term taught on the page it is on says so and links nowhere', async () => {
  const { context, page, errors } = await openPage(book.browser, book.server.url, 'fusion.html');
  const data = await glossaryData(page);
  const here = Object.keys(data).filter((id) => data[id].href.split('#')[0] === 'fusion.html');
  const elsewhere = Object.keys(data).filter((id) => !here.includes(id));
  assert.ok(here.length >= 1 && elsewhere.length >= 1, `terms taught here (${here}) and elsewhere`);
  for (const id of [here[0], elsewhere[0]]) {
    await termLocator(page, id).focus();
    const state = await tooltipState(page);
    const described = await termLocator(page, id).evaluate((t) => document.getElementById(t.getAttribute('aria-describedby')).textContent);
    if (id === here[0]) {
      assert.equal(state.href, null, `${id}: no link to the page it is on`);
      assert.match(state.text, /Taught on this page\./, id);
      assert.doesNotMatch(state.text, /Taught in/, id);
      assert.match(described, /Taught on this page\.$/, `${id}: the description says so too`);
      // Enter keeps focus on the term: there is no link to move to.
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.term), id);
      await screenshot(page, 'glossary-taught-here', { fullPage: false });
    } else {
      assert.ok(state.href && !state.href.includes('fusion.html'), `${id}: links to the chapter that teaches it: ${state.href}`);
      assert.match(described, /Taught in: /, id);
    }
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the glossary chapter lists every term with working links', async () => {
  const { context, page } = await openPage(book.browser, book.server.url, 'glossary.html');
  const entries = await page.$$eval('main dl.dumplab-glossary dt', (dts) => dts.map((dt) => dt.id));
  assert.ok(entries.length >= 15, `${entries.length} entries`);
  const hrefs = await page.$$eval('main dl.dumplab-glossary a', (as) => [...new Set(as.map((a) => a.href))]);
  for (const href of hrefs) {
    if (!href.startsWith(book.server.url)) continue;
    assert.equal((await fetch(href)).status, 200, href);
  }
  const xla = await page.locator('#term-xla + dd').textContent();
  assert.match(xla, /Used in .*Two dumps, two truths/);
  await screenshot(page, 'glossary-chapter', { fullPage: false });
  await context.close();
});

test('keyboard focus shows it, Enter reaches the link, Escape returns; description heard once', async () => {
  const { context, page } = await openPage(book.browser, book.server.url, LESSON);
  // Tab until the first term has focus, as a keyboard user would.
  let focused = null;
  for (let i = 0; i < 300 && !focused; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el.classList.contains('dumplab-term') ? el.dataset.term : null;
    });
  }
  assert.ok(focused, 'a term is reachable with Tab');
  let state = await tooltipState(page);
  assert.ok(state.visible, 'tooltip visible on focus');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'focus is visible');

  // Screen readers: one description per term, outside the prose; the
  // visible tooltip's definition is hidden from them; no generated content.
  const a11y = await page.evaluate(() => {
    const el = document.activeElement;
    const ids = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    const targets = ids.map((id) => document.querySelectorAll(`[id="${id}"]`).length);
    const desc = ids.map((id) => document.getElementById(id)).filter(Boolean);
    return {
      targets,
      text: desc.map((d) => d.textContent).join(' '),
      inMain: desc.some((d) => d.closest('main')),
      tooltipDefHidden: document.querySelector('#dumplab-tooltip .dumplab-tooltip-def')?.getAttribute('aria-hidden'),
      after: getComputedStyle(el, '::after').content,
    };
  });
  assert.deepEqual(a11y.targets, [1]);
  assert.equal(a11y.inMain, false);
  assert.equal(a11y.tooltipDefHidden, 'true');
  assert.equal(a11y.after, 'none');
  const def = await page.evaluate(() => document.activeElement.dataset.def);
  assert.ok(a11y.text.includes(def));
  // Chromium's accessibility tree: the definition is the term's description
  // and appears nowhere else.
  const cdp = await context.newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const probe = def.slice(0, 40);
  const described = nodes.filter((n) => (n.description?.value ?? '').includes(probe));
  const spoken = nodes.filter((n) => !n.ignored && (n.name?.value ?? '').includes(probe));
  // Once per occurrence of the term (a lesson marks it once per section).
  const occurrences = await page.locator(`main .dumplab-term[data-term="${focused}"]`).count();
  assert.equal(described.length, occurrences, 'described once per occurrence');
  assert.deepEqual(spoken.map((n) => n.role?.value), [], 'not read as text anywhere');

  await page.keyboard.press('Enter');
  const inLink = await page.evaluate(() => document.activeElement?.closest('#dumplab-tooltip') !== null);
  assert.ok(inLink, 'Enter moves focus into the tooltip link');
  await page.keyboard.press('Escape');
  state = await tooltipState(page);
  assert.equal(state.visible, false, 'Escape closes');
  const back = await page.evaluate(() => document.activeElement?.dataset.term ?? null);
  assert.equal(back, focused, 'focus returns to the term');
  await context.close();
});

test('a tap toggles the tooltip on a touch screen', async () => {
  const context = await book.browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(new URL(LESSON, book.server.url).href, { waitUntil: 'load' });
  const term = termLocator(page, 'xla');
  await term.scrollIntoViewIfNeeded();
  await term.tap();
  assert.ok((await tooltipState(page)).visible, 'first tap opens');
  await term.tap();
  assert.equal((await tooltipState(page)).visible, false, 'second tap closes');
  await term.tap();
  assert.ok((await tooltipState(page)).visible, 'third tap opens again');
  await page.locator('main h1').first().tap();
  assert.equal((await tooltipState(page)).visible, false, 'tapping elsewhere closes');
  await context.close();
});

test('copying a paragraph gives the sentence alone, even with a tooltip open', async () => {
  const { context, page } = await openPage(book.browser, book.server.url, LESSON);
  const term = termLocator(page, 'xla');
  await term.hover();
  const result = await page.evaluate(() => {
    const term = document.querySelector('main .dumplab-term[data-term="xla"]');
    const p = term.closest('p, li, td') ?? term.parentElement;
    const sel = window.getSelection();
    sel.removeAllRanges();
    const range = document.createRange();
    range.selectNodeContents(p);
    sel.addRange(range);
    const copied = sel.toString();
    const main = document.querySelector('main');
    range.selectNodeContents(main);
    sel.removeAllRanges();
    sel.addRange(range);
    const wholePage = sel.toString();
    return { copied, text: p.textContent, wholePage, defs: [...document.querySelectorAll('main .dumplab-term')].map((t) => t.dataset.def) };
  });
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  assert.equal(norm(result.copied), norm(result.text));
  for (const def of new Set(result.defs)) {
    assert.ok(!result.copied.includes(def), `copied paragraph leaks: ${def}`);
    assert.ok(!result.wholePage.includes(def), `copied page leaks: ${def}`);
  }
  await context.close();
});

test('searching for words only found in definitions does not return the lesson', async () => {
  const { context, page } = await openPage(book.browser, book.server.url, LESSON);
  const { lessonWords, defs } = await page.evaluate(() => ({
    lessonWords: [...new Set((document.querySelector('main').innerText.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))],
    defs: [...new Set([...document.querySelectorAll('main .dumplab-term')].map((t) => t.dataset.def))],
  }));
  // A word from a definition that no word of the lesson shares a prefix
  // with (mdBook's search expands prefixes).
  const unused = (w) => !lessonWords.some((l) => l.startsWith(w.slice(0, Math.max(5, w.length - 4))));
  const probes = [];
  for (const def of defs) {
    const word = (def.toLowerCase().match(/\p{L}{6,}/gu) ?? []).find(unused);
    if (word) probes.push(word);
  }
  assert.ok(probes.length > 0, 'some definition has a word the lesson does not use');
  for (const word of probes.slice(0, 3)) {
    await page.goto(new URL(`${LESSON}?search=${encodeURIComponent(word)}`, book.server.url).href, { waitUntil: 'load' });
    await page.waitForFunction(() => {
      const h = document.getElementById('mdbook-searchresults-header');
      return h && h.textContent.trim() !== '';
    });
    const hits = await page.$$eval('#mdbook-searchresults a', (as) => as.map((a) => a.getAttribute('href')));
    assert.ok(!hits.some((h) => h.startsWith(LESSON)), `search for "${word}" returns the lesson: ${hits}`);
    assert.ok(hits.some((h) => h.startsWith('glossary.html')), `search for "${word}" finds the glossary: ${hits}`);
  }
  // And in the index file itself, the lesson's documents carry no definition.
  const indexFile = fs.readdirSync(bookDir).find((f) => /^searchindex.*\.js$/.test(f));
  const index = fs.readFileSync(path.join(bookDir, indexFile), 'utf8');
  const json = JSON.parse(index.slice(index.indexOf("JSON.parse('") + 12, index.lastIndexOf("')")).replace(/\\'/g, "'").replace(/\\\\/g, '\\'));
  const docs = Object.entries(json.index.documentStore.docs).filter(([id]) => json.doc_urls[id].startsWith(LESSON));
  assert.ok(docs.length > 0);
  for (const [, doc] of docs) for (const def of defs) assert.ok(!doc.body.includes(def.slice(0, 30)), `index leaks ${def}`);
  await context.close();
});

test('with JavaScript off, hover and focus still show the definition', async () => {
  const { context, page } = await openPage(book.browser, book.server.url, LESSON, { javaScriptEnabled: false });
  const term = termLocator(page, 'xla');
  const after = () => term.evaluate((el) => getComputedStyle(el, '::after').content);
  assert.equal(await after(), 'none', 'nothing shows at rest');
  const def = await term.getAttribute('data-def');
  await term.hover();
  assert.ok((await after()).includes(def.slice(0, 30)), 'hover shows it');
  await page.mouse.move(0, 0);
  assert.equal(await after(), 'none');
  await term.focus();
  assert.ok((await after()).includes(def.slice(0, 30)), 'focus shows it');
  await screenshot(page, 'glossary-nojs-light');
  await context.close();
});

test('screenshots: a tooltip open in every theme, and print', async () => {
  for (const theme of THEMES) {
    const { context, page, errors } = await openPage(book.browser, book.server.url, LESSON, { theme });
    const term = termLocator(page, 'fusion');
    await term.scrollIntoViewIfNeeded();
    await term.hover();
    assert.ok((await tooltipState(page)).visible);
    const colors = await page.evaluate(() => {
      const tip = document.getElementById('dumplab-tooltip');
      const cs = getComputedStyle(tip);
      return { fg: cs.color, bg: cs.backgroundColor };
    });
    assert.notEqual(colors.fg, colors.bg, `${theme}: readable colours`);
    const file = await screenshot(page, `glossary-${theme}`);
    assert.ok(fs.statSync(file).size > 0);
    assert.deepEqual(errors, []);
    await context.close();
  }
  const { context, page } = await openPage(book.browser, book.server.url, LESSON);
  await page.emulateMedia({ media: 'print' });
  const term = termLocator(page, 'fusion');
  await term.hover();
  const printed = await page.evaluate(() => ({
    tip: getComputedStyle(document.getElementById('dumplab-tooltip')).display,
    deco: getComputedStyle(document.querySelector('main .dumplab-term')).textDecorationLine,
  }));
  assert.equal(printed.tip, 'none', 'nothing floats in print');
  assert.equal(printed.deco, 'none');
  await screenshot(page, 'glossary-print', { fullPage: false });
  await context.close();
});

test('the terms of a section are one tab stop; arrow keys reach the rest, tooltips included', async () => {
  const { context, page, errors } = await openPage(book.browser, book.server.url, LESSON);
  await page.waitForSelector('html[data-dumplab-ready="true"]', { timeout: 15000 });
  // Sections by heading, and the terms before the first exercise.
  const layout = await page.evaluate(() => {
    const first = document.querySelector('.dumplab-q');
    const before = (n) => n.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING;
    const terms = [...document.querySelectorAll('main .dumplab-term')];
    let section = 0;
    const sectionOf = new Map();
    for (const n of document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6, main .dumplab-term')) {
      if (n.classList.contains('dumplab-term')) sectionOf.set(n, section);
      else section++;
    }
    const early = terms.filter(before);
    return { early: early.length, sections: new Set(early.map((t) => sectionOf.get(t))).size, stops: terms.filter((t) => t.tabIndex === 0).length, all: terms.length };
  });
  assert.ok(layout.early > layout.sections, `more terms (${layout.early}) than sections (${layout.sections}) before the first exercise`);
  // Tab from the top to the first exercise, as a keyboard user would.
  let termStops = 0;
  let reached = false;
  for (let i = 0; i < 400 && !reached; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return { term: el.classList.contains('dumplab-term'), q: !!el.closest('.dumplab-q') };
    });
    if (at.term) termStops++;
    reached = at.q;
  }
  assert.ok(reached, 'Tab reaches the first exercise');
  assert.equal(termStops, layout.sections, `one tab stop per section with terms (${layout.early} terms before the exercise)`);

  // Inside a section of several terms: the arrows walk them, each with its tooltip.
  const group = await page.evaluate(() => {
    let section = [];
    const all = [];
    for (const n of document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6, main .dumplab-term')) {
      if (n.classList.contains('dumplab-term')) section.push(n.dataset.term);
      else if (section.length) {
        all.push(section);
        section = [];
      }
    }
    if (section.length) all.push(section);
    return all.find((g) => g.length >= 3);
  });
  assert.ok(group, 'a section with three terms or more');
  const first = page.locator(`main .dumplab-term[data-term="${group[0]}"]`).first();
  await first.focus();
  const url = page.url();
  for (const [i, term] of group.entries()) {
    if (i) await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.term), term, `ArrowRight reaches ${term}`);
    const state = await tooltipState(page);
    assert.ok(state.visible, `the tooltip of ${term} opens`);
  }
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.term), group.at(-1), 'the last term stays');
  assert.equal(page.url(), url, 'arrow keys on a term never turn the page');
  assert.match(await page.locator('.dumplab-tooltip-keys').textContent(), /other \d+ terms? of this section/);
  await screenshot(page, 'glossary-roving-tooltip', { fullPage: false });
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.term), group[0], 'Home goes to the first');
  await page.keyboard.press('End');
  // Tab leaves the section and Shift+Tab comes back to the term focused last.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.term), group.at(-1), 'the term focused last is the tab stop');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});
