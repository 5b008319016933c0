#!/usr/bin/env node
// static_server.js: the planner's static HTTP server, for scripts/serve.sh and the browser tests
// (tests/browser/harness.js uses this module, so the tests run against what people are served).
//
//   node scripts/static_server.js [--port 8080] [--host 127.0.0.1] DIR
//
// It sends a precompressed sibling (FILE.br, else FILE.gz, written by scripts/precompress.js)
// when the browser accepts that encoding and the sibling is at least as new as FILE, with
// Content-Encoding and the original's Content-Type: the app's .wasm arrives about a quarter of
// its size, and `application/wasm` lets the page compile it while it downloads
// (WebAssembly.instantiateStreaming). A stale or missing sibling means FILE itself is sent.
// Node's standard library only.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
};
// Preferred first: brotli is about a quarter smaller than gzip on the .wasm.
const ENCODINGS = [{ name: 'br', suffix: '.br' }, { name: 'gzip', suffix: '.gz' }];

// The encodings a request's Accept-Encoding allows (a q=0 entry refuses one).
function acceptedEncodings(header) {
  const accepted = new Set();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

// The file to send for `file` and its encoding: a fresh precompressed sibling the client accepts,
// else the file itself (encoding null).
function chooseVariant(file, stat, acceptEncoding) {
  const accepted = acceptedEncodings(acceptEncoding);
  for (const { name, suffix } of ENCODINGS) {
    if (!accepted.has(name)) continue;
    try {
      const sibling = fs.statSync(file + suffix);
      if (sibling.isFile() && sibling.mtimeMs >= stat.mtimeMs) return { file: file + suffix, size: sibling.size, encoding: name };
    } catch (_) { /* no such sibling */ }
  }
  return { file, size: stat.size, encoding: null };
}

// A server for `root`. `extra` maps URL paths to {type, body} for pages a test makes up (body:
// text, or a function of the server returning it). `cacheControl` is sent with every file;
// `compressed` false ignores the precompressed siblings.
function createStaticServer(root, { extra = {}, cacheControl = 'no-cache', compressed = true } = {}) {
  root = path.resolve(root);
  return http.createServer((request, response) => {
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch (_) {
      response.writeHead(400).end('bad request path');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (extra[urlPath]) {
      response.writeHead(200, { 'Content-Type': extra[urlPath].type, 'Cache-Control': 'no-store' });
      const body = extra[urlPath].body;
      response.end(typeof body === 'function' ? body(response.socket.server) : body);
      return;
    }
    let file = path.join(root, urlPath);
    let stat = null;
    try {
      stat = fs.statSync(file);
      if (stat.isDirectory()) stat = fs.statSync((file = path.join(file, 'index.html')));
    } catch (_) { stat = null; }
    if (!stat || !stat.isFile() || !(file + path.sep).startsWith(root + path.sep) || file === root) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    const variant = chooseVariant(file, stat, compressed ? request.headers['accept-encoding'] : '');
    const headers = {
      'Content-Type': MIME_TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
      'Content-Length': variant.size,
      'Cache-Control': cacheControl,
      Vary: 'Accept-Encoding',
    };
    if (variant.encoding) headers['Content-Encoding'] = variant.encoding;
    response.writeHead(200, headers);
    if (request.method === 'HEAD') response.end();
    else fs.createReadStream(variant.file).pipe(response);
  });
}

function main(argv) {
  let port = 8080, host = '127.0.0.1', root = null;
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (arg === '--port') port = Number(argv[++i]);
    else if (arg === '--host') host = argv[++i];
    else if (arg === '-h' || arg === '--help') {
      console.log('usage: node scripts/static_server.js [--port 8080] [--host 127.0.0.1] DIR');
      return 0;
    } else if (!arg.startsWith('-') && root === null) root = arg;
    else {
      console.error(`static_server: unknown argument '${arg}' (usage: [--port N] [--host H] DIR)`);
      return 2;
    }
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`static_server: --port: got '${port}', expected a whole number from 0 to 65535`);
    return 2;
  }
  if (!root || !fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    console.error(`static_server: DIR: got '${root || ''}', expected a folder to serve`);
    return 2;
  }
  const server = createStaticServer(root);
  server.on('error', (error) => {
    console.error(`static_server: cannot listen on ${host}:${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => console.log(`static_server: serving ${path.resolve(root)} on http://${host}:${server.address().port}/`));
  return null;
}

if (require.main === module) {
  const code = main(process.argv.slice(2));
  if (code !== null) process.exit(code);
}

module.exports = { createStaticServer, acceptedEncodings, MIME_TYPES };
