#!/usr/bin/env bash
# Fuzzes the public C++ API (tests/fuzz/fuzz_world.cpp) with libFuzzer under AddressSanitizer +
# UBSan for a bounded time: WISP_FUZZ_SECONDS (default 60). Any crash, sanitizer report or broken
# promise fails the run; the input that caused it is left in build/fuzz/ (crash-*).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/cmake-configure.sh
dir=build/fuzz
wisp_forget_stale "$dir"
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWISP_SANITIZE=address \
    -DWISP_FUZZ=ON -DWISP_TESTS=OFF -DWISP_BENCH=OFF > /dev/null
fi
cmake --build "$dir" -j "$WISP_JOBS" --target wisp_fuzz
mkdir -p "$dir/corpus"
seconds="${WISP_FUZZ_SECONDS:-60}"
echo "== libFuzzer: the C++ API for ${seconds} s"
cd "$dir"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ./wisp_fuzz -max_total_time="$seconds" -timeout=20 -max_len=1024 -rss_limit_mb=2048 -print_final_stats=1 corpus
