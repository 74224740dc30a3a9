import { describe, expect, it } from "vitest";
import { Store, sourceName } from "./store";
import { FakeBackend, samplePlan } from "./fakeBackend";
import { AppError } from "../api/types";
import { foldProgress, stageText } from "./progress";

async function planned() {
  const b = new FakeBackend();
  const s = new Store(b);
  await s.start();
  s.setProblem("ZeroDivisionError: division by zero");
  await s.fix();
  return { b, s };
}

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
