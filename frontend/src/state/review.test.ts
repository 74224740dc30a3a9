import { describe, expect, it } from "vitest";
import { Store } from "./store";
import { FakeBackend, samplePlan, sampleVerification } from "./fakeBackend";
import { fileChoices, hunkStops, splitDiff, emptyReview } from "./review";
import type { FileChange, PlanRecord } from "../api/types";

// A changed file with two hunks (numbered as the Go side numbers them) and a new file.
const twoHunks = `diff --git a/app.py b/app.py
--- a/app.py
+++ b/app.py
@@ -1,4 +1,4 @@
 import os
-A = 1
+A = 2
 B = 1
 C = 1
@@ -20,4 +20,4 @@
 X = 1
-Y = 1
+Y = 2
 Z = 1
\\ No newline at end of file
`;
const appChange: FileChange = { path: "app.py", op: "update", diff: twoHunks, base_sha256: "cd".repeat(32) };

function reviewPlan(): PlanRecord {
  const p = samplePlan();
  return { ...p, changes: [appChange, ...p.changes] };
}

async function shown() {
  const b = new FakeBackend();
  b.planResult = async () => reviewPlan();
  b.extraChanges = [appChange];
  const s = new Store(b);
  await s.start();
  s.setProblem("A is wrong");
  await s.fix();
  return { b, s };
}

describe("splitDiff", () => {
  it("numbers hunks from 1 in the order of their @@ lines and keeps the file header", () => {
    const { head, hunks } = splitDiff(twoHunks);
    expect(head).toBe("diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n");
    expect(hunks.map((h) => [h.n, h.header])).toEqual([
      [1, "@@ -1,4 +1,4 @@"],
      [2, "@@ -20,4 +20,4 @@"],
    ]);
    expect(hunks[1].text).toContain("\\ No newline at end of file\n");
    expect(head + hunks.map((h) => h.text).join("")).toBe(twoHunks);
  });

  it("sends nothing for a file taken as proposed", () => {
    const p = reviewPlan();
    expect(fileChoices(p, { "app.py": true, "calc.py": true }, emptyReview)).toEqual([]);
    // Only changed files are reviewed hunk by hunk; the keyboard visits their hunks.
    expect(hunkStops(p, emptyReview)).toEqual([
      { path: "app.py", n: 1 },
      { path: "app.py", n: 2 },
      { path: "calc.py", n: 1 },
    ]);
  });
});

