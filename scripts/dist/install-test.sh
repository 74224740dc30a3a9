#!/usr/bin/env bash
# Install test of the Debian package (make test-install), on a machine that may be
# changed (CI runs it as root): builds the .deb (make dist-linux), checks it with lintian (no
# error tag; the warnings are listed), installs it with apt (which
# pulls the declared GTK/WebKitGTK libraries), checks the installed CLI's and app's
# --version, the menu entry, the icon and that every library resolves, runs the real
# window smoke test against /usr/bin/fixplan (a plan made through the installed app
# records the version), then removes the package and checks every file it installed
# is gone. Not as root, apt runs through sudo. Where a fixplan package is already
# installed, the test is skipped (it never touches a package it did not install).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo); fi
if dpkg-query -W -f='${Status}' fixplan 2>/dev/null | grep -q ' installed$'; then
  echo "install-test: SKIPPED — a fixplan package is already installed here and this test does not touch it (apt-get remove fixplan to run it)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
start=$(date +%s)

make --no-print-directory dist-linux VERSION="$VERSION"
DV=$(build/bin/fixplan-dist version -version "$VERSION" -for deb)
DEB=dist/fixplan_${DV}_amd64.deb
[ -f "$DEB" ] || { echo "install-test: $DEB was not built"; exit 1; }
command -v lintian >/dev/null || { echo "install-test: lintian is missing (make apt-dist installs it)"; exit 1; }
lint_rc=0
lint=$(lintian --fail-on error "$DEB" 2>&1) || lint_rc=$?
lint=$(grep -v '^running with root privileges' <<<"$lint" || true)
if [ "$lint_rc" != 0 ] || grep -q '^E: ' <<<"$lint"; then
  echo "$lint"; echo "install-test: lintian finds errors in $DEB (exit status $lint_rc)"; exit 1
fi
echo "install-test: lintian: no errors${lint:+; it says:}"
if [ -n "$lint" ]; then mapfile -t tags <<<"$lint"; printf '  %s\n' "${tags[@]}"; fi

installed=0
LOG=$(mktemp)
cleanup() { if [ "$installed" = 1 ]; then "${SUDO[@]}" apt-get remove -y -qq fixplan >/dev/null 2>&1 || true; fi; rm -f "$LOG"; }
trap cleanup EXIT
quiet() { "$@" >"$LOG" 2>&1 || { cat "$LOG"; echo "install-test: failed: $*"; exit 1; }; }

quiet "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$DEB"
installed=1
got=$(dpkg-query -W -f='${Version}' fixplan)
[ "$got" = "$DV" ] || { echo "install-test: installed version $got, want $DV"; exit 1; }
mapfile -t files < <(dpkg-query -L fixplan)
echo "install-test: installed $DEB (${#files[@]} paths)"

[ "$(command -v fixplan-cli)" = /usr/bin/fixplan-cli ] || { echo "install-test: fixplan-cli is not on PATH"; exit 1; }
out=$(fixplan-cli --version)
[ "$out" = "fixplan $VERSION" ] || { echo "install-test: fixplan-cli --version said '$out', want 'fixplan $VERSION'"; exit 1; }
out=$(/usr/bin/fixplan --version)
[ "$out" = "fixplan $VERSION" ] || { echo "install-test: fixplan --version said '$out', want 'fixplan $VERSION'"; exit 1; }
echo "install-test: fixplan-cli --version and fixplan --version: $out"
if ldd /usr/bin/fixplan | grep -q 'not found'; then
  echo "install-test: libraries the package does not pull in:"; ldd /usr/bin/fixplan | grep 'not found'; exit 1
fi
desktop-file-validate /usr/share/applications/fixplan.desktop
grep -qx 'Exec=fixplan' /usr/share/applications/fixplan.desktop
for s in 256 512; do
  [ -s /usr/share/icons/hicolor/${s}x${s}/apps/fixplan.png ] || { echo "install-test: no ${s}x${s} icon"; exit 1; }
done
grep -qx 'Files: \*' /usr/share/doc/fixplan/copyright || { echo "install-test: no copyright file with fixplan's own paragraph"; exit 1; }
echo "install-test: menu entry valid, icons and copyright present, all libraries resolve"

FIXPLAN_BIN=/usr/bin/fixplan FIXPLAN_EXPECT_VERSION="$VERSION" scripts/desktop/window-smoke.sh

quiet "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq fixplan
installed=0
status=$(dpkg-query -W -f='${Status}' fixplan 2>/dev/null || true)
case "$status" in *" installed" | *config-files | *half-*) echo "install-test: after apt-get remove the package is '$status'"; exit 1 ;; esac
left=()
for f in "${files[@]}"; do
  # Shared folders (/usr/share/icons/hicolor/…) stay; fixplan's own files and folders must not.
  if [ -e "$f" ] && { [ ! -d "$f" ] || [[ "$f" == *fixplan* ]]; }; then left+=("$f"); fi
done
[ ${#left[@]} = 0 ] || { echo "install-test: left behind after removal: ${left[*]}"; exit 1; }
! command -v fixplan-cli >/dev/null || { echo "install-test: fixplan-cli is still on PATH"; exit 1; }
echo "install-test: removed cleanly; passed in $(( $(date +%s) - start )) s"
