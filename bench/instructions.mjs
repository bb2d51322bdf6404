// Instructions per frame of the WebAssembly builds, counted by callgrind: an A/B measure that
// does not depend on what else the machine runs (on a shared machine wall and CPU time vary by
// +-10 % between runs, more than most single changes move). Each checkout's single-threaded
// build runs a setup (bench/setups.mjs) in Node under valgrind twice, for WARM and for
// WARM + frames frames; the difference over `frames` is the count per frame, so loading,
// compiling and building the world cancel out. Node runs with V8's optimizing compiler only
// (no baseline tier, no tier-up) on one thread. What still varies is the garbage collector's
// work (its heuristics read the clock): two counts of one checkout differ by up to ~1 % per
// frame, so --repeat N gives the median of N such differences.
// It counts instructions, not time: cache misses and stalls are not in it, so a change that
// moves memory traffic is still timed with bench/ab.mjs.
//   node bench/instructions.mjs <checkout A> [<checkout B>] [--setups wig,vrm] [--frames 20] [--repeat 1]
// Needs valgrind (apt install valgrind); takes about a minute per setup and checkout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandLine } from './command_line.mjs';
import { makeSetup } from './setups.mjs';

const WARM = 5;
const args = process.argv.slice(2);

if (args[0] === '--child') {  // under valgrind: <checkout> <setup> <frames>
  const [, dir, setup, frames] = args;
  const { createWisp } = await import(pathToFileURL(path.resolve(dir, 'wasm/js/index.js')).href);
  const run = makeSetup(setup, await createWisp({ threads: false }), 1);
  for (let f = 1; f <= Number(frames); f++) run.frame(f);
  run.dispose();
  process.exit(0);
}

const { opt, positional: dirs } = commandLine(args, ['--setups', '--frames', '--repeat']);
if (dirs.length < 1 || dirs.length > 2) throw new Error('usage: node bench/instructions.mjs <checkout A> [<checkout B>] [--setups wig,vrm] [--frames 20] [--repeat 1]');
const setups = opt('--setups', 'wig').split(',');
const whole = (name, dflt) => {
  const n = Number(opt(name, dflt));
  if (!(Number.isInteger(n) && n > 0)) throw new Error(`${name} must be a whole number > 0, got '${opt(name)}'`);
  return n;
};
const frames = whole('--frames', '20'), repeat = whole('--repeat', '1');
if (spawnSync('valgrind', ['--version']).error) throw new Error('bench/instructions.mjs needs valgrind on the PATH (apt install valgrind)');

const self = fileURLToPath(import.meta.url);
function collected(dir, setup, n) {
  const r = spawnSync('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--callgrind-out-file=/dev/null',
    process.execPath, '--single-threaded', '--no-liftoff', '--no-wasm-tier-up', self, '--child', dir, setup, String(n)], { encoding: 'utf8' });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`valgrind run of ${setup} in ${dir} failed (status ${r.status}):\n${r.stderr.slice(-2000)}`);
  return Number(m[1]);
}
const median = (xs) => xs.sort((a, b) => a - b)[(xs.length - 1) >> 1];
const perFrameOf = (dir, setup) =>
  median(Array.from({ length: repeat }, () => (collected(dir, setup, WARM + frames) - collected(dir, setup, WARM)) / frames / 1e6));

console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; single-threaded builds, V8 optimizing tier only, one thread`);
console.log(`instructions per frame = (count after ${WARM + frames} frames - count after ${WARM}) / ${frames}, callgrind, median of ${repeat}\n`);
dirs.forEach((d, i) => console.log(`${'AB'[i]} = ${d}`));
console.log(`\n| setup | ${dirs.map((_, i) => `${'AB'[i]} M instr/frame`).join(' | ')} |${dirs.length > 1 ? ' B / A |' : ''}`);
console.log(`|---|${dirs.map(() => '---:|').join('')}${dirs.length > 1 ? '---:|' : ''}`);
for (const setup of setups) {
  const perFrame = dirs.map((d) => perFrameOf(d, setup));
  const ratio = perFrame.length > 1 ? ` ${(perFrame[1] / perFrame[0]).toFixed(4)} |` : '';
  console.log(`| ${setup} | ${perFrame.map((x) => x.toFixed(2)).join(' | ')} |${ratio}`);
}
