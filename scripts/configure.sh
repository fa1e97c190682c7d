#!/usr/bin/env bash
# Configures build/ whether or not it exists yet; extra arguments go to meson.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build "$@"
else
  meson setup build "$@"
fi
