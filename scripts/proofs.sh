#!/usr/bin/env bash
# proofs.sh: prove the promises "no network, no writes" on a full session.
#
# Builds adrkit-mcp, prepares corpora (the shared conformance corpora when
# ../shared is present, else the project's own fixtures), makes them
# read-only and records every path with its mtime, ctime, size and mode.
# Then it runs a complete session under strace -f: the conformance suite
# (every recorded conversation and command line, both protocol eras, the
# runtime cases that move the corpus about) or, without ../shared, a
# scripted session over every tool in both eras. It then asserts, from
# the system-call traces of every server process:
#
#   - no network system call at all (socket, connect, bind, sendto, ...);
#   - no write to anything but stdout, stderr and the Go runtime's own
#     eventfd (its poller wake-up: 8-byte writes to an fd it made with
#     eventfd2, never a file);
#   - no file opened for writing (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC,
#     O_APPEND) and no call that changes the file system (rename, unlink,
#     mkdir, chmod, utimensat, truncate, link, symlink, mknod, xattrs, ...);
#   - no program started: one execve per trace (the server itself), so
#     no git and no shell;
#   - and that the session really ran: frames were written to stdout and
#     record files were read.
# Finally the corpus tree, mtimes and ctimes included, must be unchanged.
#
# Usage: scripts/proofs.sh        (run from anywhere; called by .ci/run)
#        PROOFS_OWN=1 scripts/proofs.sh   (the scripted session even when
#                                          ../shared is present)
#        KEEP=1 scripts/proofs.sh         (keep the traces and corpora)
# Needs: go, strace (installed with apt-get when missing and running as
# root), python3. Fails loudly when a tool is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
top=$(pwd)
shared="$top/../shared"

