#!/usr/bin/env bash
# Builds wasm/dist/wisp.mjs (pthreads + SIMD) and wasm/dist/wisp-st.mjs (single-threaded + SIMD).
# With --tests, also the GoogleTest suite as WASM (build/wasm/tests/wisp_tests.js).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
targets=(wisp_wasm_mt wisp_wasm_st)
[ "${1:-}" = "--tests" ] && targets+=(wisp_tests)
if [ ! -f build/wasm/build.ninja ]; then
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DWISP_BENCH=OFF
fi
cmake --build build/wasm -j "$WISP_JOBS" --target "${targets[@]}"
