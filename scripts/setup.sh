#!/usr/bin/env bash
# Shared by scripts/run and scripts/test: installs missing Debian packages (when root), configures and
# builds. Source it; it defines gms_setup BUILD_DIR [cmake args...].
set -euo pipefail

GMS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GMS_PACKAGES=(g++ cmake make pkg-config libsystemc-dev libyaml-cpp-dev libboost-dev libgtest-dev libgmock-dev
              xz-utils liblzma-dev zlib1g-dev python3 python3-matplotlib python3-yaml verilator)

gms_install_packages() {
  local missing=()
  for p in "${GMS_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  if [[ $(id -u) -ne 0 ]]; then
    echo "missing Debian packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

gms_jobs() { nproc 2>/dev/null || echo 2; }

# gms_setup BUILD_DIR [extra cmake args]
gms_setup() {
  local build="$1"; shift
  gms_install_packages
  cmake -S "$GMS_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$build" -j "$(gms_jobs)"
}
