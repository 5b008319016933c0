// import_export.test.js — a bench results file imports through the file picker and by
// drag-and-drop (the Measurements view opens with it); a bad file is refused with the reason;
// the scenario exports as JSON and the table as CSV.
//
// Usage: node import_export.test.js <web dir> <good bench.json> <bad bench.json> <scenario.json> <screenshot dir>
'use strict';

const fs = require('fs');
const path = require('path');
const h = require('./harness');

h.runTest('browser.import_export', async () => {
  const [webDir, goodFile, badFile, scenarioFile, screenshotDir] = process.argv.slice(2);
  if (!screenshotDir) throw new Error('usage: node import_export.test.js <web dir> <good.json> <bad.json> <scenario.json> <screenshot dir>');
  h.requireBuilt(webDir);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser);
    await page.goto(`${server.origin}/`);
    await h.waitReady(page);

    // 1. File picker.
    await page.setInputFiles('#results-file', goodFile);
    await page.waitForFunction(() => window.gpuplan.getState().bench_source !== '', null, { timeout: 10_000 });
    let state = await page.evaluate(() => window.gpuplan.getState());
    if (state.bench_source !== path.basename(goodFile)) throw new Error(`picker import: source is ${JSON.stringify(state.bench_source)}`);
    if (state.view !== 'measurements') throw new Error(`picker import: expected the measurements view, got ${state.view}`);
    await page.evaluate(() => window.gpuplan.redraw(3));
    await page.waitForTimeout(300);
    const file = path.join(screenshotDir, 'import-measurements.png');
    const png = await page.locator('#canvas').screenshot();
    h.saveScreenshot(png, file);
    h.checkNotBlank(png, 'measurements after import', file);

    // 2. Drag and drop of the bad file onto the page: refused, with the reason shown.
    const dropped = await page.evaluate(async ([name, text]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'application/json' }));
      window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, cancelable: true }));
      const overlayShown = !document.getElementById('drop-overlay').hidden;
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
      await new Promise((r) => setTimeout(r, 300));
      return { overlayShown, message: document.getElementById('toolbar-message').textContent,
               state: window.gpuplan.getState() };
    }, [path.basename(badFile), fs.readFileSync(badFile, 'utf8')]);
    if (!dropped.overlayShown) throw new Error('dragging a file over the page did not show the drop zone');
    if (!/was not imported/.test(dropped.message) || !dropped.state.bench_error)
      throw new Error(`bad file: expected a refusal with its reason, got ${JSON.stringify(dropped.message)}`);
    if (dropped.state.bench_source !== path.basename(goodFile)) throw new Error('a refused file replaced the good import');

    // 3. Drag and drop of the good file works too.
    const good = await page.evaluate(async ([name, text]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: 'application/json' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
      await new Promise((r) => setTimeout(r, 300));
      return window.gpuplan.getState();
    }, ['dropped-' + path.basename(goodFile), fs.readFileSync(goodFile, 'utf8')]);
    if (good.bench_source !== 'dropped-' + path.basename(goodFile) || good.bench_error) throw new Error(`drop import failed: ${good.bench_error}`);

    // 4. Exports: the scenario as JSON (downloaded), the results as CSV.
    const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
    const error = await page.evaluate((s) => window.gpuplan.setScenario(s), scenario);
    if (error) throw new Error(`setScenario: ${error}`);
    await page.evaluate(() => window.gpuplan.setView('costs'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-scenario')]);
    const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    if (JSON.stringify(exported) !== JSON.stringify((await page.evaluate(() => window.gpuplan.getState())).scenario))
      throw new Error('exported scenario differs from the state');
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const csv = fs.readFileSync(await csvDownload.path(), 'utf8').split('\r\n');
    if (csv[0] !== 'path,value,unit,formula,worked,unknown' || csv.length < 3) throw new Error(`CSV export: ${csv.slice(0, 2).join(' | ')}`);
    const blended = csv.find((l) => l.startsWith('$.fleet.figures.blended_usd_per_gpu_hour,'));
    const state2 = await page.evaluate(() => window.gpuplan.getState());
    const expectedValue = state2.results.fleet && state2.results.fleet.figures.blended_usd_per_gpu_hour.value;
    if (expectedValue !== undefined && (!blended || Number(blended.split(',')[1]) !== expectedValue))
      throw new Error(`CSV row for blended_usd_per_gpu_hour is ${blended}, results say ${expectedValue}`);
    if (page.errors.length) throw new Error(`errors: ${page.errors.join('; ')}`);
    return `picker and drop imports of ${path.basename(goodFile)} opened Measurements; ${path.basename(badFile)} refused ` +
      `("${dropped.state.bench_error.slice(0, 80)}..."); scenario JSON and ${csv.length - 2}-row CSV exported`;
  } finally {
    await browser.close();
    server.close();
  }
});
