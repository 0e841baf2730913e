#!/usr/bin/env bash
# Debian 12's nats-server (2.9.10), the external NATS server of the work-queue tests
# (issue 17: internal/queue and 'trawl worker' run against it as well as against the
# server trawl embeds). Installs the package when missing; the tests start and stop
# their own server on 127.0.0.1 with a JetStream store in a temporary directory, so
# nothing keeps running. Debian starts no service for it. Ports of these tests:
# 18141 (queue package) and 18142 (cmd) nats-server, 18143–18144 trawl's embedded
# server listening, 18145 a Chromium DevTools port (probe.Connect).
#
#   scripts/sites/nats.sh      install nats-server if missing, print its version
#
# Needs root or sudo for apt-get.
set -euo pipefail
if ! command -v nats-server >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "nats.sh: installing nats-server" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nats-server >/dev/null
fi
nats-server --version
