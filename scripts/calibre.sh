#!/usr/bin/env bash
# Starts the calibre test site (scripts/sites/calibre.sh: a real calibre content server
# with 3,100 real books) and runs only the tests that use it: probing, the output schema
# and the whole pipeline with the demo KB. scripts/test.sh (CI) runs them too, with the
# rest of the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/sites/calibre.sh
export TRAWL_BROWSER_TESTS=1 TRAWL_REQUIRE_SITES=1 TRAWL_CALIBRE_URL="${TRAWL_CALIBRE_URL:-http://127.0.0.1:18082/mobile}"
go test -count=1 -timeout 30m -run 'Calibre' -v ./probe ./schema ./cmd/trawl/... 2>&1 | grep -E '^(=== RUN|--- |ok|FAIL|PASS)|calibre'
