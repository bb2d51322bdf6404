// A world stepped in a dedicated worker (createWorkerWorld) against the same scene stepped on
// the main thread: the same calls give the same state hash and the same output bits, the
// arrays always hold one whole completed step (views of shared slots the worker does not write
// while they are shown), render interpolation gives a World's render arrays, calls past the
// command ring's capacity keep their order, bad calls come back as WispErrors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createWisp, createWorkerWorld, WispError } from '../../wasm/js/index.js';
import { PARAM_KEYS } from '../../wasm/js/command-ring.js';
import { writeEvents, readStepEvents } from '../../wasm/js/step-state.js';

const FRAMES = 90;

// The scripted scene, written once against the World API: ropes, cloth, chains, colliders,
// anchors moving, parameter changes mid-run. Returns per frame: () => void.
function scene(world) {
  const anchor = world.addAnchor([0, 2, 0]);
  const rope = world.addRope({ start: [0, 2, 0], end: [1.2, 2, 0], segments: 16 });
  rope.pin(0, anchor);
  const rope2 = world.addRope({ start: [0.5, 2.2, 0.5], end: [0.5, 1.2, 0.5], segments: 8, pinned: [0] });
  const cloth = world.addCloth({ grid: { width: 0.6, height: 0.6, resolutionX: 6, resolutionY: 6, position: [0, 2, 1] }, pinned: [0, 6] });
  const chain = world.addChain({ points: [0, 2, 2, 0, 1.9, 2, 0, 1.8, 2, 0, 1.7, 2] });
  const sphere = world.addCollider({ type: 'sphere', radius: 0.2, position: [0.6, 1.6, 0] });
  world.addCollider({ type: 'plane', position: [0, 0, 0] });
  const pos = [0, 2, 0], rot = [0, 0, 0, 1];
  return {
    outputs: [rope, rope2, cloth, chain],
    frame(k) {
      pos[0] = 0.3 * Math.sin(k * 0.1);
      anchor.setPosition(pos);
      sphere.setTransform([0.6, 1.6 + 0.2 * Math.sin(k * 0.05), 0], rot);
      chain.setRoot([0.1 * Math.sin(k * 0.07), 2, 2]);
      if (k === 30) { rope.set({ stretchCompliance: 1e-4, damping: 0.05 }); cloth.set({ bendCompliance: 0.01 }); world.setGravity([0, -5, 0]); }
      if (k === 50) { chain.set({ stiffness: 3 }); rope2.teleport({ translation: [0.1, 0, 0] }); }
    },
  };
}

function outputsOf(s) {
  const [rope, rope2, cloth, chain] = s.outputs;
  return [rope.positions, rope2.positions, cloth.positions, cloth.normals, chain.positions, chain.rotations, chain.localRotations]
    .map((a) => Array.from(a));
}

// A main-thread World and a worker world made with the same settings (or `workerSettings` for
// the worker), given to fn(main, world); both disposed afterwards, whatever fn does.
async function withWorlds(settings, fn, { workerSettings = settings, threads = false } = {}) {
  const wisp = await createWisp({ threads: false });
  const main = wisp.createWorld(settings);
  const world = await createWorkerWorld(workerSettings, { threads });
  try {
    await fn(main, world);
  } finally {
    await world.dispose();
    main.dispose();
  }
}

test('a worker world gives the main thread\'s state hash and output bits, frame by frame', () => withWorlds({ substeps: 4 }, async (main, world) => {
  const ms = scene(main);
  const expected = [outputsOf(ms)];  // expected[k]: outputs after k steps
  for (let k = 0; k < FRAMES; k++) { ms.frame(k); main.step(1 / 60); expected.push(outputsOf(ms)); }
  const ws = scene(world);
  let behind = 0, compared = 0;
  for (let k = 0; k < FRAMES; k++) {
    ws.frame(k);
    world.step(1 / 60);
    // never part of a step: whatever step the arrays show, they are that step's outputs exactly
    const shown = world.completedSteps;
    if (shown > 0) { assert.deepEqual(outputsOf(ws), expected[shown], `frame ${k}: the arrays hold step ${shown}`); compared++; }
    behind = Math.max(behind, world.pendingSteps);
    // every tenth frame catch up (a worker's first steps are slow on a loaded machine: compiling, first use)
    if (k % 10 === 0) await world.flush();
  }
  await world.flush();
  assert.equal(world.completedSteps, FRAMES);
  assert.equal(world.pendingSteps, 0);
  assert.deepEqual(outputsOf(ws), expected[FRAMES]);
  assert.equal(await world.stateHash(), main.stateHash());
  assert.ok(behind >= 1, 'step() returns before the worker finishes');
  assert.ok(compared > FRAMES / 2, `intermediate steps compared: ${compared}`);
}));

