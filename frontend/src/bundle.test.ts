import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

// The first paint loads only what main.tsx imports statically; the diff viewer and the
// editor must stay behind dynamic import() (App.tsx's lazy plan view) so the main chunk
// does not grow back (bench/overhead/app.sh: 452 kB and a ~1.1 s first paint before).
const heavy = ["diff2html", "highlight.js", "@codemirror", "codemirror"];

/** staticImports returns the packages reached from file through static imports. */
function staticImports(file: string, seen = new Set<string>(), packages = new Set<string>()) {
  if (seen.has(file)) return packages;
  seen.add(file);
  const src = readFileSync(file, "utf8");
  // `import x from "y"`, `import "y"`, `export … from "y"` — not `import("y")`
  const re = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^"'();]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const m of src.matchAll(re)) {
    if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
    const spec = m[1];
    if (!spec.startsWith(".")) {
      packages.add(spec);
      continue;
    }
    const base = resolve(dirname(file), spec);
    const next = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((x) => base + x).find((p) => existsSync(p) && !p.endsWith(".css") && /\.(ts|tsx|js)$/.test(p));
    if (next) staticImports(next, seen, packages);
  }
  return packages;
}

describe("the main chunk", () => {
  it("imports neither the diff viewer nor the editor statically", () => {
    const pkgs = [...staticImports(join(__dirname, "main.tsx"))];
    expect(pkgs).toContain("react-dom/client");
    expect(pkgs.filter((p) => heavy.some((h) => p === h || p.startsWith(h + "/")))).toEqual([]);
  });
});
