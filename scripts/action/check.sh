#!/usr/bin/env bash
# The logic of the adrkit GitHub Action (action.yml at the repository
# root): build adrkit, find the revision a pull request is compared with,
# run adrkit check on the change, and leave what GitHub shows: workflow
# annotations on stdout, a Markdown table in the job summary, a SARIF log
# on request, the outputs. It exits with adrkit check's status (1 when
# the change fails the gate, 2 for a mistake such as no base to compare
# with).
#
# Everything comes from the environment, so that a test can run it
# without GitHub (scripts/action/action_test.go):
#
#   INPUT_DIR, INPUT_FAIL_ON, INPUT_SARIF, INPUT_BASE   the action's inputs
#   INPUT_COMMENT, INPUT_COMMENT_AUTHOR                 the comment inputs
#   GITHUB_TOKEN          the token the comment is posted with
#   GITHUB_API_URL, GITHUB_REPOSITORY                    where it is posted
#   GITHUB_WORKSPACE      the checked-out repository (default: .)
#   GITHUB_EVENT_PATH     the event payload: pull_request.base.sha,
#                         merge_group.base_sha or (a push) before; a push
#                         that creates a branch has no before, and is
#                         compared with repository.default_branch
#   GITHUB_BASE_REF       the pull request's base branch, if no payload
#   GITHUB_STEP_SUMMARY   where the Markdown summary is appended
#   GITHUB_OUTPUT         where outputs are written (sarif-file, base)
#   RUNNER_TEMP           where adrkit and the SARIF log are written
#   GITHUB_ACTION_PATH    the action's own source (default: this script's)
#   ADRKIT_BIN            an adrkit binary to use instead of building one
#   ADRKIT_GHSYNC_BIN     a ghsync binary (scripts/action/ghsync) likewise
#
# @adr 0018
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
workspace="${GITHUB_WORKSPACE:-$PWD}"
dir="${INPUT_DIR:-}"
fail_on="${INPUT_FAIL_ON:-error}"
sarif="${INPUT_SARIF:-false}"
comment="${INPUT_COMMENT:-false}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"

# annotate MESSAGE: an error annotation, the message escaped as a
# workflow command's data must be.
annotate() {
  local m="$1"
  m="${m//'%'/%25}"
  m="${m//$'\r'/%0D}"
  m="${m//$'\n'/%0A}"
  printf '::error title=adrkit check::%s\n' "$m"
}

fail() { # fail STATUS MESSAGE: an error annotation, then exit
  annotate "$2"
  exit "$1"
}

case "$sarif" in
  true|false) ;;
  *) fail 2 "the sarif input must be \"true\" or \"false\", got \"$sarif\"" ;;
esac
case "$comment" in
  true|false) ;;
  *) fail 2 "the comment input must be \"true\" or \"false\", got \"$comment\"" ;;
esac
case "$fail_on" in
  error|warning|never) ;;
  *) fail 2 "the fail-on input must be \"error\", \"warning\" or \"never\", got \"$fail_on\"" ;;
esac

# The value at a dotted path of the event payload, or nothing.
event_value() {
  [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ] || return 0
  if command -v jq >/dev/null 2>&1; then
    jq -r --arg p "$1" 'getpath($p | split(".")) // empty | strings' "$GITHUB_EVENT_PATH"
  elif command -v python3 >/dev/null 2>&1; then
    python3 - "$GITHUB_EVENT_PATH" "$1" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print(v if isinstance(v, str) else "")
PY
  fi
}

base="${INPUT_BASE:-}"
for key in pull_request.base.sha merge_group.base_sha before; do
  [ -z "$base" ] || break
  base="$(event_value "$key")"
  # A push that creates a branch has no commit before it.
  if [ "$base" = "0000000000000000000000000000000000000000" ]; then base=""; fi
done
if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
  base="origin/$GITHUB_BASE_REF"
fi
# A push that creates a branch: what the branch adds to the default one.
if [ -z "$base" ]; then
  default_branch="$(event_value repository.default_branch)"
  if [ -n "$default_branch" ]; then base="origin/$default_branch"; fi
fi
[ -n "$base" ] || fail 2 "no revision to compare with: run on pull_request, merge_group or push, or set the base input"

