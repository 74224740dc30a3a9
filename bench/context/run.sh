#!/usr/bin/env bash
# Context benchmark: on real Go projects (released modules fetched from the
# module proxy with `go mod download`, copied to a temporary folder, never
# committed), break functions one at a time, run `go test` for the real failure
# output, and check whether the base context of that output (what `fixplan
# context base` shows) already holds the broken function — with the definitions
# of what the failing lines use off (before) and on (after). See main.go.
#
# The tokens sent per plan before and after the no-repeat rule are measured by
# the session's own benchmark, not here.
#
# usage: bench/context/run.sh [--write]
# env:   K (failures per project, default 12), MODULES (space-separated module@version),
#        WORK (folder for the copies, default a new temporary folder, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/../.."
K=${K:-12}
MODULES=${MODULES:-"github.com/google/uuid@v1.6.0 github.com/spf13/cobra@v1.8.0 github.com/bmatcuk/doublestar/v4@v4.6.1 github.com/google/go-cmp@v0.6.0 github.com/hashicorp/golang-lru/v2@v2.0.7"}
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d)
  trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
fi
command -v go >/dev/null || { echo "bench/context: go is not on PATH; install Go 1.26+" >&2; exit 1; }
args=()
for m in $MODULES; do
  dir=$(go mod download -json "$m" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
  if [ -z "$dir" ]; then
    echo "bench/context: go mod download $m gave no folder (is the module proxy reachable?)" >&2
    exit 1
  fi
  name=$(basename "${m%@*}")
  case "$name" in v[0-9]*) name=$(basename "$(dirname "${m%@*}")") ;; esac
  rm -rf "${WORK:?}/$name"
  cp -r "$dir" "$WORK/$name"
  chmod -R u+w "$WORK/$name"
  args+=("$name=$WORK/$name")
done
go build -o "$WORK/contextbench" ./bench/context
mkdir -p "$WORK/failures"
table=$("$WORK/contextbench" -k "$K" -md -v -env-cache "$WORK/env-cache.json" -save "$WORK/failures" "${args[@]}")
echo "$table"
if [ "${1:-}" = "--write" ]; then
  {
    echo "# Context benchmark"
    echo
    echo "Produced by \`bench/context/run.sh --write\` on $(date -u +%F), $(go version | cut -d' ' -f3), $(nproc) CPUs,"
    echo "K=$K failures per project, modules: ${MODULES// /, }."
    echo
    echo "Each failure is real: one function of the module is made to return its zero values first"
    echo "(\`if true { return *new(T) }\` on the line of its opening brace, so no line moves), \`go test\` runs on its"
    echo "package, and when the tests fail the base context of that output is gathered twice — with the definitions"
    echo "of what the failing lines use off (**before**) and on (**after**). Functions are picked in a fixed random"
    echo "order; those whose breaking leaves the tests passing are skipped (tried, passed). A **function** hit means every"
    echo "line of the broken function is in a section of the base context; a **file** hit, any line of its file."
    echo
    echo "$table"
    echo
    echo "Tokens sent per plan before and after the no-repeat rule: not measured here (the session's benchmark"
    echo "measures what is sent per plan)."
  } > bench/context/RESULTS.md
  echo "wrote bench/context/RESULTS.md"
fi
