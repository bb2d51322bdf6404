// A small process-wide pool of worker threads. parallelFor hands out work items through an
// atomic counter; which thread runs an item never changes the result because callers only
// submit items that touch disjoint data (whole ropes, or vertex-disjoint constraint chunks).
//
// The pool is created once and never shrinks: creating worlds does not create threads, and no
// thread is ever joined on the browser's main thread (which would block it). The caller takes
// part in the work and then spins until the workers finish, since the browser main thread may
// not sleep on a futex.
#pragma once
#include <atomic>
#include <cstdint>

namespace wisp::jobs {

// Largest thread count a world may ask for (caller included).
int maxThreads();
// Threads that `requested` resolves to: 0 means all hardware threads; clamped to maxThreads().
int resolveThreads(int requested);
bool threadsAvailable();  // false in single-threaded builds

using ItemFn = void (*)(void* context, int item);
// Runs fn(context, i) for every i in [0, count) on up to regionSize(threads) threads, caller
// included: more threads than cores only adds workers that spin against the ones working.
void parallelFor(int count, int threads, ItemFn fn, void* context);

// How many threads parallelRegion(threads, ...) really uses: at most the hardware threads, since
// members wait for each other at barriers (4 members on 2 cores made a step 100x slower).
int regionSize(int threads);
// Runs fn(context, t) once on each of regionSize(threads) threads at the same time (t = 0 is the
// caller), for code that synchronises its threads with a SpinBarrier sized regionSize(threads).
void parallelRegion(int threads, ItemFn fn, void* context);

template <class F>
void parallelRegion(int threads, F&& f) {
  if (threads <= 1) {
    f(0);
    return;
  }
  parallelRegion(threads, [](void* c, int t) { (*static_cast<F*>(c))(t); }, &f);
}

// All `count` threads wait until all have arrived. Spins: phases inside one step are short,
// and the browser's main thread may not block.
class SpinBarrier {
 public:
  explicit SpinBarrier(int count) : count_(count) {}
  void wait();

 private:
  int count_;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<int> phase_{0};
};

template <class F>
void parallelFor(int count, int threads, F&& f) {
  if (threads <= 1 || count <= 1) {
    for (int i = 0; i < count; ++i) f(i);
    return;
  }
  parallelFor(count, threads, [](void* c, int i) { (*static_cast<F*>(c))(i); }, &f);
}

}  // namespace wisp::jobs
