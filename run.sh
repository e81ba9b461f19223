#!/usr/bin/env bash
# navlab's main job, on a fresh Debian 12 machine: installs the dependencies (Debian
# packages), builds, and runs navlab. With no arguments it runs `navlab demo`, which makes
# a small synthetic corpus and audits it; with arguments it runs `navlab ARGS...`.
#   ./run.sh                                  # the demo
#   ./run.sh audit path/to/m10_00_00_00.nvmhktbnd.dcx
set -euo pipefail
cd "$(dirname "$0")"
tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNAVLAB_TESTS=OFF -DNAVLAB_BENCH=OFF >/dev/null
cmake --build build --target navlab
if [ $# -eq 0 ]; then set -- demo; fi
exec build/navlab "$@"
