#!/usr/bin/env bash
# App start and memory: the production desktop window (WebKitGTK, the same build as
# scripts/desktop/window-smoke.sh) is started RUNS times under one Xvfb, each time with a
# throw-away config folder and a small project, and timed from exec to
#   - the window being mapped (xdotool finds the visible window titled "fixplan";
#     polled every 50 ms),
#   - the Fix (plan) button painted enabled, as the page reports it: with
#     FIXPLAN_TRACE_START=1 the app writes "fixplan-trace: <mark> +<ms> unix_ns=<n>" lines
#     to stderr, and the page sends "page-fix-painted" one frame after the button is in
#     the page and enabled (a build without the trace has no such figure),
#   - the button's blue pixels seen on the screen (the cross-check: what a person would
#     see), polled every 10 ms from the X server by scripts/desktop/waitpixel.py.
# After each start the app idles 3 s and the resident memory of the main process and of
# its WebKit child processes is read from /proc (VmRSS, and Pss from smaps_rollup, which
# shares pages fairly between processes). In the last run one plan is made through the
# window against the scripted fake provider (typed with xdotool, like window-smoke.sh),
# and memory is read again 3 s after the plan is saved.
#
# Side by side: the revision BASE (by default 59a92d1, the last one before the start-up
# work of issue 13: one 452 kB bundle, WebKit always accelerated) is built the same way
# in a temporary copy, and the runs alternate between the two binaries so both see the
# same machine load; the table has one column per binary. BASE=none skips it.
#
# usage: bench/overhead/app.sh            prints a markdown section to stdout
# env:   RUNS (default 5; the median, min and max are reported),
#        BASE=<rev> compare with that revision (default 59a92d1; none: no comparison),
#        FIXPLAN_BIN=path measure that binary instead of building this tree (APP_LABEL
#        names it in the table),
#        BASE_BIN=path compare with that binary instead of building BASE,
#        NICE=-10 runs Xvfb, the app and its WebKit processes at that niceness (negative
#        needs root), to measure the app rather than the other jobs of a busy machine;
#        the output says so,
#        RT=1 runs them under the round-robin real-time scheduler instead (chrt -r 10,
#        root): ahead of every ordinary process, as if the machine were otherwise idle —
#        on a shared 2-core machine the only way to see what the app itself takes (the
#        kernel keeps 5% of each second for the rest; the app is idle once painted).
# needs: xvfb-run, xdotool, python3 with libX11, Go and npm unless binaries are given
#        (apt-get install xvfb xdotool python3 libx11-6).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
RUNS=${RUNS:-5}
for tool in xvfb-run xdotool python3; do
  command -v "$tool" >/dev/null || { echo "app.sh: $tool is missing: apt-get install xvfb xdotool python3 libx11-6" >&2; exit 1; }
done
WORK=$(mktemp -d)
PROV=""
trap '[ -n "$PROV" ] && kill $PROV 2>/dev/null; rm -rf "$WORK"' EXIT

# build DIR OUT VITE_LOG: the production binary of the tree in DIR.
build() {
  (cd "$1/frontend" && { [ -e node_modules ] || npm install --no-audit --no-fund --loglevel=error >&2; } && npm run build >"$3" 2>&1) ||
    { cat "$3" >&2; echo "app.sh: the frontend build in $1 failed" >&2; exit 1; }
  (cd "$1" && go build -tags desktop,production,webkit2_41 -ldflags "-w -s" -o "$2" .)
}
# bundle VITE_LOG: vite's list of built assets, one line each.
bundle() { grep -E 'dist/assets/.*\.(js|css) ' "$1" | sed 's/^ *//' || true; }

: > "$WORK/bins"
if [ -n "${FIXPLAN_BIN:-}" ]; then
  [ -x "$FIXPLAN_BIN" ] || { echo "app.sh: FIXPLAN_BIN=$FIXPLAN_BIN is not an executable" >&2; exit 1; }
  echo "${APP_LABEL:-given} $(cd "$(dirname "$FIXPLAN_BIN")" && pwd)/$(basename "$FIXPLAN_BIN")" >> "$WORK/bins"
