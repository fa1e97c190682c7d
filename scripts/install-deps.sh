#!/usr/bin/env bash
# Installs the Debian packages collsim builds with, skipping apt when all are present.
set -euo pipefail
packages=(g++ meson ninja-build pkg-config cmake python3 libboost-graph-dev libyaml-cpp-dev libfmt-dev
          libcli11-dev catch2 nlohmann-json3-dev zlib1g-dev
          libpugixml-dev libprotobuf-dev protobuf-compiler  # protobuf: Chakra ET traces (meson option protobuf, optional)
          libopenmpi-dev openmpi-bin  # Open MPI: sweeps over processes (meson option mpi, optional)
          libarchive-dev  # trace archives, .tgz (meson option libarchive, optional)
          graphviz  # tests only: 'dot -Tsvg' renders every shipped topology's 'topo dot --collapse'
          chromium)  # tests only: headless, renders the HTML reports (the test warns and skips without it)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
