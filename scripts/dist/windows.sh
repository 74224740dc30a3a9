#!/usr/bin/env bash
# The Windows artifacts, cross-built on Linux (make dist-windows): fixplan.exe (the
# desktop app, WebView2) with its icon, manifest and version resources, fixplan-cli.exe,
# and the NSIS installer (makensis from Debian's nsis) that installs both and the
# WebView2 runtime when it is missing. Signs them when WINDOWS_SIGN_PFX is set
# (scripts/dist/sign-windows.sh).
#   VERSION   the stamped version (the Makefile passes git describe)
#   DISTTOOL  tools/dist built (build/bin/fixplan-dist)
#   WEBVIEW2_BOOTSTRAPPER  optional MicrosoftEdgeWebview2Setup.exe to embed in the installer
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=${VERSION:-dev}
DISTTOOL=${DISTTOOL:-build/bin/fixplan-dist}
OUT=dist
WORK=build/bin/dist/windows
command -v makensis >/dev/null || { echo "windows.sh: makensis is missing (apt-get install nsis)"; exit 1; }
mkdir -p "$WORK" "$OUT" frontend/dist
[ -n "$(ls -A frontend/dist)" ] || { echo "windows.sh: frontend/dist is empty (make frontend)"; exit 1; }

# Resources for windows/amd64 builds only (the file name says so); never left behind.
SYSO=fixplan-res_windows_amd64.syso
trap 'rm -f "$SYSO"' EXIT
"$DISTTOOL" syso -version "$VERSION" -icon build/windows/icon.ico -out "$SYSO"
GOOS=windows GOARCH=amd64 go build -tags desktop,production -ldflags "-w -s -H windowsgui -X main.version=$VERSION" -o "$WORK/fixplan.exe" .
rm -f "$SYSO"
GOOS=windows GOARCH=amd64 go build -ldflags "-w -s -X main.version=$VERSION" -o "$WORK/fixplan-cli.exe" ./cmd/fixplan
for f in "$WORK/fixplan.exe" "$WORK/fixplan-cli.exe"; do
  [ "$(head -c 2 "$f")" = "MZ" ] || { echo "windows.sh: $f is not a Windows executable"; exit 1; }
  scripts/dist/sign-windows.sh "$f"
done

FV=$("$DISTTOOL" version -version "$VERSION" -for file)
SETUP="$OUT/fixplan_${FV}_windows_amd64_setup.exe"
args=(-V2 -NOCD
  "-DVERSION=$VERSION" "-DWINVERSION=$("$DISTTOOL" version -version "$VERSION" -for windows)"
  "-DAPP_EXE=$PWD/$WORK/fixplan.exe" "-DCLI_EXE=$PWD/$WORK/fixplan-cli.exe"
  "-DICON=$PWD/build/windows/icon.ico" "-DOUTFILE=$PWD/$SETUP")
if [ -n "${WEBVIEW2_BOOTSTRAPPER:-}" ]; then
  args+=("-DWEBVIEW2_BOOTSTRAPPER=$(realpath "$WEBVIEW2_BOOTSTRAPPER")")
  echo "windows.sh: embedding the WebView2 bootstrapper $WEBVIEW2_BOOTSTRAPPER"
fi
if [ -n "${WINDOWS_SIGN_PFX:-}" ]; then
  args+=("-DSIGN_CMD=$PWD/scripts/dist/sign-windows.sh")
fi
makensis "${args[@]}" build/windows/installer/fixplan.nsi
[ "$(head -c 2 "$SETUP")" = "MZ" ] || { echo "windows.sh: $SETUP is not a Windows executable"; exit 1; }

cp "$WORK/fixplan.exe" "$OUT/fixplan_${FV}_windows_amd64.exe"
cp "$WORK/fixplan-cli.exe" "$OUT/fixplan-cli_${FV}_windows_amd64.exe"
echo "windows.sh: built $OUT/fixplan_${FV}_windows_amd64.exe, $OUT/fixplan-cli_${FV}_windows_amd64.exe and $SETUP"
