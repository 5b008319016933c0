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
    const sizes = args.map((text, k) => {  // each argument's UTF-8 length, measured once
      checkText(text, names[k]);
      const size = module.lengthBytesUTF8(text);
      if (size > limit) throw new Error(names[k] + ': got ' + size + ' bytes; expected at most ' + limit + ' bytes (16 MiB)');
      return size;
    });
    const pointers = [];
    let reply;
    try {
      args.forEach((text, k) => {  // inside the try: a failed allocation frees the ones before it
        const bytes = sizes[k] + 1;
        const pointer = module._malloc(bytes);
        if (!pointer) throw new Error('gpuplan: out of memory for a ' + bytes + '-byte argument');
        pointers.push(pointer);
        module.stringToUTF8(text, pointer, bytes);
      });
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

  // Text the core reads exactly as given (issue 34). A NUL ends the C string the text is copied
  // into, so JSON after it was silently ignored; a lone UTF-16 surrogate has no UTF-8 form, so
  // the copy wrote bytes that are not UTF-8 and the string came back changed.
  function checkText(text, name) {
    const nul = text.indexOf('\u0000');
    if (nul >= 0) throw new Error(name + ': got a NUL character at position ' + nul + '; expected text without NUL characters');
    const lone = text.search(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    if (lone >= 0) {
      const code = text.charCodeAt(lone).toString(16).toUpperCase();
      throw new Error(name + ': got a lone UTF-16 surrogate (U+' + code + ') at position ' + lone +
                      '; expected valid Unicode text (a surrogate only as half of a pair)');
    }
  }

  // An object becomes JSON text here; what JSON cannot hold is named in the API's own words,
  // not as the engine's TypeError.
  function asText(value, what) {
    if (typeof value === 'string') return value;
    const expected = '; expected an object or a JSON string';
    if (value === null || typeof value !== 'object') throw new Error(what + ': got ' + (value === null ? 'null' : 'a ' + typeof value) + expected);
    try {
      return JSON.stringify(value);
    } catch (error) {
      const message = String(error && error.message);
      const got = /bigint/i.test(message) ? 'a BigInt value' : /circular|cyclic/i.test(message) ? 'an object that contains itself' : 'a value JSON cannot hold';
      throw new Error(what + ': got ' + got + '; expected plain JSON: objects, arrays, strings, numbers (not BigInt), true, false and null, without cycles');
    }
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