test('worker world on the threaded build matches the single-threaded main thread', () => withWorlds({ substeps: 4 }, async (main, world) => {
  const ms = scene(main);
  for (let k = 0; k < 30; k++) { ms.frame(k); main.step(1 / 60); }
  const ws = scene(world);
  for (let k = 0; k < 30; k++) { ws.frame(k); world.step(1 / 60); }
  await world.flush();
  assert.deepEqual(outputsOf(ws), outputsOf(ms));
  assert.equal(await world.stateHash(), main.stateHash());
}, { workerSettings: { substeps: 4, threads: 2 }, threads: true }));

test('worker world: bad calls throw WispErrors naming the value, and change nothing', () => withWorlds({}, async (main, world) => {
  const mr = main.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  await assert.rejects(createWorkerWorld({ substeps: -3 }, { threads: false }), (e) => e instanceof WispError && /substeps/.test(e.message));
  await assert.rejects(createWorkerWorld({ interpolate: 'yes' }, { threads: false }), (e) => e instanceof WispError && /interpolate/.test(e.message));
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  assert.throws(() => world.step(NaN), (e) => e instanceof WispError && /dt/.test(e.message));
  assert.throws(() => world.step(-1), (e) => e instanceof WispError && e.code === 'out-of-range');
  // a bad parameter: reported by the next call, the rope unchanged
  rope.set({ stretchCompliance: -2 });
  main.step(1 / 60);
  world.step(1 / 60);
  await assert.rejects(world.flush(), (e) => e instanceof WispError && /stretchCompliance/.test(e.message) && /-2/.test(e.message));
  assert.throws(() => mr.set({ stretchCompliance: -2 }), WispError);
  await world.flush();  // the error was thrown once
  assert.equal(await world.stateHash(), main.stateHash());
  // what needs the state on this thread says so
  assert.throws(() => world.objects, (e) => e instanceof WispError && e.code === 'unsupported');
  // what the worker tells once it made the object is not known before
  const early = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 2 }), mearly = main.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 2 });
  assert.throws(() => early.params, (e) => e instanceof WispError && e.code === 'unsupported' && /flush/.test(e.message));
  assert.throws(() => early.enabled, (e) => e instanceof WispError && e.code === 'unsupported' && /flush/.test(e.message));
  early.dispose(); mearly.dispose();
  // writing `enabled` is a call, as on the main thread: both worlds disable and re-enable the rope
  rope.enabled = false; mr.enabled = false;
  main.step(1 / 60); world.step(1 / 60);
  rope.enabled = true; mr.enabled = true;
  main.step(1 / 60); world.step(1 / 60);
  await world.flush();
  assert.equal(await world.stateHash(), main.stateHash());
  rope.enabled = 'yes';  // checked by the worker's World, reported by the next call
  assert.throws(() => mr.setEnabled('yes'), WispError);
  await assert.rejects(world.flush(), (e) => e instanceof WispError && /yes/.test(e.message));
  // objects of another world
  const other = await createWorkerWorld({}, { threads: false });
  const foreign = other.addAnchor([0, 0, 0]);
  assert.throws(() => rope.pin(0, foreign), (e) => e instanceof WispError && e.code === 'foreign-object');
  await other.dispose();
}));

test('worker world: a step its World rejects still completes, changing nothing (a background tab under rejectFrameDt)', () => withWorlds({ substeps: 4, interpolate: true, rejectFrameDt: 0.25 }, async (main, world) => {
  const ms = scene(main);
  renderOf(ms);  // a World's render arrays follow every step once read, as a renderer reads them
  const ws = scene(world);
  const frames = (s, w, from, to) => { for (let k = from; k < to; k++) { s.frame(k); w.step(1 / 144); } };
  frames(ms, main, 0, 5);
  frames(ws, world, 0, 5);
  assert.throws(() => main.step(1), (e) => e instanceof WispError && /rejectFrameDt|dt/.test(e.message));
  world.step(1);
  await assert.rejects(world.flush(), (e) => e instanceof WispError && /rejectFrameDt|dt/.test(e.message));
  await world.flush();  // the error was thrown once
  assert.equal(world.pendingSteps, 0, 'the rejected step is no longer pending');
  assert.equal(world.completedSteps, 6, 'one completed step per step() call');
  assert.equal(world.alpha, main.alpha, 'the alpha of the last step that ran');
  assert.deepEqual(renderOf(ws), renderOf(ms));
  frames(ms, main, 5, 10);
  frames(ws, world, 5, 10);
  await world.flush();
  assert.equal(world.completedSteps, 11);
  assert.deepEqual(renderOf(ws), renderOf(ms));
  assert.deepEqual(outputsOf(ws), outputsOf(ms));
  assert.equal(await world.stateHash(), main.stateHash());
}));

