#!/usr/bin/env bash
# Installs what trawl and its tests need on Debian 12, only where missing:
# Chromium (headless browser for probing), raptor2-utils (rapper, an independent N-Triples
# validator used by tests). Go itself must already be installed (Go 1.26).
# Safe to run again. Needs root or sudo for apt-get.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
command -v rapper >/dev/null 2>&1 || need+=(raptor2-utils)
if [ "${TRAWL_SETUP_EXTRA:-}" != "" ]; then
  # shellcheck disable=SC2206
  need+=(${TRAWL_SETUP_EXTRA})
fi

if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${need[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  echo "setup: installing ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

command -v go >/dev/null 2>&1 || { echo "setup: Go 1.26 is required (https://go.dev/dl/)" >&2; exit 1; }
cd "$(dirname "$0")/.."
go mod download
