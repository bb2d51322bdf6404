#!/usr/bin/env bash
# Hardened native runs: the whole GoogleTest suite under AddressSanitizer + UndefinedBehavior-
# Sanitizer (leaks included), and the multi-threaded paths under ThreadSanitizer. Any report
# fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/cmake-configure.sh
for kind in address thread; do
  dir="build/sanitize-$kind"
  wisp_forget_stale "$dir"
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWISP_SANITIZE="$kind" -DWISP_BENCH=OFF > /dev/null
  fi
  cmake --build "$dir" -j "$WISP_JOBS" --target wisp_tests_simd
done
echo "== AddressSanitizer + UBSan: whole suite"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  build/sanitize-address/tests/wisp_tests_simd --gtest_brief=1
echo "== ThreadSanitizer: thread-count determinism of ropes, cloth and chains; containment"
TSAN_OPTIONS=halt_on_error=1 \
  build/sanitize-thread/tests/wisp_tests_simd --gtest_brief=1 \
  --gtest_filter='Determinism.ThreadCountDoesNotChangeTheResult:Cloth.ThreadCountDoesNotChangeTheResult:Chain.ManyChainsSameHashOnAnyThreadCount:Containment.*'
