# Sourced by the build scripts.
# A clone that was moved or copied keeps build dirs whose CMakeCache.txt names the old source
# tree, and CMake then refuses to build there: wisp_forget_stale <dir> wipes such a dir.
wisp_forget_stale() {
  local cache="$1/CMakeCache.txt" src
  [ -f "$cache" ] || return 0
  src="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
  if [ "$src" != "$(pwd -P)" ] && [ "$src" != "$(pwd)" ]; then
    echo "[build] $1 was configured for $src, not $(pwd): configuring it again"
    rm -rf "$1"
  fi
}
# wisp_configure <dir> <configure command...>: configures <dir> unless it is already configured
# for this source tree.
wisp_configure() {
  local dir="$1"; shift
  wisp_forget_stale "$dir"
  [ -f "$dir/build.ninja" ] || "$@"
}
