#!/usr/bin/env bash
# Cross-compiles the Windows desktop binary (pure Go, WebView2) and the CLI from
# Linux and checks both are Windows executables. macOS cannot be built here.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/bin frontend/dist
[ -n "$(ls -A frontend/dist)" ] || (scripts/npm-ci.sh && cd frontend && npm run build >/dev/null)
GOOS=windows GOARCH=amd64 go build -tags desktop,production -ldflags "-w -s -H windowsgui" -o build/bin/fixplan.exe .
GOOS=windows GOARCH=amd64 go build -o build/bin/fixplan-cli.exe ./cmd/fixplan
for f in build/bin/fixplan.exe build/bin/fixplan-cli.exe; do
  [ "$(head -c 2 "$f")" = "MZ" ] || { echo "cross-windows: $f is not a Windows executable"; exit 1; }
  echo "cross-windows: $f $(stat -c %s "$f") bytes"
done
