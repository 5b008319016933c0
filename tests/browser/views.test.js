// views.test.js — every view opens from its own URL (?view=NAME&scenario=...) with a drawn,
// non-blank canvas and no console errors; a screenshot of each is saved.
//
// Each view gets an example scenario that gives it something to show (assets/scenarios), and
// the blank check looks only at the view's area below the tab bar, so a view that drew
// nothing but the app's chrome fails.
//
// Usage: node views.test.js <web output dir> <scenario dir> <screenshot dir>
'use strict';

const fs = require('fs');
const path = require('path');
const h = require('./harness');
const { decodePng, colourStats } = require('./png');

// The example that exercises each view (views not listed open with no scenario).
const SCENARIO_FOR_VIEW = {
  costs: 'p1-blended-fleet.json', topology: 't1-train-llama-3-8b.json', training: 't1-train-llama-3-8b.json',
  inference: 'r1-serve-llama-70b.json', decode: 'd1-decode-g7e.json', recommend: 'r2-train-recommend-llama-3-8b.json',
  usage: 'u1-usage-commit-and-serve.json',
};
// The app's chrome (scenario bar + tab bar) is the top ~70 CSS px and the status line the
// bottom ~30; the view is what lies between. Text-dense views change colour 10+ times per
// pixel row there; a view with one line of hint text about 1.
const CHROME_TOP_PX = 80, CHROME_BOTTOM_PX = 40, MIN_VIEW_CHANGES_PER_ROW = 4;

function viewAreaStats(png) {
  const image = decodePng(png);
  const rowBytes = image.width * image.channels;
  const top = CHROME_TOP_PX, bottom = image.height - CHROME_BOTTOM_PX;
  return colourStats({ ...image, height: bottom - top, pixels: image.pixels.subarray(top * rowBytes, bottom * rowBytes) });
}

h.runTest('browser.views', async () => {
  const [webDir, scenarioDir, screenshotDir] = process.argv.slice(2);
  if (!webDir || !scenarioDir || !screenshotDir) throw new Error('usage: node views.test.js <web dir> <scenario dir> <screenshot dir>');
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
      const example = SCENARIO_FOR_VIEW[view];
      const scenario = example ? JSON.stringify(JSON.parse(fs.readFileSync(path.join(scenarioDir, example), 'utf8'))) : '';
      // Encoded here independently of the app: minified JSON, base64url without padding.
      const query = `view=${view}` + (scenario ? `&scenario=${Buffer.from(scenario).toString('base64url')}` : '');
      await page.goto(`${server.origin}/?${query}`);
      const state = await h.waitReady(page);
      if (state.view !== view) throw new Error(`?view=${view} opened the ${state.view} view`);
      if (state.url_errors.length) throw new Error(`?view=${view} reported URL errors: ${state.url_errors.join('; ')}`);
      if (state.error) throw new Error(`${view}: the app shows an error: ${state.error}`);
      if (await page.locator('#status').isVisible()) throw new Error(`${view}: loading indicator still shown after ready`);
      // WebGL cannot be read back from page JS without preserveDrawingBuffer, so analyse the
      // screenshot of the canvas instead.
      const file = path.join(screenshotDir, `view-${view}.png`);
      const png = await page.locator('#canvas').screenshot();
      h.saveScreenshot(png, file);
      const stats = h.checkNotBlank(png, `view ${view}`, file);
      const area = viewAreaStats(png);
      if (area.changesPerRow < MIN_VIEW_CHANGES_PER_ROW)
        throw new Error(`${view}: the view area looks empty (${area.changesPerRow.toFixed(1)} colour changes per pixel row ` +
          `below the tab bar${example ? `, scenario ${example}` : ''}; see ${file})`);
      if (page.errors.length) throw new Error(`${view}: errors on the page: ${page.errors.join('; ')}`);
      lines.push(`${view}${example ? ` [${example}]` : ''} (${stats.distinct} colours, view area ${area.changesPerRow.toFixed(1)} changes/row)`);
      await page.close();
    }
    return `${views.length} views drawn from their URLs: ${lines.join(', ')}; screenshots in ${screenshotDir}`;
  } finally {
    await browser.close();
    server.close();
  }
});
