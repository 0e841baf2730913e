#!/usr/bin/env bash
# Formatting and static checks: gofmt, go vet, and golangci-lint (pinned; installed into
# GOPATH/bin from the Go module proxy the first time, about two minutes on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
GOLANGCI_VERSION=v2.6.2

bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))
if [ -n "$bad" ]; then
  echo "lint: gofmt would change:" >&2; echo "$bad" >&2; exit 1
fi
go vet ./...

gobin="$(go env GOPATH)/bin"
lint="$gobin/golangci-lint"
if ! { [ -x "$lint" ] && "$lint" version 2>/dev/null | grep -q "${GOLANGCI_VERSION#v}"; }; then
  echo "lint: installing golangci-lint $GOLANGCI_VERSION" >&2
  GOBIN="$gobin" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_VERSION"
fi
"$lint" run ./...
