// live_pages.test.js — opens every docs page that has live numbers or embedded planner views
// (the worked examples at least) in Debian's chromium and checks, against the native CLI:
//   * every live number is filled in (data-gpuplan-state="ok"), its full-precision value equals
//     the value at the same path of what `gpuplan eval <the same scenario file>` prints, and the
//     text shown is that CLI value formatted as the element asks (formatting re-done here);
//   * every embedded view started in embed mode on the requested view with the page's
//     scenario (no URL or scenario error) and rendered something (not a blank canvas);
//   * axe-core finds no serious or critical accessibility violation on the page, its
//     embedded views included;
//   * the pages are served as scripts/serve.sh serves them, and the JS API's .wasm arrives as
//     the brotli sibling the build wrote.
// It prints how long the live numbers took once the JS API was ready (User Timing marks set by
// docs/js/gpuplan-live.js): a figure for docs/performance.md, not a timed assertion.
//
// Usage: node live_pages.test.js <assembled site> <gpuplan binary> <screenshot dir>
// The site is scripts/docs_site.py assemble's output (app at /, api at /api/, docs at /docs/),
// served by an in-process HTTP server on 127.0.0.1 (loopback only, a free port).
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(path.join(__dirname, '..', 'browser', 'node_modules', 'playwright-core'));
const { audit } = require(path.join(__dirname, '..', 'browser', 'axe.js'));
const { createStaticServer } = require(path.join(__dirname, '..', '..', 'scripts', 'static_server.js'));

const WORKED_EXAMPLES = ['blended-fleet', 'dev-gpus', 'llama-70b-l40s-h100', 'spot-checkpoints', 'decode-pipeline', 'usage-fleets'];
const LOAD_TIMEOUT_MS = 90_000;
// An embedded ImGui view shows text, tables and charts: many colours and many colour changes
// per pixel row. A blank or single-colour canvas has 1-2 colours and ~0 changes.
const MIN_DISTINCT_COLOURS = 8;
const MIN_COLOUR_CHANGES_PER_ROW = 5;

// The server people get from scripts/serve.sh (precompressed .br/.gz siblings sent to a
// browser that accepts them), so the docs pages are checked as they are served.
function serve(root) {
  const server = createStaticServer(root, { cacheControl: 'no-store' });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---- the CLI side, computed independently of the page ------------------------------------
const evalCache = new Map();
function cliEval(gpuplan, file) {
  if (!evalCache.has(file)) {
    const out = childProcess.execFileSync(gpuplan, ['eval', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    evalCache.set(file, JSON.parse(out));
  }
  return evalCache.get(file);
}

// "$.a.b[2].c", "$.a[key=spot].c" or "/a/b/2/c" -> value (a figure object gives its value).
function valueAt(doc, p) {
  let parts;
  if (p.startsWith('/')) {
    parts = p.slice(1).split('/').map((s) => ({ name: s.replace(/~1/g, '/').replace(/~0/g, '~') }));
  } else {
    parts = [];
    for (const m of p.slice(1).matchAll(/\.([^.[\]]+)|\[(\d+)\]|\[(\w+)=([^\]]*)\]/g))
      parts.push(m[1] !== undefined ? { name: m[1] } : m[2] !== undefined ? { name: m[2] } : { field: m[3], equals: m[4] });
  }
  let node = doc;
  for (const part of parts) {
    if (part.field !== undefined) {
      const hits = node.filter((item) => String(item[part.field]) === part.equals);
      if (hits.length !== 1) throw new Error(`${p}: ${hits.length} items with ${part.field}=${part.equals}`);
      node = hits[0];
    } else {
      if (node === null || typeof node !== 'object' || !(part.name in node)) throw new Error(`${p}: no ${part.name} in the CLI result`);
      node = node[part.name];
    }
  }
  if (node !== null && typeof node === 'object' && 'value' in node) node = node.value;
  return node;
}

// The formatting the page promises (docs/embedding.md), written out here again.
function expectedText(value, format, digits) {
  if (format === 'text') return String(value);
  const d = digits === null ? (format === 'integer' ? 0 : 2) : Number(digits);
  const nf = new Intl.NumberFormat('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  if (format === 'usd') return (value < 0 ? '-$' : '$') + nf.format(Math.abs(value));
  if (format === 'percent') return nf.format(value * 100) + '%';
  return nf.format(value);
}

function canonical(value) {  // JSON with sorted keys, to compare documents
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  if (value !== null && typeof value === 'object')
    return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}';
  return JSON.stringify(value);
}

function pagesWithLiveContent(docsDir) {
  const pages = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.html') && /data-gpuplan-(path|embed)/.test(fs.readFileSync(full, 'utf8'))) pages.push(full);
    }
  };
  walk(docsDir);
  return pages.sort();
}

