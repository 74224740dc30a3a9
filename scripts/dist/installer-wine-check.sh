#!/usr/bin/env bash
# Runs the Windows installer's script under Wine (by hand: make test-installer-wine; not
# part of make test, Wine is large). Debian's Wine 8 runs only 64-bit programs without
# the i386 architecture, so this builds the same fixplan.nsi as a 64-bit installer
# (-DTARGET_AMD64; the release ships the usual 32-bit one) and checks, installing
# silently into a fresh Wine prefix:
#   1. no WebView2 runtime, no network: the app, the CLI, the Start menu entry and the
#      uninstaller are installed all the same (the download of the bootstrapper fails);
#   2. with a bootstrapper embedded (a stand-in that registers a runtime): it is run with
#      /silent /install and the runtime is then found;
#   3. with the runtime registered: no bootstrapper is run;
#   4. the uninstaller removes the files, the Start menu entry and the registry key.
# fixplan.exe itself cannot start under Wine 8 (Go needs bcryptprimitives.dll).
set -euo pipefail
cd "$(dirname "$0")/../.."
for c in makensis xvfb-run; do command -v $c >/dev/null || { echo "installer-wine-check: $c is missing"; exit 1; }; done
WINE=/usr/lib/wine/wine64
[ -x $WINE ] || { echo "installer-wine-check: needs Debian's wine64 (apt-get install --no-install-recommends wine64)"; exit 1; }
APP=build/bin/dist/windows/fixplan.exe CLI=build/bin/dist/windows/fixplan-cli.exe
if [ ! -f $APP ] || [ ! -f $CLI ]; then echo "installer-wine-check: run make dist-windows first"; exit 1; fi
WORK=$(mktemp -d)
export WINEPREFIX=$WORK/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
trap '/usr/lib/wine/wineserver -k 2>/dev/null || true; rm -rf "$WORK"' EXIT
nsis() { makensis -V1 -NOCD -DTARGET_AMD64 -DVERSION=v0.0.0-wine -DWINVERSION=0.0.0.0 "-DAPP_EXE=$PWD/$APP" "-DCLI_EXE=$PWD/$CLI" \
  "-DICON=$PWD/build/windows/icon.ico" "$@" build/windows/installer/fixplan.nsi; }
nsis "-DOUTFILE=$WORK/setup.exe"
makensis -V1 "-DOUTFILE=$WORK/fake.exe" scripts/dist/wine/fake-webview2-bootstrapper.nsi
nsis "-DOUTFILE=$WORK/setup-embedded.exe" "-DWEBVIEW2_BOOTSTRAPPER=$WORK/fake.exe"
wine() { timeout 120 xvfb-run -a $WINE "$@" 2>/dev/null; }
wine wineboot -i >/dev/null; wine winecfg -v win10 >/dev/null
C=$WINEPREFIX/drive_c; DIR="$C/Program Files/fixplan"; LNK="$C/ProgramData/Microsoft/Windows/Start Menu/Programs/fixplan.lnk"
KEY='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\fixplan'
WV2='HKLM\SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}'
fail() { echo "installer-wine-check: $*"; exit 1; }
installed() {
  for f in fixplan.exe fixplan-cli.exe fixplan.ico uninstall.exe; do [ -f "$DIR/$f" ] || fail "$1: $f was not installed"; done
  cmp -s "$DIR/fixplan.exe" $APP || fail "$1: fixplan.exe differs from the build"
  [ -f "$LNK" ] || fail "$1: no Start menu entry"
  $WINE reg query "$KEY" 2>/dev/null | grep -q 'DisplayVersion.*v0.0.0-wine' || fail "$1: no uninstall registry entry"
}

wine "$WORK/setup.exe" /S || fail "1: the installer failed"
installed 1
$WINE reg query "$WV2" >/dev/null 2>&1 && fail "1: a WebView2 runtime appeared from nowhere"
echo "installer-wine-check: 1. offline, no WebView2: app, CLI, Start menu entry and uninstaller installed"

wine "$WORK/setup-embedded.exe" /S || fail "2: the installer failed"
installed 2
grep -q '/silent /install' "$C/fake-webview2-bootstrapper.txt" 2>/dev/null || fail "2: the embedded bootstrapper was not run with /silent /install"
$WINE reg query "$WV2" 2>/dev/null | grep -q 123.0.2420.65 || fail "2: the runtime is not registered"
echo "installer-wine-check: 2. embedded bootstrapper run as: $(tr -d '\r' < "$C/fake-webview2-bootstrapper.txt")"

rm -f "$C/fake-webview2-bootstrapper.txt"
wine "$WORK/setup-embedded.exe" /S || fail "3: the installer failed"
[ ! -e "$C/fake-webview2-bootstrapper.txt" ] || fail "3: the bootstrapper ran although the runtime is installed"
echo "installer-wine-check: 3. runtime present: no bootstrapper run"

wine "$DIR/uninstall.exe" /S || fail "4: the uninstaller failed"
for _ in $(seq 1 50); do [ -e "$DIR" ] || break; sleep 0.2; done
[ ! -e "$DIR" ] || fail "4: left behind: $(ls "$DIR")"
[ ! -e "$LNK" ] || fail "4: the Start menu entry is left"
! $WINE reg query "$KEY" >/dev/null 2>&1 || fail "4: the uninstall registry entry is left"
echo "installer-wine-check: 4. uninstalled: files, Start menu entry and registry entry removed"
