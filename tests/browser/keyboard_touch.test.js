// keyboard_touch.test.js — the planner with a keyboard alone, and on a phone with a finger.
//
// Why: Tab never left the canvas (SDL took it and Dear ImGui started editing a field), there
// was no keyboard navigation inside the canvas, and on a phone every tab change took two taps
// (SDL's touch path turned the first into a press the unfocused canvas ignored) while a swipe
// dragged whatever it started on instead of scrolling.
//
// Keyboard (1440x900): Tab from the toolbar's last link lands on the canvas; the arrow keys put
// the focus frame on a widget (getState().keyboard_focus names it) and walk to the Training tab;
// Space opens it; Tab then leaves the canvas without starting an edit, and Shift+Tab comes back.
// Touch (390x844, touch emulated, no mouse): a long press on a figure copies it (with the
// example p1 on the Costs view); one tap on a tab opens it; a swipe up over the
// catalog moves its widgets up, clicks nothing and changes neither the view nor the scenario.
//
// Usage: node keyboard_touch.test.js <web output dir> <scenario.json>
'use strict';

const h = require('./harness');

const state = (page) => page.evaluate(() => window.gpuplan.getState());
const focusId = (page) => page.evaluate(() => (document.activeElement && document.activeElement.id) || document.activeElement.tagName);

async function press(page, key) {
  await page.keyboard.press(key);
  await h.settle(page, 3, `after ${key}`);
  return state(page);
}

async function keyboardOnly(browser, origin) {
  const page = await h.newPage(browser, { width: 1440, height: 900 });
  await page.goto(`${origin}/#view=costs`);
  await h.waitReady(page);
  await page.focus('#docs-link');
  await page.keyboard.press('Tab');
  if (await focusId(page) !== 'canvas') throw new Error(`Tab from the Docs link focused ${await focusId(page)}, not the planner`);
  let s = await press(page, 'ArrowDown');
  if (!s.keyboard_focus) throw new Error('ArrowDown on the focused planner put the focus frame on nothing');
  const visited = [s.keyboard_focus];
  for (let k = 0; k < 20 && s.keyboard_focus !== 'Tab: Training'; ++k) {
    s = await press(page, s.keyboard_focus.startsWith('Tab: ') ? 'ArrowRight' : 'ArrowUp');
    visited.push(s.keyboard_focus);
  }
  if (s.keyboard_focus !== 'Tab: Training') throw new Error(`the arrow keys never reached the Training tab: ${visited.join(' → ')}`);
  s = await press(page, 'Space');
  if (s.view !== 'training') throw new Error(`Space on "Tab: Training" left the view at ${s.view}`);
  await page.keyboard.press('Tab');
  await h.settle(page, 3, 'after Tab');
  if (await focusId(page) === 'canvas') throw new Error('Tab did not leave the planner (WCAG 2.1.2: no keyboard trap)');
  if (await page.evaluate(() => Module._gpuplan_page_editing_text())) throw new Error('Tab out of the planner started editing a field in it');
  await page.keyboard.press('Shift+Tab');
  if (await focusId(page) !== 'canvas') throw new Error(`Shift+Tab came back to ${await focusId(page)}, not the planner`);
  if (page.errors.length) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
  return `keyboard: ${visited.length} arrow presses to the Training tab (${visited.join(' → ')}), Space opened it, Tab left and Shift+Tab returned`;
}

