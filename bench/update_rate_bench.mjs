// What an update rate saves (Node, WASM single-threaded): 24 capes (cloth 11 x 13 particles on
// two swinging anchors, at two speeds) simulated every step and every 2nd step (updateEvery),
// 300 fixed steps each; mean CPU time per step and the most substeps a cape ran (fast pins).
//   node bench/update_rate_bench.mjs
import { createWisp } from '../wasm/js/index.js';
const wisp = await createWisp({ threads: false });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (const amp of [0.15, 0.3]) for (const every of [1, 2]) {
  const world = wisp.createWorld({});
  const capes = [], anchors = [];
  for (let i = 0; i < 24; i++) {
    const x = 2 * i, l = world.addAnchor([x - 0.2, 1.5, 0]), r = world.addAnchor([x + 0.2, 1.5, 0]);
    const c = world.addCloth({ grid: { width: 0.4, height: 0.6, resolutionX: 10, resolutionY: 12, position: [x, 1.2, 0] }, updateEvery: every });
    c.pin(0, l); c.pin(10, r); capes.push(c); anchors.push([l, r, x]);
  }
  const t = []; let sub = 0;
  for (let f = 0; f < 300; f++) {
    for (const [l, r, x] of anchors) { const dx = amp * Math.sin(0.05 * f + x), y = (amp / 10) * Math.sin(0.3 * f); l.setPosition([x - 0.2 + dx, 1.5 + y, 0]); r.setPosition([x + 0.2 + dx, 1.5 + y, 0]); }
    const t0 = cpu(); world.step(1 / 60); t.push(cpu() - t0); sub = Math.max(sub, capes[0].stats().substeps);
  }
  const total = t.reduce((a, b) => a + b, 0);
  console.log(`amp ${amp} updateEvery ${every}: mean ${(total / t.length).toFixed(3)} ms per step, max cape substeps ${sub}`);
  world.dispose();
}