test('worker world: the arrays change only in step() and flush(), and lag a worker that keeps up by one step', () => withWorlds({}, async (main, world) => {
  const mr = main.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  const expected = [Array.from(mr.positions)];
  for (let k = 0; k < 5; k++) { main.step(1 / 60); expected.push(Array.from(mr.positions)); }
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  await world.flush();
  for (let k = 1; k <= 5; k++) {
    world.step(1 / 60);
    // the worker had finished everything before this call: the arrays show the step before
    assert.equal(world.pendingSteps, 1);
    assert.equal(world.completedSteps, k - 1);
    const before = Array.from(rope.positions);
    assert.deepEqual(before, expected[k - 1]);
    await new Promise((r) => setTimeout(r, 50));  // the worker completes step k meanwhile
    assert.deepEqual(Array.from(rope.positions), before, 'no change outside step() and flush()');
    await world.flush();
    assert.deepEqual(Array.from(rope.positions), expected[k]);
  }
}));

test('worker world: the output arrays are the shared slots, read in place; the worker never writes the one shown', () => withWorlds({}, async (main, world) => {
  const mr = main.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  await world.flush();
  const seen = new Set();
  for (let round = 0; round < 4; round++) {
    // queue several steps, then hold what step() showed while the worker runs all of them
    for (let k = 0; k < 6; k++) { world.step(1 / 60); main.step(1 / 60); }
    const held = rope.positions, before = Array.from(held), shown = world.completedSteps;
    assert.ok(held.buffer instanceof SharedArrayBuffer, 'a view of the shared slot, not a copy');
    seen.add(held);
    while (world._ringBacklog > 0) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(rope.positions, held, 'the same array until step() or flush()');
    assert.deepEqual(Array.from(held), before, `step ${shown}: the slot shown was not written while the worker ran ${world.pendingSteps} more`);
  }
  await world.flush();
  assert.deepEqual(Array.from(rope.positions), Array.from(mr.positions));
  assert.ok(seen.size >= 2 && seen.size <= 3, `the arrays cycle through the slots (${seen.size} seen)`);
  assert.equal(await world.stateHash(), main.stateHash());
}));

test('worker world: calls past the command ring\'s capacity wait on the page and still run in order', () => withWorlds({}, async (main, world) => {
  const points = [];
  for (let i = 0; i < 200; i++) points.push(0, 2 - 0.01 * i, 0);
  const mc = main.addChain({ points });
  const wc = world.addChain({ points });
  const pose = new Float32Array(4 * 200), other = new Float32Array(4 * 200);
  // 400 frames of 800-float poses: 5 ring capacities queued before the worker can catch up
  for (let k = 0; k < 400; k++) {
    for (let j = 0; j < 200; j++) {
      const a = 0.002 * Math.sin(0.1 * k + j);
      pose.set([Math.sin(a), 0, 0, Math.cos(a)], 4 * j);
    }
    other.set(pose);
    mc.setPose(pose); wc.setPose(other);
    if (k === 200) { mc.set({ stiffness: 2 }); wc.set({ stiffness: 2 }); }  // a posted call among them
    main.step(1 / 60); world.step(1 / 60);
  }
  await world.flush();
  assert.equal(world.completedSteps, 400);
  assert.deepEqual(Array.from(wc.localRotations), Array.from(mc.localRotations));
  assert.equal(await world.stateHash(), main.stateHash());
}));

// The render arrays of a scene, as the three.js adapters read them every frame.
function renderOf(s) {
  const [rope, rope2, cloth, chain] = s.outputs;
  return [rope.renderPositions, rope2.renderPositions, cloth.renderPositions, cloth.renderNormals, chain.renderPositions,
    chain.renderRotations, chain.renderLocalRotations].map((a) => Array.from(a));
}

