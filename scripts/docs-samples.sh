#!/bin/sh
# Regenerates the samples the docs show from the program itself: the
# Mermaid graph of this repository's own decisions in README.md and
# docs/cli.md (the first ```mermaid block of each). Run it after adding a
# decision record: task samples.
set -eu
cd "$(dirname "$0")/.."
graph=$(mktemp)
trap 'rm -f "$graph" "$graph.md"' EXIT
go run ./cmd/adrkit graph >"$graph"
for doc in README.md docs/cli.md; do
	awk -v graph="$graph" '
		!done && /^```mermaid$/ { print; while ((getline line < graph) > 0) print line; skip = 1; next }
		skip && /^```$/ { skip = 0; done = 1 }
		!skip { print }
	' "$doc" >"$graph.md"
	mv "$graph.md" "$doc"
done
