#!/usr/bin/env bash
# Real-fix benchmark: for each case in bench/realfix/cases (a fix commit of a
# public repository whose regression tests fail before the fix and pass after
# it), rebuild the pre-fix tree from git (the parent commit with the fix's test
# files over it), gather the base context of the recorded failing output as
# `fixplan context base --problem-file` does, and report whether the fixed file
# and every fixed function (whole) are in it, its size and the time to gather
# it — the tuning set and the held-out set apart. See README.md.
#
# usage: bench/realfix/run.sh [--write | --verify] [realfix flags, e.g. -only ID,ID]
#   --write   store the tables in bench/realfix/RESULTS.md
#   --verify  re-run every case's tests instead: they must fail in the pre-fix
#             tree and pass at the fix (needs go; python3 with pytest; node and npm)
# env:   REALFIX_GIT  a folder of bare mirrors (<owner>+<name>/repo, <owner>+<name>,
#                     <owner>+<name>.git or <owner>/<name>.git); when unset, each
#                     repository is cloned (bare) from https://github.com into
#                     REALFIX_CACHE (default: the user's cache folder, fixplan-realfix)
#        WORK         folder for the binary and the trees (default: a new temporary
#                     folder, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v go >/dev/null || { echo "bench/realfix: go is not on PATH; install Go 1.26+" >&2; exit 1; }
command -v git >/dev/null || { echo "bench/realfix: git is not on PATH" >&2; exit 1; }
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d)
  trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
fi
mode=${1:-}
case "$mode" in --write | --verify) shift ;; *) mode="" ;; esac
go build -o "$WORK/realfix" ./bench/realfix
if [ "$mode" = "--verify" ]; then
  "$WORK/realfix" -verify -work "$WORK/trees" "$@"
  exit
fi
rev=$(git describe --always --dirty --exclude "*") # before RESULTS.md is rewritten
start=$(date +%s)
table=$("$WORK/realfix" -md -work "$WORK/trees" "$@")
secs=$(($(date +%s) - start))
echo "$table"
echo "bench/realfix: $(grep -c '^| \[' <<<"$table") cases in ${secs}s"
if [ "$mode" = "--write" ]; then
  {
    echo "# Real-fix benchmark"
    echo
    echo "Produced by \`bench/realfix/run.sh --write\` on $(date -u +%F), $(go version | cut -d' ' -f3), $(nproc) CPUs,"
    echo "at commit $rev; the run took ${secs} s (trees rebuilt from git and gathered one after"
    echo "the other). The cases: $(ls bench/realfix/cases/*.json | wc -l) fix commits of $(cat bench/realfix/cases/*.json | sed -n 's/^  \"repo\": \"\(.*\)\",$/\1/p' | sort -u | wc -l) repositories."
    echo
    echo "Each case is a real fix: a commit of a public repository that changes code and its tests, whose"
    echo "regression tests (the test functions the commit adds or changes) fail in the **pre-fix tree** — the"
    echo "parent commit with the fix commit's test files laid over it — and pass at the fix commit (the miner"
    echo "checked both; \`run.sh --verify\` checks them again). The **fixed functions** are the functions of the"
    echo "pre-fix tree that the commit's non-test diff changes. The base context of the recorded failing output"
    echo "is gathered in the rebuilt pre-fix tree exactly as \`fixplan context base --problem-file\` gathers it"
    echo "(default options, definitions on). **Fixed file shown**: a line of every file holding a fixed function is"
    echo "in a section of the base context; **every fixed function whole**: every line of every fixed function is."
    echo "The cases are split by a hash of their id: the **tuning** set (about two thirds) is what the context"
    echo "gatherer may be tuned on; the **held-out** set says whether a change generalises. The goal (issue 19,"
    echo "item 6): every fixed function whole in at least 9 cases of 10, at a median base context no larger than"
    echo "the context benchmark's (~60 KB). Each miss has a one-line diagnosis in \`diagnoses.tsv\`, grouped by class"
    echo "below (how to read a miss: \`run.sh -save DIR\` writes each case's base context to \`DIR/<id>.txt\`)."
    echo
    echo "$table"
  } > bench/realfix/RESULTS.md
  echo "wrote bench/realfix/RESULTS.md"
fi
