// start_failure.test.js — a browser without WebGL2 gets a readable message instead of a blank
// page, and the wasm is not even downloaded; a normal start compiles the (compressed) wasm while
// it downloads, and the loading screen names the size being downloaded.
//
// Usage: node start_failure.test.js <web output dir>
'use strict';

const fs = require('fs');
const path = require('path');
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

    // 2. A normal start compiles while downloading (instantiateStreaming) and the loading screen
    // names the size being downloaded. The server sends the precompressed gpuplan.wasm.br, so
    // that size is the compressed one; served plain, the whole file's.
    const start = async (origin) => {
      const p = await h.newPage(browser);
      await p.addInitScript(() => {
        window.sizesShown = [];
        window.streamed = false;
        const streaming = WebAssembly.instantiateStreaming;
        WebAssembly.instantiateStreaming = function (...args) { window.streamed = true; return streaming.apply(this, args); };
        new MutationObserver(() => {
          const t = document.getElementById('status-text');
          const m = t && /Loading gpuplan… ([0-9.]+) MB/.exec(t.textContent);
          if (m) window.sizesShown.push(Number(m[1]));
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      let encoding = null;
      let bytes = null;
      p.on('response', async (r) => {
        if (!r.url().endsWith('/gpuplan.wasm')) return;
        encoding = r.headers()['content-encoding'] || 'none';
        bytes = Number(r.headers()['content-length']);
      });
      await p.goto(`${origin}/`);
      await h.waitReady(p);
      const result = await p.evaluate(() => ({ sizes: window.sizesShown, streamed: window.streamed }));
      if (p.errors.length) throw new Error(`errors: ${p.errors.join('; ')}`);
      await p.close();
      return { ...result, encoding, bytes };
    };
    const check = (what, r, encoding, fileBytes) => {
      if (r.encoding !== encoding) throw new Error(`${what}: gpuplan.wasm was sent with encoding ${r.encoding}, expected ${encoding}`);
      if (r.bytes !== fileBytes) throw new Error(`${what}: ${r.bytes} bytes announced, the file has ${fileBytes}`);
      if (!r.streamed) throw new Error(`${what}: the wasm was not compiled while downloading (no WebAssembly.instantiateStreaming call)`);
      const mb = Number((fileBytes / 1e6).toFixed(1));
      if (!r.sizes.includes(mb)) throw new Error(`${what}: the loading screen did not show ${mb} MB (it showed ${r.sizes.join(', ') || 'nothing'})`);
    };
    const brBytes = fs.statSync(path.join(webDir, 'gpuplan.wasm.br')).size;
    const rawBytes = fs.statSync(path.join(webDir, 'gpuplan.wasm')).size;
    const compressed = await start(server.origin);
    check('compressed', compressed, 'br', brBytes);
    const plainServer = await h.serve(webDir, {}, { compressed: false });
    let plain;
    try {
      plain = await start(plainServer.origin);
    } finally {
      plainServer.close();
    }
    check('plain', plain, 'none', rawBytes);
    if (page.errors.length) throw new Error(`errors: ${page.errors.join('; ')}`);
    return `no WebGL2 → "${text.split('\n')[0]}"; compressed start streamed ${brBytes} bytes of brotli ` +
      `(${(brBytes / 1e6).toFixed(1)} MB shown), plain ${rawBytes} (${(rawBytes / 1e6).toFixed(1)} MB shown)`;
  } finally {
    await browser.close();
    server.close();
  }
});
