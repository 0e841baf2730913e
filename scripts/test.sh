#!/usr/bin/env bash
# The whole test suite: installs what tests need, checks formatting and vet, then runs
# every test, browser tests included. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/lint.sh
# The real sites (README "Test sites"): WordPress (the article tests and a search form),
# DokuWiki, gitweb and Xapian Omega (internal/realsites). Each installs its Debian
# packages and data on first use and starts on 127.0.0.1.
./scripts/sites/wordpress.sh
./scripts/sites/dokuwiki.sh
./scripts/sites/gitweb.sh
./scripts/sites/omega.sh
# Debian's nats-server, the external server of the work-queue tests (issue 17).
./scripts/sites/nats.sh
export TRAWL_BROWSER_TESTS=1 TRAWL_REQUIRE_SHARED=1 TRAWL_REQUIRE_WORDPRESS=1 TRAWL_REQUIRE_SITES=1 TRAWL_REQUIRE_NATS=1
go test -race -timeout 25m -count=1 ./...
