// Finds, fetches and starts the WebAssembly module: in browsers (with or without a bundler) here,
// in Node through loader-node.js.
//
// Bundlers: every file is named by a literal `new URL('../dist/web/…', import.meta.url)`, the one
// pattern Vite (dev, pre-bundled or not, and build), webpack 5, Rollup, Parcel and esbuild all
// understand: they emit the file as an asset and rewrite the URL; with no bundler (an import map,
// a CDN) the URL is simply the file next to this package's sources. The Emscripten glue (wisp.mjs)
// is imported from that URL at run time, never through the bundler's module graph, and the
// pthread worker is started from a Blob of its source (wisp.worker-source.js), so no tool rewrites
// Emscripten's classic worker script.
//
// Every failure (HTTP error, wrong MIME type, a worker that cannot start, no cross-origin
// isolation for threads: true) rejects with a WispError saying what to fix; nothing waits forever.
import { WispError } from './error.js';

export const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** True when this context can run the pthread build (Node, or a cross-origin-isolated page). */
export function canUseThreads() {
  if (isNode) return true;
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer !== 'undefined';
}

// Literals, one per file: the bundlers' asset pattern.
const WEB_FILES = {
  wisp: () => ({ glue: new URL('../dist/web/wisp.mjs', import.meta.url), wasm: new URL('../dist/web/wisp.wasm', import.meta.url) }),
  'wisp-st': () => ({ glue: new URL('../dist/web/wisp-st.mjs', import.meta.url), wasm: new URL('../dist/web/wisp-st.wasm', import.meta.url) }),
};
// A variable, so no bundler follows it into Node-only code.
const NODE_LOADER = './loader-node.js';

export const DEFAULT_TIMEOUT_MS = 30000;

/**
 * Loads the Emscripten module. Returns { module, threaded }.
 * options: threads ('auto' | boolean), baseUrl, timeout (ms), print, printErr.
 */
export async function loadModule(options = {}) {
  const want = options.threads ?? 'auto';
  if (want !== 'auto' && typeof want !== 'boolean') throw new WispError(`threads must be 'auto', true or false (got ${String(want)})`, 'invalid-argument');
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !(timeout > 0)) throw new WispError(`timeout must be a positive number of milliseconds (got ${String(timeout)})`, 'invalid-argument');
  const possible = canUseThreads();
  if (want === true && !possible) {
    throw new WispError('the threaded build needs SharedArrayBuffer, which browsers give only to cross-origin-isolated pages: serve the page with '
      + 'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (or use threads: \'auto\')', 'unsupported');
  }
  const threaded = want === 'auto' ? possible : want;
  const name = threaded ? 'wisp' : 'wisp-st';
  const print = options.print ?? ((s) => console.log(s));
  const printErr = options.printErr ?? ((s) => console.warn(s));
  if (isNode) {
    const { loadNodeModule } = await import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_LOADER);
    return { module: await loadNodeModule(name, options.baseUrl, print, printErr), threaded };
  }
  return { module: await loadWebModule(name, threaded, options.baseUrl, timeout, print, printErr), threaded };
}

function loadFailed(message) { return new WispError(message, 'load-failed'); }

async function loadWebModule(name, threaded, baseUrl, timeout, print, printErr) {
  let files;
  if (baseUrl !== undefined) {
    const base = new URL(baseUrl, globalThis.location?.href);
    files = { glue: new URL(`${name}.mjs`, base), wasm: new URL(`${name}.wasm`, base) };
  } else {
    files = WEB_FILES[name]();
  }
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(loadFailed(`the WebAssembly module (${files.glue.href}) did not start within ${timeout} ms`
      + (threaded ? ': its pthread workers did not report back (a Content-Security-Policy blocking blob: workers, or a worker error in the console?)' : ''))), timeout);
  });
  let failWorker;
  const workerFailed = new Promise((_, reject) => { failWorker = reject; });
  // a worker error after the load has settled must not surface as an unhandled rejection
  expired.catch(() => {});
  workerFailed.catch(() => {});
  try {
    const [wasmModule, factory, workerUrl] = await Promise.race([Promise.all([
      compileWasm(files.wasm), importGlue(files.glue), threaded ? workerBlobUrl() : null]), expired]);
    const config = {
      print,
      printErr: (line) => {
        // Emscripten's message when a pthread worker throws while loading: the module would wait forever
        if (typeof line === 'string' && line.startsWith('worker sent an error!')) failWorker(loadFailed(`a pthread worker failed to start (${line})`));
        printErr(line);
      },
      locateFile: (file) => (file.endsWith('.worker.js') && workerUrl ? workerUrl : new URL(file, files.glue).href),
      mainScriptUrlOrBlob: files.glue.href,  // what each pthread worker imports
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(wasmModule, imports).then((instance) => receive(instance, wasmModule),
          (e) => failWorker(loadFailed(`${files.wasm.href} does not fit ${files.glue.href} (${e.message}): serve both from the same build`)));
        return {};
      },
    };
    return await Promise.race([factory(config), expired, workerFailed]);
  } finally {
    clearTimeout(timer);
  }
}

async function compileWasm(url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    throw loadFailed(`could not fetch ${url.href} (${e.message}): is the file served, and from this origin (or with CORS)?`);
  }
  if (!response.ok) {
    throw loadFailed(`${url.href} answered HTTP ${response.status}: the .wasm files of wisp/wasm/dist/web/ must be served next to `
      + 'wisp.mjs (a bundler copies them when it sees new URL(…, import.meta.url); when copying by hand keep them together)');
  }
  const type = (response.headers.get('content-type') || '').split(';')[0].trim();
  if (type !== 'application/wasm') {
    throw loadFailed(`${url.href} was served as '${type || 'no content type'}': configure the server to send .wasm files as application/wasm`);
  }
  try {
    return await WebAssembly.compileStreaming(response);
  } catch (e) {
    throw loadFailed(`${url.href} is not a valid WebAssembly module for this browser (${e.message}); WebAssembly SIMD is required`);
  }
}

async function importGlue(url) {
  try {
    const factory = (await import(/* webpackIgnore: true */ /* @vite-ignore */ url.href)).default;
    if (typeof factory !== 'function') throw new Error('it has no default export');
    return factory;
  } catch (e) {
    throw loadFailed(`could not import ${url.href} (${e.message}): serve it unmodified as JavaScript (text/javascript), next to its .wasm`);
  }
}

let workerUrl = null;
async function workerBlobUrl() {
  if (!workerUrl) {
    const source = (await import('../dist/web/wisp.worker-source.js')).default;
    workerUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  }
  return workerUrl;
}
