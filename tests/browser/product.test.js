// product.test.js — the planner as a new user meets it, driven with the real mouse and
// keyboard (Playwright's page.mouse / page.keyboard: the browser's own input events reach
// SDL and Dear ImGui). The test hook only says where the app drew its controls
// (getState().widgets) and what the state is afterwards.
//
//   1. A number typed into Costs "hours" and left by a click elsewhere, and "instances" left
//      by Tab, are kept (before: only Enter kept them); text that is not a number stays, with
//      the reason in words.
//   2. Every region chosen with the mouse in the top selector, from a fresh page.
//   3. Compare ticks land: the second box is where it was before the first tick.
//   4. Dark theme and the scenario, and the catalog's search and compare ticks, survive
//      "Copy link" + opening the copied link; the whole
//      page is dark.
//   5. A 300 KB scenario link loads (the state rides in the fragment, compressed).
//   6. Export scenario on a fresh page downloads a valid scenario, not `{}`.
//   7. Export CSV of the catalog equals the table on screen after a search typed into it.
//   8. An embed carries an "Open in planner" link to the same state; the app links the docs.
//   9. Screenshots of every view at 1440x900, 600x400 (embedded) and 390x844.
//
// Usage: node product.test.js <web output dir> <example scenario> <screenshot dir>
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const h = require('./harness');

// One step's frames: harness.settle, naming the step in its error.
const settle = (page, frames = 4) => h.settle(page, frames, step);

async function widget(page, label) {
  const found = await page.evaluate((l) => window.gpuplan.getState().widgets.find((w) => w.label === l), label);
  if (!found) {
    const labels = await page.evaluate(() => window.gpuplan.getState().widgets.map((w) => w.label));
    throw new Error(`no control "${label}" on screen (drawn: ${labels.slice(0, 40).join(', ')})`);
  }
  const canvas = await page.locator('#canvas').boundingBox();
  return { x: canvas.x + found.x + Math.min(found.w / 3, 30), y: canvas.y + found.y + found.h / 2 };
}

async function clickWidget(page, label, options = {}) {
  const at = await widget(page, label);
  await page.mouse.click(at.x, at.y, options);
  await settle(page);
}

async function clickNothing(page) {
  // The status line at the bottom left: plain text, nothing to activate.
  const canvas = await page.locator('#canvas').boundingBox();
  await page.mouse.click(canvas.x + 300, canvas.y + canvas.height - 8);
  await settle(page);
}

async function download(page, buttonId) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#${buttonId}`)]);
  return fs.readFileSync(await file.path(), 'utf8');
}

function parseCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; ++i; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field.replace(/\r$/, '')); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  return rows;
}

