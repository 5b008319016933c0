// shell.js — the page around the planner's canvas. Everything browser-specific that is not
// drawing lives here; the C++ side of the bridge is web/page_bridge.cpp.
//
//   1. The URL is the command line: `?view=costs&scenario=…&embed=1` becomes the arguments
//      `--view=costs --scenario=… --embed=1` of the parser `gpuplan gui` uses
//      (core/ui/app_options.hpp). The page keeps the URL current with history.replaceState.
//   2. Start-up: checks WebGL2 first (a readable message instead of a blank page), then
//      downloads gpuplan.wasm with a progress bar and starts gpuplan.js.
//   3. Toolbar: copy link, import a bench results file (picker or drag-and-drop), export the
//      scenario (JSON) and the current table (CSV). Hidden in embed mode.
//   4. Embedding: a host page talks to an embedded view with postMessage (docs/embedding.md).
//   5. window.gpuplan: the test hook (getState, setScenario, setView, importResults, ...).
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);

  // --- 1. URL → arguments --------------------------------------------------------------
  // host_origin is the page's own concern (which hosts may drive an embedded view), so it is
  // not passed on; every other parameter is, so that unknown ones are reported, not ignored.
  const PAGE_ONLY_PARAMS = new Set(['host_origin']);
  const args = [];
  for (const [name, value] of params) {
    if (!PAGE_ONLY_PARAMS.has(name)) args.push(`--${name}=${value}`);
  }
  const embed = args.some((a) => /^--embed=(1|true|yes|on|)$/i.test(a));

  // Origins allowed to drive this page by postMessage: our own, plus those the embedding link
  // names (?host_origin=https://a.example,https://b.example). Exact matches only.
  const allowedOrigins = new Set([location.origin]);
  for (const origin of (params.get('host_origin') || '').split(',')) {
    try { if (origin) allowedOrigins.add(new URL(origin).origin); } catch (_) { /* reported below */ }
  }
  const inFrame = window.parent !== window;

  // --- 2. Start-up ---------------------------------------------------------------------
  const statusBox = $('status');
  function showStartError(text) {
    $('status-text').textContent = text;
    statusBox.className = 'error';
    window.gpuplan = Object.assign(window.gpuplan || {}, { failed: true, failure: text });
    window.dispatchEvent(new Event('gpuplan-failed'));
  }
  function setProgress(loaded, total) {
    const bar = $('status-progress');
    const mb = (bytes) => (bytes / 1e6).toFixed(1);
    if (total > 0) {
      bar.value = loaded / total;
      $('status-text').textContent = `Loading gpuplan… ${mb(loaded)} of ${mb(total)} MB`;
    } else {
      bar.removeAttribute('value');  // indeterminate: the server did not say how big it is
      $('status-text').textContent = `Loading gpuplan… ${mb(loaded)} MB`;
    }
  }

  // Downloads the .wasm with progress. XMLHttpRequest rather than a fetch() stream: its
  // progress events are reliable, and Chromium reports a fully read fetch stream as aborted.
  function fetchWasm(url) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('GET', url);
      request.responseType = 'arraybuffer';
      // event.total is the transfer size (compressed, if the server gzips), as is loaded.
      request.onprogress = (event) => setProgress(event.loaded, event.lengthComputable ? event.total : 0);
      request.onload = () => (request.status === 200 ? resolve(new Uint8Array(request.response))
                                                     : reject(new Error(`${url}: HTTP ${request.status}`)));
      request.onerror = () => reject(new Error(`${url}: the download failed`));
      request.send();
    });
  }

  function hasWebGL2() {
    try { return !!document.createElement('canvas').getContext('webgl2'); } catch (_) { return false; }
  }

  // --- C++ bridge helpers (functions exported by page_bridge.cpp) ------------------------
  function callText(name, ...texts) {
    const pointers = texts.map((text) => {
      const size = Module.lengthBytesUTF8(text) + 1;
      const pointer = Module._malloc(size);
      Module.stringToUTF8(text, pointer, size);
      return pointer;
    });
    try {
      const result = Module['_' + name](...pointers);
      return typeof result === 'number' && result !== 0 ? Module.UTF8ToString(result) : '';
    } finally {
      pointers.forEach((pointer) => Module._free(pointer));
    }
  }
  const getState = () => JSON.parse(callText('gpuplan_page_state'));

  // --- 3. Toolbar ----------------------------------------------------------------------
  let messageTimer = 0;
  function toolbarMessage(text, isError) {
    const box = $('toolbar-message');
    box.textContent = text;
    box.className = isError ? 'error' : '';
    clearTimeout(messageTimer);
    if (!isError) messageTimer = setTimeout(() => { box.textContent = ''; }, 4000);
  }
  function showNotice(lines) {
    if (lines.length === 0) return;
    $('notice-text').textContent = 'Part of this link could not be used, so defaults stand in for it:\n• ' +
      lines.join('\n• ');
    $('notice').hidden = false;
  }
  function download(fileName, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = Object.assign(document.createElement('a'), { href: url, download: fileName });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  async function copyLink() {
    try {
      await navigator.clipboard.writeText(location.href);
    } catch (_) {
      // Clipboard API refused (no permission, insecure context): the old way still works.
      const area = Object.assign(document.createElement('textarea'), { value: location.href });
      document.body.appendChild(area);
      area.select();
      const ok = document.execCommand('copy');
      area.remove();
      if (!ok) { toolbarMessage('Could not copy; the link is in the address bar.', true); return; }
    }
    toolbarMessage('Link copied.');
  }
  function importResults(text, fileName) {
    const error = callText('gpuplan_page_import_results', text, fileName);
    if (error) toolbarMessage(`${fileName} was not imported: ${error}`, true);
    else toolbarMessage(`Imported ${fileName}.`);
    return error;
  }
  // A catalog file (gpuplan.catalog/1: a price overlay from `gpuplan prices import`) replaces
  // the catalog's prices until the page is reloaded; it does not travel in the link.
  function importCatalog(text, fileName) {
    const reply = JSON.parse(callText('gpuplan_page_import_catalog', text, fileName));
    if (reply.error) toolbarMessage(`${fileName} was not imported: ${reply.error}`, true);
    else toolbarMessage(`Imported ${fileName}: ${reply.changes} catalog figure${reply.changes === 1 ? '' : 's'} replaced, the rest added. ` +
                        'Kept until you reload; a copied link uses the built-in catalog.');
    return reply.error;
  }
  // A machine's topology (an NCCL log or `nvidia-smi topo -m` output) goes into the scenario,
  // so it travels in the link; the Topology view opens with it.
  function importTopology(text, fileName) {
    const error = callText('gpuplan_page_import_topology', text, fileName);
    if (error) toolbarMessage(`${fileName} was not imported: ${error}`, true);
    else toolbarMessage(`Imported the topology in ${fileName}.`);
    return error;
  }
  function isCatalogDocument(text) {
    try { return JSON.parse(text).schema === 'gpuplan.catalog/1'; } catch (e) { return false; }
  }
  async function importFile(file) {
    if (!file) return;
    // JSON documents (bench results, price overlays) start with "{"; anything else is read as
    // a log or a topology matrix (16 MiB: the core's JSON input limit; 64 MiB: a log kept in
    // the page's memory while the core reads its topology lines out of it).
    const json = (await file.slice(0, 256).text()).trimStart().startsWith('{');
    const limit = json ? 16 : 64;
    if (file.size > limit * 1024 * 1024) {
      toolbarMessage(`${file.name} is ${(file.size / 1e6).toFixed(1)} MB; ${json ? 'JSON files' : 'logs'} over ${limit} MiB are refused.`, true);
      return;
    }
    const text = await file.text();
    if (!json) importTopology(text, file.name);
    else if (isCatalogDocument(text)) importCatalog(text, file.name);
    else importResults(text, file.name);
  }
  function wireToolbar() {
    $('toolbar').hidden = embed;
    $('copy-link').addEventListener('click', copyLink);
    $('import-results').addEventListener('click', () => $('results-file').click());
    $('results-file').addEventListener('change', (event) => {
      importFile(event.target.files[0]);
      event.target.value = '';  // the same file can be chosen again
    });
    $('export-scenario').addEventListener('click', () => {
      const name = (getState().scenario.name || 'scenario').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
      download(`${name}.json`, 'application/json', JSON.stringify(getState().scenario, null, 2) + '\n');
    });
    $('export-csv').addEventListener('click', () => {
      download(`gpuplan-${getState().view}.csv`, 'text/csv', callText('gpuplan_page_export_csv'));
    });
    $('notice-close').addEventListener('click', () => { $('notice').hidden = true; });
    // Drag and drop anywhere on the page (not in embed mode: the host page owns drops there).
    if (!embed) {
      let depth = 0;
      const overlay = $('drop-overlay');
      window.addEventListener('dragenter', (e) => { e.preventDefault(); depth++; overlay.hidden = false; });
      window.addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; overlay.hidden = true; } });
      window.addEventListener('dragover', (e) => e.preventDefault());
      window.addEventListener('drop', (e) => {
        e.preventDefault();
        depth = 0;
        overlay.hidden = true;
        importFile(e.dataTransfer && e.dataTransfer.files[0]);
      });
    }
  }

  // --- 4. Embedding: messages from and to a host page (docs/embedding.md) -----------------
  function postToHost(message) {
    if (!inFrame) return;
    // Sent to each allowed origin: the browser delivers it only where the parent's origin
    // matches, so results never reach a page that was not named.
    for (const origin of allowedOrigins) window.parent.postMessage(message, origin);
  }
  function resultsMessage(id, error) {
    const state = getState();
    return { type: 'gpuplan:results', id, ok: !error, error: error || '', view: state.view,
             scenario: state.scenario, results: state.results };
  }
  function handleHostMessage(event) {
    if (!inFrame || event.source !== window.parent) return;
    if (!allowedOrigins.has(event.origin)) {
      console.warn(`gpuplan: ignored a message from ${event.origin} (allowed: ${[...allowedOrigins].join(', ')}; ` +
        'add ?host_origin=<origin> to the iframe URL)');
      return;
    }
    const m = event.data;
    if (m === null || typeof m !== 'object' || typeof m.type !== 'string' || !m.type.startsWith('gpuplan:')) return;
    const reply = (message) => event.source.postMessage(message, event.origin);
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
    if (!window.gpuplan || !window.gpuplan.ready) {
      reply({ type: 'gpuplan:error', id, error: 'not ready yet: wait for the gpuplan:ready message' });
      return;
    }
    switch (m.type) {
      case 'gpuplan:set-scenario': {
        if (m.scenario === null || typeof m.scenario !== 'object' || Array.isArray(m.scenario)) {
          reply({ type: 'gpuplan:error', id, error: 'gpuplan:set-scenario needs `scenario`: a gpuplan.scenario/1 object' });
          return;
        }
        suppressHostUpdate = true;  // the reply below carries the results
        const error = callText('gpuplan_page_set_scenario', JSON.stringify(m.scenario));
        suppressHostUpdate = false;
        reply(resultsMessage(id, error));
        return;
      }
      case 'gpuplan:set-view': {
        const error = typeof m.view === 'string' ? callText('gpuplan_page_set_view', m.view)
                                                 : 'gpuplan:set-view needs `view`: a view name';
        if (error) reply({ type: 'gpuplan:error', id, error });
        return;  // the view change is announced by the next gpuplan:results
      }
      case 'gpuplan:get-results':
        reply(resultsMessage(id, ''));
        return;
      default:
        reply({ type: 'gpuplan:error', id, error: `unknown message type ${JSON.stringify(m.type)}; expected ` +
          'gpuplan:set-scenario, gpuplan:set-view or gpuplan:get-results' });
    }
  }
  let suppressHostUpdate = false;

  // --- Called from C++ (page_bridge.cpp) ---------------------------------------------------
  const shell = {
    onReady(urlErrors) {
      statusBox.className = 'hidden';
      showNotice(urlErrors);
      window.gpuplan.ready = true;
      window.gpuplan.ready_ms = performance.now();  // first settled frame, ms after navigation start
      window.dispatchEvent(new Event('gpuplan-ready'));
      const state = getState();
      postToHost({ type: 'gpuplan:ready', view: state.view, scenario: state.scenario, results: state.results });
      $('canvas').focus();
    },
    onStateChanged(query) {
      // The address bar always holds the link to what is on screen (no history entries).
      const host = params.get('host_origin');
      const search = query + (host ? `${query ? '&' : ''}host_origin=${encodeURIComponent(host)}` : '');
      history.replaceState(null, '', search ? `?${search}` : location.pathname);
      if (!suppressHostUpdate && window.gpuplan && window.gpuplan.ready) postToHost(resultsMessage(null, ''));
    },
    onStartFailure(message) { showStartError(message); },
  };

  // --- 5. Test hook: window.gpuplan ------------------------------------------------------
  window.gpuplan = {
    ready: false,
    getState,
    setScenario: (scenario) => callText('gpuplan_page_set_scenario',
                                        typeof scenario === 'string' ? scenario : JSON.stringify(scenario)),
    setView: (name) => callText('gpuplan_page_set_view', name),
    importResults,
    importCatalog,
    exportCsv: () => callText('gpuplan_page_export_csv'),
    redraw: (frames) => Module._gpuplan_page_redraw(frames || 3),
  };

  // --- Start ---------------------------------------------------------------------------
  window.addEventListener('message', handleHostMessage);
  wireToolbar();
  const canvas = $('canvas');
  // Keys go to the canvas (SDL listens there): keep focus on it when clicked.
  canvas.addEventListener('mousedown', () => canvas.focus());
  // SDL resizes the canvas on the window's resize event only; the stage also changes size when
  // the notice banner opens or closes, so pass those changes on as a resize.
  new ResizeObserver(() => window.dispatchEvent(new Event('resize'))).observe($('stage'));
  canvas.addEventListener('webglcontextlost', (event) => {
    event.preventDefault();
    showStartError('The WebGL context was lost (the GPU driver was reset): reload the page.');
  });
  if (!window.WebAssembly) { showStartError('This browser cannot run gpuplan: it has no WebAssembly support.'); return; }
  if (!hasWebGL2()) {
    showStartError('This browser cannot show gpuplan: WebGL2 is not available (it may be turned off, ' +
      'or the graphics driver is blocked).\nThe numbers are still available from the command line ' +
      '(`gpuplan eval`) and the JS API (docs/js-api.md).');
    return;
  }

  window.Module = {
    canvas,
    arguments: args,
    gpuplanShell: shell,
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onAbort: (what) => showStartError(`gpuplan stopped: ${what}`),
    locateFile: (file) => new URL(file, location.href).href,
    instantiateWasm(imports, receiveInstance) {
      fetchWasm(new URL('gpuplan.wasm', location.href).href)
        .then((bytes) => WebAssembly.instantiate(bytes, imports))
        .then((output) => receiveInstance(output.instance, output.module))
        .catch((error) => showStartError(`gpuplan could not be loaded: ${error.message}`));
      return {};  // exports arrive later, through receiveInstance
    },
  };
  const script = document.createElement('script');
  script.src = 'gpuplan.js';
  script.onerror = () => showStartError('gpuplan could not be loaded: gpuplan.js is missing from the server.');
  document.body.appendChild(script);
})();
