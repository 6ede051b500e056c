#!/usr/bin/env bash
# fuzz.sh [TIME]: run every fuzz target in the module for TIME (default 10s)
# each. The checked-in seed corpora always run as part of `go test ./...`;
# this adds a short coverage-guided run per target.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
time=${1:-10s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz $pkg $target ($time)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg"
  done
done
