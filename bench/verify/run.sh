#!/usr/bin/env bash
# Verification overhead: what `verify` costs beyond the checks (listing the project,
# copying it, writing the plan's changes into the copy, removing the copy) on generated
# projects of SIZES files, on each folder of DIRS (its file system decides: copy-on-write
# clones, a plain copy on disk, tmpfs). GNU `cp -a` + `rm -rf` of the same tree is
# measured in the same run as the reference of what the file system allows.
#
# usage: bench/verify/run.sh [--write]      (--write also rewrites bench/verify/RESULTS.md)
# env:   SIZES (default 1000,10000,50000), RUNS (default 5, the median is reported),
#        DIRS (default: "auto" — the project in the temp folder, the copies where verify puts
#        them when the caller names no folder — then the temp folder, and /dev/shm when tmpfs),
#        XFS=1 also measures on a reflink-enabled XFS made in a loop file (root and
#        mkfs.xfs needed: apt-get install xfsprogs; unmounted and deleted afterwards).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
SIZES=${SIZES:-1000,10000,50000}
RUNS=${RUNS:-5}
BIN=$(mktemp -d)/bench-verify
go build -o "$BIN" ./bench/verify
trap 'rm -rf "$(dirname "$BIN")"' EXIT

if [ -z "${DIRS:-}" ]; then
  DIRS="auto ${TMPDIR:-/tmp}"
  if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ "$DIRS" != /dev/shm ]; then
    DIRS="$DIRS /dev/shm"
  fi
fi

MNT=""
cleanup_xfs() {
  if [ -n "$MNT" ]; then
    umount "$MNT" 2>/dev/null || true
    rmdir "$MNT" 2>/dev/null || true
    rm -f "$IMG"
  fi
}
if [ "${XFS:-}" = 1 ]; then
  command -v mkfs.xfs >/dev/null || { echo "XFS=1 needs mkfs.xfs: apt-get install -y xfsprogs" >&2; exit 1; }
  IMG=$(mktemp /var/tmp/fixplan-bench-xfs.XXXXXX)
  MNT=$(mktemp -d /mnt/fixplan-bench-xfs.XXXXXX)
  trap 'cleanup_xfs; rm -rf "$(dirname "$BIN")"' EXIT
  truncate -s 6G "$IMG"
  mkfs.xfs -q -f -m reflink=1 "$IMG"
  mount -o loop "$IMG" "$MNT"
  DIRS="$DIRS $MNT"
fi

out=""
for d in $DIRS; do
  fs=$(df -T "$([ "$d" = auto ] && echo "${TMPDIR:-/tmp}" || echo "$d")" | awk 'NR == 2 {print $2}')
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
  echo "== $d ($fs), load average before: $load" >&2
  table=$("$BIN" -sizes "$SIZES" -runs "$RUNS" -dir "$d" -md)
  [ -n "$MNT" ] && table=${table//$MNT/the XFS loop mount}
  echo "$table"
  label=$d
  [ "$d" = "$MNT" ] && label="XFS with reflink=1 (loop file)"
  [ "$d" = auto ] && label="default: project in ${TMPDIR:-/tmp}, copies where verify chooses"
  out+=$'\n'"### $label ($fs; load average before the run: $load)"$'\n\n'"$table"$'\n'
done

if [ "${1:-}" = "--write" ]; then
  # A hand-written "## Notes" section at the end of RESULTS.md is kept.
  notes=""
  if [ -f "$REPO/bench/verify/RESULTS.md" ]; then
    notes=$(sed -n '/^## Notes/,$p' "$REPO/bench/verify/RESULTS.md")
  fi
  {
    echo "# Verification overhead benchmark"
    echo
    echo "Produced by \`bench/verify/run.sh --write\` on $(date -u +%F), $(nproc) cores, $(go version | awk '{print $3}'), SIZES=$SIZES, RUNS=$RUNS."
    echo "Each project is generated: Go-like files of 2–8 KB, 24 per folder, four levels deep. The plan changes five files"
    echo "and creates one. The runner answers every command at once, so the times are verify's own: scan + copy + apply +"
    echo "clean-up (median of RUNS). \"One copy\" is the usual case (every command passes, no baseline needed); \"with a"
    echo "baseline copy too\" is a suite that fails before and after, so the unchanged project is copied and run as well."
    echo "\`cp -a --reflink=auto\` + \`rm -rf\` of the same tree, timed in the same run, is what the file system allows a plain tool."
    echo "$out"
    if [ -n "$notes" ]; then
      echo
      echo "$notes"
    fi
  } >"$REPO/bench/verify/RESULTS.md"
  echo "wrote bench/verify/RESULTS.md" >&2
fi
