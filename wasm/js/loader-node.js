// Node: the CommonJS build in wasm/dist/node/ (Emscripten 3.1's ES-module output expects the
// CommonJS globals `require` and `__dirname`; CommonJS has them as module locals, so nothing is
// added to globalThis), fed the same .wasm bytes as the browser build. Built with
// NODEJS_CATCH_EXIT=0 and NODEJS_CATCH_REJECTION=0: no process-wide handlers are installed.
// Only reached through loader.js when running in Node; bundlers never see this file.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WispError } from './error.js';

const require = createRequire(import.meta.url);

/** name: 'wisp' | 'wisp-st'. baseUrl: a folder holding <name>.js and <name>.wasm (default: this package's build). */
export async function loadNodeModule(name, baseUrl, print, printErr) {
  let glue, wasm;
  if (baseUrl !== undefined) {
    const base = new URL(String(baseUrl).endsWith('/') ? baseUrl : `${baseUrl}/`, pathToFileURL(`${process.cwd()}/`));
    glue = fileURLToPath(new URL(`${name}.js`, base));
    wasm = fileURLToPath(new URL(`${name}.wasm`, base));
  } else {
    glue = fileURLToPath(new URL(`../dist/node/${name}.js`, import.meta.url));
    wasm = fileURLToPath(new URL(`../dist/web/${name}.wasm`, import.meta.url));
  }
  let factory, wasmBinary;
  try {
    factory = require(glue);
    wasmBinary = fs.readFileSync(wasm);
  } catch (e) {
    throw new WispError(`could not load the WebAssembly build (${e.message}): run scripts/build-wasm.sh, or reinstall the package`, 'load-failed');
  }
  const module = await factory({ wasmBinary, print, printErr, locateFile: (f) => path.join(path.dirname(glue), f) });
  if (module.PThread) {
    // Let Node exit while the (idle) pool threads wait for work.
    for (const w of [...module.PThread.unusedWorkers, ...module.PThread.runningWorkers]) w.unref?.();
  }
  return module;
}
