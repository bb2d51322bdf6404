// jobs::parallelFor hands items out in runs whose length is a share of the items not yet taken
// (job_pool.cpp, drain): whatever the count and thread count, every item must run exactly once,
// also when the threads race for the last few single items and when there are more threads than
// items or cores.
#include <atomic>
#include <memory>

#include "helpers.h"
#include "jobs/job_pool.h"

namespace wisp::test {
namespace {

TEST(JobPool, ParallelForRunsEveryItemOnce) {
  for (int threads : {1, 2, 3, 4, 8}) {
    for (int count : {0, 1, 2, 3, 5, 7, 16, 100, 1001, 20000}) {
      auto runs = std::make_unique<std::atomic<int>[]>(static_cast<size_t>(count) + 1);
      for (int i = 0; i <= count; ++i) runs[i].store(0);
      jobs::parallelFor(count, threads, [&](int i) {
        ASSERT_GE(i, 0);
        ASSERT_LT(i, count);
        runs[i].fetch_add(1, std::memory_order_relaxed);
      });
      int wrong = -1;
      for (int i = 0; i < count && wrong < 0; ++i)
        if (runs[i].load() != 1) wrong = i;
      EXPECT_EQ(wrong, -1) << count << " items on " << threads << " threads: item " << wrong << " ran "
                           << (wrong >= 0 ? runs[wrong].load() : 0) << " times";
      EXPECT_EQ(runs[count].load(), 0) << "an item past the end ran";
    }
  }
}

// Items of very different cost (the last few much dearer, as hair strands in contact with a head
// are): still each once, and back to back jobs see none of the previous job's items.
TEST(JobPool, UnevenItemsAndBackToBackJobs) {
  constexpr int kCount = 257;
  std::atomic<int> sum{0};
  for (int job = 0; job < 50; ++job) {
    std::atomic<int> ran{0};
    jobs::parallelFor(kCount, 2, [&](int i) {
      volatile float x = 0;
      for (int k = 0; k < (i > kCount - 8 ? 20000 : 50); ++k) x = x + 1.0f;
      ran.fetch_add(1, std::memory_order_relaxed);
      sum.fetch_add(i, std::memory_order_relaxed);
    });
    ASSERT_EQ(ran.load(), kCount) << "job " << job;
  }
  EXPECT_EQ(sum.load(), 50 * kCount * (kCount - 1) / 2);
}

}  // namespace
}  // namespace wisp::test
