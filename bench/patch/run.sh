#!/usr/bin/env bash
# Patch-application benchmark: fixplan vs git apply vs GNU patch on the same
# model-style diffs (see main.go). --write stores the table in RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/bin
BIN=${FIXPLAN_BIN:-build/bin/fixplan-cli}
[ -n "${FIXPLAN_BIN:-}" ] || go build -o "$BIN" ./cmd/fixplan
table=$(go run ./bench/patch -fixplan "$BIN" -md)
echo "$table"
if [ "${1:-}" = "--write" ]; then
  {
    echo "# Patch benchmark: fixplan vs git apply vs GNU patch"
    echo
    echo "Produced by \`bench/patch/run.sh --write\` on $(date -u +%F), $(go version | cut -d' ' -f3), $(git --version), $(patch --version | head -1)."
    echo "Cases: every changed .go file between two releases of google/uuid, doublestar/v4 and go-gitdiff"
    echo "(\`git diff --no-index\`), each also damaged the way model-written patches are. A cell counts files that"
    echo "end byte-identical to the expected result; \"wrong\" counts a tool that reported success but wrote other bytes."
    echo "Commands: \`fixplan --root DIR patch --file P\`, \`git apply P\`, \`patch -p1 --batch -i P\`."
    echo
    echo "$table"
  } > bench/patch/RESULTS.md
fi
