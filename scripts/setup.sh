#!/usr/bin/env bash
# Installs whatever the build, the playground and the tests need and is missing: Debian packages
# (as root, or through sudo) and the npm packages pinned in package-lock.json. Cheap when
# everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(cmake ninja-build g++ clang libclang-rt-14-dev emscripten googletest libgtest-dev libbenchmark-dev libglm-dev chromium)
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
