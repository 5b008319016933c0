// accessibility.test.js — what a screen reader, Find in page and text selection get from the
// planner: the text mirror of the canvas (web/shell/mirror.js), and an axe-core audit.
//
// Why: the accessibility tree held the toolbar and one canvas, so no figure could be read
// aloud, found with Ctrl+F or selected (issue 30). Here, with the p1 example on the Costs
// view: every figure the canvas drew is in the mirror, under its section's title, with the
// text drawn and, where the result explains it, its formula; switching to the Catalog view
// puts its instance table in the mirror in the order on screen; "Text version" shows the
// mirror under the canvas, where a figure can be selected and stays selected while the canvas
// redraws without change; and axe-core finds no serious or
// critical violation on the page, with the mirror hidden or shown.
//
// Usage: node accessibility.test.js <web output dir> <scenario.json>
'use strict';

const fs = require('fs');
const h = require('./harness');
const { audit } = require('./axe');

// Waits until the mirror has been rebuilt since `since` (its event count) and returns what it shows.
async function mirrorAfter(page, since) {
  await page.waitForFunction((n) => window.mirrorBuilds > n, since, { timeout: 20000 });
  return page.evaluate(() => ({
    builds: window.mirrorBuilds,
    title: document.querySelector('#mirror h2')?.textContent,
    sections: [...document.querySelectorAll('#mirror h3')].map((e) => e.textContent),
    rows: [...document.querySelectorAll('#mirror tbody tr')].map((r) => [...r.cells].map((c) => c.textContent)),
    captions: [...document.querySelectorAll('#mirror caption')].map((e) => e.textContent),
  }));
}

h.runTest('browser.accessibility', async () => {
  const [webDir, scenarioFile] = process.argv.slice(2);
  if (!webDir || !scenarioFile) throw new Error('usage: node accessibility.test.js <web dir> <scenario.json>');
  h.requireBuilt(webDir, ['index.html', 'shell.js', 'mirror.js', 'gpuplan.js', 'gpuplan.wasm']);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser, { width: 1440, height: 900 });
    await page.addInitScript(() => {
      window.mirrorBuilds = 0;
      document.addEventListener('gpuplan-mirror', () => { window.mirrorBuilds += 1; }, true);
    });
    await page.goto(`${server.origin}/#view=costs`);
    await h.waitReady(page);
    const refused = await page.evaluate((s) => window.gpuplan.setScenario(s), fs.readFileSync(scenarioFile, 'utf8'));
    if (refused) throw new Error(`setScenario refused ${scenarioFile}: ${refused}`);
    let since = await page.evaluate(() => window.mirrorBuilds);
    await h.settle(page, 4, 'the example drawn');
    let mirror = await mirrorAfter(page, since);
    const drawn = (await page.evaluate(() => window.gpuplan.getState())).figures;
    if (drawn.length < 5) throw new Error(`the Costs view drew ${drawn.length} figures; expected the example's costs`);
    if (!/^Costs/.test(mirror.title)) throw new Error(`the mirror is titled "${mirror.title}", not the Costs view`);
    const missing = drawn.filter((f) => !mirror.rows.some(([label, text]) => label === f.label && text === f.text));
    if (missing.length) throw new Error(`${missing.length} of ${drawn.length} drawn figures not in the mirror, e.g. "${missing[0].label}" = ${missing[0].text}`);
    const sections = [...new Set(drawn.map((f) => f.section).filter(Boolean))];
    const noTitle = sections.filter((s) => !mirror.sections.includes(s));
    if (noTitle.length) throw new Error(`sections missing from the mirror: ${noTitle.join(', ')}`);
    const explained = mirror.rows.filter((r) => /formula: /.test(r[2])).length;
    if (explained < drawn.length / 2) throw new Error(`only ${explained} of ${mirror.rows.length} rows in the mirror say how they are worked out`);

    let violations = await audit(page);
    if (violations.length) throw new Error(`axe-core, Costs view: ${violations.join('; ')}`);

    // The Catalog view: its table, in the order on screen.
    since = mirror.builds;
    await page.evaluate(() => window.gpuplan.setView('catalog'));
    await h.settle(page, 4, 'the catalog drawn');
    mirror = await mirrorAfter(page, since);
    const shown = (await page.evaluate(() => window.gpuplan.getState())).catalog_table.rows;
    const mirrored = mirror.rows.filter((r) => r.length > 3).map((r) => r[0]);
    if (!/^Catalog/.test(mirror.title)) throw new Error(`after switching to the Catalog, the mirror is titled "${mirror.title}"`);
    if (JSON.stringify(mirrored) !== JSON.stringify(shown))
      throw new Error(`the mirror's instance table (${mirrored.length} rows, first ${mirrored.slice(0, 3)}) differs from the table on screen (${shown.length}, first ${shown.slice(0, 3)})`);

    // Shown under the canvas: visible, and a figure's text can be selected there.
    await page.click('#show-text');
    const box = await page.locator('#mirror').boundingBox();
    if (!box || box.height < 100) throw new Error(`"Text version" did not show the mirror (${JSON.stringify(box)})`);
    const firstInstance = page.locator('#mirror tbody th').first();
    await firstInstance.click({ clickCount: 3 });  // a triple click selects the cell's text
    const selected = await page.evaluate(() => String(window.getSelection()).trim());
    if (selected !== shown[0]) throw new Error(`triple-clicking "${shown[0]}" in the text version selected "${selected}"`);
    // The canvas redraws on any input over it (a mouse passing by); frames that change
    // nothing must leave the mirror, and the reader's selection in it, as they are.
    const buildsBefore = await page.evaluate(() => window.mirrorBuilds);
    const canvas = await page.locator('#canvas').boundingBox();
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + 40);
    await h.settle(page, 4, 'frames after the mouse moved over the canvas');
    await page.waitForTimeout(1000);  // the mirror checks every 250 ms once drawing stops
    const kept = await page.evaluate(() => String(window.getSelection()).trim());
    const buildsAfter = await page.evaluate(() => window.mirrorBuilds);
    if (kept !== shown[0]) throw new Error(`frames that changed nothing dropped the selection in the text version ("${shown[0]}" -> "${kept}"; mirror rebuilt ${buildsAfter - buildsBefore} times)`);
    violations = await audit(page);
    if (violations.length) throw new Error(`axe-core, text version shown: ${violations.join('; ')}`);
    if (page.errors.length) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
    return `${drawn.length} Costs figures in the mirror (${explained} with their formula) under ${sections.length} section titles; ` +
      `the Catalog's ${shown.length} rows in order; text version shown and selectable; axe-core: no serious or critical violation`;
  } finally {
    await browser.close();
    server.close();
  }
});
