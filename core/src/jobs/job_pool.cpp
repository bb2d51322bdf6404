#include "jobs/job_pool.h"

#include <algorithm>

#if defined(WISP_THREADS)
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
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

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      quit_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  void run(int count, int threads, ItemFn fn, void* ctx) {
    std::lock_guard<std::mutex> dispatch(dispatchMutex_);  // one job at a time
    int helpers = std::min(threads - 1, count - 1);
    ensureWorkers(helpers);
    {
      std::lock_guard<std::mutex> lock(m_);
      fn_ = fn;
      ctx_ = ctx;
      count_ = count;
      next_.store(0, std::memory_order_relaxed);
      helpers_ = helpers;
      busy_.store(helpers, std::memory_order_relaxed);
      ++epoch_;
    }
    cv_.notify_all();
    drain();
    while (busy_.load(std::memory_order_acquire) != 0) {
      // spin: the browser main thread may not block; jobs here last microseconds to milliseconds
    }
  }

 private:
  void ensureWorkers(int n) {
    while (static_cast<int>(workers_.size()) < n) {
      int id = static_cast<int>(workers_.size());
      workers_.emplace_back([this, id] { loop(id); });
    }
  }

  void drain() {
    for (;;) {
      int i = next_.fetch_add(1, std::memory_order_relaxed);
      if (i >= count_) break;
      fn_(ctx_, i);
    }
  }

  void loop(int id) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return quit_ || (epoch_ != seen && id < helpers_); });
        if (quit_) return;
        seen = epoch_;
      }
      drain();
      busy_.fetch_sub(1, std::memory_order_release);
    }
  }

  std::mutex dispatchMutex_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::thread> workers_;
  bool quit_ = false;
  uint64_t epoch_ = 0;
  int helpers_ = 0;
  ItemFn fn_ = nullptr;
  void* ctx_ = nullptr;
  int count_ = 0;
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
int resolveThreads(int requested) {
  int hw = static_cast<int>(std::thread::hardware_concurrency());
  int n = requested == 0 ? std::max(1, hw) : requested;
  return std::clamp(n, 1, kMaxThreads);
}
void parallelFor(int count, int threads, ItemFn fn, void* ctx) {
  if (threads <= 1 || count <= 1) {
    for (int i = 0; i < count; ++i) fn(ctx, i);
    return;
  }
  pool().run(count, std::min(threads, kMaxThreads), fn, ctx);
}

#else  // single-threaded build

int maxThreads() { return 1; }
bool threadsAvailable() { return false; }
int resolveThreads(int) { return 1; }
void parallelFor(int count, int, ItemFn fn, void* ctx) {
  for (int i = 0; i < count; ++i) fn(ctx, i);
}

#endif

}  // namespace wisp::jobs