test('worker world with render interpolation: the render arrays and alpha of a World, bit for bit', async () => {
  await withWorlds({ substeps: 4, interpolate: true }, async (main, world) => {
    const ms = scene(main);
    // expected[k]: render arrays and alpha after k steps of a 144 Hz display (60 Hz fixed steps)
    const expected = [{ render: renderOf(ms), alpha: main.alpha }];
    for (let k = 0; k < FRAMES; k++) { ms.frame(k); main.step(1 / 144); expected.push({ render: renderOf(ms), alpha: main.alpha }); }
    main.setAlpha(0.37);
    const atAlpha = renderOf(ms);
    assert.equal(world.interpolate, true);
    const ws = scene(world);
    let compared = 0, between = 0;
    for (let k = 0; k < FRAMES; k++) {
      ws.frame(k);
      world.step(1 / 144);
      const shown = world.completedSteps;
      if (shown > 0) {
        const e = expected[shown];
        assert.equal(world.alpha, e.alpha, `frame ${k}: alpha of step ${shown}`);
        assert.deepEqual(renderOf(ws), e.render, `frame ${k}: render arrays of step ${shown}`);
        compared++;
        if (e.alpha > 0 && e.alpha < 1) between++;
      }
      if (k % 10 === 0) await world.flush();
    }
    await world.flush();
    assert.deepEqual(renderOf(ws), expected[FRAMES].render);
    assert.ok(compared > FRAMES / 2 && between > 10, `steps compared: ${compared}, strictly between fixed steps: ${between}`);
    const held = ws.outputs[0].renderPositions;
    world.setAlpha(0.37);
    assert.equal(world.alpha, 0.37);
    assert.deepEqual(renderOf(ws), atAlpha);
    assert.equal(ws.outputs[0].renderPositions, held, 'render arrays keep their identity');
    assert.throws(() => world.setAlpha(2), (e) => e instanceof WispError && e.code === 'out-of-range');
    assert.equal(await world.stateHash(), main.stateHash());
  });
  const plain = await createWorkerWorld({}, { threads: false });
  assert.throws(() => plain.setAlpha(0.5), (e) => e instanceof WispError && e.code === 'unsupported');
  await plain.dispose();
});

test('worker world: an object\'s dispose after a bad call throws that error once and still disposes the object', () => withWorlds({}, async (main, world) => {
  const rope = (w, y) => w.addRope({ start: [0, y, 0], end: [1, y, 0], segments: 8, pinned: [0] });
  rope(main, 2);
  const goneMain = rope(main, 3);
  rope(world, 2);
  const gone = rope(world, 3);
  gone.set({ stretchCompliance: -2 });  // reported by a call after the step that sends it
  assert.throws(() => goneMain.set({ stretchCompliance: -2 }), WispError);
  main.step(1 / 60);
  world.step(1 / 60);
  goneMain.dispose();
  for (let t = 0; !world._errorPending && t < 2000; t++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(world._errorPending, 'the worker reported the bad call');
  assert.throws(() => gone.dispose(), (e) => e instanceof WispError && /stretchCompliance/.test(e.message));
  assert.throws(() => gone.positions, (e) => e.code === 'disposed');
  gone.dispose();  // disposed already: nothing to do, nothing thrown
  main.step(1 / 60);
  world.step(1 / 60);
  assert.equal(await world.stateHash(), main.stateHash(), 'the worker disposed the rope too');
}));

test('worker world: a call too big for the command ring goes by message and keeps its place', { timeout: 30000 }, async () => {
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const chain = world.addChain({ points: [0, 2, 0, 0, 1.9, 0, 0, 1.8, 0] });
    // nine arrays of 8000 numbers under parameter names: one record longer than the whole ring
    const big = Object.fromEntries(PARAM_KEYS.slice(0, 9).map((k) => [k, new Array(8000).fill(1)]));
    chain.set(big);
    world.step(1 / 60);
    await assert.rejects(world.flush(), (e) => e instanceof WispError, 'the worker\'s World rejected it');
    chain.setRoot([0, 2, 0]);
    world.step(1 / 60);
    await world.flush();
    assert.equal(world.completedSteps, 2, 'the calls after it ran');
  } finally {
    await world.dispose();
  }
});

// The same rope of 12 segments on the main thread and in the worker, `steps` steps on: [main's, the worker's].
async function ropesToCut(main, world, steps) {
  const make = (w) => w.addRope({ start: [0, 2, 0], end: [1.2, 2, 0], segments: 12, pinned: [0] });
  const mr = make(main), rope = make(world);
  // a World's render arrays start from the step their getter is first read; the worker reads
  // them when it makes a rope (a cut's too): so does the main thread here
  mr.renderPositions;
  for (let k = 0; k < steps; k++) { main.step(1 / 60); world.step(1 / 60); }
  await world.flush();
  return [mr, rope];
}

