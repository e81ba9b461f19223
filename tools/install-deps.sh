#!/usr/bin/env bash
# Installs navlab's build and test dependencies from Debian 12 packages.
# Safe to run repeatedly: it only calls apt-get when a package is missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config ccache
  zlib1g-dev libdeflate-dev libzstd-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  librecast-dev
  libssl-dev
  libassimp-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-networkx python3-setuptools python3-venv
  libtinygltf-dev libassimp-dev chromium
  clang libclang-rt-14-dev
)
# clang + compiler-rt (libFuzzer, ASan, UBSan) build the fuzz targets that .ci/run runs.
# node + npm run the pinned web tools (tools/web/package.json: three.js for viewer pages, the
# Khronos glTF validator, playwright-core for the browser test); any node >= 18 will do.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "navlab: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The npm packages, exactly as package-lock.json pins them (again only when the lock changed).
web="$(cd "$(dirname "$0")" && pwd)/web"
if [ ! -f "$web/node_modules/.package-lock.json" ] || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
  echo "navlab: npm ci in $web" >&2
  (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
fi
