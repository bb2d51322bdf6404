// Loads the self-test build (scripts/build-wasm.sh --tests writes it to build/wasm/selftest/): the
// same bindings as the package's build plus the determinism scene and the test hooks
// (determinismSceneHash, injectFault, growMemoryFromWorker), which the package leaves out.
import fs from 'node:fs';
import { createWisp } from '../../wasm/js/index.js';

export const SELFTEST_NODE = new URL('../../build/wasm/selftest/node/', import.meta.url);
if (!fs.existsSync(new URL('wisp.js', SELFTEST_NODE))) {
  throw new Error(`no self-test build in ${SELFTEST_NODE.pathname}: run scripts/build-wasm.sh --tests`);
}

export const selftest = {
  threaded: await createWisp({ threads: true, baseUrl: SELFTEST_NODE }),
  single: await createWisp({ threads: false, baseUrl: SELFTEST_NODE }),
};
