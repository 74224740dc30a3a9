#!/usr/bin/env bash
# Smoke test of the real desktop window (production build, WebKitGTK under Xvfb):
# finds the window titled "fixplan", checks the UI painted (the blue Fix (plan)
# button), then uses it like a person with xdotool — click the problem box, type a
# traceback, press Ctrl+Enter — and checks a plan was made through the real window
# (a scripted fake provider answers). Screenshots in build/artifacts/.
# FIXPLAN_BIN=/usr/bin/fixplan tests that binary (the installed package) instead of
# building one; FIXPLAN_EXPECT_VERSION=V also checks the plan records fixplan_version V.
set -euo pipefail
cd "$(dirname "$0")/../.."
ART=build/artifacts; mkdir -p "$ART" build/bin
BIN=${FIXPLAN_BIN:-}
if [ -z "$BIN" ]; then
  (scripts/npm-ci.sh && cd frontend && npm run build >/dev/null)
  go build -tags desktop,production,webkit2_41 -ldflags "-w -s" -o build/bin/fixplan .
  BIN=build/bin/fixplan
fi
echo "window-smoke: testing $BIN"
go build -o build/bin/fakeprovider ./scripts/desktop/fakeprovider
WORK=$(mktemp -d); mkdir -p "$WORK/project"
printf 'def divide(a, b):\n    return a / b\n' > "$WORK/project/calc.py"
printf 'from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) is None\n' > "$WORK/project/test_calc.py"
python3 - "$WORK/replies.json" <<'PY'
import json, sys
replies = json.load(open("frontend/e2e/replies.json"))[:1]
json.dump(replies, open(sys.argv[1], "w"))
PY
build/bin/fakeprovider -replies "$WORK/replies.json" > "$WORK/provider.out" 2> "$ART/window-provider.log" & PROV=$!
trap 'kill $PROV 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 50); do grep -q '^ready ' "$WORK/provider.out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^ready //p' "$WORK/provider.out")

cat > "$WORK/smoke-inner.sh" <<'INNER'
set -euo pipefail
pixel() { import -window "$W" -crop 1x1+$1+$2 txt:- | grep -o 'srgb([0-9,]*)' || true; }
t0=$(date +%s%N)
"$BIN" 2>"$ART/window-stderr.log" & PID=$!
W=""
for _ in $(seq 1 100); do W=$(xdotool search --onlyvisible --name '^fixplan$' 2>/dev/null | head -1 || true); [ -n "$W" ] && break; sleep 0.1; done
[ -n "$W" ] || { echo "window-smoke: no visible window titled fixplan"; kill $PID; exit 1; }
geo=$(xdotool getwindowgeometry "$W" | sed -n 's/.*Geometry: //p')
px=""
for _ in $(seq 1 50); do px=$(pixel 1150 281); [ "$px" = "srgb(36,88,214)" ] && break; sleep 0.2; done
painted=$(( ($(date +%s%N) - t0) / 1000000 ))
import -window "$W" "$ART/window.png"
echo "window-smoke: window $W geometry $geo, Fix button pixel $px, painted within ${painted} ms of the start"
[ "$px" = "srgb(36,88,214)" ] || { echo "window-smoke: the UI did not paint as expected (see $ART/window.png)"; kill $PID; exit 1; }
# Use it: click into the problem box, type a traceback, Ctrl+Enter.
xdotool windowfocus "$W" 2>/dev/null || true
xdotool mousemove --window "$W" 600 170 click 1
xdotool type --delay 2 'Traceback (most recent call last):'
xdotool key Return
xdotool type --delay 2 '  File "calc.py", line 2, in divide'
xdotool key Return
xdotool type --delay 2 'ZeroDivisionError: division by zero'
xdotool key ctrl+Return
for _ in $(seq 1 150); do ls "$FIXPLAN_PROJECT"/.fixplan/plans/*.json >/dev/null 2>&1 && break; sleep 0.2; done
sleep 1
import -window "$W" "$ART/window-plan.png"
kill -TERM $PID; code=0; wait $PID 2>/dev/null || code=$?
# SIGTERM closes the window cleanly and says so; WebKit and Wails print nothing misleading.
[ "$code" = 0 ] || { echo "window-smoke: SIGTERM ended the app with status $code, not a clean close"; cat "$ART/window-stderr.log"; exit 1; }
grep -q 'fixplan: terminated (SIGTERM)' "$ART/window-stderr.log" || { echo "window-smoke: SIGTERM was not reported as such"; cat "$ART/window-stderr.log"; exit 1; }
if grep -E 'Ctrl\+C detected|Overriding existing handler for signal' "$ART/window-stderr.log"; then echo "window-smoke: misleading start/stop warnings on stderr (above)"; exit 1; fi
plan=$(ls "$FIXPLAN_PROJECT"/.fixplan/plans/*.json 2>/dev/null | head -1 || true)
[ -n "$plan" ] || { echo "window-smoke: typing a problem and Ctrl+Enter in the real window made no plan (see $ART/window-plan.png)"; exit 1; }
grep -q 'ZeroDivisionError: division by zero' "$plan" || { echo "window-smoke: the plan does not carry the typed problem"; exit 1; }
grep -Eq '"state": ?"draft"' "$plan" || { echo "window-smoke: the plan is not a draft"; exit 1; }
if [ -n "$FIXPLAN_EXPECT_VERSION" ]; then
  grep -qF -e "\"fixplan_version\":\"$FIXPLAN_EXPECT_VERSION\"" -e "\"fixplan_version\": \"$FIXPLAN_EXPECT_VERSION\"" "$plan" || { echo "window-smoke: the plan does not record fixplan_version $FIXPLAN_EXPECT_VERSION"; exit 1; }
  echo "window-smoke: the plan records fixplan_version $FIXPLAN_EXPECT_VERSION"
fi
echo "window-smoke: a plan was made through the real window: $plan"
INNER
BIN="$BIN" FIXPLAN_EXPECT_VERSION="${FIXPLAN_EXPECT_VERSION:-}" ART="$ART" FIXPLAN_PROJECT="$WORK/project" FIXPLAN_CONFIG_DIR="$WORK/config" FIXPLAN_USER_PREFS="$WORK/prefs.json" \
FIXPLAN_BASE_URL="$URL" FIXPLAN_MODEL=fake-model \
  timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" bash "$WORK/smoke-inner.sh"
echo "window-smoke: screenshots in $ART/window.png and $ART/window-plan.png"
