import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { toAppError } from "./types";

describe("toAppError", () => {
  it("parses the JSON the Go side rejects with", () => {
    const e = toAppError(JSON.stringify({ code: "ERR_PROVIDER_AUTH", message: "refused the key", hint: "set FIXPLAN_API_KEY", paths: [] }));
    expect([e.code, e.message, e.hint]).toEqual(["ERR_PROVIDER_AUTH", "refused the key", "set FIXPLAN_API_KEY"]);
  });
  it("keeps a plain message", () => {
    const e = toAppError(new Error("boom"));
    expect([e.code, e.message]).toEqual(["ERR_UNKNOWN", "boom"]);
  });
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe("layering", () => {
  it("only src/api touches window.go and window.runtime", () => {
    const src = join(__dirname, "..");
    const offenders = files(src)
      .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes(`${join("src", "api")}`) && !f.endsWith(".test.ts"))
      .filter((f) => /window\.(go|runtime)|wailsjs/.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});
