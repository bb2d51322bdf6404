#!/usr/bin/env bash
# Every test layer, in order: native GoogleTest (ctest), its determinism tests built with
# -march=native, the same suite under sanitizers, a
# bounded libFuzzer run over the C++ API, the same suite as WASM under Node (ctest) and once more
# with SAFE_HEAP, the JS API tests (node:test) and the headless-Chromium playground test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '\n==== %s\n' "$*"; }

step "native build"
bash scripts/build-native.sh
step "native tests (GoogleTest, SIMD and scalar kernels)"
ctest --test-dir build/native --output-on-failure -j "$WISP_JOBS"

step "native tests built with -march=native (golden hash with FMA in the target)"
bash scripts/test-march-native.sh

step "hardened native tests (AddressSanitizer + UBSan, ThreadSanitizer)"
bash scripts/test-sanitized.sh
step "fuzzing the C++ API (libFuzzer + ASan + UBSan, bounded)"
bash scripts/fuzz.sh

step "wasm build (threaded, single-threaded, test suite)"
bash scripts/build-wasm.sh --tests
step "wasm tests (the GoogleTest suite under Node)"
ctest --test-dir build/wasm --output-on-failure
step "wasm tests with -sASSERTIONS=2 -sSAFE_HEAP=1"
bash scripts/test-wasm-safe.sh

step "JS API tests"
node --test --test-concurrency=1 tests/js/

step "browser test (headless Chromium, playground)"
node --test --test-concurrency=1 tests/browser/

step "the package as users get it (npm pack into Vite, webpack and Node apps; npm run build served statically)"
npm run build
node --test --test-concurrency=1 tests/consumer/
