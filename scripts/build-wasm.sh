#!/usr/bin/env bash
# Builds the WASM module into wasm/dist/: web/ (ES modules for browsers and bundlers) and node/
# (CommonJS for Node), each threaded (pthreads + SIMD) and single-threaded (SIMD).
#   --web    only the browser build (what the playground needs)
#   --tests  also the GoogleTest suite as WASM (build/wasm/tests/wisp_tests.js) and the self-test
#            module the JS and browser tests load (build/wasm/selftest/: the same bindings plus the
#            determinism scene and test hooks, which the package's build leaves out)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/cmake-configure.sh
targets=(wisp_wasm_web wisp_wasm_node)
for arg in "$@"; do
  case "$arg" in
    --web) targets=(wisp_wasm_web) ;;
    --tests) targets+=(wisp_tests wisp_selftest) ;;
    *) echo "build-wasm.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
wisp_configure build/wasm emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DWISP_BENCH=OFF
cmake --build build/wasm -j "$WISP_JOBS" --target "${targets[@]}"
