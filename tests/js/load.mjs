// Loads both builds once per test file.
import { createWisp } from '../../wasm/js/index.js';

export const builds = {
  threaded: await createWisp({ threads: true }),
  single: await createWisp({ threads: false }),
};
export { WispError } from '../../wasm/js/index.js';
import assert from 'node:assert/strict';
import { WispError } from '../../wasm/js/index.js';

// Asserts that fn throws a WispError with `code` and a message matching `needle`.
export function rejects(fn, code, needle) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof WispError, `expected WispError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (needle) assert.match(e.message, needle);
    return true;
  });
}
