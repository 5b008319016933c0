// settle_after_click.test.js — a change made inside a frame is drawn settled without more input.
//
// Why: "Price p5.48xlarge" (the Costs view with no cost sections) sets the scenario inside the
// frame that sees the click. The purchase-options table it brings is new, and Dear ImGui sizes
// its auto-fit columns over the frames after it; the page draws only when asked, and the app
// loop asked for no frames after such a change, so every column stayed one character wide, the
// prices cut off, until the mouse moved. Here the button is clicked with the real mouse, the
// mouse is then left alone, and once the page stops drawing every figure the view drew must fit
// its cell (getState().figures: text_w, the text's width, within room_w, its cell's).
//
// Usage: node settle_after_click.test.js <web output dir>
'use strict';

const h = require('./harness');

const BUTTON = 'Price p5.48xlarge';
const SLACK_PX = 1;  // rounding between a column's width and its widest text

// Resolves once frames_drawn has not changed for `quietMs` (the page draws only when asked).
async function waitIdle(page, quietMs = 600, timeoutMs = 20000) {
  const started = Date.now();
  let last = await page.evaluate(() => window.gpuplan.getState().frames_drawn);
  let lastChange = Date.now();
  while (Date.now() - lastChange < quietMs) {
    if (Date.now() - started > timeoutMs) throw new Error(`the page still draws frames after ${timeoutMs / 1000} s without input`);
    await page.waitForTimeout(100);
    const now = await page.evaluate(() => window.gpuplan.getState().frames_drawn);
    if (now !== last) { last = now; lastChange = Date.now(); }
  }
  return last;
}

h.runTest('browser.settle_after_click', async () => {
  const [webDir] = process.argv.slice(2);
  if (!webDir) throw new Error('usage: node settle_after_click.test.js <web dir>');
  h.requireBuilt(webDir);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${server.origin}/?view=costs`);
    const ready = await h.waitReady(page);
    const button = ready.widgets.find((w) => w.label === BUTTON);
    if (!button) throw new Error(`no "${BUTTON}" button on the Costs view (drawn: ${ready.widgets.map((w) => w.label).join(', ')})`);
    const before = await waitIdle(page);

    const canvas = await page.locator('#canvas').boundingBox();
    await page.mouse.click(canvas.x + button.x + button.w / 2, canvas.y + button.y + button.h / 2);
    // No more input from here on: no mouse move, no redraw asked through the test hook.
    await page.waitForFunction(() => window.gpuplan.getState().scenario?.price?.instance === 'p5.48xlarge', null,
      { polling: 100, timeout: 20000 });
    const after = await waitIdle(page);

    const state = await page.evaluate(() => window.gpuplan.getState());
    const prices = state.figures.filter((f) => f.label.endsWith(': effective $/h, per instance'));
    if (prices.length < 3) throw new Error(`the purchase-options table drew ${prices.length} effective prices; expected one per option`);
    const cut = state.figures.filter((f) => f.text_w > f.room_w + SLACK_PX);
    if (cut.length) {
      throw new Error(`${cut.length} of ${state.figures.length} figures cut off, ${after - before} frames drawn after the click: ` +
        cut.slice(0, 4).map((f) => `"${f.label}" ${f.text_w} px of text in ${f.room_w} px`).join('; '));
    }
    if (page.errors.length) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
    return `${state.figures.length} figures fit their cells after clicking "${BUTTON}", ${after - before} frames drawn without further input`;
  } finally {
    await browser.close();
    server.close();
  }
});
