#!/usr/bin/env bash
# Installs what is missing, builds bin/trawl and runs the demo on its built-in defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
go build -o bin/trawl ./cmd/trawl
exec ./bin/trawl demo "$@"
