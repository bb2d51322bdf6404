// What every object of a world shares: its world, its id, and being disposed.
import { fail } from './args.js';

class Handle {
  #world; #id; #disposed = false;
  constructor(world, id) { this.#world = world; this.#id = id; }
  get _world() { return this.#world; }
  get _rawId() { return this.#id; }
  get _id() { this._alive(); return this.#id; }
  get disposed() { return this.#disposed; }
  _alive() {
    if (this.#disposed) fail(`this ${this.constructor.name} has been disposed`, 'disposed');
    this.#world._alive();
  }
  _markDisposed() { this.#disposed = true; }
  _dispose(remove) {
    if (this.#disposed) return;
    if (!this.#world.disposed) {
      this.#world._check(remove(this.#world._native, this.#id));
      this.#world._forget(this);
    }
    this.#disposed = true;
  }
}

export { Handle };
