// The timing every Node benchmark here uses: ms per call of fn(i) (i counts the calls, warm-up
// included, so a frame-driven fn keeps moving), the best of `blocks` blocks of at least `blockMs`
// ms and `minCalls` calls, after `warmup` calls. The best block, not the mean: on a shared
// machine other load only ever adds time, so the least disturbed block is the best estimate of
// the code's own cost.
export function bestBlockMs(fn, timing) {
  return bestBlocksMs([fn], timing)[0];
}

// bestBlockMs for several fns measured side by side: after each one's warm-up, the blocks go round
// robin (block b of every fn, then block b + 1), so a change in the host's speed during the run
// (other load, clock) falls on all of them alike and their ratios stay fair. Returns each fn's
// best block, in the order given.
export function bestBlocksMs(fns, { warmup, blocks, blockMs, minCalls }) {
  const calls = fns.map(() => 0);
  fns.forEach((fn, k) => { for (; calls[k] < warmup; calls[k]++) fn(calls[k]); });
  const best = fns.map(() => Infinity);
  for (let b = 0; b < blocks; b++) {
    fns.forEach((fn, k) => {
      let n = 0;
      const t0 = performance.now();
      while (n < minCalls || performance.now() - t0 < blockMs) { fn(calls[k]++); n++; }
      best[k] = Math.min(best[k], (performance.now() - t0) / n);
    });
  }
  return best;
}
