import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { samplePlan } from "./fakeBackend";
import { emptyReview } from "./review";
import { sha256Hex } from "./sha256";
import { currentCoverage, sameCoverage, verdictAbout } from "./verdict";
import type { VerifiedSelection, Verification } from "../api/types";

const goSha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("sha256Hex", () => {
  it("is SHA-256 of the UTF-8 bytes, as Go's crypto/sha256 computes it", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // Lengths around the block and padding edges, text beyond ASCII, several blocks.
    for (const s of ["a".repeat(55), "a".repeat(56), "a".repeat(63), "a".repeat(64), "a".repeat(1000), "def f():\n    return 'é ✓ 😀'\n".repeat(50)]) {
      expect(sha256Hex(s)).toBe(goSha(s));
    }
  });
});

const all = { "calc.py": true, "notes.md": true };
const verdict = (covers: Verification["covers"]): Verification => ({ state: "verified", commands: [], overhead_ms: 0, covers });

describe("what a verdict is about", () => {
  it("takes every file ticked and nothing narrowed as the plan as proposed", () => {
    expect(currentCoverage(samplePlan(), all, emptyReview)).toEqual({ scope: "proposed" });
    // A rejection taken back leaves an empty list: still as proposed.
    expect(currentCoverage(samplePlan(), all, { ...emptyReview, rejected: { "calc.py": [] } })).toEqual({ scope: "proposed" });
  });

  it("marks a verdict of the plan as proposed stale once a file is left out, and fresh again when it is ticked", () => {
    const v = verdict({ scope: "proposed", paths: [], files: [] });
    expect(verdictAbout(v, samplePlan(), all, emptyReview, true)).toEqual({ about: "proposed", stale: false });
    expect(verdictAbout(v, samplePlan(), { ...all, "notes.md": false }, emptyReview, true)).toEqual({ about: "proposed", stale: true });
    // An applied plan's verdict is about what it covered; the ticks shown no longer matter.
    expect(verdictAbout(v, samplePlan(), {}, emptyReview, false)).toEqual({ about: "proposed", stale: false });
  });

  it("holds a verdict of the user's selection to the same files, hunks and own text", () => {
    const text = "def divide(a, b):\n    return a / b if b else 0\n";
    const v = verdict({ scope: "selection", paths: ["calc.py", "notes.md"], files: [{ path: "calc.py", hunks: null, content_sha256: goSha(text) }] });
    const edited = { ...emptyReview, edits: { "calc.py": text } };
    expect(verdictAbout(v, samplePlan(), all, edited, true)).toEqual({ about: "selection", stale: false });
    expect(verdictAbout(v, samplePlan(), all, { ...emptyReview, edits: { "calc.py": text + "# more\n" } }, true)?.stale).toBe(true);
    expect(verdictAbout(v, samplePlan(), all, emptyReview, true)?.stale).toBe(true);
    expect(verdictAbout(v, samplePlan(), { "calc.py": true }, edited, true)?.stale).toBe(true);
  });

  it("compares accepted hunks whatever their order, and tells hunks from an own text", () => {
    const rec: VerifiedSelection = { scope: "selection", paths: ["a", "b"], files: [{ path: "a", hunks: [3, 1] }] };
    expect(sameCoverage(rec, { scope: "selection", paths: ["b", "a"], files: [{ path: "a", hunks: [1, 3], sha256: "" }] })).toBe(true);
    expect(sameCoverage(rec, { scope: "selection", paths: ["a", "b"], files: [{ path: "a", hunks: [1], sha256: "" }] })).toBe(false);
    expect(sameCoverage(rec, { scope: "selection", paths: ["a", "b"], files: [{ path: "a", hunks: null, sha256: "00" }] })).toBe(false);
    expect(sameCoverage(rec, { scope: "proposed" })).toBe(false);
  });

  it("says nothing for a verdict saved before it recorded what it covered", () => {
    expect(verdictAbout(verdict(null), samplePlan(), {}, emptyReview, true)).toBeNull();
  });
});
