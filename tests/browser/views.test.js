// views.test.js — every view opens from its own URL (?view=NAME) with a drawn, non-blank
// canvas and no console errors; a screenshot of each is saved.
//
// Usage: node views.test.js <web output dir> <screenshot dir>
'use strict';

const path = require('path');
const h = require('./harness');

h.runTest('browser.views', async () => {
  const [webDir, screenshotDir] = process.argv.slice(2);
  if (!webDir || !screenshotDir) throw new Error('usage: node views.test.js <web dir> <screenshot dir>');
  h.requireBuilt(webDir);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    // The list of views comes from the app itself (core/ui kAllViews), so a new view is tested.
    const first = await h.newPage(browser);
    await first.goto(`${server.origin}/`);
    const views = (await h.waitReady(first)).views;
    await first.close();
    if (views.length < 8) throw new Error(`expected the 8 views of interface 3, the app lists ${views.join(', ')}`);

    const lines = [];
    for (const view of views) {
      const page = await h.newPage(browser);
      await page.goto(`${server.origin}/?view=${view}`);
      const state = await h.waitReady(page);
      if (state.view !== view) throw new Error(`?view=${view} opened the ${state.view} view`);
      if (state.url_errors.length) throw new Error(`?view=${view} reported URL errors: ${state.url_errors.join('; ')}`);
      if (await page.locator('#status').isVisible()) throw new Error(`${view}: loading indicator still shown after ready`);
      // WebGL cannot be read back from page JS without preserveDrawingBuffer, so analyse the
      // screenshot of the canvas instead.
      const file = path.join(screenshotDir, `view-${view}.png`);
      const png = await page.locator('#canvas').screenshot();
      h.saveScreenshot(png, file);
      const stats = h.checkNotBlank(png, `view ${view}`, file);
      if (page.errors.length) throw new Error(`${view}: errors on the page: ${page.errors.join('; ')}`);
      lines.push(`${view} (${stats.distinct} colours, ${stats.changesPerRow.toFixed(0)} changes/row)`);
      await page.close();
    }
    return `${views.length} views drawn from their URLs: ${lines.join(', ')}; screenshots in ${screenshotDir}`;
  } finally {
    await browser.close();
    server.close();
  }
});