else
  label=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- frontend app main.go 2>/dev/null || echo "+changes")
  (scripts/npm-ci.sh >&2)
  build "$REPO" "$WORK/fixplan-this" "$WORK/vite-this.out"
  echo "$label $WORK/fixplan-this" >> "$WORK/bins"
  bundle "$WORK/vite-this.out" > "$WORK/bundle-$label"
fi
if [ -n "${BASE_BIN:-}" ]; then
  echo "base $(cd "$(dirname "$BASE_BIN")" && pwd)/$(basename "$BASE_BIN")" >> "$WORK/bins"
elif [ "${BASE:=59a92d1}" != none ]; then
  rev=$(git rev-parse --short "$BASE")
  mkdir "$WORK/base-tree"
  git archive "$rev" | tar -x -C "$WORK/base-tree"
  ln -s "$REPO/frontend/node_modules" "$WORK/base-tree/frontend/node_modules"
  build "$WORK/base-tree" "$WORK/fixplan-base" "$WORK/vite-base.out"
  echo "$rev $WORK/fixplan-base" >> "$WORK/bins"
  bundle "$WORK/vite-base.out" > "$WORK/bundle-$rev"
fi
NBINS=$(wc -l < "$WORK/bins")
go build -o "$WORK/fakeprovider" ./scripts/desktop/fakeprovider

mkdir -p "$WORK/project"
printf 'def divide(a, b):\n    return a / b\n' > "$WORK/project/calc.py"
printf 'from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) is None\n' > "$WORK/project/test_calc.py"
python3 - "$WORK/replies.json" "$NBINS" <<'PY'
import json, sys
json.dump(json.load(open("frontend/e2e/replies.json"))[:1] * int(sys.argv[2]), open(sys.argv[1], "w"))
PY
"$WORK/fakeprovider" -replies "$WORK/replies.json" > "$WORK/provider.out" 2> "$WORK/provider.log" & PROV=$!
for _ in $(seq 1 50); do grep -q '^ready ' "$WORK/provider.out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^ready //p' "$WORK/provider.out")
[ -n "$URL" ] || { echo "app.sh: the fake provider did not start: $(cat "$WORK/provider.log")" >&2; exit 1; }

