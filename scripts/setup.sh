#!/usr/bin/env bash
# Installs what is missing, as root or through sudo, and nothing from outside Debian and npm.
#   setup.sh         what viewing the playground needs (npm start): emscripten cmake ninja-build libglm-dev,
#                    and the npm packages of package-lock.json (three, lil-gui, vite)
#   setup.sh --test  also what the tests and benchmarks need (npm test, npm run bench): g++ clang
#                    libclang-rt-14-dev googletest libgtest-dev libbenchmark-dev chromium,
#                    and the npm packages of tests/package-lock.json (typescript, playwright-core,
#                    @types/three, @pixiv/three-vrm-springbone, jolt-physics)
# Cheap when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(emscripten cmake ninja-build libglm-dev)
[ "${1:-}" = "--test" ] && pkgs+=(g++ clang libclang-rt-14-dev googletest libgtest-dev libbenchmark-dev chromium)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "[setup] installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages, reinstalled whenever a lockfile changes: the playground's (package.json) and, for
# --test, the test tools' (tests/package.json)
npm_ci() {
  local dir="$1" stamp="$1/node_modules/.wisp-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$dir/package-lock.json" "$stamp"; then
    echo "[setup] npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund)
    cp "$dir/package-lock.json" "$stamp"
  fi
}
npm_ci .
[ "${1:-}" = "--test" ] && npm_ci tests
true
