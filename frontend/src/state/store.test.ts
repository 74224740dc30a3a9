import { describe, expect, it } from "vitest";
import { Store } from "./store";
import { normalizePlan } from "./record";
import { sourceName } from "./slices/project";
import { FakeBackend, foreignPlan, planned, samplePlan } from "./fakeBackend";
import { AppError } from "../api/types";
import { foldProgress, stageText } from "./progress";

describe("Store", () => {
  it("shows the plan with every file and memory entry ticked", async () => {
    const { s } = await planned();
    expect(s.get().plan?.id).toBe("p1");
    expect(s.get().selected).toEqual({ "calc.py": true, "notes.md": true });
    expect(s.selectedMemory()).toEqual(["project.default_test_command"]);
    expect(s.get().planning).toBe(false);
  });

  it("applies exactly the ticked files and memory keys", async () => {
    const { b, s } = await planned();
    s.toggleChange("notes.md");
    s.toggleMemory("project.default_test_command");
    await s.apply();
    expect(b.called("apply")[0].args[0]).toEqual({ plan_id: "p1", paths: ["calc.py"], memory_keys: [] });
    expect(s.get().result?.result.applied.map((c) => c.path)).toEqual(["calc.py"]);
    expect(s.get().plan?.state).toBe("applied");
  });

  it("keeps the hint and paths of a stale-preview error", async () => {
    const { b, s } = await planned();
    b.applyResult = async () => {
      throw JSON.stringify({ code: "ERR_BASE_MISMATCH", message: "changed since the preview: calc.py", hint: "re-plan", paths: ["calc.py"] });
    };
    await s.apply();
    const err = s.get().error!;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("ERR_BASE_MISMATCH");
    expect(err.hint).toBe("re-plan");
    expect(err.paths).toEqual(["calc.py"]);
    expect(s.get().plan?.state).toBe("draft");
  });

  it("refuses an empty problem without calling the backend", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.fix();
    expect(b.called("plan")).toHaveLength(0);
    expect(s.get().error?.code).toBe("ERR_INVALID_INPUT");
  });

  it("updates the stage from batched progress events", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    b.progress!([
      { stage: "gather", round: 0, max_rounds: 3, message: "gathering context", chars: 0, requests: 0 },
      { stage: "ask", round: 2, max_rounds: 3, message: "asking", chars: 0, requests: 0 },
      { stage: "stream", round: 2, max_rounds: 3, message: "", chars: 1234, requests: 0 },
    ]);
    expect(stageText(s.get().progress)).toBe("Round 2 of 3 — receiving the reply (1,234 characters)");
  });

  it("treats a cancelled plan as no error", async () => {
    const b = new FakeBackend();
    b.planResult = async () => {
      throw JSON.stringify({ code: "ERR_CANCELLED", message: "planning was cancelled", hint: "" });
    };
    const s = new Store(b);
    s.setProblem("x");
    await s.fix();
    expect(s.get().error).toBeNull();
    expect(s.get().planning).toBe(false);
  });

  it("re-plans with the answers and the previous id", async () => {
    const { b, s } = await planned();
    s.setAnswer(0, "yes, keep 3.8");
    await s.replan();
    const req = b.called("plan")[1].args[0] as { answers: string[]; previous: string };
    expect(req.answers).toEqual(["yes, keep 3.8"]);
    expect(req.previous).toBe("p1");
  });

  it("runs a command, streams its output and fixes again with it", async () => {
    const { b, s } = await planned();
    await s.runCommand("pytest -q");
    expect(b.called("runCommand")[0].args).toEqual(["p1", "pytest -q"]);
    expect(s.get().commands["pytest -q"].result?.exit_code).toBe(0);
    await s.fixAgain();
    const req = b.called("plan")[1].args[0] as { logs: { source: string; path: string }[] };
    expect(req.logs).toContainEqual({ source: "verification", path: "" });
  });

  it("shows a failed plan's raw reply", async () => {
    const b = new FakeBackend();
    b.planResult = async () => ({ ...samplePlan(), state: "failed", raw: "Step 1: ...", issues: ["/: prose"], changes: [] });
    const s = new Store(b);
    s.setProblem("x");
    await s.fix();
    expect(s.get().plan?.state).toBe("failed");
  });

  it("names attached logs after the file", () => {
    expect(sourceName("/var/log/build.log")).toBe("build");
    expect(sourceName("C:\\logs\\test-output.txt")).toBe("test-output");
    const s = new Store(new FakeBackend());
    s.addLogPaths(["/a/runtime.log", "/a/runtime.log"]);
    expect(s.get().logs).toEqual([{ source: "runtime", path: "/a/runtime.log" }]);
  });

  it("folds progress without losing the stage", () => {
    const p = foldProgress(null, [{ stage: "fulfil", round: 1, max_rounds: 3, message: "", chars: 0, requests: 3 }]);
    expect(stageText(p)).toBe("Fulfilling 3 context requests…");
  });
});

