// Side by side, so a learner sees what a setting does: the same whipped cape with and without
// tethers, or with 8 and 1 substeps. The right-hand cloth lives in a second world.
import { clothParamSpecs, clothParams } from './cloth-common.js';

function makeCape(world, x, params, tethers) {
  const rx = 12, ry = 24;
  const cloth = world.addCloth({
    grid: { width: 0.6, height: 1.5, resolutionX: rx, resolutionY: ry, position: [x - 0.3, 2.2, 0] },
    ...clothParams(params), tethers,
  });
  const anchors = [];
  for (let i = 0; i <= rx; i++) {
    const home = [x - 0.3 + (0.6 * i) / rx, 2.2, 0];
    const a = world.addAnchor(home);
    cloth.pin(i, a);
    anchors.push({ a, home });
  }
  return { cloth, anchors };
}

export default {
  name: 'compare',
  title: 'Compare: tethers and substeps',
  description: 'Two capes whipped side to side. Left: this world. Right: without tethers, or with 1 substep. Long cloth with few substeps stretches; tethers stop it.',
  camera: { position: [0, 1.6, 4.6], target: [0, 1.4, 0] },
  params: {
    compare: { value: 'tethers', options: ['tethers', 'substeps'], label: 'right side differs in', rebuild: true, tip: 'What the right-hand cape does differently: no tethers, or 1 substep instead of the world\'s.' },
    whip: { value: 4, min: 0, max: 12, step: 0.1, label: 'whip speed (m/s)', tip: 'Speed of the anchors\' side-to-side whip (m/s).' },
    ...clothParamSpecs,
  },
  create(ctx) {
    const { world, wisp, params } = ctx;
    const left = makeCape(world, -0.8, params, params.tethers);
    const bySubsteps = params.compare === 'substeps';
    const other = wisp.createWorld({ ...world.settings, threads: 1, substeps: bySubsteps ? 1 : world.settings.substeps });
    const right = makeCape(other, 0.8, params, bySubsteps ? params.tethers : false);
    const rightLabel = bySubsteps ? '1 substep' : 'no tethers';
    const leftLabel = bySubsteps ? `${world.settings.substeps} substeps` : (params.tethers ? 'tethers' : 'tethers off');
    ctx.addCloth(left.cloth, { color: 0x2f9e6b, label: `left: ${leftLabel}` });
    ctx.addCloth(right.cloth, { color: 0xd9822b, label: `right: ${rightLabel}`, world: other });
    ctx.addLabel(`left: ${leftLabel}`, [-0.8, 2.55, 0], '#7fe0b0');
    ctx.addLabel(`right: ${rightLabel}`, [0.8, 2.55, 0], '#ffb36b');
    return { left, right, other, bySubsteps, phase: 0 };
  },
  // world sliders reach the right-hand world too (keeping its own substeps in the substep comparison)
  applyWorld(state, settings) {
    state.other.set({ ...settings, threads: 1, substeps: state.bySubsteps ? 1 : settings.substeps });
  },
  apply(state, params) {
    state.left.cloth.set(clothParams(params));
    state.right.cloth.set({ ...clothParams(params), tethers: state.bySubsteps ? params.tethers : false });
  },
  snapshot(s) { return { phase: s.phase, other: s.other.saveSnapshot() }; },
  restore(s, saved) { s.phase = saved.phase; s.other.loadSnapshot(saved.other); },
  update(state, time, dt, params) {
    state.phase += dt;
    const amplitude = 0.4, period = (4 * amplitude) / Math.max(params.whip, 1e-3);
    const u = (state.phase % period) / period, tri = u < 0.5 ? 4 * u - 1 : 3 - 4 * u;  // -1..1 at constant speed
    for (const side of [state.left, state.right]) {
      for (const { a, home } of side.anchors) a.setPosition([home[0], home[1], home[2] + amplitude * tri]);
    }
    state.other.step(dt);
  },
  dispose(state) {
    state.other.dispose();
  },
};
