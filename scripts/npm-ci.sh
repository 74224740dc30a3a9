#!/usr/bin/env bash
# Installs the frontend's packages exactly as frontend/package-lock.json records them
# (`npm ci`), and only when node_modules is older than the lock file. `npm install`
# would rewrite the committed lock file, and every build from then on would be
# stamped "<commit>-dirty" (fixplan --version, About, saved plans, the .deb's name).
set -euo pipefail
cd "$(dirname "$0")/../frontend"
if [ node_modules/.package-lock.json -nt package-lock.json ]; then exit 0; fi
npm ci --no-audit --no-fund --loglevel=error
