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

# Layers run downward (docs: conventions.md §11). depguard sees direct imports only;
# these checks follow the transitive ones: no library below cmd links the browser or
# probe, and graph, the bottom RDF layer, uses no trawl package but internal/*.
deps=$(go list -deps ./graph ./align ./ontology ./schema ./records)
bad=$(grep -E '^github\.com/chromedp/|^github\.com/trawl-dev/trawl/probe($|/)' <<<"$deps" || true)
if [ -n "$bad" ]; then
  echo "lint: graph, align, ontology, schema or records depend on the browser layer:" >&2; echo "$bad" >&2; exit 1
fi
bad=$(go list -deps ./graph | grep '^github\.com/trawl-dev/trawl/' | grep -v -E '^github\.com/trawl-dev/trawl/(graph|internal/.*)$' || true)
if [ -n "$bad" ]; then
  echo "lint: graph must import no trawl package but internal/*; it depends on:" >&2; echo "$bad" >&2; exit 1
fi

gobin="$(go env GOPATH)/bin"
lint="$gobin/golangci-lint"
if ! { [ -x "$lint" ] && "$lint" version 2>/dev/null | grep -q "${GOLANGCI_VERSION#v}"; }; then
  echo "lint: installing golangci-lint $GOLANGCI_VERSION" >&2
  GOBIN="$gobin" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_VERSION"
fi
"$lint" run --allow-parallel-runners ./...