fail() { echo "proofs: FAIL: $*" >&2; exit 1; }
step() { printf '\n--- proofs: %s\n' "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/adrkit-proofs.XXXXXX")
cleanup() { [ -n "${KEEP:-}" ] && { echo "kept $work"; return; }; chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

step "tools"
if ! command -v strace >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "strace is missing: installing it with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y strace >/dev/null 2>&1 ||
      { DEBIAN_FRONTEND=noninteractive apt-get update >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y strace >/dev/null 2>&1; } || true
  fi
  command -v strace >/dev/null 2>&1 ||
    fail "strace is not installed and could not be installed (install it, or run as root where apt-get works)"
fi
command -v python3 >/dev/null 2>&1 || fail "python3 is needed to read the traces"
strace -f -qq -o /dev/null true 2>/dev/null || fail "strace cannot trace here (is ptrace forbidden in this container?)"
strace -V | head -n 1

step "build"
mkdir -p "$work/bin" "$work/traces"
go build -o "$work/bin/adrkit-mcp" ./cmd/adrkit-mcp

# Every system call that could reach the network, write, create, change
# or remove a file, or start a program. "?" keeps strace quiet about the
# names an architecture lacks. Thread creation (clone) is not traced.
calls="%network"
for c in write writev pwrite64 pwritev pwritev2 sendfile sendfile64 splice tee vmsplice copy_file_range \
  open openat openat2 creat eventfd eventfd2 pipe pipe2 dup dup2 dup3 fcntl \
  rename renameat renameat2 unlink unlinkat mkdir mkdirat rmdir mknod mknodat \
  truncate ftruncate fallocate chmod fchmod fchmodat fchmodat2 chown fchown fchownat lchown \
  link linkat symlink symlinkat utime utimes utimensat futimesat \
  setxattr lsetxattr fsetxattr removexattr lremovexattr fremovexattr \
  memfd_create io_uring_setup mount umount2 execve execveat fork vfork; do
  calls="$calls,?$c"
done
cat > "$work/bin/traced" <<EOF
#!/bin/sh
# adrkit-mcp under strace: one trace file per server process.
exec strace -f -qq -s 1024 -e signal=none -e trace=$calls -o "$work/traces/trace.\$\$" "$work/bin/adrkit-mcp" "\$@"
EOF
chmod +x "$work/bin/traced"

step "corpora"
corpora="$work/corpora"
if [ -z "${PROOFS_OWN:-}" ] && [ -x "$shared/conformance/corpora/make-repos.sh" ] && [ -f "$shared/conformance/compare.py" ]; then
  mode=conformance
  "$shared/conformance/corpora/make-repos.sh" "$corpora" >/dev/null
else
  mode=own
  own_repo() { # own_repo NAME SOURCE-DIR: SOURCE's files in NAME/docs/adr, with a .git entry
    mkdir -p "$corpora/$1/docs/adr" "$corpora/$1/.git"
    cp -R "$2/." "$corpora/$1/docs/adr/"
  }
  own_repo fixture "$top/adapters/mcp/testdata/corpus/docs/adr"
  own_repo decisions "$top/docs/adr"
  own_repo records "$top/adapters/filesystem/testdata/records"
fi
chmod -R a-w "$corpora"
snapshot() { (cd "$corpora" && find . -printf '%p %T@ %C@ %s %m %y\n' | LC_ALL=C sort); }
snapshot > "$work/before.txt"
echo "$mode corpora: $(ls "$corpora" | wc -l) repositories, $(wc -l < "$work/before.txt") paths, read-only"

step "session under strace ($mode)"
start=$(date +%s)
if [ "$mode" = conformance ]; then
  status=0
  python3 "$shared/conformance/compare.py" --corpora "$corpora" -- "$work/bin/traced" > "$work/session.log" 2>&1 || status=$?
  grep -E '^(FAIL|[0-9]+ passed)' "$work/session.log" || true
  # The proof is about the traces; the suite passing shows the session
  # did everything it should. As root it must pass (the runtime cases
  # move files in private copies, which read-only copies allow only to
  # root); otherwise a failure is reported and the traces still judged.
  if [ "$status" != 0 ]; then
    if [ "$(id -u)" = 0 ]; then
      tail -n 40 "$work/session.log" >&2
      fail "the conformance session failed under strace"
    fi
    echo "proofs: note: the conformance session failed (not root: read-only copies refuse the runtime cases' file moves)"
  fi
else
  meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"proofs","version":"0"}}'
  calls_json() { # calls_json ID-PREFIX EXTRA: one tools/call of every tool, several ways
    local p=$1 x=$2 n=0 a
    for a in \
      '"search_decisions","arguments":{"query":"cache"}' '"search_decisions","arguments":{"query":"e","limit":1}' \
      '"search_decisions","arguments":{"query":"x","bogus":1}' '"get_decision","arguments":{"ref":"0001"}' \
      '"get_decision","arguments":{"ref":"0005","limit":1}' '"get_decision","arguments":{"ref":"payments:0001"}' \
      '"get_decision_context","arguments":{"files":["src/cache/x.go","docs/adr/x.md"]}' \
      '"list_superseded","arguments":{}' '"list_superseded","arguments":{"cursor":"not-a-cursor"}'; do
      n=$((n + 1))
      printf '{"jsonrpc":"2.0","id":"%s%d","method":"tools/call","params":{"name":%s%s}}\n' "$p" "$n" "$a" "$x"
    done
  }
  {
    echo '{"jsonrpc":"2.0","id":"l0","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"proofs","version":"0"}}}'
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    echo '{"jsonrpc":"2.0","id":"lp","method":"ping"}'
    echo '{"jsonrpc":"2.0","id":"lt","method":"tools/list"}'
    calls_json l ""
  } > "$work/legacy.jsonl"
  {
    echo "{\"jsonrpc\":\"2.0\",\"id\":\"m0\",\"method\":\"server/discover\",\"params\":{$meta}}"
    echo "{\"jsonrpc\":\"2.0\",\"id\":\"mt\",\"method\":\"tools/list\",\"params\":{$meta}}"
    calls_json m ",$meta"
  } > "$work/modern.jsonl"
  for repo in "$corpora"/*; do
    for era in legacy modern; do
      want=$(grep -c '"id"' "$work/$era.jsonl")
      "$work/bin/traced" --cwd "$repo" < "$work/$era.jsonl" > "$work/out.$era" 2> "$work/err.$era" ||
        fail "$(basename "$repo") $era session exited with $?: $(cat "$work/err.$era")"
      got=$(grep -c '"result":{' "$work/out.$era" || true)
      [ "$got" = "$want" ] && [ "$(wc -l < "$work/out.$era")" = "$want" ] ||
        fail "$(basename "$repo") $era session: $got results for $want requests: $(head -c 600 "$work/out.$era")"
    done
  done
  echo "scripted sessions: $(ls "$corpora" | wc -l) repositories x 2 eras, every request answered"
fi
echo "session took $(( $(date +%s) - start ))s, $(ls "$work/traces" | wc -l) server processes traced"

step "traces"
python3 - "$work/traces" "$corpora" <<'PY'
import os, re, sys

tracedir, corpora = sys.argv[1], sys.argv[2]
NETWORK = {"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg",
           "sendmmsg", "recvfrom", "recvmsg", "recvmmsg", "getsockname", "getpeername", "setsockopt",
           "getsockopt", "shutdown"}
MUTATING = {"rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "mknod",
            "mknodat", "truncate", "ftruncate", "fallocate", "chmod", "fchmod", "fchmodat", "fchmodat2",
            "chown", "fchown", "fchownat", "lchown", "link", "linkat", "symlink", "symlinkat", "utime",
            "utimes", "utimensat", "futimesat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
            "lremovexattr", "fremovexattr", "memfd_create", "io_uring_setup", "mount", "umount2", "creat",
            "execveat", "fork", "vfork", "pwrite64", "pwritev", "pwritev2", "sendfile", "sendfile64",
            "splice", "tee", "vmsplice", "copy_file_range"}
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
line_re = re.compile(r"^(\d+)\s+(.*)$")
call_re = re.compile(r"^([a-z0-9_]+)\((.*)\)\s+=\s+(-?\d+|\?)")

violations, counts = [], {}
stdout_writes = record_reads = traces = 0
for name in sorted(os.listdir(tracedir)):
    traces += 1
    pending, internal, execs = {}, set(), 0
    with open(os.path.join(tracedir, name), errors="replace") as fh:
        for raw in fh:
            m = line_re.match(raw.rstrip("\n"))
            if not m:
                continue
            tid, rest = m.groups()
            if rest.endswith("<unfinished ...>"):
                pending[tid] = rest[: -len("<unfinished ...>")].rstrip()
                continue
            r = re.match(r"^<\.\.\. ([a-z0-9_]+) resumed>(.*)$", rest)
            if r:
                rest = pending.pop(tid, r.group(1) + "(") + r.group(2)
            c = call_re.match(rest)
            if not c:
                # Exit and signal notes, and a thread still inside a system
                # call when its process exits ("???( <detached ...>").
                if rest.startswith(("+++", "---")) or rest.endswith("<detached ...>"):
                    continue
                violations.append(f"{name}: unparsed line {rest[:200]!r}")
                continue
            call, args, ret = c.groups()
            counts[call] = counts.get(call, 0) + 1
            first = args.split(",", 1)[0].strip()
            if call in NETWORK:
                violations.append(f"{name}: network call {rest[:200]}")
            elif call in MUTATING:
                violations.append(f"{name}: file-system change {rest[:200]}")
            elif call == "execve":
                execs += 1
            elif call in ("eventfd", "eventfd2", "pipe", "pipe2"):
                if call.startswith("eventfd"):
                    internal.add(ret)
                else:
                    internal.update(re.findall(r"\d+", args))
            elif call in ("dup", "dup2", "dup3") or (call == "fcntl" and "F_DUPFD" in args):
                if first in ("1", "2") or first in internal:
                    internal.add(ret)
            elif call in ("open", "openat", "openat2"):
                if any(f in args for f in WRITE_FLAGS):
                    violations.append(f"{name}: opened for writing {rest[:200]}")
                elif re.search(r'"[^"]*\.md"', args) and ret != "-1" and "O_DIRECTORY" not in args:
                    record_reads += 1
            elif call in ("write", "writev"):
                if first in ("1",):
                    stdout_writes += 1
                elif first != "2" and first not in internal:
                    violations.append(f"{name}: write to fd {first}: {rest[:200]}")
    if execs != 1:
        violations.append(f"{name}: {execs} execve calls (want exactly the server's own)")

print("traces: %d; system calls seen: %s" % (traces, ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))))
print(f"frames written to stdout: {stdout_writes}; record files opened for reading: {record_reads}")
if traces == 0 or stdout_writes == 0 or record_reads == 0:
    violations.append("the session did not run: no traces, no stdout frames or no record read")
if violations:
    for v in violations[:50]:
        print("VIOLATION", v)
    sys.exit(f"proofs: FAIL: {len(violations)} violations in the traces")
print("no network call, no write but stdout/stderr/runtime eventfd, no file opened for writing, no file changed, no program started")
PY

step "corpus unchanged"
snapshot > "$work/after.txt"
if ! diff -u "$work/before.txt" "$work/after.txt" >&2; then
  fail "the corpus tree changed during the session (paths, mtimes, ctimes, sizes or modes above)"
fi
echo "$(wc -l < "$work/after.txt") paths: names, mtimes, ctimes, sizes and modes unchanged"

step "ok"
