#!/usr/bin/env bash
# Formatting and static checks.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$bad" ]; then
  echo "lint: gofmt would change:" >&2; echo "$bad" >&2; exit 1
fi
go vet ./...
