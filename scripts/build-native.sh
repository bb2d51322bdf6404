#!/usr/bin/env bash
# Native build: the core, the GoogleTest suite (SIMD and scalar) and the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
source scripts/cmake-configure.sh
wisp_configure build/native cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build/native -j "$WISP_JOBS"