async function main() {
  const [siteArg, gpuplan, shotDir] = process.argv.slice(2);
  if (!siteArg || !gpuplan || !shotDir) throw new Error('usage: node live_pages.test.js <site> <gpuplan> <screenshot dir>');
  const site = path.resolve(siteArg);
  for (const f of ['index.html', 'api/gpuplan-api.js', 'docs/index.html'])
    if (!fs.existsSync(path.join(site, f))) throw new Error(`${f} missing in ${site}: run scripts/docs_site.py assemble`);
  fs.mkdirSync(shotDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuplan-docs-test-'));

  const pages = pagesWithLiveContent(path.join(site, 'docs'));
  const rel = pages.map((p) => path.relative(site, p));
  for (const name of WORKED_EXAMPLES)
    if (!rel.includes(`docs/examples/${name}/index.html`)) throw new Error(`worked example ${name} has no live numbers or views`);

  const server = await serve(site);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'],
  });
  const failures = [];
  let numbers = 0, embeds = 0;
  const fillTimesMs = [];
  try {
    for (const file of pages) {
      const urlPath = '/' + path.relative(site, file).split(path.sep).join('/').replace(/index\.html$/, '');
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
      const errors = [];
      page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} (${(r.failure() || {}).errorText})`));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
      // The JS API's .wasm should arrive as the brotli sibling the build wrote (issue 32).
      const apiWasmEncodings = [];
      page.on('response', (r) => { if (r.url().endsWith('/api/gpuplan-api.wasm')) apiWasmEncodings.push(r.headers()['content-encoding'] || 'none'); });
      const fail = (what) => failures.push(`${urlPath}: ${what}`);
      await page.goto(origin + urlPath);
      try {
        await page.waitForSelector('html[data-gpuplan-live="done"]', { timeout: LOAD_TIMEOUT_MS });
      } catch (_) {
        fail(`live content not settled within ${LOAD_TIMEOUT_MS / 1000} s; ${errors.join('; ') || 'no errors logged'}`);
        await page.close();
        continue;
      }

      // How long the numbers took once the JS API was ready (reported, not asserted: issue 32's
      // goal is 1 s; docs/performance.md).
      const fillMs = await page.evaluate(() => {
        const ready = performance.getEntriesByName('gpuplan-api-ready')[0];
        const done = performance.getEntriesByName('gpuplan-live-done')[0];
        return ready && done ? done.startTime - ready.startTime : null;
      });
      if (fillMs !== null) fillTimesMs.push(fillMs);

      // -- live numbers
      const found = await page.$$eval('[data-gpuplan-path][data-gpuplan-scenario]', (els) => els.map((el) => ({
        scenario: el.getAttribute('data-gpuplan-scenario'),
        inline: el.getAttribute('data-gpuplan-scenario').startsWith('#')
          ? (document.getElementById(el.getAttribute('data-gpuplan-scenario').slice(1)) || {}).textContent : null,
        path: el.getAttribute('data-gpuplan-path'), format: el.getAttribute('data-gpuplan-format') || 'number',
        digits: el.getAttribute('data-gpuplan-digits'), state: el.getAttribute('data-gpuplan-state'),
        value: el.getAttribute('data-gpuplan-value'), text: el.textContent, title: el.title })));
      for (const n of found) {
        ++numbers;
        const where = `${n.scenario} ${n.path}`;
        if (n.state !== 'ok') { fail(`${where}: not filled in (state ${n.state}: ${n.title})`); continue; }
        let scenarioFile;
        if (n.inline !== null) {
          scenarioFile = path.join(tmp, `inline-${numbers}.json`);
          fs.writeFileSync(scenarioFile, n.inline);
        } else {
          scenarioFile = path.join(site, decodeURIComponent(new URL(n.scenario, origin + urlPath).pathname));
        }
        const cli = valueAt(cliEval(gpuplan, scenarioFile), n.path);
        if (String(cli) !== n.value) fail(`${where}: page computed ${n.value}, gpuplan eval prints ${cli}`);
        const want = expectedText(cli, n.format, n.digits);
        if (n.text !== want) fail(`${where}: page shows "${n.text}", expected "${want}"`);
        if (!/formula|computed by gpuplan/.test(n.title)) fail(`${where}: no explanation in the tooltip ("${n.title}")`);
      }

      if (found.length > 0 && !apiWasmEncodings.includes('br'))
        fail(`the JS API's .wasm arrived with encoding ${apiWasmEncodings.join(', ') || '(not requested)'}, not brotli`);

      // -- embedded views
      const holders = await page.$$('[data-gpuplan-embed]');
      for (let k = 0; k < holders.length; ++k) {
        ++embeds;
        const holder = holders[k];
        const spec = await holder.evaluate((el) => ({ scenario: el.getAttribute('data-gpuplan-scenario'),
          view: el.getAttribute('data-gpuplan-view'), state: el.getAttribute('data-gpuplan-state') }));
        const where = `embed ${k + 1} (${spec.view}, ${spec.scenario})`;
        const frameEl = await holder.$('iframe.gpuplan-embed');
        if (spec.state !== 'ok' || !frameEl) { fail(`${where}: no iframe (state ${spec.state})`); continue; }
        await frameEl.scrollIntoViewIfNeeded();
        const frame = await frameEl.contentFrame();
        try {
          await frame.waitForFunction(() => window.gpuplan && (window.gpuplan.ready || window.gpuplan.failed), null, { timeout: LOAD_TIMEOUT_MS });
        } catch (_) { fail(`${where}: the app did not start within ${LOAD_TIMEOUT_MS / 1000} s`); continue; }
        const state = await frame.evaluate(() => (window.gpuplan.failed ? { failure: window.gpuplan.failure } : window.gpuplan.getState()));
        if (state.failure) { fail(`${where}: the app failed: ${state.failure}`); continue; }
        if (!state.embed) fail(`${where}: not in embed mode`);
        // An embed never takes focus unasked: the docs page scrolled itself to it and the
        // reader's keys went into it (issue 30).
        if (await page.evaluate(() => document.activeElement && document.activeElement.tagName) === 'IFRAME')
          fail(`${where}: took the page's focus when it started`);
        if (state.view !== spec.view) fail(`${where}: shows view ${state.view}`);
        if (state.error) fail(`${where}: scenario error: ${state.error}`);
        if (state.url_errors && state.url_errors.length) fail(`${where}: URL errors: ${state.url_errors.join('; ')}`);
        const scenarioFile = path.join(site, decodeURIComponent(new URL(spec.scenario, origin + urlPath).pathname));
        if (canonical(state.scenario) !== canonical(JSON.parse(fs.readFileSync(scenarioFile, 'utf8'))))
          fail(`${where}: the view's scenario differs from ${spec.scenario}`);
        await frame.evaluate(() => window.gpuplan.redraw && window.gpuplan.redraw(3));
        await page.waitForTimeout(300);
        const shotFile = path.join(shotDir, `${urlPath.replace(/\W+/g, '_')}embed${k + 1}.png`);
        const png = await frameEl.screenshot({ path: shotFile });
        // Decode the screenshot in the browser (an <img> drawn on a 2D canvas) and count colours.
        const stats = await page.evaluate(async (b64) => {
          const img = new Image();
          img.src = 'data:image/png;base64,' + b64;
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.width; c.height = img.height;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          const colours = new Set();
          let changes = 0;
          for (let y = 0; y < c.height; ++y) {
            let prev = -1;
            for (let x = 0; x < c.width; ++x) {
              const i = (y * c.width + x) * 4;
              const rgb = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
              colours.add(rgb);
              if (prev >= 0 && rgb !== prev) ++changes;
              prev = rgb;
            }
          }
          return { distinct: colours.size, changesPerRow: changes / c.height, width: c.width, height: c.height };
        }, png.toString('base64'));
        if (stats.distinct < MIN_DISTINCT_COLOURS || stats.changesPerRow < MIN_COLOUR_CHANGES_PER_ROW)
          fail(`${where}: looks blank: ${stats.distinct} colours, ${stats.changesPerRow.toFixed(1)} changes per row ` +
               `(${stats.width}x${stats.height}; ${shotFile})`);
      }
      // -- an accessibility audit of the page with its embedded views (issue 30)
      for (const violation of await audit(page)) fail(`axe-core: ${violation}`);
      const serious = errors.filter((e) => !/favicon/.test(e));
      if (serious.length) fail(serious.join('; '));
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (failures.length) {
    for (const f of failures) console.log('FAIL ' + f);
    console.log(`FAIL docs live pages: ${failures.length} problem(s) over ${pages.length} pages, ${numbers} live numbers, ${embeds} embedded views`);
    process.exit(1);
  }
  console.log(`PASS docs live pages: ${pages.length} pages, ${numbers} live numbers equal to gpuplan eval, ${embeds} embedded views rendered, no serious or critical axe-core violation`);
  if (fillTimesMs.length > 0) {
    const sorted = fillTimesMs.slice().sort((x, y) => x - y);
    console.log(`live numbers filled after the JS API was ready: median ${sorted[sorted.length >> 1].toFixed(0)} ms, ` +
      `slowest ${sorted[sorted.length - 1].toFixed(0)} ms over ${sorted.length} pages`);
  }
}

main().catch((error) => { console.log(`FAIL docs live pages: ${error.message}`); process.exit(1); });
