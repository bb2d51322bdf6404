// The same clip at 24, 30, 60, 120 and 240 frames per second, overlaid: five worlds, each fed
// frames at its own rate (world.step(1/rate), its anchor set from the clip at that frame's time).
// Wisp consumes frame time in fixed steps and interpolates anchors inside them, so the five ropes
// move as one; the printed distances say how close.
const RATES = [24, 30, 60, 120, 240];
const COLORS = [0xff6b6b, 0xffb36b, 0x7fe0b0, 0x7fc8ff, 0xc69bff];
const CSS = ['#ff6b6b', '#ffb36b', '#7fe0b0', '#7fc8ff', '#c69bff'];
const HOME = [-0.9, 2.2, 0];

// The clip: the handle sweeps a figure eight, 1.6 s per loop.
function clip(t, speed) {
  const w = (2 * Math.PI * speed) / 1.6;
  return [HOME[0] + 0.5 * Math.sin(w * t), HOME[1] + 0.15 * Math.sin(2 * w * t), 0.3 * Math.sin(w * t)];
}

export default {
  name: 'framerate',
  title: 'Frame-rate sweep',
  description: 'One rope clip played at 24, 30, 60, 120 and 240 frames per second, one world each, drawn on top of each other. Every parameter in Wisp is per second and frame time is consumed in fixed steps, so the ropes agree; the numbers give each rope\'s largest distance from the 60 Hz one.',
  camera: { position: [0, 1.5, 4.2], target: [-0.2, 1.5, 0] },
  params: {
    speed: { value: 1, min: 0, max: 3, step: 0.01, label: 'clip speed (×)', tip: 'Plays the handle\'s figure-eight faster or slower.' },
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
    return { lanes, plot, t: 0, worst: new Float64Array(RATES.length), setInfo: ctx.setInfo };
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
  },

  afterStep(state, params, dt) {
    state.t += dt;
    const ref = state.lanes[RATES.indexOf(60)].rope.positions, n = ref.length / 3;
    const tips = [];
    let text = 'largest distance from the 60 Hz rope (mm)\n';
    state.lanes.forEach((lane, k) => {
      if (lane.rate === 60) return;
      const p = lane.rope.positions;
      let d = 0;
      for (let i = 0; i < n; i++) d = Math.max(d, Math.hypot(p[3 * i] - ref[3 * i], p[3 * i + 1] - ref[3 * i + 1], p[3 * i + 2] - ref[3 * i + 2]));
      state.worst[k] = Math.max(state.worst[k], d);
      const i = 3 * (n - 1);
      tips.push(1000 * Math.hypot(p[i] - ref[i], p[i + 1] - ref[i + 1], p[i + 2] - ref[i + 2]));
      text += `  ${String(lane.rate).padStart(3)} Hz  now ${(1000 * d).toFixed(2)}  worst ${(1000 * state.worst[k]).toFixed(2)}\n`;
    });
    state.plot.push(state.t, ...tips);
    state.setInfo(text.trimEnd());
  },

  dispose(state) {
    for (const lane of state.lanes) lane.world.dispose();
  },
};
