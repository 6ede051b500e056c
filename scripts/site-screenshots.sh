#!/usr/bin/env bash
# Regenerates the screenshots of the decision browser that the README and
# docs/site.md show (docs/site/*.png): the site of this repository's own
# decisions, built by `adrkit site` and photographed in headless Chromium
# at 1,280 x 900, light scheme. Needs go and Chromium (Debian's chromium,
# or ADRKIT_CHROMIUM naming one). Run from anywhere:
#
#   scripts/site-screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
chromium=${ADRKIT_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  echo "site-screenshots: Chromium was not found (install Debian's chromium or set ADRKIT_CHROMIUM)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go run ./cmd/adrkit site "$work/site" >/dev/null
shoot() { # name page
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$work/profile" --force-prefers-color-scheme=light --window-size=1280,900 \
    --screenshot="docs/site/$1.png" "file://$work/site/$2" 2>/dev/null
  echo "docs/site/$1.png"
}
shoot index index.html
shoot decision decisions/0021-one-read-pipeline-bounded-under-load.html
shoot graph graph.html
shoot paths "paths.html?path=adapters/site/graphsvg.go"
shoot health health.html
shoot changes changes.html