let step = 'start';
h.runTest('browser.product', async () => {
  const [webDir, scenarioFile, shots] = process.argv.slice(2);
  if (!webDir || !scenarioFile || !shots) throw new Error('usage: node product.test.js <web dir> <scenario.json> <screenshot dir>');
  h.requireBuilt(webDir);
  const example = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
  const server = await h.serve(webDir);
  const browser = await h.launch();
  const done = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const open = async (url) => {
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') page.errors.push(`console: ${m.text()}`); });
      await page.goto(url);
      await h.waitReady(page);
      await settle(page);
      return page;
    };

    // 1. Type, then leave the field by a click elsewhere or by Tab.
    step = '1. Type, then leave the field by a click';
    let page = await open(`${server.origin}/`);
    await page.evaluate((s) => window.gpuplan.setScenario(s), { schema: 'gpuplan.scenario/1', name: 'typing',
      price: { instance: 'p5.48xlarge', hours: 730, instances: 1 } });
    await settle(page);
    await clickWidget(page, 'Tab: Costs');
    await clickWidget(page, 'hours');
    await page.keyboard.type('200');
    await clickNothing(page);
    let state = await page.evaluate(() => window.gpuplan.getState());
    if (state.scenario.price.hours !== 200) throw new Error(`hours typed then clicked away: the scenario has ${state.scenario.price.hours}, expected 200`);
    if (state.results.price.hours !== 200) throw new Error('hours typed then clicked away: the results were not re-evaluated');
    await clickWidget(page, 'instances');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await settle(page);
    state = await page.evaluate(() => window.gpuplan.getState());
    if (state.scenario.price.instances !== 3) throw new Error(`instances typed then Tab: the scenario has ${state.scenario.price.instances}, expected 3`);
    await clickWidget(page, 'hours');
    await page.keyboard.type('a week');
    await page.keyboard.press('Enter');
    await settle(page);
    state = await page.evaluate(() => window.gpuplan.getState());
    const typed = state.typed.find((t) => t.text === 'a week');
    if (!typed || !/is not a number/.test(typed.error)) throw new Error(`"a week" in hours: expected it kept with its reason, got ${JSON.stringify(state.typed)}`);
    if (state.scenario.price.hours !== 200 || state.error) throw new Error('"a week" in hours changed the scenario or raised the banner');
    h.saveScreenshot(await page.screenshot(), path.join(shots, 'product-typed-refused.png'));
    if (!/\(edited\)$/.test(state.scenario.name)) throw new Error(`the edited scenario's name is ${state.scenario.name}; expected it marked (edited)`);
    // 1b. Paste from the system clipboard: Ctrl+V in a field takes what another program copied
    //     (the browser's paste event; before, ImGui pasted from its own empty clipboard).
    step = '1b. Paste into a field';
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    await page.evaluate(() => navigator.clipboard.writeText('150'));
    await clickWidget(page, 'hours');
    await page.keyboard.press('Control+V');
    await settle(page);
    await page.keyboard.press('Enter');
    await settle(page);
    state = await page.evaluate(() => window.gpuplan.getState());
    if (state.scenario.price.hours !== 150) throw new Error(`Ctrl+V of "150" into hours: the scenario has ${state.scenario.price.hours}`);
    done.push('typed values kept on click-away and Tab; refused text kept with its reason');
    await page.close();

    // 2. Regions with the mouse, from a fresh page.
    step = '2. Regions with the mouse, from a fresh ';
    page = await open(`${server.origin}/`);
    const controlsMarked = await page.evaluate(() => window.gpuplan.getState().widgets.length);
    await clickWidget(page, 'Region');
    const regionNames = await page.evaluate(() => window.gpuplan.getState().widgets.filter((w) => w.label.startsWith('Region: '))
      .map((w) => w.label.slice('Region: '.length)));
    if (regionNames.length < 24) throw new Error(`the region list shows ${regionNames.length} regions; expected 24`);
    await page.keyboard.press('Escape');
    await settle(page);
    // The first, one from the middle and the last (the bottom of the list): the mouse's path is the
    // same for every region, and browser.regions sets each of the catalog's regions in turn and
    // checks the table it gets (24 mouse selections here took a minute of every CI run).
    const mouseRegions = [...new Set([regionNames[0], regionNames[Math.floor(regionNames.length / 2)], regionNames[regionNames.length - 1]])];
    for (const region of mouseRegions) {
      await clickWidget(page, 'Region');
      await clickWidget(page, `Region: ${region}`);
      state = await page.evaluate(() => window.gpuplan.getState());
      if (state.error) throw new Error(`region ${region} from a fresh page: ${state.error}`);
      if (state.scenario.region !== region || state.scenario.schema !== 'gpuplan.scenario/1')
        throw new Error(`region ${region}: the scenario is ${JSON.stringify(state.scenario)}`);
      if (state.catalog_table && state.catalog_table.region !== region)
        throw new Error(`region ${region}: the catalog table prices ${state.catalog_table.region}`);
    }
    done.push(`${regionNames.length} regions listed, ${mouseRegions.join(', ')} chosen with the mouse (${controlsMarked} controls marked)`);

    // 3. Compare ticks land where the boxes were.
    step = '3. Compare ticks land where the boxes we';
    await page.evaluate(() => window.gpuplan.setScenario({ schema: 'gpuplan.scenario/1', region: 'us-east-1' }));
    await settle(page);
    const rows = (await page.evaluate(() => window.gpuplan.getState().catalog_table.rows)).slice(0, 3);
    const secondBox = await widget(page, `Compare: ${rows[1]}`);
    await clickWidget(page, `Compare: ${rows[0]}`);
    await page.mouse.click(secondBox.x, secondBox.y);  // where the second box was before the first tick
    await settle(page);
    const ticked = await page.evaluate(() => window.gpuplan.getState().catalog_table.compare);
    if (JSON.stringify(ticked) !== JSON.stringify([rows[0], rows[1]]))
      throw new Error(`compare: ticked ${rows[0]} then clicked where ${rows[1]}'s box was; compared: ${JSON.stringify(ticked)}`);
    h.saveScreenshot(await page.screenshot(), path.join(shots, 'product-compare.png'));
    done.push('compare ticks land');

    // 7. CSV equals the visible table, after typing a search.
    step = '7. CSV equals the visible table, after t';
    await clickWidget(page, 'Search');
    await page.keyboard.type('h100');
    await clickNothing(page);
    const table = await page.evaluate(() => window.gpuplan.getState().catalog_table);
    if (table.search !== 'h100' || table.rows.length === 0) throw new Error(`search "h100": the table shows ${table.rows.length} rows (search ${table.search})`);
    const csv = parseCsv(await download(page, 'export-csv'));
    const header = csv[0];
    if (JSON.stringify(header) !== JSON.stringify(table.columns.filter((c) => c !== 'cmp')))
      throw new Error(`CSV header ${JSON.stringify(header)} differs from the columns on screen ${JSON.stringify(table.columns)}`);
    const names = csv.slice(1).map((r) => r[header.indexOf('instance')]);
    if (JSON.stringify(names) !== JSON.stringify(table.rows))
      throw new Error(`CSV rows ${JSON.stringify(names)} differ from the table's ${JSON.stringify(table.rows)}`);
    if (!header.some((c) => /\$\/GPU-h/.test(c))) throw new Error('the CSV lacks the $/GPU-h column');
    done.push(`CSV = the ${names.length} rows and ${header.length} columns on screen`);

    // 4b. The catalog's search and compare ticks (made above with the keyboard and the mouse)
    // survive Copy link + opening it.
    step = '4b. Search and compare survive Copy link';
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('toolbar-message').textContent.includes('copied'));
    const tableLink = await page.evaluate(() => navigator.clipboard.readText());
    if (!/#.*catalog-table=/.test(tableLink)) throw new Error(`the copied link does not carry the catalog table: ${tableLink.slice(0, 160)}`);
    await page.close();
    page = await open(tableLink);
    const reopened = await page.evaluate(() => window.gpuplan.getState().catalog_table);
    if (reopened.search !== 'h100' || JSON.stringify(reopened.compare) !== JSON.stringify(table.compare) ||
        JSON.stringify(reopened.rows) !== JSON.stringify(table.rows))
      throw new Error(`the copied link reopened the table with search "${reopened.search}", compare ${JSON.stringify(reopened.compare)} ` +
                      `and ${reopened.rows.length} rows; expected "h100", ${JSON.stringify(table.compare)} and ${table.rows.length} rows`);
    done.push(`search and ${table.compare.length} compare ticks survive Copy link`);
    await page.close();

    // 4c. A chart's range, set with the mouse on the Costs view's "months shown" slider,
    // survives Copy link + opening it.
    step = '4c. A chart range survives Copy link';
    page = await open(`${server.origin}/#view=costs`);
    await page.evaluate((s) => window.gpuplan.setScenario(s), { schema: 'gpuplan.scenario/1', name: 'chart range',
      price: { instance: 'p5.48xlarge', hours: 730, instances: 1 } });
    await settle(page);
    const canvasBox = await page.locator('#canvas').boundingBox();
    let slider = null;
    for (let scrolls = 0; scrolls < 8; ++scrolls) {  // scroll the view with the wheel until the slider is on screen
      slider = await page.evaluate(() => window.gpuplan.getState().widgets.find((w) => w.label === 'months shown'));
      if (slider && slider.y + slider.h < canvasBox.height - 20) break;
      await page.mouse.move(canvasBox.x + canvasBox.width / 2, canvasBox.y + canvasBox.height / 2);
      await page.mouse.wheel(0, 200);
      await settle(page);
    }
    if (!slider) throw new Error('the Costs view drew no "months shown" slider');
    await page.mouse.click(canvasBox.x + slider.x + slider.w * 0.2, canvasBox.y + slider.y + slider.h / 2);
    await settle(page);
    const rangesAtCopy = await page.evaluate(() => window.gpuplan.getState().chart_ranges);
    if (!/^costs-months=\d+$/.test(rangesAtCopy)) throw new Error(`a click on the months slider left the chart ranges at "${rangesAtCopy}"`);
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('toolbar-message').textContent.includes('copied'));
    const rangesLink = await page.evaluate(() => navigator.clipboard.readText());
    await page.close();
    page = await open(rangesLink);
    const rangesReopened = await page.evaluate(() => window.gpuplan.getState().chart_ranges);
    if (rangesReopened !== rangesAtCopy) throw new Error(`the copied link reopened the charts with "${rangesReopened}"; expected "${rangesAtCopy}"`);
    done.push(`a chart range (${rangesAtCopy}) survives Copy link`);
    await page.close();

    // 6. Export scenario on a fresh page.
    step = '6. Export scenario on a fresh page.';
    page = await open(`${server.origin}/`);
    const exported = JSON.parse(await download(page, 'export-scenario'));
    if (exported.schema !== 'gpuplan.scenario/1') throw new Error(`Export scenario on a fresh page gave ${JSON.stringify(exported)}`);
    const refused = await page.evaluate((s) => window.gpuplan.setScenario(s), exported);
    if (refused) throw new Error(`the exported scenario is not valid: ${refused}`);
    done.push('Export scenario is valid on a fresh page');

    // 4. Theme + scenario survive Copy link and reopening it.
    step = '4. Theme + scenario survive Copy link an';
    await page.evaluate((s) => window.gpuplan.setScenario(s), example);
    await settle(page);
    await clickWidget(page, 'Theme');
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('toolbar-message').textContent.includes('copied'));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const scenarioAtCopy = JSON.stringify((await page.evaluate(() => window.gpuplan.getState())).scenario);
    if (link.includes('?scenario=') || !/#.*z=/.test(link)) throw new Error(`the copied link does not carry the scenario in its fragment: ${link.slice(0, 120)}`);
    const toolbarBg = await page.evaluate(() => getComputedStyle(document.getElementById('toolbar')).backgroundColor);
    if (toolbarBg === 'rgb(255, 255, 255)') throw new Error('dark theme: the toolbar stayed white');
    await page.close();
    page = await open(link);
    state = await page.evaluate(() => window.gpuplan.getState());
    if (!state.dark_theme) throw new Error('the copied link reopened in the light theme');
    if (JSON.stringify(state.scenario) !== scenarioAtCopy || state.scenario.name !== example.name)
      throw new Error('the copied link reopened a different scenario');
    if (!(await page.evaluate(() => document.documentElement.classList.contains('dark')))) throw new Error('the reopened page is not dark around the canvas');
    const docsLink = await page.getAttribute('#docs-link', 'href');
    if (!docsLink) throw new Error('the app has no Docs link');
    done.push(`theme and scenario survive Copy link (${link.length} characters)`);
    await page.close();

    // 5. A 300 KB link.
    step = '5. A 300 KB link.';
    // 250 days of GPU usage sampled every 5 minutes (a real usage export, as `gpuplan fleet
    // --usage` reads): about 2 MB of JSON, which no query string carries.
    const samples = [];
    const start = Date.parse('2026-01-05T00:00:00Z');
    for (let k = 0; k < 250 * 24 * 12; ++k) {
      const hour = (k / 12) % 24;
      const gpus = Math.max(0, Math.round(16 + 24 * Math.max(0, Math.sin((hour - 9) / 24 * 2 * Math.PI)) + crypto.randomInt(0, 9)));
      samples.push([new Date(start + k * 300000).toISOString().replace('.000Z', 'Z'), gpus]);
    }
    const big = { schema: 'gpuplan.scenario/1', name: 'half a year of usage', region: 'us-east-1',
                  usage: { history: { of: 'gpus', samples }, on_demand_usd_per_gpu_hour: 1.861,
                           commit: { option: 'reserved-1y', usd_per_gpu_hour: 1.3027 } } };
    page = await open(`${server.origin}/`);
    const bigRefused = await page.evaluate((s) => window.gpuplan.setScenario(s), big);
    if (bigRefused) throw new Error(`the half-year usage scenario was refused: ${bigRefused}`);
    await settle(page);
    const bigLink = await page.evaluate(async () => { await window.gpuplan.linkSettled(); return location.href; });
    await page.close();
    if (bigLink.length < 300 * 1000) throw new Error(`the big link is ${bigLink.length} characters; expected 300 KB or more`);
    page = await open(bigLink);
    state = await page.evaluate(() => window.gpuplan.getState());
    if (state.scenario.name !== big.name || state.scenario.usage.history.samples.length !== samples.length) throw new Error(`a ${Math.round(bigLink.length / 1000)} KB link did not load its scenario`);
    done.push(`a ${Math.round(bigLink.length / 1000)} KB link loads`);
    await page.close();

    // 8. + 9. Embeds and screenshots of every view at three sizes.
    step = '8. + 9. Embeds and screenshots of every ';
    const fragment = link.slice(link.indexOf('#'));
    const views = (await (await open(`${server.origin}/`)).evaluate(() => window.gpuplan.getState().views));
    for (const [name, viewport, embed] of [['1440x900', { width: 1440, height: 900 }, false],
                                           ['600x400', { width: 600, height: 400 }, true],
                                           ['390x844', { width: 390, height: 844 }, false]]) {
      const p = await browser.newPage({ viewport, deviceScaleFactor: 1 });
      await p.goto(`${server.origin}/${embed ? '?embed=1' : ''}${fragment.replace(/theme=dark&?/, '')}`);
      await h.waitReady(p);
      if (embed) {
        const href = await p.getAttribute('#open-in-planner', 'href');
        const visible = await p.isVisible('#open-in-planner');
        if (!visible || !href || !href.includes('z=')) throw new Error(`embed: no visible "Open in planner" link to the same state (${href})`);
      }
      for (const v of views) {
        await p.evaluate((view) => window.gpuplan.setView(view), v);
        await settle(p);
        const png = await p.screenshot();
        h.saveScreenshot(png, path.join(shots, 'product', name, `${v}.png`));
        h.checkNotBlank(png, `${v} at ${name}`, path.join(shots, 'product', name, `${v}.png`));
        // The app reports how far the view ran past its right edge (clipped): none in an embed.
        const overflow = await p.evaluate(() => window.gpuplan.getState().overflow_px);
        if ((embed || name === '390x844') && overflow > 0.5) throw new Error(`the ${v} view at ${name} runs ${overflow} px past the right edge (clipped)`);
      }
      await p.close();
    }
    done.push(`screenshots of ${views.length} views at 1440x900, 600x400 (embedded, with Open in planner) and 390x844, nothing clipped`);
    return done.join('; ');
  } finally {
    await browser.close();
    server.close();
  }
});