test('worker world: rope.cut gives the main thread\'s ropes and bits; both ropes show the cut from the step after it', () => withWorlds({ substeps: 4, interpolate: true }, async (main, world) => {
  const [mr, rope] = await ropesToCut(main, world, 20);
  const before = Array.from(rope.positions), beforeRender = rope.renderPositions;
  assert.equal(before.length, 39);
  const mpiece = mr.cut(5), piece = rope.cut(5);
  mr.renderPositions; mpiece.renderPositions;
  assert.equal(piece.kind, 'rope');
  await world.flush();
  // the step shown has no cut yet: the rope's arrays and count as before it, the far part none
  assert.deepEqual(Array.from(rope.positions), before);
  assert.equal(rope.count, 13);
  assert.equal(piece.positions.length, 0);
  assert.equal(beforeRender.length, 39);
  const shapes = (r, p) => [Array.from(r.positions), Array.from(p.positions), Array.from(r.renderPositions), Array.from(p.renderPositions)];
  for (let k = 0; k < 20; k++) {
    main.step(1 / 60); world.step(1 / 60);
    await world.flush();
    assert.deepEqual(shapes(rope, piece), shapes(mr, mpiece), `step ${k + 1} after the cut`);
  }
  assert.equal(rope.count, mr.count);
  assert.equal(piece.count, mpiece.count);
  assert.equal(rope.count + piece.count, 13, 'no particle lost');
  assert.equal(beforeRender.length, 0, 'the old render array is detached, as a World\'s');
  assert.equal(await piece.restLength(0), mpiece.restLength(0));
  // the page takes steps from shared memory and messages only between tasks: a step from a cut
  // on waits for the worker's ropes, however long the page runs without yielding
  const atCut = Array.from(mr.positions), shownAtCut = world.completedSteps;
  const mp2 = mpiece.cut(2), p2 = piece.cut(2);
  mpiece.renderPositions; mp2.renderPositions;
  world.step(1 / 60); main.step(1 / 60);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);  // the worker publishes meanwhile
  world.step(1 / 60); main.step(1 / 60);
  assert.equal(world.completedSteps, shownAtCut, 'no step from the cut on before its ropes are here');
  assert.deepEqual(Array.from(rope.positions), atCut);
  assert.equal(piece.count, 7);
  assert.equal(p2.positions.length, 0);
  await world.flush();
  assert.deepEqual(shapes(piece, p2), shapes(mpiece, mp2));
  assert.equal(piece.count + p2.count, 7);
  // a bad cut: reported by the next call, nothing cut; the rope it returned stays empty
  const bad = rope.cut(99);
  assert.throws(() => rope.cut(1.5), (e) => e instanceof WispError && /segment/.test(e.message));
  world.step(1 / 60); main.step(1 / 60);
  await assert.rejects(world.flush(), (e) => e instanceof WispError && /99/.test(e.message));
  assert.equal(bad.positions.length, 0);
  assert.equal(await world.stateHash(), main.stateHash());
}));

test('worker world: a cut whose shared arrays cannot be made cuts nothing and says out-of-memory', () => withWorlds({ substeps: 4, interpolate: true }, async (main, world) => {
  const [mr, rope] = await ropesToCut(main, world, 10);
  // memory runs out at each of the cut's shared buffers in turn: per rope its positions (with
  // the interpolation's start), its state record and three params texts
  for (let failing = 1; failing <= 10; failing++) {
    world._failSharedMemory(failing);
    const piece = rope.cut(5);
    world.step(1 / 60); main.step(1 / 60);
    await assert.rejects(world.flush(), (e) => e instanceof WispError && e.code === 'out-of-memory' && /rope\.cut\(5\).*nothing was cut/.test(e.message),
      `buffer ${failing} of the cut`);
    world._failSharedMemory(0);  // memory back (taken before the next call sent by message)
    await world.flush();  // the step after the failed cut (a flush that reports an error shows none)
    assert.equal(rope.count, 13, `buffer ${failing}: the rope keeps its particles`);
    assert.equal(piece.positions.length, 0);
    assert.deepEqual(Array.from(rope.positions), Array.from(mr.positions), `buffer ${failing}`);
    assert.deepEqual(Array.from(rope.renderPositions), Array.from(mr.renderPositions), `buffer ${failing}`);
    assert.equal(await world.stateHash(), main.stateHash(), `buffer ${failing}: the World was not cut`);
  }
  // with memory, the same cut is made
  const mpiece = mr.cut(5), piece = rope.cut(5);
  mr.renderPositions; mpiece.renderPositions;
  for (let k = 0; k < 3; k++) { main.step(1 / 60); world.step(1 / 60); }
  await world.flush();
  assert.deepEqual([Array.from(rope.positions), Array.from(piece.positions), Array.from(piece.renderPositions)],
    [Array.from(mr.positions), Array.from(mpiece.positions), Array.from(mpiece.renderPositions)]);
  assert.equal(await world.stateHash(), main.stateHash());
}));

