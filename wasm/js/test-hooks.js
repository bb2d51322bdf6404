// Test hooks (the determinism scene, fault injection, memory growth from a worker) are exported
// only by the self-test build of the module (build/wasm/selftest/, made by
// scripts/build-wasm.sh --tests), never by the package's build in wasm/dist/.
import { fail } from './args.js';

/** `module` when it has the test hook `name`; otherwise an 'unsupported' WispError saying where it is. */
export function withTestHook(module, name) {
  if (typeof module[name] !== 'function') {
    fail(`${name} is a test hook, in the self-test build of the module only (scripts/build-wasm.sh --tests writes it to `
      + 'build/wasm/selftest/; load it with createWisp({ baseUrl })): the package\'s build has no test scenes or hooks', 'unsupported');
  }
  return module;
}
