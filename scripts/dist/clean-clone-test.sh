#!/usr/bin/env bash
# A fresh clone stays clean through the README's build: clones the committed HEAD,
# runs `make build` (the build half of `make run`: the frontend packages from the lock
# file, the frontend bundle, the desktop binary) and `make cli`, then checks that git
# sees no change in the clone and that both binaries carry the plain commit as their
# version — not "<commit>-dirty", which would stamp every saved plan, the About box
# and the .deb's name.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
git clone -q --no-hardlinks . "$WORK/clone"
cd "$WORK/clone"
# Reuse this checkout's npm cache; the clone's own node_modules is installed by `npm ci`.
make --no-print-directory build cli >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; echo "clean-clone: make build failed" >&2; exit 1; }
changes=$(git status --porcelain --untracked-files=normal)
if [ -n "$changes" ]; then
  echo "clean-clone: the README's build changed the clone:" >&2; echo "$changes" >&2
  git diff --stat >&2; exit 1
fi
want="fixplan $(git describe --tags --always)"
for bin in build/bin/fixplan build/bin/fixplan-cli; do
  got=$("./$bin" --version)
  [ "$got" = "$want" ] || { echo "clean-clone: $bin --version says '$got', want '$want'" >&2; exit 1; }
done
echo "clean-clone: ok ($want; git status clean after make build and make cli)"
