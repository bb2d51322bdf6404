#include "jobs/job_pool.h"

#include <algorithm>

#if defined(WISP_THREADS)
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#endif

namespace wisp::jobs {

#if defined(WISP_THREADS)

namespace {

#if defined(__EMSCRIPTEN__)
// Must not exceed -sPTHREAD_POOL_SIZE: a thread beyond the preloaded pool only starts after
// the main thread yields, and the main thread spins waiting for it.
constexpr int kMaxThreads = WISP_WASM_POOL_SIZE;
#else
constexpr int kMaxThreads = 16;
#endif

inline void cpuRelax() {
#if defined(__SSE2__)
  _mm_pause();
#endif
}

// A job is published through one atomic word, (epoch << 8) | helpers, so a worker always reads
// an epoch together with the helper count that belongs to it.
class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      quit_.store(true);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  // region: every helper runs fn(ctx, its index + 1) once instead of sharing out items
  void run(int count, int threads, ItemFn fn, void* ctx, bool region = false) {
    std::lock_guard<std::mutex> dispatch(dispatchMutex_);  // one job at a time
    int helpers = std::min({threads - 1, count - 1, kMaxThreads - 1});
    region_ = region;
    ensureWorkers(helpers);
    fn_ = fn;
    ctx_ = ctx;
    count_ = count;
    split_ = (helpers + 1) * kSplit;
    next_.store(0, std::memory_order_relaxed);
    busy_.store(helpers, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(m_);  // pairs with the sleepers' predicate check
      uint64_t epoch = (job_.load(std::memory_order_relaxed) >> 8) + 1;
      job_.store((epoch << 8) | static_cast<uint64_t>(helpers), std::memory_order_release);
    }
    cv_.notify_all();
    if (region) fn(ctx, 0);
    else drain();
    while (busy_.load(std::memory_order_acquire) != 0) cpuRelax();  // the browser main thread may not block
  }

 private:
  // Spin this long for the next job before sleeping: a step issues short jobs back to back, and
  // a futex wake-up costs more than most of them. Measured in time, not iterations: WASM has no
  // pause instruction, so a count of spins lasted 20x less there than natively and a 64 x 64
  // cloth on 2 threads was no faster than on one (each frame waited for a sleeping worker).
  static constexpr auto kSpin = std::chrono::microseconds(250);
  // A run takes 1 / (threads x kSplit) of the items not yet taken (drain).
  static constexpr int kSplit = 2;

  void ensureWorkers(int n) {
    while (static_cast<int>(workers_.size()) < n) {
      int id = static_cast<int>(workers_.size());
      uint64_t seen = job_.load(std::memory_order_acquire) >> 8;
      workers_.emplace_back([this, id, seen] { loop(id, seen); });
    }
  }

  // Items go out in runs of consecutive ones: neighbouring objects were allocated next to each
  // other, and handing them out one by one to alternating threads made the threads fight over
  // the cache lines where one object's arrays end and the next one's begin. Each run is a share
  // of the items not yet taken (guided scheduling): long runs first, single items last, so the
  // threads finish together. With runs of a fixed eighth of a thread's share, the last run of a
  // 2-thread step of 2,000 hair strands was 0.7 ms of work, and the caller spent 12 % of the
  // step waiting for the other thread to finish its run.
  void drain() {
    int b = next_.load(std::memory_order_relaxed);
    for (;;) {
      const int left = count_ - b;
      if (left <= 0) break;
      const int run = std::max(1, left / split_);
      if (!next_.compare_exchange_weak(b, b + run, std::memory_order_relaxed)) continue;  // b reloaded
      for (int i = b; i < b + run; ++i) fn_(ctx_, i);
      b = next_.load(std::memory_order_relaxed);
    }
  }

  // A worker spins only after a job it took part in: one left out of a smaller job (a 2-thread
  // world after a 4-thread one) goes straight back to sleep instead of taking a core from the
  // threads that work.
  void loop(int id, uint64_t seen) {
    bool worked = false;
    for (;;) {
      uint64_t job = job_.load(std::memory_order_acquire);
      const auto until = std::chrono::steady_clock::now() + kSpin;
      for (int i = 1; worked && (job >> 8) == seen; ++i) {
        cpuRelax();
        job = job_.load(std::memory_order_acquire);
        if (i % 64 == 0 && std::chrono::steady_clock::now() > until) break;
      }
      if ((job >> 8) == seen) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] {
          job = job_.load(std::memory_order_acquire);
          return quit_.load() || (job >> 8) != seen;
        });
        if (quit_.load()) return;
      }
      seen = job >> 8;
      worked = id < static_cast<int>(job & 0xFF);
      if (worked) {
        if (region_) fn_(ctx_, id + 1);
        else drain();
        busy_.fetch_sub(1, std::memory_order_release);
      }
    }
  }

  std::mutex dispatchMutex_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::thread> workers_;
  std::atomic<bool> quit_{false};
  std::atomic<uint64_t> job_{0};
  ItemFn fn_ = nullptr;
  void* ctx_ = nullptr;
  bool region_ = false;
  int count_ = 0;
  int split_ = 2;
  std::atomic<int> next_{0};
  std::atomic<int> busy_{0};
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

int maxThreads() { return kMaxThreads; }
bool threadsAvailable() { return true; }
int hardwareThreads();
int resolveThreads(int requested) {
  int n = requested == 0 ? hardwareThreads() : requested;
  return std::clamp(n, 1, kMaxThreads);
}
void parallelFor(int count, int threads, ItemFn fn, void* ctx) {
  if (threads <= 1 || count <= 1) {
    for (int i = 0; i < count; ++i) fn(ctx, i);
    return;
  }
  threads = regionSize(threads);
  if (threads <= 1) {
    for (int i = 0; i < count; ++i) fn(ctx, i);
    return;
  }
  pool().run(count, threads, fn, ctx);
}

// Asked once: under Emscripten in Node it reads the CPU list from the OS (tens of microseconds).
int hardwareThreads() {
  static const int n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return n;
}

int regionSize(int threads) {
  int hw = hardwareThreads();
  if (threads <= 1) return 1;
  return std::max(1, std::min({threads, kMaxThreads, std::max(1, hw)}));
}

void parallelRegion(int threads, ItemFn fn, void* ctx) {
  threads = regionSize(threads);
  if (threads <= 1) {
    fn(ctx, 0);
    return;
  }
  pool().run(threads, threads, fn, ctx, true);
}

void SpinBarrier::wait() {
  int phase = phase_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
    arrived_.store(0, std::memory_order_relaxed);
    phase_.store(phase + 1, std::memory_order_release);
    return;
  }
  // Spin briefly (phases are short), then give the core away so that a member that is not
  // running can get to the barrier.
  for (int spins = 0; phase_.load(std::memory_order_acquire) == phase; ++spins) {
    if (spins < 2000) cpuRelax();
    else std::this_thread::yield();
  }
}

#else  // single-threaded build

int maxThreads() { return 1; }
bool threadsAvailable() { return false; }
int resolveThreads(int) { return 1; }
void parallelFor(int count, int, ItemFn fn, void* ctx) {
  for (int i = 0; i < count; ++i) fn(ctx, i);
}
int regionSize(int) { return 1; }
void parallelRegion(int, ItemFn fn, void* ctx) { fn(ctx, 0); }
void SpinBarrier::wait() { (void)count_; }  // a team of one: nobody to wait for

#endif

}  // namespace wisp::jobs
