// regions.test.js — the region selector from a fresh page, for every region of the catalog:
// the scenario takes the region, the Catalog view's table follows it and lists exactly the
// instance types offered there (those with a price entry in that region). The expected
// regions and rows are read here from assets/catalog/instances.json, not from the app.
//
// Usage: node regions.test.js <web output dir> <instances.json> <screenshot dir>
// Prints one PASS/FAIL line and exits 0/1. Only loopback is used.
'use strict';

const fs = require('fs');
const path = require('path');
const h = require('./harness');

// region -> sorted names of the instance types with a price entry there.
function offeredByRegion(instancesFile) {
  const offered = new Map();
  for (const instance of JSON.parse(fs.readFileSync(instancesFile, 'utf8')).instances)
    for (const price of instance.prices) {
      if (!offered.has(price.region)) offered.set(price.region, new Set());
      offered.get(price.region).add(instance.name);
    }
  return new Map([...offered].sort().map(([region, names]) => [region, [...names].sort()]));
}

async function settledState(page, region) {
  await page.evaluate(() => window.gpuplan.redraw(3));
  await page.waitForFunction((r) => {
    const table = window.gpuplan.getState().catalog_table;
    return table && table.region === r;
  }, region, { timeout: 10000 });
  return page.evaluate(() => window.gpuplan.getState());
}

h.runTest('browser.regions', async () => {
  const [webDir, instancesFile, shots] = process.argv.slice(2);
  if (!webDir || !instancesFile || !shots) throw new Error('usage: node regions.test.js <web dir> <instances.json> <screenshot dir>');
  h.requireBuilt(webDir);
  const expected = offeredByRegion(instancesFile);
  if (expected.size < 24) throw new Error(`the catalog file prices ${expected.size} regions, expected the snapshot's 24`);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    // 1. A link that names a region opens the catalog priced there.
    const linkRegion = 'ap-northeast-1';
    const param = Buffer.from(JSON.stringify({ schema: 'gpuplan.scenario/1', region: linkRegion })).toString('base64url');
    let page = await h.newPage(browser);
    await page.goto(`${server.origin}/?scenario=${param}`);
    let state = await h.waitReady(page);
    if (state.error) throw new Error(`link to ${linkRegion}: the app reports: ${state.error}`);
    state = await settledState(page, linkRegion);
    const linkRows = [...state.catalog_table.rows].sort();
    if (JSON.stringify(linkRows) !== JSON.stringify(expected.get(linkRegion)))
      throw new Error(`link to ${linkRegion}: the table lists ${linkRows.length} types, expected ${expected.get(linkRegion).length}`);
    h.saveScreenshot(await page.locator('#canvas').screenshot(), path.join(shots, `region-${linkRegion}.png`));
    await page.close();

    // 2. A fresh page, then every region in turn as the region selector sets it.
    page = await h.newPage(browser);
    await page.goto(`${server.origin}/`);
    state = await h.waitReady(page);
    if (state.catalog_table === null) state = await settledState(page, 'us-east-1');
    const counts = [];
    for (const [region, names] of expected) {
      const refused = await page.evaluate((r) => window.gpuplan.setScenario({ ...window.gpuplan.getState().scenario,
        schema: 'gpuplan.scenario/1', region: r }), region);
      if (refused) throw new Error(`region ${region} refused: ${refused}`);
      state = await settledState(page, region);
      if (state.error) throw new Error(`region ${region}: the app reports: ${state.error}`);
      if (state.scenario.region !== region) throw new Error(`region ${region}: the scenario says ${state.scenario.region}`);
      const rows = [...state.catalog_table.rows].sort();
      const missing = names.filter((n) => !rows.includes(n));
      const extra = rows.filter((n) => !names.includes(n));
      if (missing.length || extra.length)
        throw new Error(`region ${region}: table rows differ from the catalog's offers; missing ${missing.join(', ') || 'none'}, ` +
          `not offered there but listed ${extra.join(', ') || 'none'}`);
      counts.push(`${region} ${rows.length}`);
    }
    const png = await page.locator('#canvas').screenshot();
    h.saveScreenshot(png, path.join(shots, 'region-last.png'));
    h.checkNotBlank(png, 'catalog (last region)', path.join(shots, 'region-last.png'));
    if (page.errors.length > 0) throw new Error(`errors on the page: ${page.errors.join('; ')}`);
    return `${expected.size} regions, each listing the types offered there (${counts.join(', ')})`;
  } finally {
    await browser.close();
    server.close();
  }
});
