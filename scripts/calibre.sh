#!/usr/bin/env bash
# Sets up and starts the calibre test site of ../shared/sites/calibre (a real calibre
# content server with 3,100 real books; apt-get install calibre, 1–4 min, ~370 MB), then
# runs the tests that use it: probing, the output schema and the whole pipeline with the
# demo KB. Not part of scripts/test.sh (CI), which skips these tests with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
sites="${TRAWL_SHARED:-../shared}/sites/calibre"
[ -x "$sites/setup.sh" ] || { echo "calibre.sh: $sites/setup.sh not found (set TRAWL_SHARED)" >&2; exit 1; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO "$sites/setup.sh"
$SUDO "$sites/start.sh"
./scripts/setup.sh
export TRAWL_BROWSER_TESTS=1 TRAWL_CALIBRE_URL="${TRAWL_CALIBRE_URL:-http://127.0.0.1:18082/mobile}"
go test -count=1 -timeout 30m -run 'Calibre' -v ./probe ./schema ./cmd/trawl 2>&1 | grep -E '^(=== RUN|--- |ok|FAIL|PASS)|calibre'