describe("Store review", () => {
  it("rejects one hunk, previews what is left and applies exactly the accepted hunks", async () => {
    const { b, s } = await shown();
    s.reviewActions.setHunk("app.py", 1, false);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(s.get().review.rejected).toEqual({ "app.py": [1] });
    const pv = b.called("previewSelection")[0].args[0];
    expect(pv).toEqual({ plan_id: "p1", paths: ["app.py"], memory_keys: [], files: [{ path: "app.py", hunks: [2], content: null }] });
    expect(s.get().review.previews["app.py"]?.diff).not.toContain("A = 2");
    expect(s.get().review.previews["app.py"]?.diff).toContain("Y = 2");
    b.loadResult = async () => ({ ...reviewPlan(), state: "applied", review: { files: [{ path: "app.py", hunks: 2, rejected: [1] }] } });
    await s.apply();
    expect(b.called("apply")[0].args[0]).toEqual({
      plan_id: "p1",
      paths: ["app.py", "calc.py", "notes.md"],
      memory_keys: ["project.default_test_command"],
      files: [{ path: "app.py", hunks: [2], content: null }],
    });
    // The applied plan shows what was rejected (from its record).
    expect(s.get().plan?.state).toBe("applied");
    expect(s.get().plan?.review?.files[0].rejected).toEqual([1]);
  });

  it("unticks a file whose every hunk is rejected, and ticking it again takes every hunk", async () => {
    const { s } = await shown();
    await s.setHunk("app.py", 1, false);
    await s.setHunk("app.py", 2, false);
    expect(s.get().selected["app.py"]).toBe(false);
    expect(s.get().review.previews["app.py"]).toBeNull();
    await s.setHunk("app.py", 2, true);
    expect(s.get().selected["app.py"]).toBe(true);
    expect(s.get().review.rejected).toEqual({ "app.py": [1] });
    await s.setHunk("app.py", 2, false);
    s.toggleChange("app.py");
    expect(s.get().selected["app.py"]).toBe(true);
    expect(s.get().review.rejected).toEqual({});
  });

  it("moves between hunks with the keyboard actions and accepts or rejects the focused one", async () => {
    const { s } = await shown();
    s.reviewActions.step(1);
    expect(s.get().review.focus).toEqual({ path: "app.py", n: 1 });
    s.reviewActions.step(1);
    s.reviewActions.step(1);
    expect(s.get().review.focus).toEqual({ path: "calc.py", n: 1 });
    s.reviewActions.step(1);
    expect(s.get().review.focus).toEqual({ path: "calc.py", n: 1 });
    s.reviewActions.step(-1);
    expect(s.get().review.focus).toEqual({ path: "app.py", n: 2 });
    await s.setHunk("app.py", 2, false);
    expect(s.get().review.rejected).toEqual({ "app.py": [2] });
  });

  it("edits a proposal by hand: the checked text is what applies, in place of its hunks", async () => {
    const { b, s } = await shown();
    await s.setHunk("calc.py", 1, false);
    await s.openEditor("calc.py");
    expect(b.called("proposedText")[0].args).toEqual(["p1", "calc.py", []]);
    expect(s.get().review.editing?.text).toContain("if b == 0");
    await s.saveEdit("def divide(a, b):\n    return a / b if b else 0\n");
    expect(s.get().review.editing).toBeNull();
    expect(s.get().review.edits["calc.py"]).toContain("if b else 0");
    expect(s.get().review.rejected["calc.py"]).toBeUndefined();
    expect(s.get().selected["calc.py"]).toBe(true);
    const pv = b.called("previewSelection").pop()?.args[0] as { files: unknown[] };
    expect(pv.files).toEqual([{ path: "calc.py", hunks: null, content: "def divide(a, b):\n    return a / b if b else 0\n" }]);
    // The keyboard skips a file edited by hand.
    expect(hunkStops(s.get().plan!, s.get().review).some((h) => h.path === "calc.py")).toBe(false);
    await s.apply();
    const req = b.called("apply")[0].args[0] as { files: unknown[] };
    expect(req.files).toEqual([{ path: "calc.py", hunks: null, content: "def divide(a, b):\n    return a / b if b else 0\n" }]);
  });

  it("keeps the editor open with the error when the edited text is refused", async () => {
    const { b, s } = await shown();
    b.previewResult = async () => {
      throw JSON.stringify({ code: "ERR_BINARY_CONTENT", message: "the edited content of calc.py looks binary", hint: "fixplan only writes text files" });
    };
    await s.openEditor("calc.py");
    await s.saveEdit("a\u0000b");
    expect(s.get().review.editing?.error).toBe("ERR_BINARY_CONTENT: the edited content of calc.py looks binary — fixplan only writes text files");
    expect(s.get().review.editing?.path).toBe("calc.py");
    expect(s.get().review.edits).toEqual({});
  });

  it("discarding an edit, or a new plan, goes back to the proposal", async () => {
    const { b, s } = await shown();
    await s.setHunk("app.py", 1, false);
    await s.openEditor("app.py");
    expect(b.called("proposedText")[0].args).toEqual(["p1", "app.py", [2]]);
    s.reviewActions.close();
    await s.openEditor("notes.md");
    expect(b.called("proposedText")[1].args).toEqual(["p1", "notes.md", null]);
    await s.saveEdit("my notes\n");
    expect(Object.keys(s.get().review.edits)).toEqual(["notes.md"]);
    await s.discardEdit("notes.md");
    expect(s.get().review.edits).toEqual({});
    await s.setHunk("app.py", 1, false);
    await s.fix();
    expect(s.get().review).toEqual(emptyReview);
  });

  it("re-planning the draft tells the model what was rejected, unticked or edited", async () => {
    const { b, s } = await shown();
    await s.replan();
    expect((b.called("plan")[1].args[0] as { review?: unknown }).review).toBeUndefined();
    await s.setHunk("app.py", 2, false);
    s.toggleChange("notes.md");
    s.setAnswer(0, "yes");
    await s.replan();
    expect((b.called("plan")[2].args[0] as { review?: unknown; previous: string }).review).toEqual({
      paths: ["app.py", "calc.py"],
      files: [{ path: "app.py", hunks: [1], content: null }],
    });
    // A new problem (no previous plan) carries no review.
    await s.setHunk("app.py", 2, false);
    await s.fix();
    expect((b.called("plan")[3].args[0] as { review?: unknown }).review).toBeUndefined();
  });

  it("verifies what the user chose once hunks are rejected or text edited", async () => {
    const { b, s } = await shown();
    b.verifyResult = async () => ({ ...reviewPlan(), verification: sampleVerification("verified") });
    await s.verify();
    expect(b.called("verifyPlan")).toHaveLength(1);
    await s.setHunk("app.py", 1, false);
    await s.verify();
    expect(b.called("verifySelection")[0].args).toEqual([
      "p1",
      [],
      { plan_id: "p1", paths: ["app.py", "calc.py", "notes.md"], memory_keys: [], files: [{ path: "app.py", hunks: [2], content: null }] },
    ]);
    expect(s.get().plan?.verification?.state).toBe("verified");
  });

  it("offers no review on an applied or foreign plan", async () => {
    const { b, s } = await shown();
    s.showPlan({ ...reviewPlan(), state: "applied" });
    await s.setHunk("app.py", 1, false);
    await s.openEditor("calc.py");
    expect(s.get().review.rejected).toEqual({});
    expect(b.called("proposedText")).toHaveLength(0);
  });
});
