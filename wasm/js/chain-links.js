// Links between neighbouring chains (a skirt, a cape): World.addChainLinks.
import { objectArg, pick } from './args.js';
import { CHAIN_LINKS_PARAMS } from './options.js';
import { Handle } from './handle.js';

/**
 * XPBD distance links between joints of neighbouring chains (joint i of chain k to joint i of
 * chain k+1; optionally the last to the first, and diagonals). The chains are solved together,
 * substep by substep. Disposing a linked chain drops its links; dispose() removes them all and
 * the chains go on alone.
 */
export class ChainLinks extends Handle {
  /** Number of live links. */
  get linkCount() {
    const n = this._world._native.chainLinksCount(this._id);
    if (n < 0) this._world._check(this._world._native.lastCode());
    return n;
  }
  /** Current options (a fresh object that set() accepts back). */
  get params() { return this._world._native.chainLinksParams(this._id); }
  /** Changes any subset of { loop, diagonals, compliance, stretch, collide, fromJoint }; nothing changes on error. */
  set(params) {
    const p = pick(objectArg(params, 'params'), CHAIN_LINKS_PARAMS, 'params');
    this._world._check(this._world._native.setChainLinksParams(this._id, p));
  }
  /** Int32Array of [chainIndexA, jointA, chainIndexB, jointB] per link (indices into the chains given). A copy. */
  pairs() { return this.#copy((n, id) => n.chainLinksPairs(id)); }
  /** Float32Array of the links' rest lengths (m), in pairs() order. A copy. */
  restLengths() { return this.#copy((n, id) => n.chainLinksRestLengths(id)); }
  dispose() {
    if (this.disposed) return;
    this._dispose((n, id) => n.removeChainLinks(id));
  }
  #copy(read) {
    const n = this._world._native, r = read(n, this._id);
    if (r === null) this._world._check(n.lastCode());
    return r;
  }
}