// A finger drawn from (x, y) by dy in `steps` moves, through the Chrome DevTools Protocol, as a
// phone's touch screen reports it.
async function swipe(page, cdp, x, y, dy, steps = 12) {
  const at = (k) => [{ x, y: y + (dy * k) / steps, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let k = 1; k <= steps; ++k) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

// A finger held still on (x, y) for `ms`, then lifted.
async function longPress(page, cdp, x, y, ms) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
  await page.waitForTimeout(ms);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function touchOnly(browser, origin, scenarioText) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, hasTouch: true, isMobile: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(`page error: ${error.message}`));
  await page.goto(`${origin}/#view=costs`);
  let s = await h.waitReady(page);
  const refused = await page.evaluate((text) => window.gpuplan.setScenario(text), scenarioText);
  if (refused) throw new Error(`setScenario refused the example: ${refused}`);
  await h.settle(page, 4, 'first frames');
  s = await state(page);
  const canvas = await page.locator('#canvas').boundingBox();
  const cdp = await context.newCDPSession(page);

  // A long press on a figure copies it, as a right-click does.
  const figure = s.figures.find((f) => f.value !== null && f.y > 0 && f.y + f.h < canvas.height && f.x + f.text_w < canvas.width);
  if (!figure) throw new Error('no figure on screen to press');
  await page.evaluate(() => navigator.clipboard.writeText('nothing copied'));
  await longPress(page, cdp, canvas.x + figure.x + Math.min(figure.text_w, 20) / 2, canvas.y + figure.y + figure.h / 2, 700);
  await h.settle(page, 4, 'after a long press');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  if (!copied.startsWith(figure.text.replace(/\*$/, '')) || !/formula: /.test(copied))
    throw new Error(`a long press on "${figure.label}" (${figure.text}) copied "${copied.slice(0, 80)}"`);
  s = await state(page);
  const tab = s.widgets.find((w) => w.label === 'Tab: Catalog' && w.x + w.w <= canvas.width);
  if (!tab) throw new Error(`no Catalog tab inside the ${canvas.width} px canvas: ${s.widgets.filter((w) => w.label.startsWith('Tab: ')).map((w) => `${w.label} at ${w.x}`).join(', ')}`);
  await page.touchscreen.tap(canvas.x + tab.x + tab.w / 2, canvas.y + tab.y + tab.h / 2);
  await h.settle(page, 4, 'after one tap');
  s = await state(page);
  if (s.view !== 'catalog') throw new Error(`one tap on "Tab: Catalog" left the view at ${s.view}`);

  const before = s;
  const swipeDy = -300;
  await swipe(page, cdp, canvas.x + canvas.width / 2, canvas.y + canvas.height * 0.7, swipeDy);
  await h.settle(page, 4, 'after the swipe');
  const after = await state(page);
  if (after.view !== before.view) throw new Error(`the swipe changed the view to ${after.view}`);
  if (JSON.stringify(after.scenario) !== JSON.stringify(before.scenario)) throw new Error('the swipe changed the scenario (it clicked something)');
  // How far the widgets below the tabs moved: the same label before and after.
  const moved = before.widgets.filter((w) => !w.label.startsWith('Tab: ')).map((w) => {
    const now = after.widgets.find((v) => v.label === w.label);
    return now ? w.y - now.y : null;
  }).filter((d) => d !== null);
  const most = Math.max(0, ...moved);
  if (most < 0.5 * -swipeDy || most > 1.5 * -swipeDy)
    throw new Error(`a ${-swipeDy} px swipe up moved the catalog's widgets up by at most ${most} px (expected about ${-swipeDy})`);
  if (page.errors.length) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
  await context.close();
  return `touch: a long press copied "${figure.label}", one tap opened the Catalog, a ${-swipeDy} px swipe scrolled it ${most} px`;
}

h.runTest('browser.keyboard_touch', async () => {
  const [webDir, scenarioFile] = process.argv.slice(2);
  if (!webDir || !scenarioFile) throw new Error('usage: node keyboard_touch.test.js <web dir> <scenario.json>');
  h.requireBuilt(webDir, ['index.html', 'shell.js', 'touch.js', 'mirror.js', 'gpuplan.js', 'gpuplan.wasm']);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    return `${await keyboardOnly(browser, server.origin)}; ${await touchOnly(browser, server.origin, require('fs').readFileSync(scenarioFile, 'utf8'))}`;
  } finally {
    await browser.close();
    server.close();
  }
});
