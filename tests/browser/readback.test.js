// readback.test.js — what the views drew, read back through the page bridge
// (getState().figures: each figure a view drew in the last frame, under the name the result
// document gives it) and compared, name by name, with `gpuplan eval`'s document for the same
// scenario file. Every view, for the examples that give the Inference, Training and Costs views
// their figures; and the Inference view must draw every figure of the recommended pick (the
// rows that vanished silently when the view looked them up by names the core no longer wrote).
//
// Usage: node readback.test.js <web dir> <gpuplan> <scenario dir>
'use strict';

const path = require('path');
const { execFileSync } = require('child_process');
const h = require('./harness');

const SCENARIOS = ['r1-serve-llama-70b.json', 'i1-infer-llama-8b-g6e.json', 't1-train-llama-3-8b.json', 'p1-blended-fleet.json'];

// Every figure object of the document ({value, unit, explain}) under its key, anywhere.
function documentFigures(doc, out = new Map()) {
  if (Array.isArray(doc)) doc.forEach((d) => documentFigures(d, out));
  else if (doc && typeof doc === 'object') {
    for (const [key, child] of Object.entries(doc)) {
      if (child && typeof child === 'object' && 'value' in child && 'explain' in child) {
        if (!out.has(key)) out.set(key, []);
        out.get(key).push(child.value);
      }
      documentFigures(child, out);
    }
  }
  return out;
}

h.runTest('browser.readback', async () => {
  const [webDir, gpuplan, scenarioDir] = process.argv.slice(2);
  if (!scenarioDir) throw new Error('usage: node readback.test.js <web dir> <gpuplan> <scenario dir>');
  h.requireBuilt(webDir);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  let compared = 0;
  try {
    const page = await h.newPage(browser, { width: 1440, height: 900 });
    await page.goto(`${server.origin}/`);
    await h.waitReady(page);
    for (const file of SCENARIOS) {
      const scenarioPath = path.join(scenarioDir, file);
      const cli = JSON.parse(execFileSync(gpuplan, ['eval', scenarioPath], { encoding: 'utf8' }));
      const figures = documentFigures(cli);
      const scenario = JSON.parse(require('fs').readFileSync(scenarioPath, 'utf8'));
      await page.evaluate((s) => window.gpuplan.setScenario(s), scenario);
      const views = await page.evaluate(() => window.gpuplan.getState().views);
      for (const view of views) {
        await page.evaluate((v) => window.gpuplan.setView(v), view);
        await h.settle(page, 3, `${file} ${view}`);
        const drawn = await page.evaluate(() => window.gpuplan.getState().figures);
        for (const f of drawn) {
          const values = figures.get(f.name);
          if (!values) throw new Error(`${file}, ${view} view: "${f.label}" (${f.name}) is not in gpuplan eval's document`);
          if (!values.some((v) => v === f.value)) {
            throw new Error(`${file}, ${view} view: "${f.label}" (${f.name}) drawn as ${f.value}; the document has ${values.join(', ')}`);
          }
          compared += 1;
        }
        if (file.startsWith('r1-') && view === 'inference') {
          const names = new Set(drawn.map((f) => f.name));
          for (const name of Object.keys(cli.recommend.picks.cheapest.figures)) {
            if (!names.has(name)) throw new Error(`the Inference view does not draw the cheapest pick's figure ${name}`);
          }
        }
      }
    }
    if (compared < 40) throw new Error(`only ${compared} figures were drawn and compared`);
    console.log(`browser.readback: ${compared} drawn figures equal gpuplan eval's document`);
  } finally {
    await browser.close();
    server.close();
  }
});
