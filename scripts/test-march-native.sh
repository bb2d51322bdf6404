#!/usr/bin/env bash
# The native suite built for this machine's CPU (-march=native: FMA and AVX2 where the CPU has
# them) must still give the golden hash: -ffp-contract=off and -fno-tree-slp-vectorize
# (CMakeLists.txt) keep GCC from fusing multiply-adds. Runs the determinism tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
dir=build/native-march
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWISP_BENCH=OFF -DCMAKE_CXX_FLAGS=-march=native > /dev/null
fi
cmake --build "$dir" -j "$WISP_JOBS" --target wisp_tests_simd
echo "== -march=native ($(grep -o -m1 -w 'fma' /proc/cpuinfo || echo 'no fma') on this CPU): determinism tests"
"$dir/tests/wisp_tests_simd" --gtest_brief=1 --gtest_filter='Determinism.*'
