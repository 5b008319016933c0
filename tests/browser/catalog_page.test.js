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

// A range filter made as a person makes one: "add a range on..." with the mouse, the on-demand
// price, "5" typed into its "to" field and Enter. Every row left must then cost at most $5/h
// (read from the page's text version of the table, mirror.js), the rows must be fewer, and
// the link must carry the range as typed.
async function rangeWithMouseAndKeys(page) {
  const canvas = await page.locator('#canvas').boundingBox();
  const clickWidget = async (label) => {
    const w = (await page.evaluate(() => window.gpuplan.getState())).widgets.find((x) => x.label === label);
    if (!w) throw new Error(`no "${label}" on the catalog view`);
    await page.mouse.click(canvas.x + w.x + w.w / 2, canvas.y + w.y + w.h / 2);
    await h.settle(page, 4, `after clicking ${label}`);
  };
  const before = (await page.evaluate(() => window.gpuplan.getState())).catalog_table.rows.length;
  await clickWidget('Add a range');
  await clickWidget('Range on: on-demand $/h');
  await clickWidget('Range to: on-demand $/h');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await h.settle(page, 4, 'after typing the range');
  await page.waitForFunction(() => document.querySelector('#mirror caption'), null, { timeout: 20000 });
  await page.waitForFunction((n) => window.gpuplan.getState().catalog_table.rows.length < n &&
    document.querySelectorAll('#mirror table:last-of-type tbody tr').length === window.gpuplan.getState().catalog_table.rows.length, before, { timeout: 20000 });
  const table = await page.evaluate(() => {
    const t = [...document.querySelectorAll('#mirror table')].pop();
    return { headers: [...t.tHead.rows[0].cells].map((c) => c.textContent), rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)) };
  });
  const column = table.headers.findIndex((x) => x.startsWith('on-demand $/h'));
  if (column < 0) throw new Error(`no on-demand column in the table: ${table.headers.join(', ')}`);
  const over = table.rows.filter((r) => !(parseFloat(r[column].replace(/,/g, '')) <= 5));
  if (over.length) throw new Error(`a range of up to $5/h left ${over.length} rows above it or unknown, e.g. ${over[0][0]} at ${over[0][column]}`);
  await page.evaluate(() => window.gpuplan.linkSettled());
  const link = await page.evaluate(() => decodeURIComponent(location.hash));
  if (!link.includes('range=on-demand::5')) throw new Error(`the link does not carry the range: ${link}`);
  return `a range typed with the mouse and keys left ${table.rows.length} of ${before} rows, all at most $5/h, and is in the link`;
}

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
    const ranged = await rangeWithMouseAndKeys(page);
    if (page.errors.length > 0) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
    return `${state.instances} instances, ${state.accelerators} accelerators, ${stats.distinct} colours, ` +
      `${stats.changesPerRow.toFixed(0)} colour changes per pixel row; screenshot ${screenshotPath}; ${ranged}`;
  } finally {
    await browser.close();
    server.close();
  }
});