describe("Store journals", () => {
  it("opens the journals in place of the history", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    await s.openHistory();
    await s.openJournals();
    expect(s.get().history).toBeNull();
    expect(s.get().journals?.map((j) => j.state)).toEqual(["committed", "held", "quarantined"]);
    await s.openHistory();
    expect(s.get().journals).toBeNull();
  });

  it("discards a journal and refreshes the list", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.openJournals();
    await s.discardJournal("20260101-000000.000000-abcdef");
    expect(b.called("discardJournal")[0].args).toEqual(["20260101-000000.000000-abcdef"]);
    expect(b.called("journals")).toHaveLength(2);
    expect(s.get().journals?.map((j) => j.id)).not.toContain("20260101-000000.000000-abcdef");
    expect(s.get().discarding).toBeNull();
    expect(s.get().error).toBeNull();
  });

  it("shows a refused discard as an error and still refreshes", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.openJournals();
    await s.discardJournal("20261122-100000.000000-aaaaaa");
    const err = s.get().error!;
    expect(err.code).toBe("ERR_INVALID_INPUT");
    expect(err.message).toMatch(/undo history/);
    expect(err.hint).toBe("undo it, or keep it");
    expect(b.called("journals")).toHaveLength(2);
    expect(s.get().journals).toHaveLength(3);
    expect(s.get().discarding).toBeNull();
  });

  it("leaves recovery notices to the Recovery notice, not the progress line", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    b.progress!([{ stage: "recovery", round: 0, max_rounds: 0, message: ".fixplan/tx/X was set aside", chars: 0, requests: 0 }]);
    expect(s.get().progress).toBeNull();
    b.progress!([
      { stage: "recovery", round: 0, max_rounds: 0, message: "transaction T is set aside", chars: 0, requests: 0 },
      { stage: "gather", round: 0, max_rounds: 3, message: "gathering context", chars: 0, requests: 0 },
    ]);
    expect(stageText(s.get().progress)).toBe("Gathering context…");
  });

  it("hides the recovery notice when dismissed", async () => {
    const b = new FakeBackend();
    b.recovered = ["transaction T is set aside (restore a.go: permission denied)"];
    const s = new Store(b);
    await s.start();
    expect(s.get().project?.recovered).toHaveLength(1);
    s.dismissRecovery();
    expect(s.get().project?.recovered).toEqual([]);
  });
});

describe("Store foreign plans", () => {
  it("never asks the backend to apply or run a foreign plan", async () => {
    const b = new FakeBackend();
    b.loadResult = async () => foreignPlan();
    const s = new Store(b);
    await s.loadPlan("99991231-235959.999999-ffffff");
    expect(s.get().plan?.foreign).toBe(true);
    expect(s.get().selected).toEqual({ "calc.py": false, "notes.md": false });
    expect(s.selectedMemory()).toEqual([]);
    await s.apply();
    expect(b.called("apply")).toHaveLength(0);
    expect(s.get().error?.code).toBe("ERR_FOREIGN_STATE");
    s.dismissError();
    await s.runCommand("pytest -q");
    expect(b.called("runCommand")).toHaveLength(0);
    expect(s.get().error?.code).toBe("ERR_FOREIGN_STATE");
    expect(s.get().plan?.state).toBe("draft");
  });

  it("takes the history item's foreign flag when the record lacks it", async () => {
    const b = new FakeBackend();
    b.historyItems = [{ id: "x1", created_at: "", state: "draft", summary: "shipped", problem: "", files: 1, foreign: true }];
    const s = new Store(b);
    await s.openHistory();
    await s.loadPlan("x1");
    expect(s.get().plan?.foreign).toBe(true);
    expect(s.get().history).toBeNull();
  });

  it("shows a bare plan file without failing on missing lists", async () => {
    const b = new FakeBackend();
    b.loadResult = async () => JSON.parse('{"id":"99991231-235959.999999-ffffff","state":"draft","plan":{"summary":"bare"},"changes":null,"base":{},"rounds":null,"warnings":null,"memory":null,"input":{},"foreign":true}');
    const s = new Store(b);
    await s.loadPlan("99991231-235959.999999-ffffff");
    const p = s.get().plan!;
    expect(p.plan.summary).toBe("bare");
    expect([p.changes, p.plan.questions, p.plan.risks, p.base.sections, p.warnings, p.memory]).toEqual([[], [], [], [], [], []]);
    expect(s.get().problem).toBe("");
    expect(normalizePlan(samplePlan())).toEqual(samplePlan());
  });
});

