# Sourced by the build scripts.
# Debian's emscripten runs its JS tools with the system Node; its own modules (acorn, ...) live in
# /usr/share/nodejs, which a Node that is not Debian's does not search by itself.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
WISP_JOBS="${WISP_JOBS:-$(nproc)}"
