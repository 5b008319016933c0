// perf_budget.js — measures the browser app against its budgets (docs/performance.md,
// "Browser budgets") and writes the figures as JSON. Measured, reported, never asserted in tests.
//
//   node scripts/perf_budget.js <web dir> <out.json> [loads]
//
// 1. Transfer size: gzip -9 of what a first visit downloads (index.html, shell.js, shell.css,
//    gpuplan.js, gpuplan.wasm; the catalog is inside the wasm). Budget 1,000 KB (issue 32).
//    Beside it, what scripts/static_server.js actually sends a browser: the precompressed
//    .br siblings where the build wrote them (scripts/precompress.js), else the file.
// 2. JS API: the same for api/gpuplan-api.js + api/gpuplan-api.wasm. Budget 250 KB.
// 3. First frame: headless Chromium (SwiftShader WebGL2) on this machine, served from
//    127.0.0.1, from navigation start to the first settled frame on screen (the page's ready
//    event, performance.now()); a fresh browser context per load (no cache); median of N.
//    Budget 1.5 s.
// 4. CPU time per frame: draw_app's own time (AppState::timing, measured inside the app with
//    a steady clock) on each view with the full built-in catalog, over 60 forced frames;
//    mean and worst. GL rendering (SwiftShader) is not included. Budget 8 ms.
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const h = require('../tests/browser/harness');

const BUDGET = { app_gzip_bytes: 1.0e6, api_gzip_bytes: 250e3, first_frame_ms: 1500, frame_cpu_ms: 8 };

function gzipSize(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

async function main() {
  const [webDir, outFile, loadsArg] = process.argv.slice(2);
  if (!webDir || !outFile) throw new Error('usage: node scripts/perf_budget.js <web dir> <out.json> [loads]');
  const loads = Number(loadsArg || 5);
  h.requireBuilt(webDir);
  const result = { measured_utc: new Date().toISOString(), web_dir: path.resolve(webDir), budget: BUDGET, files: {} };

  const appFiles = ['index.html', 'shell.js', 'touch.js', 'mirror.js', 'shell.css', 'gpuplan.js', 'gpuplan.wasm'];
  const apiFiles = ['api/gpuplan-api.js', 'api/gpuplan-api.wasm'];
  for (const f of [...appFiles, ...apiFiles]) {
    const file = path.join(webDir, f);
    if (!fs.existsSync(file)) continue;
    const bytes = fs.statSync(file).size;
    const served = fs.existsSync(file + '.br') && fs.statSync(file + '.br').mtimeMs >= fs.statSync(file).mtimeMs
      ? fs.statSync(file + '.br').size : bytes;
    result.files[f] = { bytes, gzip_bytes: gzipSize(file), served_bytes: served };
  }
  const sum = (list, key) => list.reduce((s, f) => s + (result.files[f] ? result.files[f][key] : 0), 0);
  result.app_gzip_bytes = sum(appFiles, 'gzip_bytes');
  result.api_gzip_bytes = sum(apiFiles, 'gzip_bytes');
  result.app_served_bytes = sum(appFiles, 'served_bytes');
  result.api_served_bytes = sum(apiFiles, 'served_bytes');

  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const times = [];
    for (let k = 0; k < loads; ++k) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${server.origin}/`);
      await page.waitForFunction(() => window.gpuplan && window.gpuplan.ready, null, { timeout: h.READY_TIMEOUT_MS });
      times.push(await page.evaluate(() => window.gpuplan.ready_ms));
      await context.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    result.first_frame_ms = { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1], loads: times };

    const page = await h.newPage(browser);
    await page.goto(`${server.origin}/`);
    const views = (await h.waitReady(page)).views;
    result.frame_cpu_ms = {};
    // Each view with the example that gives it something to draw (as tests/browser/views.test.js).
    const scenarioFor = {
      costs: 'p1-blended-fleet.json', topology: 't1-train-llama-3-8b.json', training: 't1-train-llama-3-8b.json',
      inference: 'r1-serve-llama-70b.json', decode: 'd1-decode-g7e.json', recommend: 'r2-train-recommend-llama-3-8b.json',
    };
    result.frame_scenarios = scenarioFor;
    for (const view of views) {
      if (scenarioFor[view]) {
        const text = fs.readFileSync(path.join(__dirname, '..', 'assets', 'scenarios', scenarioFor[view]), 'utf8');
        const error = await page.evaluate((s) => window.gpuplan.setScenario(s), text);
        if (error) throw new Error(`setScenario(${scenarioFor[view]}): ${error}`);
      }
      await page.evaluate((v) => window.gpuplan.setView(v), view);
      await page.evaluate(() => window.gpuplan.redraw(5));  // settle after the switch
      await page.waitForTimeout(300);
      const before = await page.evaluate(() => window.gpuplan.getState().timing.frames);
      const samples = [];
      for (let k = 0; k < 60; ++k) {
        await page.evaluate(() => window.gpuplan.redraw(1));
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        samples.push(await page.evaluate(() => window.gpuplan.getState().timing.last_ms));
      }
      const after = await page.evaluate(() => window.gpuplan.getState().timing.frames);
      const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
      result.frame_cpu_ms[view] = { mean, max: Math.max(...samples), frames: after - before };
    }
    if (page.errors.length) result.page_errors = page.errors;
  } finally {
    await browser.close();
    server.close();
  }
  const worst = Math.max(...Object.values(result.frame_cpu_ms).map((v) => v.mean));
  result.verdict = {
    app_gzip: result.app_gzip_bytes <= BUDGET.app_gzip_bytes ? 'within' : 'over',
    api_gzip: result.api_gzip_bytes <= BUDGET.api_gzip_bytes ? 'within' : 'over',
    first_frame: result.first_frame_ms.median <= BUDGET.first_frame_ms ? 'within' : 'over',
    frame_cpu: worst <= BUDGET.frame_cpu_ms ? 'within' : 'over',
  };
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');

  const kb = (b) => `${(b / 1000).toFixed(0)} KB`;
  console.log(`| measure | figure | budget | |`);
  console.log(`|---|---|---|---|`);
  console.log(`| browser app transfer (gzip -9) | ${kb(result.app_gzip_bytes)} | 1000 KB | ${result.verdict.app_gzip} |`);
  console.log(`| browser app as served (brotli where precompressed) | ${kb(result.app_served_bytes)} | | |`);
  console.log(`| JS API transfer (gzip -9) | ${kb(result.api_gzip_bytes)} | 250 KB | ${result.verdict.api_gzip} |`);
  console.log(`| JS API as served | ${kb(result.api_served_bytes)} | | |`);
  console.log(`| first frame (median of ${loads}) | ${result.first_frame_ms.median.toFixed(0)} ms (${result.first_frame_ms.min.toFixed(0)}-${result.first_frame_ms.max.toFixed(0)}) | 1500 ms | ${result.verdict.first_frame} |`);
  for (const [view, t] of Object.entries(result.frame_cpu_ms))
    console.log(`| draw_app CPU, ${view} | ${t.mean.toFixed(2)} ms mean, ${t.max.toFixed(2)} max | 8 ms | ${t.mean <= 8 ? 'within' : 'over'} |`);
  console.log(`(written to ${outFile})`);
}

main().catch((error) => { console.error(`perf_budget: ${error.message}`); process.exit(1); });
