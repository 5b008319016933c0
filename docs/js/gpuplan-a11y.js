// gpuplan-a11y.js — what the docs theme (mkdocs-material 8.2) leaves out for keyboard and
// screen-reader users, as an axe-core audit finds it (docs.live_pages, issue 30):
// - the search box is a dialog with no name [WCAG 4.1.2];
// - a region that scrolls (the search results, a wide table, a long code block) must be
//   reachable with the keyboard to be scrolled with it [2.1.1]: such regions get tabindex 0.
(() => {
  'use strict';
  const overflows = (e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight;
  function fix() {
    const search = document.querySelector('.md-search');
    if (search && !search.hasAttribute('aria-label')) search.setAttribute('aria-label', 'Search the documentation');
    for (const e of document.querySelectorAll('.md-search__scrollwrap')) e.setAttribute('tabindex', '0');
    for (const e of document.querySelectorAll('.md-typeset pre > code, .md-typeset__scrollwrap'))
      if (!e.hasAttribute('tabindex') && overflows(e)) e.setAttribute('tabindex', '0');
  }
  // The theme wraps wide tables in their scrolling frame from its own script, and whether a
  // region overflows depends on the width: look again after changes to the page and resizes.
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fix(); });
  };
  function start() {
    fix();
    new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', soon);
    window.addEventListener('load', soon);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