test('worker world: dispose keeps held arrays whole and unwritten; further calls throw disposed', async () => {
  const world = await createWorkerWorld({ interpolate: true }, { threads: false });
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  const cut = world.addRope({ start: [0, 3, 0], end: [1, 3, 0], segments: 4 });
  world.step(1 / 60);
  await world.flush();
  assert.equal(rope.count, 9);
  const held = rope.positions, render = rope.renderPositions, other = cut.positions, otherBefore = Array.from(other);
  assert.equal(held.length, 27);
  cut.dispose();
  assert.throws(() => cut.positions, (e) => e.code === 'disposed');
  for (let k = 0; k < 5; k++) world.step(1 / 60);
  await world.flush();
  assert.deepEqual(Array.from(other), otherBefore, 'a disposed object\'s slots are no longer written');
  const shown = rope.positions, last = Array.from(shown);
  await world.dispose();
  assert.equal(render.length, 0, 'render arrays are detached');
  assert.deepEqual(Array.from(shown), last, 'the last step shown stays whole');
  assert.throws(() => world.step(1 / 60), (e) => e instanceof WispError && e.code === 'disposed');
  assert.throws(() => rope.positions, (e) => e.code === 'disposed');
  assert.equal(await world.dispose(), undefined);
});

// Reading state back. A scene that makes events (a rope put to sleep and woken, a fault reset
// by the self-test build's injectFault, an anchor that jumps), switches a cloth off and on,
// changes parameters and settings.
function readScene(world) {
  const anchor = world.addAnchor([0, 2, 0]);
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, teleportDistance: 1 });
  rope.pin(0, anchor);
  const still = world.addRope({ start: [2, 2, 0], end: [2, 1.6, 0], segments: 4, pinned: [0], sleepSpeed: 0.5, sleepTime: 0.05 });
  // disposed mid-run: the objects made before and after it keep their own state records
  const gone = world.addChain({ points: [1, 2, 2, 1, 1.9, 2], teleportDistance: 1 });
  const cloth = world.addCloth({ grid: { width: 0.4, height: 0.4, resolutionX: 4, resolutionY: 4, position: [0, 2, 1] }, pinned: [0, 4], updateEvery: 2 });
  const chain = world.addChain({ points: [0, 2, 2, 0, 1.9, 2, 0, 1.8, 2], teleportDistance: 1 });
  return {
    objects: [rope, still, cloth, chain],
    anchor,
    frame(k) {
      anchor.setPosition([0.2 * Math.sin(0.2 * k), 2, 0]);
      if (k === 15) { rope.set({ damping: 0.2 }); world.setGravity([0, -7, 0]); chain.set({ stiffness: 2 }); }
      if (k === 25) cloth.enabled = false;
      if (k === 30) world.injectFault(rope, 3);
      if (k === 35) cloth.enabled = true;
      if (k === 40) { still.wake(); anchor.setPosition([3, 2, 0]); }
      if (k === 45) { cloth.set({ bendCompliance: 0.02 }); still.set({ sleepSpeed: 0 }); }
      if (k === 20) gone.dispose();
    },
  };
}
// What a World answers at once after a step, objects named by their index in the scene.
function readBack(world, s) {
  const index = (o) => s.objects.indexOf(o);
  return {
    time: world.time,
    stats: world.stats(),
    settings: world.settings,
    events: world.events().map((e) => ({ ...e, object: index(e.object) })),
    objects: s.objects.map((o) => ({ enabled: o.enabled, sleeping: o.sleeping, updates: o.updates, stats: o.stats?.() ?? null, params: o.params })),
    anchor: s.anchor.position,
  };
}

