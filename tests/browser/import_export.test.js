// import_export.test.js — a bench results file imports through the file picker and by
// drag-and-drop (the Measurements view opens with it); a bad file is refused with the reason;
// the scenario exports as JSON and the table as CSV; a price overlay (`gpuplan prices import`)
// imports through the same picker and the Costs figures use its listed reservations.
//
// Usage: node import_export.test.js <web dir> <good bench.json> <bad bench.json> <scenario.json> <screenshot dir> <overlay.json>
'use strict';

const fs = require('fs');
const path = require('path');
const h = require('./harness');

h.runTest('browser.import_export', async () => {
  const [webDir, goodFile, badFile, scenarioFile, screenshotDir, overlayFile] = process.argv.slice(2);
  if (!overlayFile) throw new Error('usage: node import_export.test.js <web dir> <good.json> <bad.json> <scenario.json> <screenshot dir> <overlay.json>');
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
    await h.settle(page, 3, 'screenshot');
    const file = path.join(screenshotDir, 'import-measurements.png');
    const png = await page.locator('#canvas').screenshot();
    h.saveScreenshot(png, file);
    h.checkNotBlank(png, 'measurements after import', file);

    // 2. Drag and drop of the bad file onto the page: refused, with the reason shown.
    const overlayShown = await page.evaluate(() => {
      window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: new DataTransfer(), cancelable: true }));
      return !document.getElementById('drop-overlay').hidden;
    });
    const dropped = await h.dropFile(page, path.basename(badFile), fs.readFileSync(badFile, 'utf8'));
    dropped.overlayShown = overlayShown;
    if (!dropped.overlayShown) throw new Error('dragging a file over the page did not show the drop zone');
    if (!/was not imported/.test(dropped.message) || !dropped.state.bench_error)
      throw new Error(`bad file: expected a refusal with its reason, got ${JSON.stringify(dropped.message)}`);
    if (dropped.state.bench_source !== path.basename(goodFile)) throw new Error('a refused file replaced the good import');

    // 3. Drag and drop of the good file works too.
    const good = (await h.dropFile(page, 'dropped-' + path.basename(goodFile), fs.readFileSync(goodFile, 'utf8'))).state;
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
    // The exported file opens again through Import file… (the picker, as a person would): after
    // another scenario, it brings the exported one back; a JSON of no kind the planner opens is
    // refused naming the kinds it takes.
    await page.evaluate(() => window.gpuplan.setScenario({ schema: 'gpuplan.scenario/1', name: 'another', price: { instance: 'g6.xlarge' } }));
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#import-results')]);
    await chooser.setFiles(await download.path());
    await page.waitForFunction(() => /Opened the scenario/.test(document.getElementById('toolbar-message').textContent), null, { timeout: 20000 });
    if (JSON.stringify((await page.evaluate(() => window.gpuplan.getState())).scenario) !== JSON.stringify(exported))
      throw new Error('Import file… of the exported scenario did not bring it back');
    const other = await h.dropFile(page, 'model.json', JSON.stringify({ schema: 'gpuplan.models/1', models: [] }));
    if (!/not imported: its schema 'gpuplan.models\/1' is none the planner opens \(a scenario, bench results/.test(other.message))
      throw new Error(`a JSON of another kind: ${other.message}`);
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const csv = fs.readFileSync(await csvDownload.path(), 'utf8').split('\r\n');
    if (csv[0] !== 'path,value,unit,formula,worked,unknown' || csv.length < 3) throw new Error(`CSV export: ${csv.slice(0, 2).join(' | ')}`);
    const blended = csv.find((l) => l.startsWith('$.fleet.figures.blended_usd_per_gpu_hour,'));
    const state2 = await page.evaluate(() => window.gpuplan.getState());
    const expectedValue = state2.results.fleet && state2.results.fleet.figures.blended_usd_per_gpu_hour.value;
    if (expectedValue !== undefined && (!blended || Number(blended.split(',')[1]) !== expectedValue))
      throw new Error(`CSV row for blended_usd_per_gpu_hour is ${blended}, results say ${expectedValue}`);
    // 5. A price overlay through the picker: p5.48xlarge in eu-west-2 for 106 h, its 1-year
    // all-upfront reservation listed at $330,000 (tests/cli/data/price-list/ec2-eu-west-2.json):
    // 330,000 / 8,760 = $37.6712/h, billed as the whole term.
    const priced = { schema: 'gpuplan.scenario/1', name: 'overlay check', region: 'eu-west-2', price: { instance: 'p5.48xlarge', hours: 106 } };
    const before = await page.evaluate((s) => { window.gpuplan.setScenario(s); return window.gpuplan.getState(); }, priced);
    const option = (st, key) => st.results.price.options.find((o) => o.key === key);
    // The shipped data lists no Standard RI for p5 (docs/pricing.md, "Which options exist"): before
    // the overlay the reservation is not offered, with the source that shows it, and never priced.
    const absent = option(before, 'reserved-1y-all-upfront');
    if (absent.status !== 'not-offered' || absent.available !== false || !absent.status_source)
      throw new Error(`before the overlay, the 1-year reservation should be not offered with its source: ${JSON.stringify(absent)}`);
    await page.setInputFiles('#results-file', overlayFile);
    await page.waitForFunction(() => /Imported overlay/.test(document.getElementById('toolbar-message').textContent), null, { timeout: 10_000 });
    const after = await page.evaluate(() => window.gpuplan.getState());
    const listed = option(after, 'reserved-1y-all-upfront').figures;
    if (option(after, 'reserved-1y-all-upfront').status !== 'listed') throw new Error('the imported reservation is not shown as listed');
    if (Math.abs(listed.effective_usd_per_hour.value - 330000 / 8760) > 1e-9 || listed.cost_usd.value !== 330000 || listed.effective_usd_per_hour.assumption)
      throw new Error(`after the overlay: ${JSON.stringify(listed.effective_usd_per_hour)} ${JSON.stringify(listed.cost_usd)}`);
    // A bad overlay (an instance the catalog lacks) is refused with its JSON path, and the good one stays.
    const bad = await h.dropFile(page, 'bad-overlay.json', fs.readFileSync(overlayFile, 'utf8').replace('"p5.48xlarge"', '"zz9.huge"'));
    if (!/bad-overlay.json was not imported: .*\$\.prices\[\d+\]\.instance/.test(bad.message))
      throw new Error(`bad overlay: ${bad.message}`);
    if (option(bad.state, 'reserved-1y-all-upfront').figures.cost_usd.value !== 330000) throw new Error('a refused overlay undid the good one');
    if (page.errors.length) throw new Error(`errors: ${page.errors.join('; ')}`);
    return `price overlay imported (1-year all upfront $${(330000 / 8760).toFixed(4)}/h, billed $330,000 for 106 h), a bad one refused; ` +
      `picker and drop imports of ${path.basename(goodFile)} opened Measurements; ${path.basename(badFile)} refused ` +
      `("${dropped.state.bench_error.slice(0, 80)}..."); scenario JSON exported and opened again; ${csv.length - 2}-row CSV exported`;
  } finally {
    await browser.close();
    server.close();
  }
});
