// mirror.js — the view as text, beside the planner's canvas (loaded before shell.js, which
// calls gpuplanWireMirror once the planner runs).
//
// A canvas is one picture to a screen reader, to the browser's Find in page and to text
// selection. The mirror holds what the canvas shows as HTML: the view's name, each section's
// title, and a table per section of the figures drawn there (what the view calls each one, the
// value as drawn, with its unit, and how it is worked out: formula, worked line, inputs and
// their sources); on the Catalog view, the instance table as it is on screen. It is built from
// the planner's own account of the last frame (gpuplan_page_mirror, web/page_bridge.cpp), so it
// says only what the canvas says. It is rebuilt once drawing stops (the page draws only after
// input), and only when the account changed, so typing or scrolling costs nothing extra and a
// selection in it survives frames that change nothing.
// Out of sight it is still read by screen readers; the toolbar's "Text version" shows it under
// the canvas, where it can be selected and found.
(() => {
  'use strict';

  const POLL_MS = 250;  // how often the page checks whether the canvas has drawn since

  function cell(tag, text, attributes = {}) {
    const element = document.createElement(tag);
    element.textContent = text;  // text, never markup: labels and sources are data
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    return element;
  }

  function figuresTable(section) {
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const title of ['Figure', 'Value', 'How it is worked out']) head.append(cell('th', title, { scope: 'col' }));
    const body = table.createTBody();
    for (const figure of section.figures) {
      const row = body.insertRow();
      row.append(cell('th', figure.label, { scope: 'row' }), cell('td', figure.text), cell('td', figure.explanation));
    }
    return table;
  }

  // rows[0] is the header row.
  function instanceTable(rows) {
    const table = document.createElement('table');
    table.append(cell('caption', 'Instances, in the order and with the columns the table shows'));
    const head = table.createTHead().insertRow();
    for (const title of rows[0]) head.append(cell('th', title, { scope: 'col' }));
    const body = table.createTBody();
    for (const values of rows.slice(1)) {
      const row = body.insertRow();
      values.forEach((value, i) => row.append(cell(i === 0 ? 'th' : 'td', value, i === 0 ? { scope: 'row' } : {})));
    }
    return table;
  }

  function render(element, view) {
    const parts = [cell('h2', `${view.view} (text version of the planner)`)];
    for (const section of view.sections) {
      if (section.title) parts.push(cell('h3', section.title));
      parts.push(figuresTable(section));
    }
    if (view.table && view.table.length) parts.push(instanceTable(view.table));
    if (parts.length === 1) parts.push(cell('p', 'This view shows no figures yet.'));
    element.replaceChildren(...parts);
  }

  // element: the mirror's container; toggle: the button that shows and hides it; readView():
  // the planner's account of the last frame (JSON text); framesDrawn(): frames drawn so far.
  window.gpuplanWireMirror = function wireMirror(element, toggle, readView, framesDrawn) {
    let seen = -1;   // frames drawn at the last check
    let built = -1;  // frames drawn when the mirror was last checked against the view
    let shownText = '';  // the account the mirror shows now
    setInterval(() => {
      const frames = framesDrawn();
      if (frames !== seen) { seen = frames; return; }  // still drawing: wait until it stops
      if (frames === built) return;
      built = frames;
      // Rebuilt only when what the canvas shows changed: replacing the tables would drop the
      // text a reader has selected in them, and a mouse over the canvas draws frames that
      // change nothing.
      const text = readView();
      if (text === shownText) return;
      shownText = text;
      render(element, JSON.parse(text));
      element.dispatchEvent(new Event('gpuplan-mirror'));
    }, POLL_MS);
    if (!toggle) return;
    toggle.addEventListener('click', () => {
      const shown = element.classList.toggle('shown');
      toggle.setAttribute('aria-pressed', String(shown));
      // Shown, it scrolls on its own: a keyboard must be able to reach it to scroll it.
      if (shown) element.setAttribute('tabindex', '0');
      else element.removeAttribute('tabindex');
    });
  };
})();
