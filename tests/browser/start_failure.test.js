// start_failure.test.js — a browser without WebGL2 gets a readable message instead of a blank
// page, and the wasm is not even downloaded; the loading indicator shows progress first.
//
// Usage: node start_failure.test.js <web output dir>
'use strict';

const h = require('./harness');

h.runTest('browser.start_failure', async () => {
  const [webDir] = process.argv.slice(2);
  if (!webDir) throw new Error('usage: node start_failure.test.js <web dir>');
  h.requireBuilt(webDir);
  const server = await h.serve(webDir);
  const browser = await h.launch();
  try {
    // 1. No WebGL2: getContext('webgl2') answers null, as in a browser with WebGL turned off.
    const page = await h.newPage(browser);
    await page.addInitScript(() => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        return type === 'webgl2' ? null : original.call(this, type, ...rest);
      };
    });
    const wasmRequests = [];
    page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasmRequests.push(r.url()); });
    await page.goto(`${server.origin}/?view=costs`);
    await page.waitForFunction(() => window.gpuplan && window.gpuplan.failed, null, { timeout: 20_000 });
    const text = await page.locator('#status-text').innerText();
    if (!/WebGL2 is not available/.test(text)) throw new Error(`no-WebGL2 message not shown; status says ${JSON.stringify(text)}`);
    if (!(await page.locator('#status').isVisible())) throw new Error('the message is not visible');
    if (wasmRequests.length) throw new Error(`the wasm was downloaded although it cannot run: ${wasmRequests}`);

    // 2. A normal start reports download progress (the server sends Content-Length).
    const ok = await h.newPage(browser);
    await ok.addInitScript(() => {
      window.progressSeen = [];
      new MutationObserver(() => {
        const t = document.getElementById('status-text');
        if (t && /of .* MB/.test(t.textContent)) window.progressSeen.push(t.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await ok.goto(`${server.origin}/`);
    await h.waitReady(ok);
    const seen = await ok.evaluate(() => window.progressSeen);
    if (seen.length === 0) throw new Error('no download progress was shown while loading');
    if (page.errors.length || ok.errors.length) throw new Error(`errors: ${[...page.errors, ...ok.errors].join('; ')}`);
    return `no WebGL2 → "${text.split('\n')[0]}"; normal start showed ${seen.length} progress updates (last: ${seen[seen.length - 1]})`;
  } finally {
    await browser.close();
    server.close();
  }
});
