// topology_import.test.js — a machine's topology imported in the page the way a user does it:
// a mouse click on "Import file…" and a file chosen (an NCCL log), then a drop of an
// nvidia-smi matrix. The Topology view opens with it; its figures equal
// `gpuplan topology import --format json` for the same file, a train section planned with it
// equals `gpuplan train --topology`, the link carries it, and a file with no topology is
// refused with the reason while the good import stays.
//
// Usage: node topology_import.test.js <web dir> <gpuplan> <nccl log> <smi txt> <screenshot dir>
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const h = require('./harness');

function sameJson(a, b, what) {
  const x = JSON.stringify(a), y = JSON.stringify(b);
  if (x !== y) throw new Error(`${what} differs:\n page: ${x.slice(0, 400)}\n CLI:  ${y.slice(0, 400)}`);
}

h.runTest('browser.topology_import', async () => {
  const [webDir, gpuplan, logFile, smiFile, screenshotDir] = process.argv.slice(2);
  if (!screenshotDir) throw new Error('usage: node topology_import.test.js <web dir> <gpuplan> <nccl log> <smi txt> <screenshot dir>');
  h.requireBuilt(webDir);
  const cli = JSON.parse(execFileSync(gpuplan, ['topology', 'import', logFile, '--format', 'json'], { encoding: 'utf8' }));
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser);
    await page.goto(`${server.origin}/`);
    await h.waitReady(page);

    // 1. A click on the toolbar button opens the file chooser; the log is chosen.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#import-results')]);
    await chooser.setFiles(logFile);
    await page.waitForFunction(() => window.gpuplan.getState().results.topology !== undefined, null, { timeout: 10_000 });
    const state = await page.evaluate(() => window.gpuplan.getState());
    if (state.view !== 'topology') throw new Error(`after the import the view is ${state.view}, not topology`);
    const message = await page.evaluate(() => document.getElementById('toolbar-message').textContent);
    if (!/Imported the topology/.test(message)) throw new Error(`toolbar says ${JSON.stringify(message)}`);
    const got = state.results.topology;
    sameJson(got.summary, cli.summary, 'the summary (bottleneck, facts, pairs)');
    for (const key of ['nodes', 'links', 'paths', 'max_gb_per_s', 'partial']) sameJson(got[key], cli[key], key);
    if (state.scenario.topology.text.length > 8000) throw new Error(`the scenario keeps ${state.scenario.topology.text.length} bytes of log; expected the excerpt`);

    await h.settle(page, 3, 'screenshot');
    const shot = path.join(screenshotDir, 'topology-imported.png');
    const png = await page.locator('#canvas').screenshot();
    h.saveScreenshot(png, shot);
    h.checkNotBlank(png, 'topology view with an imported log', shot);

    // 2. Planned with it: a train section on 4 GPUs of the same instance, as `gpuplan train --topology`.
    const train = { model: 'llama-3-8b', instance: 'g6e.48xlarge', nodes: 1, gpus_per_node: 4, data: 4, zero_stage: 3, tokens: 1e9 };
    const planned = await page.evaluate((t) => {
      const s = window.gpuplan.getState().scenario;
      s.train = t;
      const error = window.gpuplan.setScenario(s);
      return { error, state: window.gpuplan.getState() };
    }, train);
    if (planned.error) throw new Error(`train section refused: ${planned.error}`);
    const cliTrain = JSON.parse(execFileSync(gpuplan, ['train', '--model', 'llama-3-8b', '--instance', 'g6e.48xlarge', '--gpus-per-node', '4',
      '--zero', '3', '--tokens', '1e9', '--topology', logFile, '--format', 'json'], { encoding: 'utf8' }));
    const step = (r) => r.figures.step_seconds.value;
    if (step(planned.state.results.train) !== step(cliTrain))
      throw new Error(`step time: page ${step(planned.state.results.train)} s, CLI ${step(cliTrain)} s`);
    if (!/topology/.test(JSON.stringify(planned.state.results.train.sources.intra_gb_per_s)))
      throw new Error(`the intra-node figure does not cite the topology: ${JSON.stringify(planned.state.results.train.sources.intra_gb_per_s)}`);

    // 3. The link carries the imported topology: a fresh page from it shows the same.
    const url = page.url();
    const again = await h.newPage(browser);
    await again.goto(url);
    await h.waitReady(again);
    const reloaded = await again.evaluate(() => window.gpuplan.getState());
    if (!reloaded.results.topology) throw new Error('the copied link lost the imported topology');
    sameJson(reloaded.results.topology.summary, cli.summary, 'the summary after reload');

    // 4. A file with no topology is refused with the reason; the good import stays.
    const refused = await h.dropFile(page, 'no-topology.log', 'NCCL INFO Bootstrap : Using eth0\nNCCL INFO NET/Socket : Using [0]eth0\n', 'text/plain');
    if (!/no-topology.log was not imported: .*=== System/.test(refused.message)) throw new Error(`refusal: ${refused.message}`);
    if (!refused.state.results.topology) throw new Error('a refused file removed the good import');

    // 5. nvidia-smi topo -m by drag and drop: path types, no bandwidths.
    const smi = (await h.dropFile(page, path.basename(smiFile), fs.readFileSync(smiFile, 'utf8'), 'text/plain')).state;
    const cliSmi = JSON.parse(execFileSync(gpuplan, ['topology', 'import', smiFile, '--format', 'json'], { encoding: 'utf8' }));
    sameJson(smi.results.topology.summary, cliSmi.summary, 'the nvidia-smi summary');
    if (page.errors.length) throw new Error(`errors: ${page.errors.join('; ')}`);
    return `${path.basename(logFile)} imported by click (${got.summary.facts[0]}; "${got.summary.bottleneck.slice(0, 60)}..."), ` +
      `same as the CLI; train step ${step(cliTrain).toFixed(3)} s as \`train --topology\`; kept in the link; ` +
      `a file without topology refused; ${path.basename(smiFile)} dropped (${smi.results.topology.summary.facts[0]})`;
  } finally {
    await browser.close();
    server.close();
  }
});
