#!/usr/bin/env bash
# Overhead benchmark: fixplan's own time side by side with the floor it is compared
# to, in one run (medians of N repetitions, see main.go): process start (an empty Go
# program, `fixplan --version`) and `fixplan plan` with an instant scripted model on
# a copy of cobra; `git apply`, `git apply` + fsyncs of every touched file and folder
# (fsynchelper) and `fixplan patch` on real release diffs (the module pairs of
# bench/patch, fetched through the module proxy, and cobra v1.7.0 → v1.8.0). When
# bench/overhead/app.sh is there, its section (the desktop app's start to first
# paint) is added. --write stores everything in RESULTS.md.
#
# usage: bench/overhead/run.sh [--write]
# env:   N (repetitions, default 7), WORK (the copies are made in a new folder inside it;
#        default build/, on the same disk as the checkout). When /dev/shm is a tmpfs the
#        release diffs are applied there too: fsyncs cost nothing in memory, so that
#        table shows each tool's own work without the disk.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v git >/dev/null || { echo "bench/overhead: git is needed (apt-get install git)"; exit 1; }
N=${N:-7}
mkdir -p build/bin
BIN=${FIXPLAN_BIN:-build/bin/fixplan-cli}
if [ -z "${FIXPLAN_BIN:-}" ]; then
  mkdir -p frontend/dist && { [ -n "$(ls -A frontend/dist)" ] || touch frontend/dist/.gitkeep; }
  go build -ldflags "-X main.version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)" -o "$BIN" ./cmd/fixplan
fi
helpers=$(mktemp -d)
trap 'rm -rf "$helpers"' EXIT
go build -o "$helpers/fsynchelper" ./bench/overhead/fsynchelper
go build -o "$helpers/fakeprovider" ./scripts/desktop/fakeprovider
bench=(go run ./bench/overhead -md -n "$N" -fixplan "$BIN" -fsynchelper "$helpers/fsynchelper" -fakeprovider "$helpers/fakeprovider")
table=$("${bench[@]}" -work "${WORK:-build}")
if [ "$(df --output=fstype /dev/shm 2>/dev/null | tail -1)" = tmpfs ]; then
  table="$table

$("${bench[@]}" -apply-only -work /dev/shm)"
fi
app=""
if [ -x bench/overhead/app.sh ]; then
  applog=$(mktemp)
  if ! app=$(bench/overhead/app.sh 2>"$applog"); then
    app="### App start and memory

\`bench/overhead/app.sh\` failed in this run: $(tail -3 "$applog" | tr '\n' ' ')"
  fi
  rm -f "$applog"
fi
echo "$table"
[ -z "$app" ] || { echo; echo "$app"; }
if [ "${1:-}" = "--write" ]; then
  notes=""
  [ -f bench/overhead/RESULTS.md ] && notes=$(sed -n '/^## Notes/,$p' bench/overhead/RESULTS.md)
  {
    echo "# Overhead benchmark: fixplan vs the floor"
    echo
    echo "Produced by \`bench/overhead/run.sh --write\` on $(date -u +%F), $(go version | cut -d' ' -f3), $(git --version),"
    echo "$(nproc) CPUs shared with other work (load average $(cut -d' ' -f1 /proc/loadavg) when written)."
    echo "Every row is measured in the same run; medians of $N repetitions (process starts: $((N * 3)))."
    echo
    echo "$table"
    if [ -n "$app" ]; then
      echo
      echo "$app"
    fi
    if [ -n "$notes" ]; then
      echo
      echo "$notes"
    fi
  } > bench/overhead/RESULTS.md
fi