describe("Store verification", () => {
  it("lists the plan's checks once the plan is shown, approved ones ticked", async () => {
    const { b, s } = await planned();
    expect(b.called("planChecks")[0].args).toEqual(["p1"]);
    expect(s.get().checks?.ticked).toEqual({
      "python3 -m pytest test_calc.py::test_divide_by_zero": false,
      "python3 -m pytest -q": true,
      "pytest -q": false,
    });
    expect(s.willVerify()).toBe(true);
    expect(s.approveList()).toEqual([]);
  });

  it("approves what is ticked, never unticks an approved check, and keeps a typed check once", async () => {
    const { s } = await planned();
    s.toggleCheck("python3 -m pytest -q");
    expect(s.get().checks?.ticked["python3 -m pytest -q"]).toBe(true);
    s.toggleCheck("pytest -q");
    s.addCheck(" make check ");
    s.addCheck("make check");
    s.addCheck("pytest -q");
    // still offered and ticked: typed in, or listed if the backend approved it before failing
    const c = s.get().checks!;
    expect(c.ticked["make check"]).toBe(true);
    expect([...c.added, ...c.list.map((x) => x.command)]).toContain("make check");
    expect(s.approveList()).toEqual(["pytest -q", "make check"]);
    s.removeAddedCheck("make check");
    expect(s.approveList()).toEqual(["pytest -q"]);
  });

  it("ignores a verification's late progress once it has returned", async () => {
    const { b, s } = await planned();
    await s.verify();
    b.progress!([{ stage: "verify", round: 0, max_rounds: 0, message: "verifying: clean up", chars: 0, requests: 0 }]);
    expect(s.get().progress).toBeNull();
    expect(s.get().plan?.verification?.state).toBe("verified");
  });

  it("shows a cancelled verification as no error and re-enables everything", async () => {
    const { b, s } = await planned();
    b.verifyResult = async () => {
      throw JSON.stringify({ code: "ERR_CANCELLED", message: "cancelled", hint: "" });
    };
    await s.verify();
    expect(s.get().error).toBeNull();
    expect(s.get().verifying).toBe(false);
    expect(s.get().plan?.verification).toBeUndefined();
  });

  it("keeps a typed check offered when the verification fails", async () => {
    const { b, s } = await planned();
    b.verifyResult = async () => {
      throw JSON.stringify({ code: "ERR_INVALID_INPUT", message: "a plan is being made or verified", hint: "wait for it or press Cancel" });
    };
    s.addCheck("make check");
    await s.verify();
    expect(s.get().error?.code).toBe("ERR_INVALID_INPUT");
    // still offered and ticked: typed in, or listed if the backend approved it before failing
    const c = s.get().checks!;
    expect(c.ticked["make check"]).toBe(true);
    expect([...c.added, ...c.list.map((x) => x.command)]).toContain("make check");
  });

  it("says the plan is ready after a verified run, not the last verification step", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    b.planResult = async () => {
      b.progress!([
        { stage: "done", round: 1, max_rounds: 3, message: "p1", chars: 0, requests: 0 },
        { stage: "verify", round: 0, max_rounds: 0, message: "verifying: clean up", chars: 0, requests: 0 },
      ]);
      return { ...samplePlan(), verification: { state: "verified", commands: [], overhead_ms: 1 } };
    };
    s.setProblem("x");
    await s.fix();
    expect(stageText(s.get().progress)).toBe("Plan ready.");
  });

  it("follows the saved setting after Save, whatever this run's choice was", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    expect(s.verifyBeforeReview()).toBe(false);
    s.setVerifyRun(true);
    expect(s.verifyBeforeReview()).toBe(true);
    await s.openSettings();
    await s.saveSettings({ ...s.get().settings!, verify_before_review: false }, "");
    expect(s.get().verifyRun).toBeNull();
    expect(s.verifyBeforeReview()).toBe(false);
  });

  it("leaves it to the setting when the setting could not be read", async () => {
    const b = new FakeBackend();
    b.getSettings = async () => {
      throw new Error("boom");
    };
    const s = new Store(b);
    await s.start();
    s.setProblem("x");
    await s.fix();
    expect(b.called("plan")[0].args[0]).toMatchObject({ verify: false, no_verify: false });
  });
});