test('worker world: time, events, stats, settings, params, enabled, sleeping, updates and anchor positions answer as of the step shown, as a World\'s', async () => {
  const { selftest, SELFTEST_NODE } = await import('./selftest.mjs');
  const main = selftest.single.createWorld({ substeps: 2 });
  const world = await createWorkerWorld({ substeps: 2 }, { threads: false, baseUrl: SELFTEST_NODE });
  try {
    const ms = readScene(main);
    const expected = [readBack(main, ms)];  // [k]: after k steps
    for (let k = 0; k < FRAMES; k++) {
      ms.frame(k);
      main.step(1 / 60);
      expected.push(readBack(main, ms));
    }
    const kinds = new Set(expected.slice(1).flatMap((r) => r.events.map((e) => e.type)));
    for (const type of ['sleep', 'wake', 'reset', 'teleport']) assert.ok(kinds.has(type), `the scene makes a '${type}' event`);
    const ws = readScene(world);
    await world.flush();
    const { settings, objects } = expected[0];
    assert.deepEqual(world.settings, settings, 'settings before a step');
    assert.deepEqual(ws.objects.map((o) => o.params), objects.map((o) => o.params), 'params once made');
    // each object's state as made (the world's stats are published with the first step)
    const made = readBack(world, ws);
    assert.deepEqual([made.objects, made.anchor], [objects, expected[0].anchor], 'objects once made, before a step');
    // The events of steps the page never showed (the worker ran ahead of it) are said by one
    // 'events-dropped' event after the step's own: exactly how many there were.
    let compared = 0, lastShown = 0;
    const check = (what, shown) => {
      const got = readBack(world, ws), missed = got.events.filter((e) => e.type === 'events-dropped');
      got.events = got.events.filter((e) => e.type !== 'events-dropped');
      assert.deepEqual(got, expected[shown], what);
      if (shown !== lastShown) {
        let skipped = 0;
        for (let j = lastShown + 1; j < shown; j++) skipped += expected[j].events.length;
        const said = missed.length === 0 ? 0 : Number(missed[0].message.split(' ')[0]);
        assert.equal(said, skipped, `${what}: events of the steps not shown since step ${lastShown}`);
        lastShown = shown;
      }
    };
    for (let k = 0; k < FRAMES; k++) {
      ws.frame(k);
      world.step(1 / 60);
      const shown = world.completedSteps;
      if (shown > 0) { check(`frame ${k}: as of step ${shown}`, shown); compared++; }
      if (k % 10 === 0) {
        await world.flush();
        check(`frame ${k}, flushed`, k + 1);
      }
    }
    await world.flush();
    check('the end', FRAMES);
    assert.ok(compared > FRAMES / 2, `steps compared without flush: ${compared}`);
  } finally {
    await world.dispose();
    main.dispose();
  }
});

test('worker world: particle, restLength, airVelocityAt and snapshots answer by Promise, as a World after the same calls', () => withWorlds({ substeps: 2, wind: { direction: [1, 0, 0], speed: 3 } }, async (main, world) => {
  const ms = scene(main), ws = scene(world);
  const run = (s, w, from, to) => { for (let k = from; k < to; k++) { s.frame(k); w.step(1 / 60); } };
  run(ms, main, 0, 40);
  run(ws, world, 0, 40);
  const [rope, , cloth, chain] = ms.outputs, [wrope, , wcloth, wchain] = ws.outputs;
  // asked without a flush: answered after every call made before
  const answers = await Promise.all([wrope.particle(3), wcloth.particle(7), wchain.particle(2), wrope.restLength(4), world.airVelocityAt([0.5, 1, 0]),
    world.saveSnapshotJson(), world.saveSnapshot()]);
  assert.deepEqual(answers, [rope.particle(3), cloth.particle(7), chain.particle(2), rope.restLength(4), main.airVelocityAt([0.5, 1, 0]),
    main.saveSnapshotJson(), main.saveSnapshot()]);
  // a bad query rejects its own Promise with the World's error, and nothing else
  assert.throws(() => rope.particle(999), (e) => e.code === 'out-of-range');
  await assert.rejects(wrope.particle(999), (e) => e instanceof WispError && e.code === 'out-of-range');
  await world.flush();
  // loading a snapshot of its own objects, as a World does; the outputs show it from the next step
  const [bytes, json] = [main.saveSnapshot(), main.saveSnapshotJson()];
  run(ms, main, 40, 60);
  run(ws, world, 40, 60);
  main.loadSnapshot(bytes);
  await world.loadSnapshot(bytes);
  assert.equal(await world.stateHash(), main.stateHash());
  run(ms, main, 60, 70);
  run(ws, world, 60, 70);
  main.loadSnapshotJson(json);
  await world.loadSnapshotJson(json);
  run(ms, main, 70, 75);
  run(ws, world, 70, 75);
  await world.flush();
  assert.deepEqual(outputsOf(ws), outputsOf(ms));
  assert.equal(await world.stateHash(), main.stateHash());
  assert.deepEqual(world.settings, main.settings, 'settings as of the last step, which ran after the load');
  // a snapshot of other objects is refused and changes nothing
  const other = await createWisp({ threads: false });
  const lone = other.createWorld({});
  lone.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 3 });
  await assert.rejects(world.loadSnapshot(lone.saveSnapshot()), (e) => e instanceof WispError && e.code === 'unsupported');
  lone.dispose();
  await assert.rejects(world.loadSnapshot(new Uint8Array([1, 2, 3])), (e) => e instanceof WispError);
  assert.equal(await world.stateHash(), main.stateHash());
  assert.throws(() => world.objects, (e) => e instanceof WispError && e.code === 'unsupported');
  // a Promise pending at dispose rejects
  const late = assert.rejects(world.saveSnapshot(), (e) => e.code === 'disposed');
  await world.dispose();
  await late;
}));

