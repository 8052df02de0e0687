#!/usr/bin/env bash
# Installs redis-benchmark (Debian's redis-tools) for `hongbao bench --with-ceiling`.
set -euo pipefail
if command -v redis-benchmark >/dev/null 2>&1; then
  exit 0
fi
sudo_if_needed=""
[ "$(id -u)" -eq 0 ] || sudo_if_needed="sudo"
$sudo_if_needed apt-get update
$sudo_if_needed apt-get install -y redis-tools
