// catalog_page.test.js — serves the built web page, opens it in Debian's chromium and checks
// that the default view (the catalog) really rendered with the whole built-in catalog.
//
// Usage: node catalog_page.test.js <web output dir> <screenshot.png>
// Prints one PASS/FAIL line and exits 0/1. Only loopback is used.
'use strict';

const h = require('./harness');

// The built-in catalog's row counts (assets/catalog/*.json): the reference sheets' 67 and 17, and
// the project's own sheets' 23 and 6 (assets/catalog/additions/).
const EXPECTED_INSTANCES = 67 + 23;
const EXPECTED_ACCELERATORS = 17 + 7;

h.runTest('browser.catalog_page', async () => {
  const [webDir, screenshotPath] = process.argv.slice(2);
  if (!webDir || !screenshotPath) throw new Error('usage: node catalog_page.test.js <web dir> <screenshot.png>');
  h.requireBuilt(webDir);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser);
    await page.goto(`${server.origin}/`);
    const state = await h.waitReady(page);
    if (state.error) throw new Error(`the app reports an error: ${state.error}`);
    if (state.view !== 'catalog') throw new Error(`the default view is ${state.view}, expected catalog`);
    if (state.instances !== EXPECTED_INSTANCES || state.accelerators !== EXPECTED_ACCELERATORS)
      throw new Error(`expected ${EXPECTED_INSTANCES} instances and ${EXPECTED_ACCELERATORS} accelerators, ` +
        `page reports ${state.instances} and ${state.accelerators}`);
    if (await page.locator('#status').isVisible()) throw new Error('loading indicator still shown after ready');
    const png = await page.locator('#canvas').screenshot();
    h.saveScreenshot(png, screenshotPath);
    const stats = h.checkNotBlank(png, 'catalog', screenshotPath);
    if (page.errors.length > 0) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
    return `${state.instances} instances, ${state.accelerators} accelerators, ${stats.distinct} colours, ` +
      `${stats.changesPerRow.toFixed(0)} colour changes per pixel row; screenshot ${screenshotPath}`;
  } finally {
    await browser.close();
    server.close();
  }
});
