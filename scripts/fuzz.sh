#!/usr/bin/env bash
# fuzz.sh [TIME]: run every fuzz target in the module for TIME (default 10s)
# each. The checked-in seed corpora always run as part of `go test ./...`;
# this adds a short coverage-guided run per target.
#
# A target fails when the fuzzer finds an input that fails it, which it
# always writes to testdata/fuzz/<Target>/. Go 1.26's fuzzing coordinator
# can also fail a target that found nothing, with a bare "context deadline
# exceeded" just as -fuzztime runs out (https://go.dev/issue/75804, fixed
# in Go 1.27). Such a run, with no new input written, is run once more;
# only a second one in a row fails the script, as does any other failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
time=${1:-10s}

# inputs lists the failing inputs saved for a target.
inputs() { ls "$1/testdata/fuzz/$2" 2>/dev/null | sort; }

# fuzz_once runs one target; it returns 0 on success, 75 for the
# coordinator's spurious deadline, 1 for anything else.
fuzz_once() {
  local pkg=$1 dir=$2 target=$3 before out status
  before=$(inputs "$dir" "$target")
  out=$(mktemp)
  set +e
  go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg" 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ] && [ "$(inputs "$dir" "$target")" = "$before" ] &&
    grep -q '^    context deadline exceeded$' "$out" &&
    ! grep -q -e '^    --- FAIL' -e 'Failing input written' -e 'panic:' "$out"; then
    status=75
  elif [ "$status" -ne 0 ]; then
    status=1
  fi
  rm -f "$out"
  return "$status"
}

for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
    echo "fuzz $pkg $target ($time)"
    status=0
    fuzz_once "$pkg" "$dir" "$target" || status=$?
    if [ "$status" -eq 75 ]; then
      echo "fuzz: $target: the coordinator's deadline race (go.dev/issue/75804), no input found; running it again"
      status=0
      fuzz_once "$pkg" "$dir" "$target" || status=$?
    fi
    if [ "$status" -ne 0 ]; then
      echo "fuzz: $target failed" >&2
      exit 1
    fi
  done
done
