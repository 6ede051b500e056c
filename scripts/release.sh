#!/usr/bin/env bash
# Builds every artifact of a release into OUTDIR (docs/releasing.md):
#
#   adrkit-go_<V>_<os>_<arch>.tar.gz / .zip   both binaries, static and trimmed,
#                                             the version stamped in (GoReleaser)
#   *.cdx.json                                a CycloneDX SBOM per binary
#   npm/*.tgz                                 adrkit-mcp and its six platform
#                                             packages (scripts/package-npm.sh)
#   adrkit-go_<V>.mcpb                        the MCP bundle for Claude Desktop
#   server.json                               the MCP registry entry, version
#                                             and bundle hash filled in
#   checksums.txt                             SHA-256 of all of the above
#
#   scripts/release.sh --snapshot OUTDIR   any commit; version X.Y.Z-snapshot.g<hash>
#   scripts/release.sh OUTDIR              HEAD must carry a vX.Y.Z tag and the
#                                          tree must be clean (GoReleaser checks)
#
# It builds and publishes nothing; .github/workflows/release.yml publishes.
# Needs Go, git, Node and npm (GoReleaser, cyclonedx-gomod and mcpb are
# fetched at pinned versions by go run and npm).
set -euo pipefail

goreleaser=github.com/goreleaser/goreleaser/v2@v2.17.0
mcpb=@anthropic-ai/mcpb@2.1.2

usage() { echo "usage: $0 [--snapshot] OUTDIR" >&2; exit 2; }
snapshot=false
outdir=
while [ $# -gt 0 ]; do
  case "$1" in
    --snapshot) snapshot=true ;;
    -*) usage ;;
    *) [ -z "$outdir" ] || usage; outdir=$1 ;;
  esac
  shift
done
[ -n "$outdir" ] || usage

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
if [ -n "$(ls -A "$outdir")" ]; then
  echo "release: $outdir is not empty" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top"

step() { printf '\n=== release: %s\n' "$*"; }

step "binaries, archives, SBOMs (GoReleaser)"
go run "$goreleaser" check
if $snapshot; then
  ADRKIT_SNAPSHOT_COMMIT=$(git rev-parse --short=12 HEAD) go run "$goreleaser" release --snapshot --clean --skip=publish
else
  go run "$goreleaser" release --clean --skip=publish
fi
version=$(node -p 'require("./dist/metadata.json").version')
echo "version $version"

# The binaries by platform, from GoReleaser's list of what it built:
# bins/<goos>-<goarch>/adrkit-mcp[.exe], and bins/darwin-universal.
node -e '
  const fs = require("node:fs"), path = require("node:path");
  const out = process.argv[1];
  for (const a of JSON.parse(fs.readFileSync("dist/artifacts.json", "utf8"))) {
    if (a.extra?.ID !== "adrkit-mcp" && a.extra?.ID !== "adrkit-mcp-universal") continue;
    if (a.type !== "Binary") continue;
    const dir = path.join(out, a.goarch === "all" ? "darwin-universal" : `${a.goos}-${a.goarch}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(a.path, path.join(dir, path.basename(a.path)));
    fs.chmodSync(path.join(dir, path.basename(a.path)), 0o755);
  }
' "$work/bins"
for f in dist/*.tar.gz dist/*.zip dist/*.cdx.json; do cp "$f" "$outdir/"; done

step "npm packages"
scripts/package-npm.sh --all --version "$version" --bin-dir "$work/bins" "$outdir/npm"

step "MCP bundle"
npm install --prefix "$work/tools" --no-audit --no-fund --silent "$mcpb"
bundle="$work/bundle"
mkdir -p "$bundle/server/darwin" "$bundle/server/win32" "$bundle/server/linux"
# One bundle for every desktop: a universal macOS binary, and the amd64
# builds for Windows (which runs them on arm64 too) and Linux.
cp "$work/bins/darwin-universal/adrkit-mcp" "$bundle/server/darwin/"
cp "$work/bins/windows-amd64/adrkit-mcp.exe" "$bundle/server/win32/"
cp "$work/bins/linux-amd64/adrkit-mcp" "$bundle/server/linux/"
cp LICENSE "$bundle/"
VERSION="$version" node -e '
  const fs = require("node:fs");
  const m = JSON.parse(fs.readFileSync("release/mcpb/manifest.json", "utf8"));
  m.version = process.env.VERSION;
  fs.writeFileSync(process.argv[1], JSON.stringify(m, null, 2) + "\n");
' "$bundle/manifest.json"
"$work/tools/node_modules/.bin/mcpb" validate "$bundle/manifest.json"
mcpbfile="adrkit-go_${version}.mcpb"
"$work/tools/node_modules/.bin/mcpb" pack "$bundle" "$outdir/$mcpbfile"

step "server.json for the MCP registry"
VERSION="$version" BUNDLE="$mcpbfile" SHA=$(sha256sum "$outdir/$mcpbfile" | cut -d' ' -f1) node -e '
  const fs = require("node:fs");
  const e = process.env;
  const s = JSON.parse(fs.readFileSync("server.json", "utf8"));
  s.version = e.VERSION;
  for (const p of s.packages) {
    if (p.registryType === "npm") p.version = e.VERSION;
    if (p.registryType === "oci") p.identifier = p.identifier.replace(/:[^:/]+$/, `:${e.VERSION}`);
  }
  s.packages.push({
    registryType: "mcpb",
    identifier: `https://github.com/adrkit/adrkit-go/releases/download/v${e.VERSION}/${e.BUNDLE}`,
    fileSha256: e.SHA,
    transport: { type: "stdio" },
  });
  fs.writeFileSync(process.argv[1], JSON.stringify(s, null, 2) + "\n");
' "$outdir/server.json"
go test ./release -run '^TestServerJSON$' -count=1 -args -server-json="$outdir/server.json"

step "checksums"
(cd "$outdir" && sha256sum -- *.tar.gz *.zip *.cdx.json *.mcpb npm/*.tgz server.json > checksums.txt)
cat "$outdir/checksums.txt"
echo "release: $version in $outdir"
