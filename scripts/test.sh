#!/usr/bin/env bash
# The whole test suite: installs what tests need, checks formatting and vet, then runs
# every test, browser tests included. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/lint.sh
# The WordPress site of the article tests (installs wordpress and MariaDB on first use).
./scripts/sites/wordpress.sh
# Debian's nats-server, the external server of the work-queue tests (issue 17).
./scripts/sites/nats.sh
export TRAWL_BROWSER_TESTS=1 TRAWL_REQUIRE_SHARED=1 TRAWL_REQUIRE_WORDPRESS=1 TRAWL_REQUIRE_NATS=1
go test -race -timeout 25m -count=1 ./...
