#!/usr/bin/env bash
# Release benchmark: what `make dist` makes and how fast the packaged app starts, with the
# machine and its load at the time (the README's sizes and start-up figures come from here).
#   - `make dist` is run (it empties dist/ first) and timed; every artifact's size is listed,
#     with the sizes of the two Linux binaries inside the .deb, its installed size and the
#     frontend bundle vite built;
#   - the desktop binary that went into the .deb is started RUNS times under Xvfb by
#     bench/overhead/app.sh (exec to the Fix button painted, CPU time, memory) at whatever load
#     the machine has; with ALSO_RT=1 (root) also under the real-time scheduler (app.sh's RT=1:
#     ahead of every other process, as if the machine were idle — it delays the machine's other
#     work for that minute, so it is not the default on a shared machine).
# --write stores everything in bench/release/RESULTS.md (a hand-written "## Notes" section at
# its end is kept).
#
# usage: bench/release/run.sh [--write]
# env:   RUNS (starts per measurement, default 7), VERSION (passed to make dist), ALSO_RT=1
# needs: what `make dist` needs (it installs Debian packages when missing), xvfb-run, xdotool
#        and python3 (bench/overhead/app.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-7}
load() { cut -d' ' -f1-3 /proc/loadavg; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }

load_dist=$(load)
t0=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make --no-print-directory dist ${VERSION:+VERSION="$VERSION"} >"$log" 2>&1 || { tail -40 "$log"; echo "bench/release: make dist failed" >&2; exit 1; }
dist_s=$(($(date +%s) - t0))
version=$(build/bin/dist/linux/fixplan --version | cut -d' ' -f2)

sizes="| artifact | size | bytes |
|---|---:|---:|"
for f in dist/*; do
  if [ ! -f "$f" ] || [ "$(basename "$f")" = SHA256SUMS ]; then continue; fi
  b=$(stat -c %s "$f")
  sizes+="
| \`$(basename "$f")\` | $(mib "$b") | $b |"
done
deb=$(ls dist/*.deb)
installed_kib=$(dpkg-deb --field "$deb" Installed-Size)
inside="Inside the \`.deb\`: \`/usr/bin/fixplan\` $(mib "$(stat -c %s build/bin/dist/linux/fixplan)"), \`/usr/bin/fixplan-cli\` $(mib "$(stat -c %s build/bin/dist/linux/fixplan-cli)") (stripped, position-independent); installed size $(mib $((installed_kib * 1024)))."
bundle=$(grep -E 'dist/assets/.*\.(js|css) ' "$log" | sed 's/^ *//' | awk '!seen[$0]++' || true) # built once per platform
bootstrapper="downloaded by the installer when needed (no \`WEBVIEW2_BOOTSTRAPPER\` given)"
[ -z "${WEBVIEW2_BOOTSTRAPPER:-}" ] || bootstrapper="embedded in the installer (\`WEBVIEW2_BOOTSTRAPPER\`)"

start() {
  local applog out
  applog=$(mktemp)
  if ! out=$(FIXPLAN_BIN=build/bin/dist/linux/fixplan APP_LABEL="$version" BASE=none RUNS="$RUNS" "$@" bench/overhead/app.sh 2>"$applog"); then
    out="\`bench/overhead/app.sh\` failed in this run: $(tail -3 "$applog" | tr '\n' ' ')"
  fi
  rm -f "$applog"
  # its heading (and the blank line after it) is this file's; the rest as it is
  sed '/^### App start and memory$/{N;d}' <<<"$out"
}
load_app=$(load)
app=$(start env)
app_rt=""
if [ "${ALSO_RT:-}" = 1 ]; then
  app_rt=$(start env RT=1)
fi
load_end=$(load)

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
ram=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
report=$(
  echo "Produced by \`bench/release/run.sh\` on $(date -u '+%F %H:%M') UTC from fixplan $version, $(go version | cut -d' ' -f3)."
  echo "Machine: $(nproc) CPUs ($cpu), $ram RAM, Linux $(uname -r); shared with other work — load average"
  echo "(1, 5, 15 min) $load_dist when \`make dist\` started, $load_app when the start-up runs began, $load_end at the end."
  echo
  echo "## \`make dist\`"
  echo
  echo "$sizes"
  echo
  echo "$inside The WebView2 bootstrapper is $bootstrapper. \`make dist\` took $((dist_s / 60)) min $((dist_s % 60)) s (wall clock, frontend and Go build caches warm or not as they were)."
  if [ -n "$bundle" ]; then
    echo
    echo "The window's JavaScript and CSS (vite's list, embedded in \`fixplan\`; \`index-*\` loads at start, the others when needed):"
    echo
    fence=$(printf '\140\140\140') # a Markdown code fence
    echo "$fence"
    echo "$bundle"
    echo "$fence"
  fi
  echo
  echo "## Start-up of the packaged app to the Fix button"
  echo
  echo "The desktop binary of the \`.deb\` (\`build/bin/dist/linux/fixplan\`), at the machine's load:"
  echo
  echo "$app"
  if [ -n "$app_rt" ]; then
    echo
    echo "The same binary under the real-time round-robin scheduler (\`RT=1\`), ahead of every other process — what the app itself takes, as on an idle machine:"
    echo
    echo "$app_rt"
  fi
)
echo "$report"
if [ "${1:-}" = "--write" ]; then
  notes=""
  [ -f bench/release/RESULTS.md ] && notes=$(sed -n '/^## Notes/,$p' bench/release/RESULTS.md)
  {
    echo "# Release artifacts and start-up"
    echo
    echo "$report"
    if [ -n "$notes" ]; then
      echo
      echo "$notes"
    fi
  } > bench/release/RESULTS.md
  echo "wrote bench/release/RESULTS.md"
fi