# A shallow checkout (actions/checkout's default depth of 1) has neither
# the base commit nor the history to find a merge base; fetch them.
if command -v git >/dev/null 2>&1 && git -C "$workspace" rev-parse --git-dir >/dev/null 2>&1; then
  if [ "$(git -C "$workspace" rev-parse --is-shallow-repository)" = "true" ]; then
    echo "adrkit: the checkout is shallow; fetching the history the merge base needs"
    git -C "$workspace" fetch --no-tags --quiet --unshallow origin || true
  fi
  if ! git -C "$workspace" cat-file -e "$base^{commit}" 2>/dev/null; then
    echo "adrkit: fetching $base"
    case "$base" in
      # A remote-tracking branch is fetched as the branch it tracks.
      origin/*) git -C "$workspace" fetch --no-tags --quiet origin "+refs/heads/${base#origin/}:refs/remotes/$base" || true ;;
      *) git -C "$workspace" fetch --no-tags --quiet origin "$base" || true ;;
    esac
  fi
fi

bin="${ADRKIT_BIN:-}"
if [ -z "$bin" ]; then
  bin="$temp/adrkit"
  (cd "$action_path" && go build -o "$bin" ./cmd/adrkit) || fail 1 "could not build adrkit from $action_path"
fi

args=(--cwd "$workspace")
# Without a dir input adrkit finds the directory itself (.adr-dir, then
# docs/adr, doc/adr, docs/decisions), as it does on a developer's machine.
if [ -n "$dir" ]; then args+=(--dir "$dir"); fi
args+=(check --changed-since "$base" --fail-on "$fail_on")
# The comment's runs: the same check, as the comment and as JSON (whose
# count of changed files ghsync holds against the pull request's).
comment_args=("${args[@]}")
args+=(--format github)
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  args+=(--summary "$GITHUB_STEP_SUMMARY")
fi
sarif_file=""
if [ "$sarif" = "true" ]; then
  sarif_file="$temp/adrkit.sarif"
  rm -f "$sarif_file"
  args+=(--sarif-file "$sarif_file")
fi
status=0
errors="$temp/adrkit-check.stderr"
"$bin" "${args[@]}" 2>"$errors" || status=$?
cat "$errors" >&2
# A mistake (status 2: an ADR directory that is not there, a base that
# does not resolve) is said on stderr, which a pull request does not
# show: annotate its first line.
if [ "$status" = 2 ] && [ -s "$errors" ]; then
  first="$(head -n 1 "$errors")"
  annotate "${first#adrkit: }"
fi
rm -f "$errors"

# The pull-request comment: posted, or the one posted before updated.
# Only a report adrkit could make (status 0 or 1) is commented on.
if [ "$comment" = "true" ] && [ "$status" != 2 ]; then
  ghsync="${ADRKIT_GHSYNC_BIN:-}"
  if [ -z "$ghsync" ]; then
    ghsync="$temp/adrkit-ghsync"
    (cd "$action_path" && go build -o "$ghsync" ./scripts/action/ghsync) || fail 1 "could not build ghsync from $action_path"
  fi
  body="$temp/adrkit-comment.md"
  report="$temp/adrkit-check.json"
  cstatus=0
  "$bin" "${comment_args[@]}" --format comment >"$body" 2>/dev/null || cstatus=$?
  "$bin" "${comment_args[@]}" --format json >"$report" 2>/dev/null || cstatus=$?
  if [ "$cstatus" = 2 ]; then
    annotate "adrkit check could not write the comment"
    [ "$status" != 0 ] || status=1
  else
    gstatus=0
    "$ghsync" comment --body "$body" --check-json "$report" --author "${INPUT_COMMENT_AUTHOR:-github-actions[bot]}" || gstatus=$?
    # A comment that could not be posted (a refused file list, an API
    # failure) fails the step; a read-only token does not (ghsync says so).
    if [ "$gstatus" != 0 ] && [ "$status" = 0 ]; then status=1; fi
  fi
  rm -f "$body" "$report"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "base=$base" >>"$GITHUB_OUTPUT"
  # Only a log that was written can be uploaded.
  if [ -n "$sarif_file" ] && [ -f "$sarif_file" ]; then
    echo "sarif-file=$sarif_file" >>"$GITHUB_OUTPUT"
  fi
fi
exit "$status"
