// api_post.js — appended after the Emscripten factory (em++ --extern-post-js): defines the
// global `GpuplanApi` documented in docs/js-api.md. The factory itself (GpuplanApiModule) is
// an implementation detail; pages only use GpuplanApi.load(...).
(function (root) {
  'use strict';
  // Captured now: document.currentScript is only set while this script first runs.
  const scriptUrl = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : undefined;

  // Calls an exported C function that returns a malloc'd JSON envelope {ok, value|error}.
  // names[k] says what args[k] is in an error ("scenario", "result", "path"). An argument over
  // the core's limit is refused here, in the core's words, before it is copied into wasm memory.
  function call(module, name, args, names) {
    const limit = module._gpuplan_api_max_input_bytes();
    args.forEach((text, k) => {
      const size = module.lengthBytesUTF8(text);
      if (size > limit) throw new Error(names[k] + ': got ' + size + ' bytes; expected at most ' + limit + ' bytes (16 MiB)');
    });
    const pointers = args.map((text) => {
      const bytes = module.lengthBytesUTF8(text) + 1;
      const pointer = module._malloc(bytes);
      if (!pointer) throw new Error('gpuplan: out of memory for a ' + bytes + '-byte argument');
      module.stringToUTF8(text, pointer, bytes);
      return pointer;
    });
    let reply;
    try {
      const out = module['_' + name](...pointers);
      if (!out) throw new Error('gpuplan: out of memory');
      reply = JSON.parse(module.UTF8ToString(out));
      module._gpuplan_api_free(out);
    } finally {
      pointers.forEach((pointer) => module._free(pointer));
    }
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  }

  function asText(value, what) {
    if (typeof value === 'string') return value;
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
    throw new Error('gpuplan: ' + what + ' must be an object or a JSON string, got ' + typeof value);
  }

  function makeApi(module) {
    let catalogCache = null;
    return Object.freeze({
      version: module.UTF8ToString(module._gpuplan_api_version()),
      // origin: how errors and provenance name the scenario (`gpuplan eval FILE` uses FILE).
      evaluate(scenario, origin) {
        if (origin !== undefined && typeof origin !== 'string') throw new Error('gpuplan: origin must be a string');
        return call(module, 'gpuplan_api_evaluate', [asText(scenario, 'scenario'), origin || 'scenario'], [origin || 'scenario', 'origin']);
      },
      catalog() {
        if (catalogCache === null) catalogCache = call(module, 'gpuplan_api_catalog', [], []);
        return JSON.parse(JSON.stringify(catalogCache));  // a copy: callers may edit theirs
      },
      explain(result, path) {
        if (typeof path !== 'string') throw new Error('gpuplan: path must be a string like "$.fleet.figures.total_cost_usd"');
        return call(module, 'gpuplan_api_explain', [asText(result, 'result'), path], ['result', 'path']);
      },
    });
  }

  let loading = null;
  const GpuplanApi = {
    // options.base: URL of the folder holding gpuplan-api.wasm (default: this script's folder).
    // options.wasmBinary: the .wasm bytes (an ArrayBuffer/Uint8Array), e.g. read from disk in node.
    load(options) {
      options = options || {};
      if (loading) return loading;
      // The folder of the .wasm: options.base, else the folder this script was loaded from.
      const base = options.base || (scriptUrl ? scriptUrl.replace(/[^/]*$/, '') : '') ||
                   (typeof __dirname !== 'undefined' ? __dirname + '/' : '');
      const settings = {
        locateFile: (file) => (/^[a-z]+:/i.test(base) ? new URL(file, base.endsWith('/') ? base : base + '/').href
                                                       : base.replace(/\/?$/, '/') + file),
      };
      if (options.wasmBinary) settings.wasmBinary = options.wasmBinary;
      loading = GpuplanApiModule(settings).then(makeApi, (error) => {
        loading = null;  // allow a retry (e.g. after a network error)
        throw new Error('gpuplan: the JS API could not start: ' + (error && error.message ? error.message : error));
      });
      return loading;
    },
  };

  root.GpuplanApi = GpuplanApi;
  // Under node (CommonJS), require() returns GpuplanApi instead of the raw factory.
  if (typeof module === 'object' && module && 'exports' in module) module.exports = GpuplanApi;
})(typeof globalThis !== 'undefined' ? globalThis : this);
