#!/usr/bin/env bash
# Signs one Windows executable in place with osslsigncode (Authenticode, SHA-256,
# RFC 3161 timestamp) when WINDOWS_SIGN_PFX names a PKCS#12 certificate; does nothing
# otherwise, so unsigned builds still work. The release workflow sets
# WINDOWS_SIGN_PFX and WINDOWS_SIGN_PASSWORD only when their secrets exist.
set -euo pipefail
f=$1
[ -n "${WINDOWS_SIGN_PFX:-}" ] || exit 0
command -v osslsigncode >/dev/null || { echo "sign-windows.sh: osslsigncode is missing (apt-get install osslsigncode)"; exit 1; }
osslsigncode sign -pkcs12 "$WINDOWS_SIGN_PFX" -readpass <(printf '%s' "${WINDOWS_SIGN_PASSWORD:-}") \
  -h sha256 -n fixplan -ts "${WINDOWS_SIGN_TIMESTAMP:-http://timestamp.digicert.com}" -in "$f" -out "$f.signed"
mv "$f.signed" "$f"
echo "sign-windows.sh: signed $f"