test('worker world: dispose with the command ring full ends the worker at once, without its 2-second fallback', { timeout: 60000 }, async () => {
  const { mock } = await import('node:test');
  const world = await createWorkerWorld({}, { threads: false });
  const realTimeout = setTimeout;
  try {
    const points = [];
    for (let i = 0; i < 200; i++) points.push(0, 2 - 0.01 * i, 0);
    const chain = world.addChain({ points });
    await world.flush();
    const pose = new Float32Array(4 * 200).fill(0);
    for (let j = 0; j < 200; j++) pose[4 * j + 3] = 1;
    for (let k = 0; k < 400; k++) { chain.setPose(pose); world.step(1 / 60); }
    // the fallback timer cannot fire: dispose must not need it
    mock.timers.enable({ apis: ['setTimeout'] });
    const how = await Promise.race([world.dispose().then(() => 'ended'), new Promise((r) => realTimeout(r, 30000, 'still waiting'))]);
    assert.equal(how, 'ended');
  } finally {
    mock.timers.tick(2000);  // (the code before: its fallback ends the worker, so this file can end)
    mock.timers.reset();
    await world.dispose();
  }
});

test('worker world: setChainRoots gives the main thread\'s bits and checks its list and pose before queueing anything', () => withWorlds({ substeps: 4 }, async (main, world) => {
  const make = (w) => Array.from({ length: 5 }, (_, c) => w.addChain({ joints: [{ position: [0.02 * c, 0.05, -0.1] }, { position: [0, -0.06, 0] }, { position: [0, -0.06, 0] }], position: [0, 1.6, 0] }));
  const mc = make(main), wc = make(world);
  const other = await createWorkerWorld({});
  try {
    const stranger = other.addChain({ joints: [{ position: [0, 0, 0] }, { position: [0, -0.1, 0] }] });
    for (const [bad, code] of [[[wc[0], stranger], 'foreign-object'], [[wc[0], {}], 'foreign-object'], [null, 'invalid-argument']]) {
      assert.throws(() => world.setChainRoots(bad, [0, 1.6, 0]), (e) => e.code === code, `list ${code}`);
    }
    assert.throws(() => world.setChainRoots(wc, [0, NaN, 0]), /position\[1\]/);
    assert.throws(() => world.setChainRoots(wc, [0, 1.6, 0], [0, 0, 0, 0]), /rotation must not be a zero quaternion/);
    assert.throws(() => world.setChainRoots(wc, [0, 1e39, 0]), /position\[1\] must be finite as a float32/);
    assert.throws(() => world.setChainRoots(wc, [0, 1.6, 0], [1e-30, 0, 0, 0]), /zero quaternion/);
    await world.flush();  // nothing was queued: no error comes back
  } finally {
    await other.dispose();
  }
  for (let k = 0; k < 40; k++) {
    const a = 0.8 * Math.sin(k / 6), p = [0.1 * Math.sin(k / 5), 1.6, 0], q = [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
    main.setChainRoots(mc, p, q);
    world.setChainRoots(wc, p, q);
    main.step(1 / 60);
    world.step(1 / 60);
  }
  await world.flush();
  assert.equal(await world.stateHash(), main.stateHash());
  for (let c = 0; c < 5; c++) assert.deepEqual(wc[c].positions, mc[c].positions, `chain ${c}`);
}));

test('worker world events: a step\'s events that do not fit a buffer that cannot grow are counted and said, and the others read back whole', () => {
  const buffer = new SharedArrayBuffer(1024);  // fixed: as where shared memory cannot grow
  const objects = new Map([[1, 'rope one'], [2, 'cloth two']]);
  const events = Array.from({ length: 12 }, (_, k) => ({ type: k % 2 ? 'sleep' : 'teleport', kind: k % 2 ? 'cloth' : 'rope', object: k % 2 ? 'cloth two' : 'rope one', message: `event ${k} `.repeat(3) }));
  const dropped = writeEvents(buffer, events, (o) => (o === 'rope one' ? 1 : 2));
  assert.ok(dropped > 0 && dropped < events.length, `dropped ${dropped}`);
  const read = readStepEvents(buffer, events.length, dropped, (id) => objects.get(id) ?? null);
  assert.equal(read.length, events.length - dropped + 1);
  assert.deepEqual(read.slice(0, -1), events.slice(0, events.length - dropped));
  const last = read[read.length - 1];
  assert.equal(last.type, 'events-dropped');
  assert.equal(last.object, null);
  assert.match(last.message, new RegExp(`^${dropped} of 12 events are not shown`));
});
