#!/usr/bin/env bash
# The logic of the review-queue Action (queue/action.yml): build adrkit,
# write the review queue as Markdown (adrkit queue --format markdown) to
# the job summary, and keep one issue titled "ADR review queue" current
# with it through ghsync (scripts/action/ghsync): created when there is
# none, updated, reopened when closed, and never an issue adrkit did not
# write (its body starts with <!-- adrkit:queue --> and its author is
# the token's). It exits 1 when a file could not be queued because it is
# broken (adrkit queue's status; the issue is still updated) or the issue
# could not be written, 2 for a mistake.
#
# Everything comes from the environment, so that a test can run it
# without GitHub (scripts/action/queue_test.go):
#
#   INPUT_DIR, INPUT_AS_OF, INPUT_TITLE, INPUT_ISSUE_AUTHOR   the inputs
#   GITHUB_TOKEN, GITHUB_API_URL, GITHUB_REPOSITORY           the API
#   GITHUB_WORKSPACE      the checked-out repository (default: .)
#   GITHUB_STEP_SUMMARY   where the queue is appended too
#   GITHUB_OUTPUT         issue-number, issue-url
#   RUNNER_TEMP           where the binaries and the queue are written
#   GITHUB_ACTION_PATH    the action's source: queue/ (default: this script's)
#   ADRKIT_BIN, ADRKIT_GHSYNC_BIN   binaries to use instead of building them
set -euo pipefail

source_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -n "${GITHUB_ACTION_PATH:-}" ]; then source_root="$(cd "$GITHUB_ACTION_PATH/.." && pwd)"; fi
workspace="${GITHUB_WORKSPACE:-$PWD}"
dir="${INPUT_DIR:-}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"

fail() { # fail STATUS MESSAGE: an error annotation, then exit
  local m="$2"
  m="${m//'%'/%25}"
  m="${m//$'\r'/%0D}"
  m="${m//$'\n'/%0A}"
  printf '::error title=adrkit queue::%s\n' "$m"
  exit "$1"
}

bin="${ADRKIT_BIN:-}"
if [ -z "$bin" ]; then
  bin="$temp/adrkit"
  (cd "$source_root" && go build -o "$bin" ./cmd/adrkit) || fail 1 "could not build adrkit from $source_root"
fi
ghsync="${ADRKIT_GHSYNC_BIN:-}"
if [ -z "$ghsync" ]; then
  ghsync="$temp/adrkit-ghsync"
  (cd "$source_root" && go build -o "$ghsync" ./scripts/action/ghsync) || fail 1 "could not build ghsync from $source_root"
fi

args=(--cwd "$workspace")
if [ -n "$dir" ]; then args+=(--dir "$dir"); fi
args+=(queue --format markdown)
if [ -n "${INPUT_AS_OF:-}" ]; then args+=(--as-of "$INPUT_AS_OF"); fi

body="$temp/adrkit-queue.md"
errors="$temp/adrkit-queue.stderr"
status=0
"$bin" "${args[@]}" >"$body" 2>"$errors" || status=$?
cat "$errors" >&2
if [ "$status" = 2 ] || [ ! -s "$body" ]; then
  first="$(head -n 1 "$errors")"
  rm -f "$body" "$errors"
  fail 2 "${first#adrkit: }"
fi
rm -f "$errors"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$body" >>"$GITHUB_STEP_SUMMARY"; fi

gstatus=0
"$ghsync" queue-issue --body "$body" --title "${INPUT_TITLE:-ADR review queue}" \
  --author "${INPUT_ISSUE_AUTHOR:-github-actions[bot]}" || gstatus=$?
rm -f "$body"
if [ "$gstatus" != 0 ]; then exit 1; fi
exit "$status"
