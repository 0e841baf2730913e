#!/usr/bin/env bash
# The whole test suite: installs what tests need, checks formatting and vet, then runs
# every test, browser tests included. CI runs exactly this (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# calibre (a real content server over 3,100 real books: schema, probe and pipeline tests)
# imports its library in 1-4 min on a fresh machine, mostly disk writes: the import runs
# beside the lint and the other sites. Its packages come first, in the foreground, so that
# no two scripts install packages at once (each keeps services from starting while it does).
./scripts/sites/calibre.sh packages
calibre_log="$(mktemp)"
./scripts/sites/calibre.sh >"$calibre_log" 2>&1 &
calibre_pid=$!
./scripts/lint.sh
# The other real sites (README "Test sites"): WordPress (the article tests and a search form),
# DokuWiki, gitweb, Xapian Omega and Fossil's timeline filter form (internal/realsites).
# Each installs its Debian packages and data on first use and starts on 127.0.0.1.
./scripts/sites/wordpress.sh
./scripts/sites/dokuwiki.sh
./scripts/sites/gitweb.sh
./scripts/sites/omega.sh
./scripts/sites/fossil.sh
# Debian's nats-server, the external server of the work-queue tests (issue 17).
./scripts/sites/nats.sh
# Debian's Virtuoso 7.2 with the demo KB, rapper and rdflib: the interoperability tests (issue 16).
./scripts/sites/virtuoso.sh
if ! wait "$calibre_pid"; then
  cat "$calibre_log" >&2
  echo "test.sh: scripts/sites/calibre.sh failed" >&2
  exit 1
fi
tail -n 1 "$calibre_log"
export TRAWL_BROWSER_TESTS=1 TRAWL_REQUIRE_SHARED=1 TRAWL_REQUIRE_WORDPRESS=1 TRAWL_REQUIRE_SITES=1 TRAWL_REQUIRE_NATS=1 TRAWL_REQUIRE_INTEROP=1
go test -race -timeout 25m -count=1 ./...
# The evaluations that take minutes under the race detector and skip there, two
# packages at a time: the linking evaluations (the aligner's concurrency is covered
# under -race by the OAEI and determinism tests), the article evaluation on WordPress
# (one goroutine; TestArticlesCommandWordPress runs the command under -race) and the
# form classifier's cross-validation and retraining (the folds' concurrency is covered
# under -race by TestCrossValidateFoldsAtOnce).
go test -count=1 -timeout 15m -run 'TestLinking|TestDeepWebBooksBadger|TestArticlesWordPress$|TestClassifierCrossValidation$|TestEmbeddedModelUpToDate$' ./align ./cmd/trawl ./probe
# The load's memory budget, checked on the peak of a child process: the race
# detector's shadow memory would count in it, so it runs without -race (about 10 s).
go test -count=1 -timeout 5m -run 'TestLoadBudgetBoundsPeak' ./ontology