# The inner script runs under Xvfb and writes one line per start to $WORK/runs.tsv:
# label run window_ms trace_ms pixel_ms main_rss main_pss webkit_rss webkit_pss n_webkit
# (KiB) cpu_ms, one "label plan ..." line with the memory after the plan, and the traced marks
# to $WORK/marks.tsv.
cat > "$WORK/inner.sh" <<'INNER'
set -euo pipefail
now_ns() { date +%s%N; }
# descendants PID: every process below PID (WebKit's web and network processes).
descendants() { local c; for c in $(pgrep -P "$1" 2>/dev/null || true); do echo "$c"; descendants "$c"; done; }
kb() { awk -v k="$2" '$1 == k":" {print $2; exit}' "$1" 2>/dev/null || echo 0; }
# mem PID: "main_rss main_pss webkit_rss webkit_pss n_children" in KiB.
mem() {
  local mr mp wr=0 wp=0 n=0 c r p
  mr=$(kb /proc/$1/status VmRSS); mp=$(kb /proc/$1/smaps_rollup Pss)
  for c in $(descendants "$1"); do
    r=$(kb /proc/$c/status VmRSS); p=$(kb /proc/$c/smaps_rollup Pss)
    wr=$((wr + ${r:-0})); wp=$((wp + ${p:-0})); n=$((n + 1))
  done
  echo "${mr:-0} ${mp:-0} $wr $wp $n"
}
# cpu PID: CPU time (user + system, ms) used so far by PID and the processes below it.
cpu() {
  local tick t=0 c
  tick=$(getconf CLK_TCK)
  for c in "$1" $(descendants "$1"); do
    t=$((t + $(sed 's/.*) //' /proc/$c/stat 2>/dev/null | awk '{print $12 + $13}' || echo 0)))
  done
  echo $((t * 1000 / tick))
}
# start LABEL BIN I: one timed start (and, when I is the last run, one plan).
start() {
  local label=$1 bin=$2 i=$3 cfg="$WORK/config-$1-$3" err="$WORK/stderr-$1-$3" t0 W="" tw="" tp tt m c trace_ms PID
  mkdir -p "$cfg"
  rm -rf "$FIXPLAN_PROJECT/.fixplan"
  t0=$(now_ns)
  FIXPLAN_CONFIG_DIR="$cfg" "$bin" 2> "$err" & PID=$!
  # every 50 ms: each xdotool is a process, and polling faster took CPU from the start
  for _ in $(seq 1 200); do
    W=$(xdotool search --onlyvisible --name '^fixplan$' 2>/dev/null | head -1 || true)
    [ -n "$W" ] && { tw=$(now_ns); break; }
    sleep 0.05
  done
  [ -n "$W" ] || { echo "app.sh: $label run $i: no visible window titled fixplan within 10 s (stderr: $(tail -5 "$err"))" >&2; kill $PID 2>/dev/null; exit 1; }
  # the Fix button's blue anywhere in the column x=1150, y=120..560 (it is at y≈281)
  tp=$(python3 "$REPO/scripts/desktop/waitpixel.py" "$W" 1150 120 560 36,88,214 20 || true)
  [ -n "$tp" ] || { echo "app.sh: $label run $i: the Fix button never painted blue (stderr: $(tail -5 "$err"))" >&2; kill $PID; exit 1; }
  c=$(cpu $PID)
  sleep 3
  m=$(mem $PID)
  tt=$(sed -n 's/^fixplan-trace: page-fix-painted .*unix_ns=\([0-9]*\).*/\1/p' "$err" | head -1)
  trace_ms=-; [ -n "$tt" ] && trace_ms=$(( (tt - t0) / 1000000 ))
  sed -n 's/^fixplan-trace: \([a-z-]*\) .*unix_ns=\([0-9]*\).*/\1 \2/p' "$err" |
    while read -r mark ns; do echo "$label $mark $(( (ns - t0) / 1000000 ))"; done >> "$WORK/marks.tsv"
  echo "$label $i $(( (tw - t0) / 1000000 )) $trace_ms $(( (tp - t0) / 1000000 )) $m $c" >> "$WORK/runs.tsv"
  if [ "$i" = "$RUNS" ]; then
    xdotool windowfocus "$W" 2>/dev/null || true
    xdotool mousemove --window "$W" 600 170 click 1
    xdotool type --delay 2 'Traceback (most recent call last):'
    xdotool key Return
    xdotool type --delay 2 '  File "calc.py", line 2, in divide'
    xdotool key Return
    xdotool type --delay 2 'ZeroDivisionError: division by zero'
    xdotool key ctrl+Return
    for _ in $(seq 1 300); do ls "$FIXPLAN_PROJECT"/.fixplan/plans/*.json >/dev/null 2>&1 && break; sleep 0.1; done
    ls "$FIXPLAN_PROJECT"/.fixplan/plans/*.json >/dev/null 2>&1 || { echo "app.sh: $label: no plan was made through the window" >&2; kill $PID; exit 1; }
    sleep 3
    echo "$label plan $(mem $PID)" >> "$WORK/runs.tsv"
  fi
  kill $PID; wait $PID 2>/dev/null || true
}
for i in $(seq 1 "$RUNS"); do
  while read -r label bin; do start "$label" "$bin" "$i" < /dev/null; done < "$WORK/bins"
done
INNER
: > "$WORK/runs.tsv"; : > "$WORK/marks.tsv"
load=$(cut -d' ' -f1-3 /proc/loadavg)
# xvfb-run -a takes the first free display from -n up; two runs started together (run.sh
# and another app.sh) could both take :99 and one app found no display. Start at a random one.
RUNS="$RUNS" WORK="$WORK" REPO="$REPO" FIXPLAN_PROJECT="$WORK/project" FIXPLAN_USER_PREFS="$WORK/prefs.json" \
FIXPLAN_BASE_URL="$URL" FIXPLAN_MODEL=fake-model FIXPLAN_TRACE_START=1 XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" \
  ${NICE:+nice -n "$NICE"} ${RT:+chrt -r 10} timeout 900 xvfb-run -a -n $((100 + RANDOM % 800)) -s "-screen 0 1280x800x24" bash "$WORK/inner.sh" >&2

python3 - "$WORK" "$RUNS" "$load" "${NICE:-}" "${RT:-}" <<'PY'
import os, statistics, sys
work, runs_n, load, nice, rt = sys.argv[1:6]
labels = [l.split()[0] for l in open(os.path.join(work, "bins"))]
runs = {l: [] for l in labels}
plan = {}
for line in open(os.path.join(work, "runs.tsv")):
    f = line.split()
    if f[1] == "plan":
        plan[f[0]] = [int(x) for x in f[2:]]
    else:
        runs[f[0]].append(f[1:])
def col(label, i, div=1):
    return [int(r[i]) // div for r in runs[label] if r[i] != "-"]
def stat(v, unit=" ms"):
    if not v:
        return "— (not traced by this build)"
    return f"**{statistics.median(v):.0f}{unit}** ({min(v)}–{max(v)})"
def mb(kib):
    return f"{kib / 1024:.0f} MB"
rows = [
    ("window mapped (xdotool)", lambda l: stat(col(l, 1))),
    ("Fix button painted, reported by the page", lambda l: stat(col(l, 2))),
    ("Fix button's pixels seen on the screen", lambda l: stat(col(l, 3))),
    ("CPU time used until then, app + WebKit processes", lambda l: stat(col(l, 9))),
    ("main process RSS, idle 3 s after start", lambda l: stat(col(l, 4, 1024), " MB")),
    ("main process PSS, idle", lambda l: stat(col(l, 5, 1024), " MB")),
    ("WebKit processes RSS summed, idle", lambda l: stat(col(l, 6, 1024), " MB") + f" ({runs[l][-1][8]} processes)"),
    ("WebKit processes PSS summed, idle", lambda l: stat(col(l, 7, 1024), " MB")),
    ("after one plan: main RSS / PSS", lambda l: f"{mb(plan[l][0])} / {mb(plan[l][1])}" if l in plan else "—"),
    ("after one plan: WebKit RSS / PSS summed", lambda l: f"{mb(plan[l][2])} / {mb(plan[l][3])}" if l in plan else "—"),
]
print("### App start and memory\n")
print(f"`bench/overhead/app.sh`: production build (`-tags desktop,production,webkit2_41`) under Xvfb 1280×800, "
      f"{len(runs[labels[0]])} starts per build" + (", alternating between the builds" if len(labels) > 1 else "") +
      f", each with a fresh config folder; times from exec, median (min–max); {os.cpu_count()} cores, load average before: {load}" +
      (f"; Xvfb, the app and WebKit ran at nice {nice}" if nice else "") +
      ("; Xvfb, the app and WebKit ran under the real-time round-robin scheduler (RT=1), ahead of the machine's other work" if rt else "") + ".\n")
print("| measure | " + " | ".join(f"`{l}`" for l in labels) + " |")
print("|---|" + "---:|" * len(labels))
for name, f in rows:
    print(f"| {name} | " + " | ".join(f(l) for l in labels) + " |")
print("\nThe CPU time is user + system time of the app and its WebKit processes until the button is seen: what a "
      "start costs whatever else the machine runs (the wall-clock times grow with the load average). PSS shares "
      "pages fairly between processes, so it is the better sum; RSS counts shared libraries in full in each process.")
marks = {}
for line in open(os.path.join(work, "marks.tsv")):
    label, mark, ms = line.split()
    marks.setdefault(label, {}).setdefault(mark, []).append(int(ms))
for label, m in marks.items():
    print(f"\nStart-up marks of `{label}` (FIXPLAN_TRACE_START=1), median ms from exec: " +
          ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in sorted(m.items(), key=lambda kv: statistics.median(kv[1]))) + ".")
for label in labels:
    p = os.path.join(work, "bundle-" + label)
    if os.path.exists(p) and os.path.getsize(p):
        print(f"\nFrontend bundle of `{label}` (`npm run build`):\n\n```\n" + open(p).read().rstrip() + "\n```")
PY
