// A live line plot on a small canvas (no dependency): a few series over the last `seconds`,
// autoscaled, with the latest values printed in the legend. Samples go into fixed ring buffers,
// so a frame's push() and draw() allocate nothing.
export class Plot {
  /**
   * @param {HTMLElement} parent
   * @param {string} title  e.g. 'energy (J)'
   * @param {{ name: string, color: string }[]} series
   * @param {{ seconds?: number, capacity?: number, format?: (v: number) => string }} options
   */
  constructor(parent, title, series, { seconds = 10, capacity = 1200, format = (v) => v.toPrecision(3) } = {}) {
    this.title = title;
    this.series = series;
    this.seconds = seconds;
    this.format = format;
    this.capacity = capacity;
    this.t = new Float64Array(capacity);
    this.v = series.map(() => new Float64Array(capacity));
    this.count = 0;   // samples pushed so far (the ring holds the last `capacity`)
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'plot';
    this.canvas.width = 300; this.canvas.height = 110;
    this.canvas.dataset.title = title;
    parent.appendChild(this.canvas);
    this.g = this.canvas.getContext('2d');
  }

  push(time, ...values) {
    const k = this.count % this.capacity;
    this.t[k] = time;
    for (let s = 0; s < this.v.length; s++) this.v[s][k] = values[s];
    this.count++;
  }

  /** The latest value of series s (NaN before the first push). */
  latest(s) { return this.count ? this.v[s][(this.count - 1) % this.capacity] : NaN; }

  draw() {
    const { g, canvas } = this, W = canvas.width, H = canvas.height, top = 30, bottom = H - 6;
    g.clearRect(0, 0, W, H);
    g.fillStyle = 'rgba(0, 0, 0, 0.5)';
    g.fillRect(0, 0, W, H);
    const n = Math.min(this.count, this.capacity);
    if (n === 0) return;
    const last = this.t[(this.count - 1) % this.capacity], first = last - this.seconds;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const k = (this.count - 1 - i) % this.capacity;
      if (this.t[k] < first) break;
      for (const v of this.v) { if (v[k] < lo) lo = v[k]; if (v[k] > hi) hi = v[k]; }
    }
    if (!(hi > lo)) { hi = lo + 1; lo -= 1; }
    const x = (t) => ((t - first) / this.seconds) * (W - 8) + 4;
    const y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
    g.font = '11px ui-monospace, monospace';
    g.fillStyle = '#dde3ea';
    g.fillText(this.title, 6, 12);
    g.fillStyle = '#8893a0';
    g.fillText(`${this.format(hi)} … ${this.format(lo)}`, W - 6 - g.measureText(`${this.format(hi)} … ${this.format(lo)}`).width, 12);
    let lx = 6;
    this.series.forEach((s, i) => {
      g.strokeStyle = g.fillStyle = s.color;
      const label = `${s.name} ${this.format(this.latest(i))}`;
      g.fillText(label, lx, 25);
      lx += g.measureText(label).width + 10;
      g.beginPath();
      let started = false;
      for (let j = n - 1; j >= 0; j--) {
        const k = (this.count - 1 - j) % this.capacity;
        if (this.t[k] < first) continue;
        if (started) g.lineTo(x(this.t[k]), y(this.v[i][k])); else { g.moveTo(x(this.t[k]), y(this.v[i][k])); started = true; }
      }
      g.stroke();
    });
  }

  dispose() { this.canvas.remove(); }
}
