#!/usr/bin/env bash
# The WASM GoogleTest suite once more, built with -sASSERTIONS=2 -sSAFE_HEAP=1: every memory
# access checked for alignment and bounds, Emscripten's runtime assertions on.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/cmake-configure.sh
dir=build/wasm-safe
wisp_forget_stale "$dir"
if [ ! -f "$dir/build.ninja" ]; then
  emcmake cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWISP_BENCH=OFF -DWISP_WASM_SAFE=ON > /dev/null
fi
cmake --build "$dir" -j "$WISP_JOBS" --target wisp_tests
echo "== WASM suite with ASSERTIONS=2, SAFE_HEAP=1"
(cd "$dir/tests" && node --no-experimental-fetch wisp_tests.js --gtest_brief=1)
