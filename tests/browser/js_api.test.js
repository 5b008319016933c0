// js_api.test.js — the JS API (docs/js-api.md) loaded by a page from /api/, compared with the
// native CLI: for every example scenario, GpuplanApi.evaluate(scenario) must equal what
// `gpuplan eval FILE` prints (parsed JSON, every number bit for bit). Also: catalog() counts
// against the catalog files, explain() against the figure's own formula and worked line, and
// a bad scenario throws an Error naming the JSON path.
//
// Usage: node js_api.test.js <web output dir> <gpuplan binary> <scenario dir> <catalog dir>
'use strict';

const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const h = require('./harness');

h.runTest('browser.js_api', async () => {
  const [webDir, gpuplan, scenarioDir, catalogDir] = process.argv.slice(2);
  if (!webDir || !gpuplan || !scenarioDir || !catalogDir)
    throw new Error('usage: node js_api.test.js <web dir> <gpuplan binary> <scenario dir> <catalog dir>');
  h.requireBuilt(webDir, ['api/gpuplan-api.js', 'api/gpuplan-api.wasm']);
  const files = fs.readdirSync(scenarioDir).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`no scenarios in ${scenarioDir}`);

  // What the native CLI says, computed first and independently of the browser.
  const expected = {};
  for (const file of files)
    expected[file] = JSON.parse(execFileSync(gpuplan, ['eval', path.join(scenarioDir, file)], { encoding: 'utf8' }));
  const catalogCounts = {};
  for (const list of ['instances', 'accelerators'])
    catalogCounts[list] = JSON.parse(fs.readFileSync(path.join(catalogDir, `${list}.json`), 'utf8'))[list].length;

  const server = await h.serve(webDir, {
    '/api-test.html': { type: 'text/html; charset=utf-8', body: '<!doctype html><link rel="icon" href="data:,"><script src="/api/gpuplan-api.js"></script>' },
  });
  const browser = await h.launch();
  try {
    const page = await h.newPage(browser);
    await page.goto(`${server.origin}/api-test.html`);
    const texts = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(scenarioDir, f), 'utf8')]));
    const origin = Object.fromEntries(files.map((f) => [f, path.join(scenarioDir, f)]));
    const got = await page.evaluate(async ([texts, origin]) => {
      const api = await GpuplanApi.load();
      const out = { version: api.version, results: {}, errors: {} };
      for (const [file, text] of Object.entries(texts)) {
        // The origin is the path the CLI was given, so provenance text matches too.
        try { out.results[file] = api.evaluate(text, origin[file]); } catch (e) { out.errors[file] = e.message; }
      }
      const catalog = api.catalog();
      out.counts = { instances: catalog.instances.length, accelerators: catalog.accelerators.length };
      try { api.evaluate({ schema: 'gpuplan.scenario/1', fleet: { hours: -1 } }); out.bad = 'no error'; } catch (e) { out.bad = e.message; }
      // One byte over the core's 16 MiB: refused in the core's words (before the copy into wasm).
      try { api.evaluate(' '.repeat(16 * 1024 * 1024 + 1), 'big.json'); out.big = 'no error'; } catch (e) { out.big = e.message; }
      // Inputs the copy into wasm used to change or cut (issue 34): each refused in the
      // "FIELD: got ...; expected ..." form, never a raw TypeError or nlohmann text.
      const first = Object.keys(texts)[0];
      const refusal = (f) => { try { f(); return 'no error'; } catch (e) { return e.message; } };
      const cyclic = { schema: 'gpuplan.scenario/1' };
      cyclic.self = cyclic;
      out.refused = {
        nul: refusal(() => api.evaluate(texts[first] + '\u0000{"fleet": 1}', 'nul.json')),
        surrogate: refusal(() => api.evaluate('{"schema": "gpuplan.scenario/1", "name": "a\uD800b"}', 'lone.json')),
        bigint: refusal(() => api.evaluate({ schema: 'gpuplan.scenario/1', fleet: { hours: 10n } })),
        cyclic: refusal(() => api.evaluate(cyclic)),
        number: refusal(() => api.evaluate(5)),
        result_text: refusal(() => api.explain('{"price": ', '$.price')),
        pointer: refusal(() => api.explain('{"a": {"b": 1}}', '/a~2b')),
      };
      out.results_object = api.evaluate(JSON.parse(texts[first]), origin[first]);  // object input too
      return out;
    }, [texts, origin]);

    for (const file of files) {
      if (got.errors[file]) throw new Error(`${file}: the JS API threw: ${got.errors[file]}`);
      const diff = firstDifference(expected[file], got.results[file], '$');
      if (diff) throw new Error(`${file}: JS API and \`gpuplan eval\` differ at ${diff}`);
    }
    if (firstDifference(expected[files[0]], got.results_object, '$')) throw new Error('evaluate(object) differs from evaluate(text)');
    for (const list of ['instances', 'accelerators'])
      if (got.counts[list] !== catalogCounts[list]) throw new Error(`catalog(): ${got.counts[list]} ${list}, the catalog file has ${catalogCounts[list]}`);
    if (!/fleet\.hours/.test(got.bad)) throw new Error(`a bad scenario should throw naming fleet.hours, got: ${got.bad}`);
    const bigWant = 'big.json: got 16777217 bytes; expected at most 16777216 bytes (16 MiB)';
    if (got.big !== bigWant) throw new Error(`an oversized scenario should throw "${bigWant}", got: ${got.big}`);

    const refusedWant = {
      nul: /^nul\.json: got a NUL character at position \d+; expected text without NUL characters$/,
      surrogate: /^lone\.json: got a lone UTF-16 surrogate \(U\+D800\) at position 43; expected valid Unicode text/,
      bigint: /^scenario: got a BigInt value; expected plain JSON/,
      cyclic: /^scenario: got an object that contains itself; expected plain JSON/,
      number: /^scenario: got a number; expected an object or a JSON string$/,
      result_text: /^result: parse error at line 1, column \d+: /,  // as the CLI reads a file
      pointer: /^path: got '\/a~2b'; expected a JSON path .* ~1 for \//,
    };
    for (const [what, want] of Object.entries(refusedWant))
      if (!want.test(got.refused[what])) throw new Error(`${what}: expected a refusal matching ${want}, got: ${got.refused[what]}`);
    if (/json\.exception|TypeError/.test(Object.values(got.refused).join(' '))) throw new Error(`raw engine text in: ${JSON.stringify(got.refused)}`);

    // explain(): pick the first figure of the first result and check its formula and worked line.
    const [figurePath, figure] = firstFigure(expected[files[0]], '$');
    if (!figurePath) throw new Error(`no figure found in ${files[0]}'s result`);
    const text = await page.evaluate(async ([result, p]) => (await GpuplanApi.load()).explain(result, p), [expected[files[0]], figurePath]);
    if (!text.includes(figure.explain.formula) || !text.includes(figure.explain.worked))
      throw new Error(`explain(${figurePath}) does not show the figure's formula and worked line: ${text}`);
    if (page.errors.length) throw new Error(`errors: ${page.errors.join('; ')}`);
    return `version ${got.version}: ${files.length} scenarios identical to \`gpuplan eval\`; catalog ${got.counts.instances} instances, ` +
      `${got.counts.accelerators} accelerators; explain(${figurePath}) ok; bad input → "${got.bad}"`;
  } finally {
    await browser.close();
    server.close();
  }
});

// The path of the first difference between two JSON values ('' when equal). Numbers must be
// identical: both sides print doubles with the same shortest round-trip algorithm.
function firstDifference(a, b, where) {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null))
    return `${where} (${JSON.stringify(a)} vs ${JSON.stringify(b)})`;
  if (a && typeof a === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${where}[${k}]` : `${where}.${k}`);
      if (d) return d;
    }
    return '';
  }
  return a === b ? '' : `${where} (${JSON.stringify(a)} vs ${JSON.stringify(b)})`;
}

function firstFigure(node, where) {
  if (node && typeof node === 'object') {
    if ('value' in node && 'explain' in node && typeof node.value === 'number') return [where, node];
    for (const [k, v] of Object.entries(node)) {
      const found = firstFigure(v, Array.isArray(node) ? `${where}[${k}]` : `${where}.${k}`);
      if (found[0]) return found;
    }
  }
  return [null, null];
}
