// shell.js — the page around the planner's canvas. Everything browser-specific that is not
// drawing lives here; the C++ side of the bridge is web/page_bridge.cpp.
//
//   1. The URL is the command line: `#view=costs&theme=dark&z=…` (and `?embed=1`) becomes the
//      arguments `--view=costs --theme=dark --scenario=… --embed=1` of the parser `gpuplan gui`
//      uses (core/ui/app_options.hpp). The state rides in the fragment, which browsers never
//      send to a server, so a link of any length loads (a query string of a few hundred KB
//      gets "414 URI Too Long"); the scenario in it is deflate-compressed (`z=`). Links with
//      `?scenario=` (uncompressed, older links and the docs' iframes) still load. The page
//      keeps the URL current: a new scenario is a history entry (Back and Forward walk
//      through them), other changes replace the entry.
//   2. Start-up: checks WebGL2 first (a readable message instead of a blank page), then
//      downloads gpuplan.wasm, compiling it as it arrives (its size on the loading screen), and
//      starts gpuplan.js.
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
  // The query holds how the page is shown (embed, host_origin); the fragment holds the state.
  const PAGE_ONLY_PARAMS = new Set(['host_origin']);
  const QUERY_PARAMS = new Set(['embed', 'host_origin']);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const embed = /^(1|true|yes|on|)$/i.test(params.has('embed') ? params.get('embed') : 'no');

  const base64url = {
    encode(bytes) {
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    },
    decode(text) {
      const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
      return Uint8Array.from(binary, (c) => c.charCodeAt(0));
    },
  };
  async function pipeThrough(bytes, stream) {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
  }
  // The core's codec is base64url of the minified JSON (gpuplan/scenario/scenario_url.hpp); the
  // link carries the same bytes deflated (CompressionStream 'deflate-raw', RFC 1951).
  const compressScenario = async (param) => base64url.encode(await pipeThrough(base64url.decode(param), new CompressionStream('deflate-raw')));
  const expandScenario = async (z) => base64url.encode(await pipeThrough(base64url.decode(z), new DecompressionStream('deflate-raw')));

  // The arguments of a link, once its fragment's compressed scenario is expanded (main waits
  // for them at start-up; a pasted link is read again, see hashchange below).
  async function linkArguments(fragmentParams) {
    const list = [];
    const urlErrors = [];
    for (const [name, value] of params) if (!PAGE_ONLY_PARAMS.has(name)) list.push(`--${name}=${value}`);
    for (const [name, value] of fragmentParams) {
      if (name !== 'z') { list.push(`--${name}=${value}`); continue; }
      try {
        list.push(`--scenario=${await expandScenario(value)}`);
      } catch (error) {
        urlErrors.push(`The scenario in this link could not be read (its compressed text is damaged or cut short: ${error.message}); ` +
                       'the planner opened without it.');
      }
    }
    return { list, urlErrors };
  }
  // Origins allowed to drive this page by postMessage: our own, plus those the embedding link
  // names (?host_origin=https://a.example,https://b.example). Exact matches only.
  const allowedOrigins = new Set([location.origin]);
  for (const origin of (params.get('host_origin') || '').split(',')) {
    try { if (origin) allowedOrigins.add(new URL(origin).origin); } catch (_) { /* reported below */ }
  }
  const inFrame = window.parent !== window;

  // --- 2. Start-up ---------------------------------------------------------------------
  const statusBox = $('status');
  const startUrlErrors = [];  // what the page itself could not read from the link
  function showStartError(text) {
    $('status-text').textContent = text;
    statusBox.className = 'error';
    window.gpuplan = Object.assign(window.gpuplan || {}, { failed: true, failure: text });
    window.dispatchEvent(new Event('gpuplan-failed'));
  }
  // While the wasm downloads and compiles: the size the server announced, the bar moving.
  function showDownloadSize(bytes) {
    $('status-progress').removeAttribute('value');  // indeterminate: the browser, not the page, reads the bytes
    $('status-text').textContent = bytes > 0 ? `Loading gpuplan… ${(bytes / 1e6).toFixed(1)} MB` : 'Loading gpuplan…';
  }

  // Downloads and compiles the .wasm at once: WebAssembly.instantiateStreaming compiles while
  // the bytes arrive (instantiate(bytes) waited for the last byte first). The browser reads the
  // body itself: a body read by the page's script (to count its bytes) is logged by Chromium as
  // an aborted request, so the indicator shows the size the server announced (compressed, when
  // scripts/static_server.js sends gpuplan.wasm.br) rather than a running count. A server that
  // labels .wasm with another type gets the byte-array path instead.
  async function instantiateWasm(url, imports) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    showDownloadSize(Number(response.headers.get('Content-Length')) || 0);
    const wasmType = (response.headers.get('Content-Type') || '').split(';')[0].trim() === 'application/wasm';
    if (wasmType && typeof WebAssembly.instantiateStreaming === 'function') return WebAssembly.instantiateStreaming(response, imports);
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
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
  // "--view: 'x' is not a view" -> "The view in the link: 'x' is not a view" (the notice is
  // about a link, not a command line).
  const LINK_PARTS = { view: 'The view in the link', scenario: 'The scenario in the link', theme: 'The theme in the link',
                       embed: 'The embed setting in the link', debug: 'The debug setting in the link',
                       'catalog-table': 'The catalog table settings in the link',
                       'chart-ranges': 'The chart ranges in the link' };
  const inWords = (line) => line.replace(/^scenario \(URL\): /, 'The scenario in the link: ')
    .replace(/--([a-z_-]+)/g, (whole, name) => LINK_PARTS[name] || `"${name}" (not a setting the planner knows)`);
  function showNotice(lines) {
    if (lines.length === 0) return;
    $('notice-text').textContent = 'Part of this link could not be used, so defaults stand in for it:\n• ' +
      lines.map(inWords).join('\n• ');
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
    await urlUpdate;  // the fragment is compressed asynchronously
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
  // The schema a JSON document names ("gpuplan.catalog/1"), or '' when it names none or is not JSON.
  function schemaOf(text) {
    try {
      const schema = JSON.parse(text).schema;
      return typeof schema === 'string' ? schema : '';
    } catch (e) { return ''; }
  }
  // A scenario file (Export scenario's output, or one `gpuplan eval` reads) replaces the
  // scenario: a new history entry, so Back returns to the one it replaced.
  function importScenario(text, fileName) {
    const error = callText('gpuplan_page_set_scenario', text);
    if (error) toolbarMessage(`${fileName} was not opened: ${error}`, true);
    else toolbarMessage(`Opened the scenario in ${fileName} (Back returns to the one before).`);
    return error;
  }
  async function importFile(file) {
    if (!file) return;
    // JSON documents (scenarios, bench results, price overlays) start with "{"; anything else is read as
    // a log or a topology matrix (16 MiB: the core's JSON input limit; 64 MiB: a log kept in
    // the page's memory while the core reads its topology lines out of it).
    const json = (await file.slice(0, 256).text()).trimStart().startsWith('{');
    const limit = json ? 16 : 64;
    if (file.size > limit * 1024 * 1024) {
      toolbarMessage(`${file.name} is ${(file.size / 1e6).toFixed(1)} MB; ${json ? 'JSON files' : 'logs'} over ${limit} MiB are refused.`, true);
      return;
    }
    const text = await file.text();
    const schema = json ? schemaOf(text) : '';
    if (!json) importTopology(text, file.name);
    else if (schema.startsWith('gpuplan.scenario/')) importScenario(text, file.name);
    else if (schema.startsWith('gpuplan.catalog/')) importCatalog(text, file.name);
    else if (schema.startsWith('gpuplan.bench/') || schema === '') importResults(text, file.name);
    else toolbarMessage(`${file.name} was not imported: its schema '${schema}' is none the planner opens ` +
                        '(a scenario, bench results, a price overlay, an NCCL log or `nvidia-smi topo -m` output).', true);
  }
  // The scenario as a file `gpuplan eval` reads: on a fresh page that is a scenario with only
  // its schema (valid, and empty), never `{}`.
  function scenarioFile() {
    const scenario = getState().scenario;
    return scenario.schema ? scenario : { schema: 'gpuplan.scenario/1', ...scenario };
  }
  function wireToolbar() {
    $('toolbar').hidden = embed;
    $('open-in-planner').hidden = !embed;
    updatePlannerLink();
    $('copy-link').addEventListener('click', copyLink);
    $('import-results').addEventListener('click', () => $('results-file').click());
    $('results-file').addEventListener('change', (event) => {
      importFile(event.target.files[0]);
      event.target.value = '';  // the same file can be chosen again
    });
    $('export-scenario').addEventListener('click', () => {
      const scenario = scenarioFile();
      const name = (scenario.name || 'scenario').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
      download(`${name}.json`, 'application/json', JSON.stringify(scenario, null, 2) + '\n');
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
  let shownScenario = null;  // the scenario parameter of the address last written (null before the first)
  let writtenHash = null;    // the fragment the page last wrote or opened
  let openingLink = false;   // true while a link from the address bar or history is applied

  // The fragment for a state query from the core: every setting as it is, the scenario
  // compressed (`z=`). Embed mode is the page's (the query keeps it).
  let urlSequence = 0;
  let urlUpdate = Promise.resolve();
  async function linkFragment(state) {
    const parts = [];
    for (const [name, value] of state) {
      if (QUERY_PARAMS.has(name)) continue;
      parts.push(name === 'scenario' ? `z=${await compressScenario(value)}` : `${name}=${encodeURIComponent(value)}`);
    }
    return parts.join('&');
  }
  // The page around the canvas follows the theme (toolbar, notice, loading screen).
  function applyPageTheme(dark) { document.documentElement.classList.toggle('dark', dark); }
  // An embedded view links to the full planner with the same state (a new tab).
  function updatePlannerLink() {
    const link = $('open-in-planner');
    if (link) link.href = `${location.pathname}${location.hash}`;
  }

  // --- Called from C++ (page_bridge.cpp) ---------------------------------------------------
  const shell = {
    onReady(urlErrors) {
      statusBox.className = 'hidden';
      showNotice([...startUrlErrors, ...urlErrors]);
      window.gpuplan.ready = true;
      window.gpuplan.ready_ms = performance.now();  // first settled frame, ms after navigation start
      window.dispatchEvent(new Event('gpuplan-ready'));
      const state = getState();
      postToHost({ type: 'gpuplan:ready', view: state.view, scenario: state.scenario, results: state.results });
      window.gpuplanWireMirror($('mirror'), embed ? null : $('show-text'), () => callText('gpuplan_page_mirror'),
                               () => Module._gpuplan_page_frames_drawn());
      // Keys go to the planner at once, but an embedded view never takes focus unasked: the
      // host page would scroll to it and the reader's keys would go into it.
      if (!inFrame) $('canvas').focus();
    },
    onStateChanged(query) {
      // The address bar always holds the link to what is on screen. A new scenario is a new
      // history entry, so Back and Forward walk through the scenarios (popstate reopens them);
      // a view, theme or table change replaces the entry. Not in an embed (its entries would
      // be the host page's Back), nor while a link from the address is being opened.
      const state = new URLSearchParams(query);
      applyPageTheme(state.get('theme') === 'dark');
      const scenarioParam = state.get('scenario') || '';
      const push = !embed && !openingLink && window.gpuplan && window.gpuplan.ready && shownScenario !== null && scenarioParam !== shownScenario;
      shownScenario = scenarioParam;
      const sequence = ++urlSequence;
      urlUpdate = linkFragment(state).then((hash) => {
        if (sequence !== urlSequence) return;  // a newer state is on its way
        const search = [...params].filter(([name]) => QUERY_PARAMS.has(name)).map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&');
        const url = `${location.pathname}${search ? `?${search}` : ''}${hash ? `#${hash}` : ''}`;
        if (push) history.pushState(null, '', url);
        else history.replaceState(null, '', url);
        writtenHash = location.hash;
        updatePlannerLink();
      }, (error) => toolbarMessage(`The link could not be updated: ${error.message}`, true));
      if (!suppressHostUpdate && window.gpuplan && window.gpuplan.ready) postToHost(resultsMessage(null, ''));
    },
    copyText(text) {
      navigator.clipboard.writeText(text).then(() => toolbarMessage('Copied the figure and its explanation.'),
        () => toolbarMessage('Could not copy: the browser refused the clipboard.', true));
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
    scenarioFile,
    linkSettled: () => urlUpdate,
    redraw: (frames) => Module._gpuplan_page_redraw(frames || 3),
  };

  // The address changed under the page: a link pasted into the address bar of a tab already
  // showing the planner (only the fragment changes, so the page does not reload: hashchange),
  // or Back and Forward through the scenarios (popstate). The link is opened as at start-up;
  // the page's own pushState and replaceState fire neither event. Before the planner is
  // ready, it waits.
  async function openLinkFromAddress() {
    if (!window.gpuplan.ready) {
      window.addEventListener('gpuplan-ready', openLinkFromAddress, { once: true });
      return;
    }
    if (location.hash === writtenHash) return;  // popstate and hashchange of one step, or nothing new
    writtenHash = location.hash;
    const { list, urlErrors } = await linkArguments(new URLSearchParams(location.hash.slice(1)));
    let errors = [];
    openingLink = true;
    try {
      errors = JSON.parse(callText('gpuplan_page_open_link', JSON.stringify(list)) || '[]');
    } catch (error) {
      errors = [`the link could not be opened: ${error.message}`];
    } finally {
      openingLink = false;
    }
    $('notice').hidden = true;
    showNotice([...urlErrors, ...errors]);
  }

  // --- Start ---------------------------------------------------------------------------
  window.addEventListener('message', handleHostMessage);
  window.addEventListener('hashchange', openLinkFromAddress);
  window.addEventListener('popstate', openLinkFromAddress);
  wireToolbar();
  const canvas = $('canvas');
  // Keys go to the canvas (SDL listens there): keep focus on it when clicked.
  canvas.addEventListener('mousedown', () => canvas.focus());
  // Pasting from the system clipboard (Ctrl+V, Cmd+V) into the field being edited: SDL takes
  // every keydown on the canvas and cancels the browser's own action, which is the paste, so
  // this one is kept from SDL; the browser then fires paste with the clipboard's text, and it
  // is typed into the field (gpuplan_page_paste_text).
  const editingText = () => !!(window.gpuplan.ready && Module._gpuplan_page_editing_text && Module._gpuplan_page_editing_text());
  canvas.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'v' && editingText())
      event.stopImmediatePropagation();
  }, true);
  canvas.addEventListener('paste', (event) => {
    if (!event.clipboardData || !editingText()) return;
    callText('gpuplan_page_paste_text', event.clipboardData.getData('text/plain'));
    event.preventDefault();
  });
  // Tab while a field in the planner is being edited belongs to the planner (it commits the
  // field and moves to the next one). Otherwise Tab and Shift+Tab leave the canvas as from any
  // element of the page (inside it the arrow keys move), and the planner never sees that Tab: Dear ImGui would take it to start editing a field the page's
  // focus has already left.
  canvas.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    if (editingText()) event.preventDefault();
    else event.stopImmediatePropagation();
  }, true);
  window.gpuplanWireTouch(canvas);
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

  applyPageTheme(fragment.get('theme') === 'dark' || params.get('theme') === 'dark');
  linkArguments(fragment).then(({ list, urlErrors }) => {
    startUrlErrors.push(...urlErrors);
    window.Module = {
      canvas,
      arguments: list,
      gpuplanShell: shell,
      print: (text) => console.log(text),
      printErr: (text) => console.warn(text),
      onAbort: (what) => showStartError(`gpuplan stopped: ${what}`),
      locateFile: (file) => new URL(file, location.href).href,
      instantiateWasm(imports, receiveInstance) {
        instantiateWasm(new URL('gpuplan.wasm', location.href).href, imports)
          .then((output) => receiveInstance(output.instance, output.module))
          .catch((error) => showStartError(`gpuplan could not be loaded: ${error.message}`));
        return {};  // exports arrive later, through receiveInstance
      },
    };
    const script = document.createElement('script');
    script.src = 'gpuplan.js';
    script.onerror = () => showStartError('gpuplan could not be loaded: gpuplan.js is missing from the server.');
    document.body.appendChild(script);
  });
})();
