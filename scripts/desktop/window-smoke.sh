#!/usr/bin/env bash
# Smoke test of the real desktop window: builds the production binary, starts it
# under Xvfb on a project, finds the window titled "fixplan", takes a screenshot,
# and checks that the UI really painted (the blue Fix (plan) button is where the
# layout puts it at 1280x800).
set -euo pipefail
cd "$(dirname "$0")/../.."
ART=build/artifacts; mkdir -p "$ART" build/bin
(cd frontend && npm install --no-audit --no-fund --loglevel=error && npm run build >/dev/null)
go build -tags desktop,production,webkit2_41 -ldflags "-w -s" -o build/bin/fixplan .
WORK=$(mktemp -d); mkdir -p "$WORK/project"
printf 'def divide(a, b):\n    return a / b\n' > "$WORK/project/calc.py"
cat > "$WORK/smoke-inner.sh" <<'INNER'
set -euo pipefail
build/bin/fixplan & PID=$!
W=""
for _ in $(seq 1 100); do W=$(xdotool search --onlyvisible --name '^fixplan$' 2>/dev/null | head -1 || true); [ -n "$W" ] && break; sleep 0.1; done
[ -n "$W" ] || { echo "window-smoke: no visible window titled fixplan"; kill $PID; exit 1; }
geo=$(xdotool getwindowgeometry "$W" | sed -n 's/.*Geometry: //p')
for _ in $(seq 1 50); do
  import -window "$W" "$ART/window.png"
  px=$(import -window "$W" -crop 1x1+1150+281 txt:- | grep -o 'srgb([0-9,]*)' || true)
  [ "$px" = "srgb(36,88,214)" ] && break
  sleep 0.2
done
kill $PID; wait $PID 2>/dev/null || true
echo "window-smoke: window $W geometry $geo, Fix button pixel $px"
[ "$px" = "srgb(36,88,214)" ] || { echo "window-smoke: the UI did not paint as expected (see $ART/window.png)"; exit 1; }
INNER
ART="$ART" FIXPLAN_PROJECT="$WORK/project" FIXPLAN_CONFIG_DIR="$WORK/config" \
  timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" bash "$WORK/smoke-inner.sh"
rm -rf "$WORK"
echo "window-smoke: screenshot in $ART/window.png"
