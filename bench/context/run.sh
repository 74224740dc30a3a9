#!/usr/bin/env bash
# Context benchmark: on real Go projects (released modules fetched from the
# module proxy with `go mod download`, copied to a temporary folder, never
# committed), break functions one at a time, run `go test` for the real failure
# output, and check whether the base context of that output (what `fixplan
# context base` shows) already holds the broken function — with the definitions
# of what the failing lines use off (before) and on (after). See main.go.
#
# The tokens sent per plan before and after the no-repeat rule are measured by
# the session's own benchmark, not here.
#
# JavaScript projects are released npm packages whose tarball holds their tests
# (NPM_PACKAGES): `npm pack` fetches one, the packages its test files require
# (at the ranges of its package.json) are installed next to it with `npm install
# --ignore-scripts`, and its test command is the one from its package.json
# without coverage or lint (npm_test_cmd below).
#
# usage: bench/context/run.sh [--write]
# env:   K (failures per project, default 12), MODULES (space-separated module@version; "" for none),
#        NPM_PACKAGES (space-separated name@version, default qs and object-inspect; "" for none),
#        WORK (folder for the copies, default a new temporary folder, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/../.."
K=${K:-12}
MODULES=${MODULES-"github.com/google/uuid@v1.6.0 github.com/spf13/cobra@v1.8.0 github.com/bmatcuk/doublestar/v4@v4.6.1 github.com/google/go-cmp@v0.6.0 github.com/hashicorp/golang-lru/v2@v2.0.7"}
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d)
  trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
fi
command -v go >/dev/null || { echo "bench/context: go is not on PATH; install Go 1.26+" >&2; exit 1; }
args=()
for m in $MODULES; do
  dir=$(go mod download -json "$m" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
  if [ -z "$dir" ]; then
    echo "bench/context: go mod download $m gave no folder (is the module proxy reachable?)" >&2
    exit 1
  fi
  name=$(basename "${m%@*}")
  case "$name" in v[0-9]*) name=$(basename "$(dirname "${m%@*}")") ;; esac
  rm -rf "${WORK:?}/$name"
  cp -r "$dir" "$WORK/$name"
  chmod -R u+w "$WORK/$name"
  args+=("$name=$WORK/$name")
done
NPM_PACKAGES=${NPM_PACKAGES-"qs@6.13.0 object-inspect@1.13.2"}
# npm_test_cmd NAME: the package's tests as its package.json runs them, without nyc.
npm_test_cmd() {
  case "$1" in
    qs) echo "../node_modules/.bin/tape 'test/**/*.js'" ;;
    object-inspect) echo "../node_modules/.bin/tape 'test/*.js'" ;;
    *) echo "bench/context: no test command known for npm package $1 (add it to npm_test_cmd in run.sh)" >&2; return 1 ;;
  esac
}
if [ -n "$NPM_PACKAGES" ]; then
  command -v npm >/dev/null || { echo "bench/context: npm is not on PATH; install Node.js 20+ (or set NPM_PACKAGES=\"\")" >&2; exit 1; }
fi
for p in $NPM_PACKAGES; do
  name=${p%@*}
  cmd=$(npm_test_cmd "$name")
  rm -rf "${WORK:?}/npm-$name"
  mkdir -p "$WORK/npm-$name"
  tgz=$(cd "$WORK/npm-$name" && npm pack --silent "$p" | tail -1)
  [ -f "$WORK/npm-$name/$tgz" ] || { echo "bench/context: npm pack $p gave no tarball (is the npm registry reachable?)" >&2; exit 1; }
  tar xzf "$WORK/npm-$name/$tgz" -C "$WORK/npm-$name"
  mv "$WORK/npm-$name/package" "$WORK/npm-$name/$name"
  # What the test files require, at the range package.json gives it (its dependencies too).
  deps=$(node -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1], pj = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const ranges = Object.assign({}, pj.devDependencies, pj.dependencies), need = new Set(Object.keys(pj.dependencies || {}));
    const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { if (e.name !== "node_modules") walk(p); continue; }
      if (!/\.[cm]?js$/.test(e.name)) continue;
      for (const m of fs.readFileSync(p, "utf8").matchAll(/require\(\s*["\x27]([^"\x27.][^"\x27]*)["\x27]\s*\)/g)) {
        const parts = m[1].split("/"), n = m[1].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
        if (ranges[n]) need.add(n);
      } } };
    walk(path.join(dir, "test"));
    for (const n of need) console.log(n + "@" + ranges[n]);' "$WORK/npm-$name/$name")
  # shellcheck disable=SC2086 # one word per package@range
  (cd "$WORK/npm-$name" && npm install --silent --no-audit --no-fund --ignore-scripts --no-package-lock $deps) ||
    { echo "bench/context: npm install of $name's test dependencies failed" >&2; exit 1; }
  args+=("$name=$WORK/npm-$name/$name=$cmd")
done
go build -o "$WORK/contextbench" ./bench/context
mkdir -p "$WORK/failures"
table=$("$WORK/contextbench" -k "$K" -md -v -env-cache "$WORK/env-cache.json" -save "$WORK/failures" "${args[@]}")
echo "$table"
if [ "${1:-}" = "--write" ]; then
  {
    echo "# Context benchmark"
    echo
    echo "Produced by \`bench/context/run.sh --write\` on $(date -u +%F), $(go version | cut -d' ' -f3), $(nproc) CPUs,"
    echo "K=$K failures per project, modules: ${MODULES// /, }; npm packages: ${NPM_PACKAGES// /, }."
    echo
    echo "Each failure is real: one function of the module is made to return its zero values first"
    echo "(\`if true { return *new(T) }\` on the line of its opening brace, so no line moves), \`go test\` runs on its"
    echo "package, and when the tests fail the base context of that output is gathered twice — with the definitions"
    echo "of what the failing lines use off (**before**) and on (**after**). Functions are picked in a fixed random"
    echo "order; those whose breaking leaves the tests passing are skipped (tried, passed). A **function** hit means every"
    echo "line of the broken function is in a section of the base context; a **file** hit, any line of its file."
    echo
    echo "$table"
    echo
    echo "Tokens sent per plan before and after the no-repeat rule: not measured here (the session's benchmark"
    echo "measures what is sent per plan)."
  } > bench/context/RESULTS.md
  echo "wrote bench/context/RESULTS.md"
fi
