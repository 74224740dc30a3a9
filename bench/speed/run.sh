#!/usr/bin/env bash
# Speed benchmark: what fixplan costs on trees of every size, side by side in one
# run (medians of N runs taking turns, see main.go): `fixplan --version` against a
# whole `fixplan plan` on cobra with an instant model; `fixplan context base` on a
# copy of Go's src and on generated projects of 1k, 10k and 100k files, next to
# fixplan's whole-tree pass (`context search`) and ripgrep searching the same
# message. The trees are made once (minutes for 100k files) and kept in CACHE.
# --write stores the tables in RESULTS.md (its Notes section is kept).
#
# usage: bench/speed/run.sh [--write]
# env:   N (runs, default 5), SIZES (generated trees, default 1000,10000,100000),
#        BASELINE (a git revision, built and measured in the same turns as this tree),
#        CACHE (where the trees are kept, default the user cache folder's fixplan-bench/speed, beside
#        the other benchmarks' downloads; about 2 GB with the 100k-file tree), FIXPLAN_BIN (skip the build),
#        RT (1: every timed command, fixplan's and ripgrep's alike, runs under the real-time
#        scheduler, chrt -r 1, so that other work on a shared machine does not decide the
#        medians; the default as root where chrt is installed; 0: never)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v git >/dev/null || { echo "bench/speed: git is needed (apt-get install git)"; exit 1; }
N=${N:-5}
SIZES=${SIZES:-1000,10000,100000}
mkdir -p build/bin
helpers=$(mktemp -d)
trap 'rm -rf "$helpers"' EXIT
BIN=${FIXPLAN_BIN:-build/bin/fixplan-cli}
if [ -z "${FIXPLAN_BIN:-}" ]; then
  mkdir -p frontend/dist && { [ -n "$(ls -A frontend/dist)" ] || touch frontend/dist/.gitkeep; }
  go build -ldflags "-X main.version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)" -o "$BIN" ./cmd/fixplan
fi
go build -o "$helpers/fakeprovider" ./scripts/desktop/fakeprovider

# ripgrep: installed when missing (as root, or with sudo without a password);
# otherwise only its column is left out, with the reason
rgwhy=""
if ! command -v rg >/dev/null; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo -n"
  if [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then
    rgwhy="ripgrep is not installed, and installing it needs root (apt-get install -y ripgrep)"
  elif ! { $SUDO apt-get install -y -qq ripgrep >/dev/null 2>&1 ||
    { $SUDO apt-get update -qq >/dev/null 2>&1 && $SUDO apt-get install -y -qq ripgrep >/dev/null 2>&1; }; }; then
    rgwhy="ripgrep is not installed, and apt-get install -y ripgrep failed"
  fi
fi

args=(-md -n "$N" -sizes "$SIZES" -fixplan "$BIN" -fakeprovider "$helpers/fakeprovider")
[ -z "${CACHE:-}" ] || args+=(-cache "$CACHE")
RT=${RT:-auto}
if [ "$RT" = auto ]; then
  RT=0
  if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null; then RT=1; fi
fi
[ "$RT" = 1 ] && args+=(-rt)
if [ -n "$rgwhy" ]; then
  args+=(-rg "" -rg-missing "$rgwhy")
fi
if [ -n "${BASELINE:-}" ]; then
  rev=$(git rev-parse --short "$BASELINE")
  mkdir -p "$helpers/baseline"
  git archive "$rev" | tar -x -C "$helpers/baseline"
  (cd "$helpers/baseline" && mkdir -p frontend/dist && touch frontend/dist/.gitkeep &&
    go build -ldflags "-X main.version=$rev" -o "$helpers/fixplan-baseline" ./cmd/fixplan)
  args+=(-baseline "$helpers/fixplan-baseline" -baseline-name "$rev (before)")
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
table=$(go run ./bench/speed "${args[@]}")
echo "$table"
if [ "${1:-}" = "--write" ]; then
  notes=""
  [ -f bench/speed/RESULTS.md ] && notes=$(sed -n '/^## Notes/,$p' bench/speed/RESULTS.md)
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | sed -n 1p)
  rgv="no ripgrep"
  if command -v rg >/dev/null; then rgv=$(rg --version | sed -n 1p); fi
  {
    echo "# Speed benchmark: fixplan on trees of every size"
    echo
    echo "Produced by \`bench/speed/run.sh --write\` on $(date -u +%F) at $(git rev-parse --short HEAD), $(go version | cut -d' ' -f3),"
    echo "$(git --version), $rgv; $(uname -m), ${cpu:-unknown CPU},"
    echo "$(nproc) CPUs shared with other work (load average $load_before before the run, $(cut -d' ' -f1-3 /proc/loadavg) after)."
    echo "Every row is measured in the same run."
    echo
    echo "$table"
    if [ -n "$notes" ]; then
      echo
      echo "$notes"
    fi
  } > bench/speed/RESULTS.md
  echo "wrote bench/speed/RESULTS.md"
fi
