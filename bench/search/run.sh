#!/usr/bin/env bash
# Compares `fixplan context search` with ripgrep on Go's own source tree, in one run:
# the same 5 literal queries (a rare and a frequent one among them), every match
# (--max 0), the median wall time of RUNS runs of each tool, the ratio
# fixplan/rg per query, and whether both found exactly the same path:line set.
#
# usage: bench/search/run.sh [--write]     (--write also rewrites bench/search/RESULTS.md)
# env:   FIXPLAN_BIN (skip the build and use this binary), RUNS (default 7), TREE (default $(go env GOROOT)/src)
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
command -v rg >/dev/null || { echo "ripgrep is missing: apt-get install -y ripgrep" >&2; exit 1; }
command -v jq >/dev/null || { echo "jq is missing: apt-get install -y jq" >&2; exit 1; }
BIN=${FIXPLAN_BIN:-}
if [ -z "$BIN" ]; then
  BIN=/tmp/fixplan-bench
  go build -o "$BIN" ./cmd/fixplan
fi
TREE=${TREE:-$(go env GOROOT)/src}
RUNS=${RUNS:-7}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# ripgrep flags that give it fixplan's rules: hidden files searched, .gitignore
# honoured outside git repos too, fixplan's default excluded folders and secret files skipped.
EXCL='.git,.hg,.svn,node_modules,vendor,dist,build,target,__pycache__,.venv,venv,.tox,.mypy_cache,.pytest_cache,.ruff_cache,.gradle,.idea,.next,.nuxt,.cache,.terraform,bower_components,.fixplan'
RG=(rg --hidden --no-require-git --no-ignore-global --no-ignore-parent -F -n --no-heading --no-messages
  -g "!{$EXCL}" --iglob '!*.{env,pem,key,p12,pfx,jks,keystore}' --iglob '!.env.*' --iglob '!id_{rsa,dsa,ecdsa,ed25519}*'
  --iglob '!credentials' --iglob '!credentials.*' --iglob '!{.netrc,.pgpass,.htpasswd}' --iglob '!secrets?.{json,yaml,yml,toml}'
  --iglob '!secrets/' --iglob '!.ssh/')

QUERIES=("sigprofNonGoPC" "func (t *T) Run(" "ErrUnexpectedEOF" "return nil" "err != nil")

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# warm-up: page cache for the tree and both binaries
"$BIN" --root "$TREE" context search warmup --max 0 --json >/dev/null
(cd "$TREE" && "${RG[@]}" -- warmup >/dev/null || true)

rows=()
for q in "${QUERIES[@]}"; do
  ft=(); rt=()
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now); "$BIN" --root "$TREE" context search "$q" --max 0 --json >"$OUT/f.json"; t1=$(now)
    (cd "$TREE" && "${RG[@]}" -- "$q" >"$OUT/r.txt" || [ $? -eq 1 ]); t2=$(now)
    ft+=($(( (t1 - t0) / 1000 ))); rt+=($(( (t2 - t1) / 1000 )))
  done
  fm=$(printf '%s\n' "${ft[@]}" | median); rm_=$(printf '%s\n' "${rt[@]}" | median)
  jq -r '.[] | "\(.path):\(.line)"' "$OUT/f.json" | sort >"$OUT/f.set"
  sed -E 's/^([^:]*):([0-9]+):.*/\1:\2/' "$OUT/r.txt" | sort >"$OUT/r.set"
  n=$(wc -l <"$OUT/f.set")
  if cmp -s "$OUT/f.set" "$OUT/r.set"; then same=yes; else same="NO ($(comm -3 "$OUT/f.set" "$OUT/r.set" | wc -l) differ)"; fi
  ratio=$(awk -v a="$fm" -v b="$rm_" 'BEGIN {printf "%.2f", a / b}')
  rows+=("| \`$q\` | $n | $(awk -v a="$fm" 'BEGIN{printf "%.1f", a/1000}') | $(awk -v a="$rm_" 'BEGIN{printf "%.1f", a/1000}') | $ratio | $same |")
done

table=$(
  echo "| query | matches | fixplan ms | rg ms | ratio | same match set |"
  echo "|---|---:|---:|---:|---:|---|"
  printf '%s\n' "${rows[@]}"
)
echo "$table"
if [ "${1:-}" = "--write" ]; then
  {
    echo "# Search benchmark: fixplan context search vs ripgrep"
    echo
    echo "Produced by \`bench/search/run.sh --write\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(go version | awk '{print $3}'), $("${RG[0]}" --version | head -1)."
    echo "Tree: Go's own source (\`$TREE\`, $(find "$TREE" -type f | wc -l) files). Median wall time of $RUNS runs per tool and query,"
    echo "warm page cache, every match (\`--max 0 --json\` for fixplan, plain \`path:line:text\` for rg); ratio = fixplan / rg (target ≤ 1.3)."
    echo "rg runs with flags that mirror fixplan's rules (hidden files, .gitignore without a repo, default excludes, secret files)."
    echo
    echo "$table"
  } >"$REPO/bench/search/RESULTS.md"
  echo "wrote bench/search/RESULTS.md"
fi
