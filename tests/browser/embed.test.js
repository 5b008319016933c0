// embed.test.js — a host page on another origin embeds views in iframes (?embed=1) and drives
// one of them by postMessage (protocol: docs/embedding.md):
//   * each allowed frame announces gpuplan:ready to the host;
//   * gpuplan:set-scenario to frame A changes A's results (and not B's) and is answered with
//     gpuplan:results carrying the same figures A shows;
//   * a message of the wrong shape is answered with gpuplan:error;
//   * frame C, whose link does not name the host's origin, ignores the host entirely;
//   * embedded frames show no toolbar.
//
// Usage: node embed.test.js <web output dir> <scenario.json> <screenshot dir>
'use strict';

const fs = require('fs');
const path = require('path');
const h = require('./harness');

function hostPage(appOrigin, hostOrigin) {
  const app = (query) => `${appOrigin}/?${query}`;
  return `<!doctype html><meta charset="utf-8"><title>embed host</title><link rel="icon" href="data:,">
<body style="margin:0">
<iframe id="a" src="${app(`embed=1&view=costs&host_origin=${hostOrigin}`)}" width="640" height="420"></iframe>
<iframe id="b" src="${app(`embed=1&view=catalog&host_origin=${hostOrigin}`)}" width="620" height="420"></iframe>
<iframe id="c" src="${app('embed=1&view=costs')}" width="400" height="200"></iframe>
<script>
  window.messages = [];
  const ids = new Map();
  for (const id of ['a', 'b', 'c']) ids.set(document.getElementById(id).contentWindow, id);
  window.addEventListener('message', (e) => window.messages.push({ origin: e.origin, frame: ids.get(e.source), data: e.data }));
  window.send = (id, message) => document.getElementById(id).contentWindow.postMessage(message, '${appOrigin}');
</script>`;
}

h.runTest('browser.embed', async () => {
  const [webDir, scenarioFile, screenshotDir] = process.argv.slice(2);
  if (!webDir || !scenarioFile || !screenshotDir) throw new Error('usage: node embed.test.js <web dir> <scenario.json> <screenshot dir>');
  h.requireBuilt(webDir);
  const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
  const appServer = await h.serve(webDir);
  // The host page on a second port: another origin than the app's.
  const host = await h.serve(__dirname, {
    '/host.html': { type: 'text/html; charset=utf-8', body: (server) => hostPage(appServer.origin, server.origin) },
  });
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser, { width: 1300, height: 660 });
    await page.goto(`${host.origin}/host.html`);
    const frames = {};
    for (const id of ['a', 'b', 'c']) frames[id] = await (await page.$(`#${id}`)).contentFrame();
    for (const id of ['a', 'b', 'c']) await h.waitReady(page, frames[id]);

    const waitFor = async (predicate, what, timeoutMs = 10_000) => {
      const start = Date.now();
      for (;;) {
        const messages = await page.evaluate(() => window.messages);
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() - start > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms; host got ${JSON.stringify(messages.map((m) => [m.frame, m.data.type]))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await waitFor((m) => m.frame === 'a' && m.data.type === 'gpuplan:ready', 'gpuplan:ready from A');
    await waitFor((m) => m.frame === 'b' && m.data.type === 'gpuplan:ready', 'gpuplan:ready from B');
    const readyA = (await page.evaluate(() => window.messages)).find((m) => m.frame === 'a');
    if (readyA.origin !== appServer.origin) throw new Error(`ready came from ${readyA.origin}, expected ${appServer.origin}`);

    const beforeB = await frames.b.evaluate(() => window.gpuplan.getState());
    const beforeC = await frames.c.evaluate(() => window.gpuplan.getState());
    await page.evaluate((s) => window.send('a', { type: 'gpuplan:set-scenario', id: 'r1', scenario: s }), scenario);
    const reply = await waitFor((m) => m.frame === 'a' && m.data.type === 'gpuplan:results' && m.data.id === 'r1', 'results for r1');
    if (!reply.data.ok) throw new Error(`frame A refused the scenario: ${reply.data.error}`);
    const stateA = await frames.a.evaluate(() => window.gpuplan.getState());
    if (JSON.stringify(reply.data.results) !== JSON.stringify(stateA.results)) throw new Error('reply results differ from what frame A holds');
    if (Object.keys(stateA.results).length === 0) throw new Error('frame A has no results after set-scenario');
    const afterB = await frames.b.evaluate(() => window.gpuplan.getState());
    if (JSON.stringify(afterB.scenario) !== JSON.stringify(beforeB.scenario)) throw new Error('frame B changed although only A was driven');

    await page.evaluate(() => window.send('a', { type: 'gpuplan:set-scenario', id: 'r2', scenario: 5 }));
    const refusal = await waitFor((m) => m.frame === 'a' && m.data.id === 'r2', 'reply to a malformed message');
    if (refusal.data.type !== 'gpuplan:error' || !/scenario/.test(refusal.data.error))
      throw new Error(`malformed message: expected gpuplan:error naming scenario, got ${JSON.stringify(refusal.data)}`);

    // Frame C does not list the host's origin: the same message must change nothing.
    await page.evaluate((s) => window.send('c', { type: 'gpuplan:set-scenario', id: 'r3', scenario: s }), scenario);
    await new Promise((r) => setTimeout(r, 1500));
    const afterC = await frames.c.evaluate(() => window.gpuplan.getState());
    if (JSON.stringify(afterC.scenario) !== JSON.stringify(beforeC.scenario)) throw new Error('frame C obeyed a host origin it does not allow');
    if ((await page.evaluate(() => window.messages)).some((m) => m.frame === 'c')) throw new Error('frame C sent messages to a host it does not allow');

    for (const id of ['a', 'b']) {
      if (await frames[id].locator('#toolbar').isVisible()) throw new Error(`frame ${id} shows the toolbar in embed mode`);
    }
    const file = path.join(screenshotDir, 'embed-host.png');
    const png = await page.screenshot();
    h.saveScreenshot(png, file);
    h.checkNotBlank(await (await page.$('#a')).screenshot(), 'embedded frame A', file);
    const errors = page.errors;
    if (errors.length) throw new Error(`errors: ${errors.join('; ')}`);
    return `host ${host.origin} drove frame A on ${appServer.origin} (results for ${Object.keys(stateA.results).join(', ')}); ` +
      `B unchanged; malformed message refused; C ignored an unlisted origin; screenshot ${file}`;
  } finally {
    await browser.close();
    appServer.close();
    host.close();
  }
});
