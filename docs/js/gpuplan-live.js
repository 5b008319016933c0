// gpuplan-live.js — live planner numbers and embedded planner views in any HTML page.
//
// Include it once (no framework, no build step):
//   <script src="/docs/js/gpuplan-live.js" defer></script>
//
// 1. A live number: an element naming a scenario and a figure of its result, filled in at
//    page load by the planner itself (the JS API, docs/js-api.md), so the page cannot go stale.
//      <span data-gpuplan-scenario="../../scenarios/p1-blended-fleet.json"
//            data-gpuplan-path="$.fleet.figures.blended_usd_per_gpu_hour"
//            data-gpuplan-format="usd" data-gpuplan-digits="4">…</span>
//    data-gpuplan-scenario  URL of a gpuplan.scenario/1 file (relative to the page), or "#id" of
//                           a <script type="application/json" id="id"> holding the scenario.
//    data-gpuplan-path      the figure in the gpuplan.result/1 document that `gpuplan eval`
//                           prints: "$.a.b[2].c" or a JSON pointer "/a/b/2/c"; "[key=spot]"
//                           picks the array item whose "key" is "spot" (robust to reordering).
//                           A figure object ({value, unit, explain}) stands for its value.
//    data-gpuplan-format    usd | percent (a fraction shown x100) | number | integer | text
//                           (default number; text shows a string such as an instance name)
//    data-gpuplan-digits    decimals shown (default: usd 2, percent 2, number 2, integer 0)
//    After loading: the text is the formatted number, data-gpuplan-state="ok", data-gpuplan-value
//    holds the full-precision value and the title shows the formula and worked line. On failure:
//    data-gpuplan-state="error", class gpuplan-live-error, the message in the title.
//
// 2. An embedded planner view: an iframe of the planner app in embed mode with the scenario in
//    its URL (?embed=1&view=...&scenario=<base64url of the JSON>, docs/embedding.md).
//      <div data-gpuplan-embed data-gpuplan-scenario="../../scenarios/p1-blended-fleet.json"
//           data-gpuplan-view="costs" data-gpuplan-height="520"></div>
//    Optional: data-gpuplan-theme (dark | light | auto: the host page's), data-gpuplan-title.
//
// Where the planner lives: by default next to the docs, as scripts/serve.sh serves it (app at
// /, JS API at /api/, this file at /docs/js/). Another layout sets, before this script:
//   <script>window.GPUPLAN_LIVE = {app: "https://planner.example/", api: "https://planner.example/api/"};</script>
(function () {
  'use strict';
  const here = document.currentScript ? document.currentScript.src : document.baseURI;
  const options = window.GPUPLAN_LIVE || {};
  const appBase = new URL(options.app || '../../', here).href;   // /docs/js/ -> /
  const apiBase = new URL(options.api || '../../api/', here).href;

  // ---- the JS API, loaded once ----------------------------------------------------------
  let apiPromise = null;
  function loadApi() {
    if (apiPromise) return apiPromise;
    apiPromise = new Promise((resolve, reject) => {
      if (window.GpuplanApi) return resolve(window.GpuplanApi);
      const s = document.createElement('script');
      s.src = apiBase + 'gpuplan-api.js';
      s.onload = () => (window.GpuplanApi ? resolve(window.GpuplanApi)
                                          : reject(new Error('gpuplan-api.js loaded but defined no GpuplanApi')));
      s.onerror = () => reject(new Error('could not load ' + s.src));
      document.head.appendChild(s);
    }).then((G) => G.load({ base: apiBase })).then((api) => {
      // User Timing marks, so a page (or tests/docs/live_pages.test.js) can tell how long the
      // numbers took once the API was ready.
      performance.mark('gpuplan-api-ready');
      return api;
    });
    return apiPromise;
  }

  // ---- scenarios, fetched and evaluated once per page ------------------------------------
  const scenarioTexts = new Map();  // absolute URL or #id -> Promise<string>
  function scenarioText(ref) {
    const key = ref.startsWith('#') ? ref : new URL(ref, document.baseURI).href;
    if (!scenarioTexts.has(key)) {
      scenarioTexts.set(key, ref.startsWith('#')
        ? Promise.resolve().then(() => {
            const el = document.getElementById(ref.slice(1));
            if (!el) throw new Error('no element ' + ref + ' holding a scenario');
            return el.textContent;
          })
        : fetch(key).then((r) => {
            if (!r.ok) throw new Error('scenario ' + key + ': HTTP ' + r.status);
            return r.text();
          }));
    }
    return scenarioTexts.get(key);
  }
  const results = new Map();
  function evaluate(ref) {
    if (!results.has(ref)) {
      results.set(ref, Promise.all([loadApi(), scenarioText(ref)]).then(([api, text]) => api.evaluate(text)));
    }
    return results.get(ref);
  }

  // ---- paths and formats -----------------------------------------------------------------
  // "$.a.b[2].c", "$.a.options[key=spot].c" or "/a/b/2/c" -> [{name}|{index}|{field, equals}]
  function pathParts(path) {
    if (path.startsWith('/')) return path.slice(1).split('/').map((p) => ({ name: p.replace(/~1/g, '/').replace(/~0/g, '~') }));
    if (!path.startsWith('$')) throw new Error('path "' + path + '" must start with $ or /');
    const parts = [];
    const re = /\.([^.[\]]+)|\[(\d+)\]|\[([A-Za-z_][A-Za-z0-9_]*)=([^\]]*)\]/g;
    let m, at = 1;
    while ((m = re.exec(path)) !== null) {
      if (m.index !== at) throw new Error('path "' + path + '": unexpected text at character ' + at);
      parts.push(m[1] !== undefined ? { name: m[1] } : m[2] !== undefined ? { name: m[2] } : { field: m[3], equals: m[4] });
      at = re.lastIndex;
    }
    if (at !== path.length) throw new Error('path "' + path + '": unexpected text at character ' + at);
    return parts;
  }
  function pointerOf(names) { return '/' + names.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/'); }

  // The value at `path`, and the JSON pointer of its figure (for explain()).
  function resolve(result, path) {
    let node = result, walked = '$';
    const names = [];
    for (const part of pathParts(path)) {
      let name = part.name;
      if (part.field !== undefined) {  // [key=spot]: the array item whose "key" is "spot"
        walked += '[' + part.field + '=' + part.equals + ']';
        const i = Array.isArray(node) ? node.findIndex((item) => item && String(item[part.field]) === part.equals) : -1;
        if (i < 0) throw new Error('the result has no ' + walked);
        name = String(i);
      } else {
        walked += Array.isArray(node) ? '[' + name + ']' : '.' + name;
      }
      if (node === null || typeof node !== 'object' || !(name in node)) throw new Error('the result has no ' + walked);
      node = node[name];
      names.push(name);
    }
    let figureNames = names;
    if (node !== null && typeof node === 'object' && 'value' in node) {
      if (node.value === null) throw new Error(path + ' is unknown: ' + (node.unknown || 'no reason given'));
      node = node.value;
    } else if (names[names.length - 1] === 'value') {
      figureNames = names.slice(0, -1);
    }
    if (typeof node !== 'number' && typeof node !== 'string') throw new Error(path + ' is not a number or text (got ' + JSON.stringify(node) + ')');
    return { value: node, figurePointer: pointerOf(figureNames) };
  }

  const DEFAULT_DIGITS = { usd: 2, percent: 2, number: 2, integer: 0 };
  function format(value, kind, digits) {
    if (kind === 'text') return String(value);
    if (!(kind in DEFAULT_DIGITS)) throw new Error('unknown data-gpuplan-format "' + kind + '" (usd, percent, number, integer, text)');
    if (typeof value !== 'number') throw new Error('format ' + kind + ' needs a number, got ' + JSON.stringify(value));
    const d = digits === null || digits === undefined || digits === '' ? DEFAULT_DIGITS[kind] : Number(digits);
    if (!Number.isInteger(d) || d < 0 || d > 12) throw new Error('data-gpuplan-digits must be a whole number 0-12');
    const shown = kind === 'percent' ? value * 100 : value;
    const text = shown.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
    if (kind === 'usd') return (text.startsWith('-') ? '-$' + text.slice(1) : '$' + text);
    if (kind === 'percent') return text + '%';
    return text;
  }

  // ---- live numbers ----------------------------------------------------------------------
  function fillNumber(el) {
    const ref = el.getAttribute('data-gpuplan-scenario');
    const path = el.getAttribute('data-gpuplan-path');
    el.setAttribute('data-gpuplan-state', 'loading');
    return evaluate(ref).then((result) => {
      const { value, figurePointer } = resolve(result, path);
      el.textContent = format(value, el.getAttribute('data-gpuplan-format') || 'number', el.getAttribute('data-gpuplan-digits'));
      el.setAttribute('data-gpuplan-value', String(value));
      return loadApi().then((api) => {
        try { el.title = api.explain(result, figurePointer); } catch (e) { el.title = 'computed by gpuplan from ' + ref; }
        el.setAttribute('data-gpuplan-state', 'ok');
      });
    }).catch((error) => {
      el.classList.add('gpuplan-live-error');
      el.setAttribute('data-gpuplan-state', 'error');
      el.title = 'gpuplan: ' + error.message;
      console.error('gpuplan-live: ' + ref + ' ' + path + ': ' + error.message);
    });
  }

  // ---- embedded views --------------------------------------------------------------------
  // base64url without padding of the minified JSON: the codec of scenario_url.hpp.
  function encodeScenario(text) {
    const bytes = new TextEncoder().encode(JSON.stringify(JSON.parse(text)));
    let binary = '';
    bytes.forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  // "auto": the host page's theme (mkdocs-material's dark "slate" scheme, else the reader's
  // system preference), read once when the view is created.
  function resolveTheme(theme) {
    if (theme !== 'auto') return theme;
    const scheme = document.body && document.body.getAttribute('data-md-color-scheme');
    if (scheme) return scheme === 'slate' ? 'dark' : 'light';
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  function embedUrl(view, text, theme) {
    theme = resolveTheme(theme);
    const q = new URLSearchParams({ embed: '1' });
    if (view) q.set('view', view);
    if (theme) q.set('theme', theme);
    q.set('scenario', encodeScenario(text));
    return appBase + '?' + q.toString();
  }
  function fillEmbed(el) {
    const ref = el.getAttribute('data-gpuplan-scenario');
    el.setAttribute('data-gpuplan-state', 'loading');
    return scenarioText(ref).then((text) => {
      const frame = document.createElement('iframe');
      frame.className = 'gpuplan-embed';
      frame.src = embedUrl(el.getAttribute('data-gpuplan-view'), text, el.getAttribute('data-gpuplan-theme'));
      frame.title = el.getAttribute('data-gpuplan-title') || 'gpuplan planner view';
      frame.loading = 'lazy';  // the browser starts a view only when it is scrolled near
      frame.style.height = (Number(el.getAttribute('data-gpuplan-height')) || 480) + 'px';
      el.replaceChildren(frame);
      el.setAttribute('data-gpuplan-state', 'ok');
    }).catch((error) => {
      el.classList.add('gpuplan-live-error');
      el.setAttribute('data-gpuplan-state', 'error');
      el.textContent = 'gpuplan: ' + error.message;
    });
  }

  function start() {
    const numbers = Array.from(document.querySelectorAll('[data-gpuplan-path][data-gpuplan-scenario]'));
    const embeds = Array.from(document.querySelectorAll('[data-gpuplan-embed][data-gpuplan-scenario]'));
    const done = Promise.all([...numbers.map(fillNumber), ...embeds.map(fillEmbed)]);
    // For tests and page scripts: resolves when every element on the page is filled or failed.
    window.gpuplanLive = { done, format, encodeScenario, embedUrl, evaluate };
    done.then(() => {
      performance.mark('gpuplan-live-done');
      document.documentElement.setAttribute('data-gpuplan-live', 'done');
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
