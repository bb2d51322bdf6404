// The dedicated worker of a worker world (worker-world.js): owns a real World, runs the commands
// the main thread queued, in order, and after every step publishes each object's outputs into
// SharedArrayBuffers the main thread reads.
//
// Publication (a sequence lock over two slots): every output buffer holds two copies of its
// floats. After step k the worker writes slot k & 1 of every buffer, then stores k in the
// control word. A reader that sees k reads slot k & 1, which the worker does not touch until it
// has published k + 1; the reader checks the word again after reading (worker-world.js).
//
// A command that throws changes nothing (the World's guarantee); its WispError goes back to the
// main thread, which throws it at its next call. Node (worker_threads) and browsers (a module
// Worker) differ only in how messages travel.
import { createWisp } from './index.js';
import { isNode } from './loader.js';

const NODE_THREADS = 'node:worker_threads';  // a variable, so no bundler follows it
// No top-level await: bundlers emit workers as classic scripts by default. Node keeps the
// messages that arrive before the listener is attached.
let port = null;
const send = (msg, transfer) => (port ? port.postMessage(msg, transfer) : self.postMessage(msg, transfer));
const listen = (fn) => {
  if (!isNode) { self.addEventListener('message', (e) => fn(e.data)); return; }
  import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_THREADS).then((m) => { port = m.parentPort; port.on('message', fn); });
};

// The outputs each kind publishes: [getter, floats per particle or joint].
const OUTPUTS = {
  rope: [['positions', 3]],
  cloth: [['positions', 3], ['normals', 3]],
  chain: [['positions', 3], ['rotations', 4], ['localRotations', 4]],
};

let world = null, control = null, report = null, seq = 0;
const objects = new Map();    // main-thread id -> the World's object
const published = [];         // { arrays: [[source getter, Float32Array over a SAB (2 slots)]] }

function errorOf(e) {
  return { message: e?.message ?? String(e), code: e?.code ?? 'unknown', name: e?.name };
}

function decode(a) {
  if (a && typeof a === 'object' && !ArrayBuffer.isView(a)) {
    if (a.$h !== undefined) return objects.get(a.$h) ?? { _world: null };
    if (Array.isArray(a)) return a.map(decode);
  }
  return a;
}

function publishOne(p, slot) {
  for (const [obj, name, sab] of p) {
    const src = obj[name], n = src.length;
    sab.set(src, slot * n);
  }
}

function publish() {
  const slot = (seq + 1) & 1;
  for (const p of published) if (!p.dead) publishOne(p.arrays, slot);
  const r = world.lastStep;
  report[0] = r.fixedSteps; report[1] = r.droppedTime; report[2] = r.leftover; report[3] = world.time;
  seq++;
  Atomics.store(control, 0, seq);
}

// Makes the shared output buffers of a new object, both slots holding its outputs now.
function share(id, kind, obj) {
  const outs = OUTPUTS[kind];
  if (!outs) return null;
  const arrays = [], buffers = {};
  for (const [name, width] of outs) {
    const n = obj[name].length;
    const sab = new Float32Array(new SharedArrayBuffer(Math.max(4, 8 * n)));
    sab.set(obj[name], 0);
    sab.set(obj[name], n);
    arrays.push([obj, name, sab]);
    buffers[name] = { buffer: sab.buffer, floats: n, width };
  }
  const entry = { id, arrays, dead: false };
  published.push(entry);
  return buffers;
}

function run(cmd) {
  if (cmd.op === 'step') { world.step(cmd.dt); publish(); return; }
  if (cmd.op === 'add') {
    const obj = world[cmd.method](...cmd.args.map(decode));
    objects.set(cmd.id, obj);
    send({ type: 'created', id: cmd.id, outputs: share(cmd.id, cmd.kind, obj) });
    return;
  }
  const target = cmd.id === 0 ? world : objects.get(cmd.id);
  if (target === undefined) return;  // its creation failed; that error was reported
  if (cmd.method === 'dispose') {
    for (const p of published) if (p.id === cmd.id) p.dead = true;
    objects.delete(cmd.id);
  }
  target[cmd.method](...cmd.args.map(decode));
}

listen(async (msg) => {
  if (msg.type === 'init') {
    try {
      const wisp = await createWisp(msg.load);
      world = wisp.createWorld(msg.settings);
      control = new Int32Array(msg.control);
      report = new Float64Array(msg.report);
      send({ type: 'ready', threaded: wisp.threaded });
    } catch (e) {
      send({ type: 'error', error: errorOf(e), fatal: true });
    }
    return;
  }
  if (msg.type === 'commands') {
    for (const cmd of msg.commands) {
      try { run(cmd); } catch (e) { send({ type: 'error', error: errorOf(e), id: cmd.id }); }
    }
    send({ type: 'done', batch: msg.batch });
    return;
  }
  if (msg.type === 'hash') { send({ type: 'hash', token: msg.token, hash: world.stateHash() }); return; }
  if (msg.type === 'dispose') {
    world?.dispose();
    send({ type: 'disposed' });
  }
});
