// catalog_page.test.js — serves the built web page, opens it in Debian's chromium and checks
// that the catalog table really rendered.
//
// Usage: node catalog_page.test.js <web output dir> <screenshot.png>
// Prints one PASS/FAIL line and exits 0/1. Only loopback is used: the page is served by an
// in-process HTTP server on 127.0.0.1 (a file:// page cannot fetch its .wasm).
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const zlib = require('zlib');
const { chromium } = require('playwright-core');

// The built-in catalog's row counts (assets/catalog/*.json).
const EXPECTED_INSTANCES = 67;
const EXPECTED_ACCELERATORS = 17;
const READY_TIMEOUT_MS = 60_000;
// A blank canvas has one colour and no edges; an ImGui window without the table a handful of
// colours and a few colour changes per pixel row (its borders). ImGui's default font
// (ProggyClean) is drawn nearly without anti-aliasing, so the rendered table shows few
// colours (38 measured) but many changes per row from its text (77 measured, averaged over
// every pixel row of a 1280x800 canvas).
const MIN_DISTINCT_COLOURS = 8;
const MIN_COLOUR_CHANGES_PER_ROW = 40;

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',  // required by WebAssembly.instantiateStreaming
  '.json': 'application/json',
  '.png': 'image/png',
  '.css': 'text/css',
};

function serve(root) {
  const server = http.createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const file = path.join(root, urlPath === '/' ? 'index.html' : urlPath);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    const type = MIME_TYPES[path.extname(file)] || 'application/octet-stream';
    response.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are) into
// rows of pixels, undoing the per-row filters, so colours can be counted honestly.
function decodePng(buffer) {
  let offset = 8;  // PNG signature
  let width = 0, height = 0, channels = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('ascii', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [bitDepth, colourType, , , interlace] = data.subarray(8);
      if (bitDepth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6))
        throw new Error(`unsupported PNG (bit depth ${bitDepth}, colour type ${colourType})`);
      channels = colourType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;  // length + type + data + CRC
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {  // Paeth
        const p = left + up - upLeft;
        const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (row[x] + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

// How many distinct RGB colours, and how often the colour changes from one pixel to the next
// along a row: text is dense in such changes, flat fills and borders are not.
function colourStats({ width, height, channels, pixels }) {
  const colours = new Set();
  let changes = 0;
  for (let y = 0; y < height; ++y) {
    let previous = -1;
    for (let x = 0; x < width; ++x) {
      const i = (y * width + x) * channels;
      const rgb = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
      colours.add(rgb);
      if (previous >= 0 && rgb !== previous) ++changes;
      previous = rgb;
    }
  }
  return { distinct: colours.size, changesPerRow: changes / height };
}

async function main() {
  const [webDir, screenshotPath] = process.argv.slice(2);
  if (!webDir || !screenshotPath) throw new Error('usage: node catalog_page.test.js <web dir> <screenshot.png>');
  const root = path.resolve(webDir);
  for (const file of ['index.html', 'gpuplan.js', 'gpuplan.wasm'])
    if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} missing in ${root}: build the wasm preset first`);

  const server = await serve(root);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    // SwiftShader gives WebGL2 without a GPU; the rest keeps chromium off the network.
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'],
  });
  const errors = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    page.on('console', (message) => { if (message.type() === 'error') errors.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()}`));

    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    try {
      await page.waitForFunction(() => window.gpuplan && window.gpuplan.ready, null, { timeout: READY_TIMEOUT_MS });
    } catch (error) {
      throw new Error(`page not ready within ${READY_TIMEOUT_MS / 1000} s; ${errors.join('; ') || 'no errors logged'}`);
    }
    const state = await page.evaluate(() => window.gpuplan);
    if (state.error) throw new Error(`catalog failed to load: ${state.error}`);
    if (state.instances !== EXPECTED_INSTANCES || state.accelerators !== EXPECTED_ACCELERATORS)
      throw new Error(`expected ${EXPECTED_INSTANCES} instances and ${EXPECTED_ACCELERATORS} accelerators, ` +
        `page reports ${state.instances} and ${state.accelerators}`);
    if (await page.locator('#status').isVisible()) throw new Error('loading indicator still shown after ready');

    // WebGL cannot be read back from page JS without preserveDrawingBuffer, so analyse the
    // screenshot of the canvas instead.
    const png = await page.locator('#canvas').screenshot();
    fs.mkdirSync(path.dirname(path.resolve(screenshotPath)), { recursive: true });
    fs.writeFileSync(screenshotPath, png);
    const stats = colourStats(decodePng(png));
    if (stats.distinct < MIN_DISTINCT_COLOURS || stats.changesPerRow < MIN_COLOUR_CHANGES_PER_ROW)
      throw new Error(`canvas looks blank: ${stats.distinct} colours, ` +
        `${stats.changesPerRow.toFixed(1)} colour changes per pixel row (see ${screenshotPath})`);
    if (errors.length > 0) throw new Error(`errors on the page: ${errors.join('; ')}`);

    console.log(`PASS browser.catalog_page: ${state.instances} instances, ${state.accelerators} accelerators, ` +
      `${stats.distinct} colours, ${stats.changesPerRow.toFixed(0)} colour changes per pixel row; ` +
      `screenshot ${screenshotPath}`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => { console.log(`FAIL browser.catalog_page: ${error.message}`); process.exit(1); });
