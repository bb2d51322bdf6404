// The playground's timeline: a snapshot of the world every simulated second (the last 30 kept),
// a slider to scrub back to any of them, and resume to carry on from there (later snapshots are
// dropped: a new future starts). Scenes with state outside the world (the classic JS solvers,
// extra worlds, reference integrators) save and restore it through def.snapshot / def.restore.
const KEEP = 30;

export class Timeline {
  /** hooks: { app(): the running scene, pause(on), redraw() } */
  constructor(hooks) {
    this.hooks = hooks;
    this.entries = [];
    this.el = document.getElementById('timeline');
    this.slider = this.el.querySelector('input');
    this.label = this.el.querySelector('span');
    this.resumeButton = this.el.querySelector('button');
    this.slider.title = 'Scrub back through the last 30 seconds (a snapshot each simulated second).';
    this.slider.addEventListener('input', () => this.scrub(Number(this.slider.value)));
    this.resumeButton.addEventListener('click', () => this.resume());
    this.scrubbed = -1;
  }

  /** Forget every snapshot (a new scene, or a change of structure such as a cut). */
  reset() {
    this.entries.length = 0;
    this.scrubbed = -1;
    this.#show();
  }

  /** After each frame's step: a snapshot when the simulated time passes a whole second. */
  record(busy) {
    const app = this.hooks.app();
    if (!app || this.scrubbed >= 0 || busy) return;
    const last = this.entries[this.entries.length - 1];
    const second = Math.floor(app.time + 1e-9);
    if (last && Math.floor(last.time + 1e-9) >= second) return;
    this.entries.push({ time: app.time, bytes: app.world.saveSnapshot(), scene: app.def.snapshot?.(app.state) });
    if (this.entries.length > KEEP) this.entries.shift();
    this.#show();
  }

  /** Back to snapshot k (paused). */
  scrub(k) {
    const app = this.hooks.app(), e = this.entries[k];
    if (!app || !e) return;
    this.hooks.pause(true);
    app.world.loadSnapshot(e.bytes);
    app.time = e.time;
    if (e.scene !== undefined) app.def.restore?.(app.state, e.scene);
    this.scrubbed = k;
    this.hooks.redraw();
    this.#show();
  }

  /** Carry on from the scrubbed snapshot; the ones after it are dropped. */
  resume() {
    if (this.scrubbed >= 0) this.entries.length = this.scrubbed + 1;
    this.scrubbed = -1;
    this.hooks.pause(false);
    this.#show();
  }

  #show() {
    const n = this.entries.length;
    this.el.style.display = n ? '' : 'none';
    this.slider.max = String(Math.max(0, n - 1));
    this.slider.value = String(this.scrubbed >= 0 ? this.scrubbed : n - 1);
    const at = this.entries[this.scrubbed >= 0 ? this.scrubbed : n - 1];
    this.label.textContent = at ? `t = ${at.time.toFixed(1)} s${this.scrubbed >= 0 ? ' (scrubbed, paused)' : ''}` : '';
    this.resumeButton.disabled = this.scrubbed < 0;
  }
}
