# Sourced by the build scripts: wisp_configure <build dir> <cmake/emcmake command...>
# Configures a build directory unless it is already configured for THIS source tree. A clone that
# was moved or copied keeps a CMakeCache.txt naming the old source dir, and CMake then refuses to
# build; such a stale directory is wiped and configured again.
wisp_configure() {
  local dir="$1"; shift
  local cache="$dir/CMakeCache.txt"
  if [ -f "$cache" ]; then
    local src
    src="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
    if [ "$src" != "$(pwd -P)" ] && [ "$src" != "$(pwd)" ]; then
      echo "[build] $dir was configured for $src, not $(pwd): configuring it again"
      rm -rf "$dir"
    fi
  fi
  if [ ! -f "$dir/build.ninja" ]; then
    "$@"
  fi
}
