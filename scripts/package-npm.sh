#!/usr/bin/env bash
# Builds the npm packages of adrkit-mcp as tarballs in OUTDIR, in the
# esbuild/biome layout (docs/releasing.md):
#
#   adrkit-mcp                the main package: a Node launcher (bin), with
#                             the platform packages as optionalDependencies
#   adrkit-mcp-<os>-<cpu>     one per platform, with "os" and "cpu" set so
#                             that npm installs only the matching one; it
#                             carries the native binary
#
# No install script downloads anything: the binary arrives in the tarball.
#
#   scripts/package-npm.sh [--all] [--version V] [--bin-dir DIR] OUTDIR
#
#   --all        all six platforms (linux, darwin, win32 × x64, arm64);
#                default: this machine's platform only
#   --version V  the packages' version (default 0.0.0-dev), also stamped
#                into the binaries this script builds
#   --bin-dir D  take the binaries from D/<goos>-<goarch>/adrkit-mcp[.exe]
#                (as scripts/release.sh lays them out) instead of building
#
# Needs Go (unless --bin-dir), Node and npm.
set -euo pipefail

usage() { echo "usage: $0 [--all] [--version V] [--bin-dir DIR] OUTDIR" >&2; exit 2; }

all=false
version=0.0.0-dev
bindir=
outdir=
while [ $# -gt 0 ]; do
  case "$1" in
    --all) all=true ;;
    --version) [ $# -ge 2 ] || usage; version=$2; shift ;;
    --bin-dir) [ $# -ge 2 ] || usage; bindir=$(cd "$2" && pwd); shift ;;
    -*) usage ;;
    *) [ -z "$outdir" ] || usage; outdir=$1 ;;
  esac
  shift
done
[ -n "$outdir" ] || usage

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if $all; then
  targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
else
  targets="$(go env GOOS)/$(go env GOARCH)"
fi

# npm's names for Go's operating systems and architectures.
npm_os() { case "$1" in windows) echo win32 ;; *) echo "$1" ;; esac; }
npm_cpu() { case "$1" in amd64) echo x64 ;; *) echo "$1" ;; esac; }

pack() { # pack DIR: npm pack DIR into OUTDIR, printing the tarball's name
  (cd "$1" && npm pack --ignore-scripts --silent --pack-destination "$outdir")
}

for target in $targets; do
  goos=${target%/*} goarch=${target#*/}
  os=$(npm_os "$goos") cpu=$(npm_cpu "$goarch")
  exe=adrkit-mcp
  [ "$goos" = windows ] && exe=adrkit-mcp.exe
  pkg="$work/adrkit-mcp-$os-$cpu"
  mkdir -p "$pkg/bin"
  if [ -n "$bindir" ]; then
    cp "$bindir/$goos-$goarch/$exe" "$pkg/bin/$exe"
  else
    # The flags of .goreleaser.yaml and the Dockerfile: static, trimmed,
    # the version stamped in.
    (cd "$top" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
      -ldflags "-s -w -X github.com/adrkit/adrkit-go/internal/version.stamp=$version" \
      -o "$pkg/bin/$exe" ./cmd/adrkit-mcp)
  fi
  chmod 0755 "$pkg/bin/$exe"
  cp "$top/LICENSE" "$pkg/LICENSE"
  PKG_NAME="adrkit-mcp-$os-$cpu" PKG_VERSION="$version" PKG_OS="$os" PKG_CPU="$cpu" \
    node -e '
      const e = process.env;
      const pkg = {
        name: e.PKG_NAME,
        version: e.PKG_VERSION,
        description: `The adrkit-mcp binary for ${e.PKG_OS} ${e.PKG_CPU}; installed by the adrkit-mcp package.`,
        homepage: "https://github.com/adrkit/adrkit-go#readme",
        repository: { type: "git", url: "git+https://github.com/adrkit/adrkit-go.git" },
        license: "Apache-2.0",
        os: [e.PKG_OS],
        cpu: [e.PKG_CPU],
        files: ["bin/"],
        preferUnplugged: true,
      };
      process.stdout.write(JSON.stringify(pkg, null, 2) + "\n");
    ' > "$pkg/package.json"
  printf '# adrkit-mcp-%s-%s\n\nThe native `adrkit-mcp` binary for %s %s. Install `adrkit-mcp` instead:\nnpm picks this package for you. See https://github.com/adrkit/adrkit-go.\n' \
    "$os" "$cpu" "$os" "$cpu" > "$pkg/README.md"
  pack "$pkg"
done

# The main package, its version and its optional dependencies' stamped.
main="$work/adrkit-mcp"
cp -R "$top/release/npm/adrkit-mcp" "$main"
cp "$top/LICENSE" "$main/LICENSE"
(cd "$main" && PKG_VERSION="$version" node -e '
  const fs = require("node:fs");
  const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
  pkg.version = process.env.PKG_VERSION;
  for (const dep of Object.keys(pkg.optionalDependencies)) pkg.optionalDependencies[dep] = process.env.PKG_VERSION;
  fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
')
pack "$main"
