// The timing every Node benchmark here uses: ms per call of fn(i) (i counts the calls, warm-up
// included, so a frame-driven fn keeps moving), the best of `blocks` blocks of at least `blockMs`
// ms and `minCalls` calls, after `warmup` calls. The best block, not the mean: on a shared
// machine other load only ever adds time, so the least disturbed block is the best estimate of
// the code's own cost.
export function bestBlockMs(fn, { warmup, blocks, blockMs, minCalls }) {
  let i = 0;
  for (; i < warmup; i++) fn(i);
  let best = Infinity;
  for (let b = 0; b < blocks; b++) {
    let n = 0;
    const t0 = performance.now();
    while (n < minCalls || performance.now() - t0 < blockMs) { fn(i++); n++; }
    best = Math.min(best, (performance.now() - t0) / n);
  }
  return best;
}
