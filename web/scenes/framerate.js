// The same clip at 24, 30, 60, 120 and 240 frames per second, overlaid: five worlds, each fed
// frames at its own rate (world.step(1/rate), its anchor set from the clip at that frame's time).
// Wisp consumes frame time in fixed steps and interpolates anchors inside them, so the five ropes
// move as one; the printed distances say how close.
const RATES = [24, 30, 60, 120, 240];
const COLORS = [0xff6b6b, 0xffb36b, 0x7fe0b0, 0x7fc8ff, 0xc69bff];
const CSS = ['#ff6b6b', '#ffb36b', '#7fe0b0', '#7fc8ff', '#c69bff'];
const HOME = [-0.9, 2.2, 0];
const HISTORY = 8;  // fixed steps of the 60 Hz rope kept for comparison (a 24 Hz frame spans 2.5)

// The clip: the handle sweeps a figure eight, 1.6 s per loop.
function clip(t, speed) {
  const w = (2 * Math.PI * speed) / 1.6;
  return [HOME[0] + 0.5 * Math.sin(w * t), HOME[1] + 0.15 * Math.sin(2 * w * t), 0.3 * Math.sin(w * t)];
}

export default {
  name: 'framerate',
  title: 'Frame-rate sweep',
  description: 'One rope clip played at 24, 30, 60, 120 and 240 frames per second, one world each, drawn on top of each other. Every parameter in Wisp is per second, frame time is consumed in fixed steps and anchors are placed at each step\'s time, so the ropes agree; the numbers give each rope\'s largest distance from the 60 Hz one at the same simulated time (what remains comes from sampling the clip at 24 or 30 Hz: a coarser path).',
  camera: { position: [0, 1.5, 4.2], target: [-0.2, 1.5, 0] },
  params: {
    speed: { field: null, value: 1, min: 0, max: 3, step: 0.01, label: 'clip speed (×)', tip: 'Plays the handle\'s figure-eight faster or slower.' },
    segments: { value: 30, min: 4, max: 80, step: 1, label: 'segments', rebuild: true, tip: 'Segments of each rope (rebuilds).' },
  },

  create(ctx) {
    const { world, wisp, params } = ctx;  // world: the settings every lane copies
    const lanes = RATES.map((rate, k) => {
      const w = wisp.createWorld({ ...world.settings, threads: 1 });
      const anchor = w.addAnchor(HOME);
      const rope = w.addRope({ start: HOME, end: [HOME[0] + 1.6, HOME[1], 0], segments: params.segments, damping: 0.3, drag: 0.2 });
      rope.pin(0, anchor);
      ctx.addRope(rope, { radius: 0.01, color: COLORS[k], world: w });
      return { rate, world: w, anchor, rope, clock: 0, frame: 0 };
    });
    const plot = ctx.addPlot('tip distance from 60 Hz (mm)', RATES.filter((r) => r !== 60).map((r) => ({ name: `${r}`, color: CSS[RATES.indexOf(r)] })), { format: (v) => v.toFixed(2) });
    const count = 3 * (params.segments + 1);
    const history = { rows: Array.from({ length: HISTORY }, () => new Float32Array(count)), set(slot, p) { this.rows[slot].set(p); }, at(slot) { return this.rows[slot]; } };
    return { lanes, plot, t: 0, worst: new Float64Array(RATES.length), now: new Float64Array(RATES.length), history, historyStep: new Int32Array(HISTORY).fill(-1), setInfo: ctx.setInfo };
  },

  // Each lane (its own world; the scene's world stays empty) gets a frame whenever the shared
  // clock passes its next frame time, whatever the display's rate.
  update(state, time, dt, params) {
    const t = time + dt;
    for (const lane of state.lanes) {
      while ((lane.frame + 1) / lane.rate <= t + 1e-9) {
        lane.frame++;
        lane.anchor.setPosition(clip(lane.frame / lane.rate, params.speed));
        lane.world.step(1 / lane.rate);
      }
    }
  },

  // world sliders reach every lane; the timeline rewinds every lane
  applyWorld(state, settings) {
    for (const lane of state.lanes) lane.world.set({ ...settings, threads: 1 });
  },
  snapshot(s) {
    return { t: s.t, lanes: s.lanes.map((l) => ({ bytes: l.world.saveSnapshot(), frame: l.frame })) };
  },
  restore(s, saved) {
    s.t = saved.t;
    s.lanes.forEach((l, i) => { l.world.loadSnapshot(saved.lanes[i].bytes); l.frame = saved.lanes[i].frame; });
    s.historyStep.fill(-1);  // the kept 60 Hz steps belong to the abandoned future
  },

  // Lanes are compared at equal simulated time: a lane fed at 24 Hz has run fewer fixed steps than
  // the 60 Hz one between its frames, so the 60 Hz rope's positions are kept for its last steps
  // and each lane is measured against the one at its own step.
  afterStep(state, params, dt) {
    state.t += dt;
    const refLane = state.lanes[RATES.indexOf(60)];
    const stepOf = (lane) => Math.round(lane.world.time * 60);
    const n = refLane.rope.positions.length / 3;
    const refStep = stepOf(refLane);
    state.history.set(refStep % HISTORY, refLane.rope.positions);
    state.historyStep[refStep % HISTORY] = refStep;
    const tips = [];
    let text = 'largest distance from the 60 Hz rope at the same time (mm)\n';
    state.lanes.forEach((lane, k) => {
      if (lane === refLane) return;
      const step = stepOf(lane), slot = step % HISTORY;
      if (state.historyStep[slot] !== step) return;  // not kept (cannot happen: lanes never lead)
      const ref = state.history.at(slot), p = lane.rope.positions;
      let d = 0;
      for (let i = 0; i < n; i++) d = Math.max(d, Math.hypot(p[3 * i] - ref[3 * i], p[3 * i + 1] - ref[3 * i + 1], p[3 * i + 2] - ref[3 * i + 2]));
      state.now[k] = d;
      state.worst[k] = Math.max(state.worst[k], d);
      const i = 3 * (n - 1);
      tips.push(1000 * Math.hypot(p[i] - ref[i], p[i + 1] - ref[i + 1], p[i + 2] - ref[i + 2]));
    });
    state.lanes.forEach((lane, k) => {
      if (lane !== refLane) text += `  ${String(lane.rate).padStart(3)} Hz  now ${(1000 * state.now[k]).toFixed(3)}  worst ${(1000 * state.worst[k]).toFixed(3)}\n`;
    });
    if (tips.length === RATES.length - 1) state.plot.push(state.t, ...tips);
    state.setInfo(text.trimEnd());
  },

  dispose(state) {
    for (const lane of state.lanes) lane.world.dispose();
  },
};
