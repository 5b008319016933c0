// harness.js — what every browser test shares: a static server on 127.0.0.1, Debian's
// chromium through playwright-core, error capture, and a PNG decoder to tell a drawn canvas
// from a blank one. Only loopback is used.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const READY_TIMEOUT_MS = 60_000;

// The server people get from scripts/serve.sh (precompressed .br/.gz siblings sent to a
// browser that accepts them), so every browser test runs against it.
const { createStaticServer } = require('../../scripts/static_server.js');

// Serves `root`; `extra` maps URL paths to {type, body} for pages made up by a test (body:
// text, or a function of the server returning it).
// `options.compressed` false sends every file as it is (the precompressed siblings ignored).
function serve(root, extra = {}, options = {}) {
  const server = createStaticServer(root, { extra, cacheControl: 'no-store', ...options });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    server.origin = `http://127.0.0.1:${server.address().port}`;
    resolve(server);
  }));
}

function requireBuilt(webDir, files = ['index.html', 'shell.js', 'gpuplan.js', 'gpuplan.wasm']) {
  for (const file of files)
    if (!fs.existsSync(path.join(webDir, file))) throw new Error(`${file} missing in ${webDir}: build the wasm preset first`);
}

async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    // SwiftShader gives WebGL2 without a GPU; the rest keeps chromium off the network.
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'],
  });
}

// A page whose console errors, page errors and failed requests are collected in page.errors.
async function newPage(browser, viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  page.errors = [];
  page.on('console', (message) => { if (message.type() === 'error') page.errors.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => page.errors.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => page.errors.push(`request failed: ${request.url()} (${(request.failure() || {}).errorText})`));
  return page;
}

async function waitReady(page, frame = page) {
  try {
    await frame.waitForFunction(() => window.gpuplan && (window.gpuplan.ready || window.gpuplan.failed), null,
      { timeout: READY_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`page not ready within ${READY_TIMEOUT_MS / 1000} s; ${page.errors.join('; ') || 'no errors logged'}`);
  }
  const failure = await frame.evaluate(() => window.gpuplan.failure);
  if (failure) throw new Error(`page failed to start: ${failure}`);
  return frame.evaluate(() => window.gpuplan.getState());
}

// Draws `frames` more frames and waits until they are on screen and the link is updated
// (frames_drawn counts them), instead of a fixed wait that a loaded machine outruns.
// `what` names the step in the error.
async function settle(page, frames = 4, what = 'settle') {
  const before = await page.evaluate(() => window.gpuplan.getState().frames_drawn);
  await page.evaluate((n) => window.gpuplan.redraw(n), frames);
  try {
    await page.waitForFunction((target) => window.gpuplan.getState().frames_drawn >= target, before + frames, { timeout: 20000 });
  } catch (error) {
    const now = await page.evaluate(() => window.gpuplan.getState().frames_drawn);
    throw new Error(`${what}: ${frames} frames asked for, ${now - before} drawn in 20 s; page errors: ${(page.errors || []).join('; ') || 'none'}`);
  }
  await page.evaluate(() => window.gpuplan.linkSettled());
}

// Drops a file named `name` holding `text` onto the page, as a drag from the desktop does, and
// waits until the toolbar says what became of it (every import message names the file). The
// page reads a dropped file asynchronously (File.text()), so a fixed wait is outrun on a loaded
// machine. Returns the message and the page's state after it.
async function dropFile(page, name, text, type = 'application/json') {
  await page.evaluate(([n, t, ty]) => {
    document.getElementById('toolbar-message').textContent = '';
    const transfer = new DataTransfer();
    transfer.items.add(new File([t], n, { type: ty }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
  }, [name, text, type]);
  try {
    await page.waitForFunction((n) => document.getElementById('toolbar-message').textContent.includes(n), name, { timeout: 20000 });
  } catch (error) {
    throw new Error(`dropping ${name}: no message naming it in 20 s; page errors: ${(page.errors || []).join('; ') || 'none'}`);
  }
  return page.evaluate(() => ({ message: document.getElementById('toolbar-message').textContent, state: window.gpuplan.getState() }));
}

const { decodePng, colourStats, checkNotBlank } = require('./png');

function saveScreenshot(png, file) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, png);
}

// Runs `body`, prints one PASS/FAIL line for `name` and exits 0/1.
function runTest(name, body) {
  body().then(
    (summary) => { console.log(`PASS ${name}: ${summary}`); process.exit(0); },
    (error) => { console.log(`FAIL ${name}: ${error.message}`); process.exit(1); });
}

module.exports = { serve, requireBuilt, launch, newPage, waitReady, settle, dropFile, decodePng, colourStats, checkNotBlank,
  saveScreenshot, runTest, READY_TIMEOUT_MS };
