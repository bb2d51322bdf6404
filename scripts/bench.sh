#!/usr/bin/env bash
# Runs the native (Google Benchmark) and WASM (Node) benchmarks one after the other and prints
# their tables. Numbers are reported, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
bash scripts/build-native.sh
bash scripts/build-wasm.sh
echo "# Native (Google Benchmark, $(g++ --version | head -1))"
./build/native/bench/wisp_bench --benchmark_min_time=1 --benchmark_counters_tabular=true
echo
node bench/wasm_bench.mjs
echo
node bench/chain_bench.mjs
