// static_server.test.js: scripts/static_server.js and scripts/precompress.js on a temporary
// folder, over loopback, no browser. What would break a real visit: a stale .br sent after a
// rebuild (the old app), the encoding sent to a client that refused it, a .wasm labelled so
// that streamed compilation fails, a path out of the folder.
//
// Usage: node tests/web/static_server.test.js
'use strict';

const assert = require('assert');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { createStaticServer } = require('../../scripts/static_server.js');
const { precompress } = require('../../scripts/precompress.js');

function get(origin, urlPath, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${urlPath}`, { method, headers }, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuplan-static-'));
  const site = path.join(dir, 'site');
  fs.mkdirSync(path.join(site, 'api'), { recursive: true });
  // Compressible and large enough: repeated text (like code) that brotli shrinks a lot.
  const wasm = Buffer.from('\0asm\x01\0\0\0' + 'gpuplan figure '.repeat(4000));
  fs.writeFileSync(path.join(site, 'app.wasm'), wasm);
  fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>gpuplan</title>' + ' '.repeat(2000));
  fs.writeFileSync(path.join(site, 'api', 'small.js'), 'x');  // under 1 KiB: not compressed
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the site');

  // precompress writes .br and .gz that decode to the original, skips small files, and on a
  // second run finds everything up to date.
  const first = precompress(site, 5);
  assert.deepStrictEqual(first.map((r) => r.file).sort(), ['app.wasm', 'index.html']);
  assert.ok(zlib.brotliDecompressSync(fs.readFileSync(path.join(site, 'app.wasm.br'))).equals(wasm));
  assert.ok(zlib.gunzipSync(fs.readFileSync(path.join(site, 'app.wasm.gz'))).equals(wasm));
  assert.ok(!fs.existsSync(path.join(site, 'api', 'small.js.br')));
  assert.deepStrictEqual(precompress(site, 5), []);

  const server = createStaticServer(site);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  try {
    // A browser's Accept-Encoding gets brotli, with the original's type and the encoded length.
    let r = await get(origin, '/app.wasm', { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.strictEqual(r.status, 200);
    assert.strictEqual(r.headers['content-encoding'], 'br');
    assert.strictEqual(r.headers['content-type'], 'application/wasm');
    assert.strictEqual(r.headers.vary, 'Accept-Encoding');
    assert.strictEqual(Number(r.headers['content-length']), r.body.length);
    assert.ok(zlib.brotliDecompressSync(r.body).equals(wasm));
    const brBytes = r.body.length;
    // gzip only (or brotli refused with q=0): the .gz.
    r = await get(origin, '/app.wasm', { 'Accept-Encoding': 'gzip, br;q=0' });
    assert.strictEqual(r.headers['content-encoding'], 'gzip');
    assert.ok(zlib.gunzipSync(r.body).equals(wasm));
    // No Accept-Encoding: the file itself.
    r = await get(origin, '/app.wasm');
    assert.strictEqual(r.headers['content-encoding'], undefined);
    assert.ok(r.body.equals(wasm));
    // The folder's index, HEAD without a body.
    r = await get(origin, '/', { 'Accept-Encoding': 'br' }, 'HEAD');
    assert.strictEqual(r.status, 200);
    assert.strictEqual(r.headers['content-type'], 'text/html; charset=utf-8');
    assert.strictEqual(r.body.length, 0);
    // A rebuilt file newer than its siblings is sent as it is, never the old compressed one.
    const rebuilt = Buffer.from('\0asm\x01\0\0\0' + 'rebuilt figure '.repeat(4000));
    const earlier = new Date(Date.now() - 10000);  // the siblings from the build before
    for (const sibling of ['app.wasm.br', 'app.wasm.gz']) fs.utimesSync(path.join(site, sibling), earlier, earlier);
    fs.writeFileSync(path.join(site, 'app.wasm'), rebuilt);
    r = await get(origin, '/app.wasm', { 'Accept-Encoding': 'br, gzip' });
    assert.strictEqual(r.headers['content-encoding'], undefined, 'a stale .br was sent after a rebuild');
    assert.ok(r.body.equals(rebuilt));
    // precompress refreshes it, and then the new one is sent compressed.
    assert.deepStrictEqual(precompress(site, 5).map((x) => x.file), ['app.wasm']);
    r = await get(origin, '/app.wasm', { 'Accept-Encoding': 'br' });
    assert.ok(zlib.brotliDecompressSync(r.body).equals(rebuilt));
    // Out of the folder, missing, or another method: refused.
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/nothing.js']) assert.strictEqual((await get(origin, p)).status, 404, p);
    assert.strictEqual((await get(origin, '/app.wasm', {}, 'POST')).status, 405);
    return `brotli ${brBytes} of ${wasm.length} bytes; gzip when brotli is refused; a stale sibling ignored; ` +
      'traversal, missing files and POST refused';
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (summary) => { console.log(`PASS web.static_server: ${summary}`); },
  (error) => { console.log(`FAIL web.static_server: ${error.stack}`); process.exit(1); });
