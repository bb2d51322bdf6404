#!/usr/bin/env bash
# Installs what is missing, as root or through sudo, and nothing from outside Debian and npm.
#   setup.sh         what viewing the playground needs (npm start): emscripten cmake ninja-build,
#                    and the pinned npm packages (npm ci)
#   setup.sh --test  also what the tests and benchmarks need (npm test, npm run bench): g++ clang
#                    libclang-rt-14-dev googletest libgtest-dev libbenchmark-dev libglm-dev chromium
# Cheap when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(emscripten cmake ninja-build)
[ "${1:-}" = "--test" ] && pkgs+=(g++ clang libclang-rt-14-dev googletest libgtest-dev libbenchmark-dev libglm-dev chromium)
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

# npm packages, reinstalled whenever package-lock.json changes
stamp=node_modules/.wisp-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "[setup] npm ci"
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
