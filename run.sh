#!/usr/bin/env bash
# navlab's main job, on a fresh Debian 12 machine: installs the dependencies (Debian
# packages), builds, and runs navlab. With no arguments it runs `navlab demo`, which makes
# a small synthetic corpus and audits it; with arguments it runs `navlab ARGS...`.
#   ./run.sh                                  # the demo
#   ./run.sh audit path/to/m10_00_00_00.nvmhktbnd.dcx
set -euo pipefail
cd "$(dirname "$0")"
tools/install-deps.sh
# ccache, when installed, makes rebuilds (and CI after a local build) fast; it changes no output.
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNAVLAB_TESTS=OFF -DNAVLAB_BENCH=OFF "${launcher[@]}" >/dev/null
cmake --build build --target navlab
if [ $# -eq 0 ]; then set -- demo; fi
exec build/navlab "$@"
