// Loads both builds once per test file.
import { createWisp } from '../../wasm/js/index.js';

export const builds = {
  threaded: await createWisp({ threads: true }),
  single: await createWisp({ threads: false }),
};
export { WispError } from '../../wasm/js/index.js';
