import type { ApplyRequest, Backend, CommandOutput, HistoryItem, JournalInfo, PlanRecord, PlanRequest, ProgressEvent, ProjectInfo, Settings } from "../api/types";

/** A scripted Backend for store tests: it records calls and replays results. */
export class FakeBackend implements Backend {
  calls: { method: string; args: unknown[] }[] = [];
  planResult: () => Promise<PlanRecord> = async () => samplePlan();
  applyResult: (req: ApplyRequest) => Promise<import("../api/types").ApplyResult> = async (req) => ({
    transaction: "tx1",
    plan_id: req.plan_id,
    applied: samplePlan().changes.filter((c) => req.paths.includes(c.path)),
    memory: req.memory_keys,
    recovered: false,
  });
  /** recovered is what project() reports as recovery notices. */
  recovered: string[] = [];
  historyItems: HistoryItem[] = [{ id: "p1", created_at: "2026-11-22 10:00:00", state: "draft", summary: "s", problem: "x", files: 2, foreign: false }];
  /** loadResult answers loadPlan; the sample plan by default. */
  loadResult: (id: string) => Promise<PlanRecord> = async () => samplePlan();
  journalList: JournalInfo[] = sampleJournals();
  /** discardResult runs on discardJournal; by default it drops the journal like the Go side. */
  discardResult: (id: string) => Promise<void> = async (id) => {
    const j = this.journalList.find((x) => x.id === id);
    if (!j) throw JSON.stringify({ code: "ERR_NOT_FOUND", message: `there is no journal "${id}" in this project`, hint: "" });
    if (j.state === "committed") throw JSON.stringify({ code: "ERR_INVALID_INPUT", message: `transaction ${id} is the undo history of applied changes`, hint: "undo it, or keep it" });
    this.journalList = this.journalList.filter((x) => x.id !== id);
  };
  progress?: (evs: ProgressEvent[]) => void;
  output?: (o: CommandOutput) => void;

  private rec(method: string, ...args: unknown[]) {
    this.calls.push({ method, args });
  }
  called(method: string) {
    return this.calls.filter((c) => c.method === method);
  }
  async chooseProject() {
    this.rec("chooseProject");
    return { root: "/work/proj", name: "proj", recovered: [], recent: ["/work/proj"] };
  }
  async openProject(path: string) {
    this.rec("openProject", path);
    return { root: path, name: "p", recovered: [], recent: [path] };
  }
  async project(): Promise<ProjectInfo> {
    return { root: "/work/proj", name: "proj", recovered: this.recovered, recent: [] };
  }
  async chooseLogFiles() {
    return [{ source: "app", path: "/var/log/app.log" }];
  }
  async plan(req: PlanRequest) {
    this.rec("plan", req);
    return this.planResult();
  }
  async cancelPlan() {
    this.rec("cancelPlan");
  }
  async apply(req: ApplyRequest) {
    this.rec("apply", req);
    return this.applyResult(req);
  }
  async undo() {
    this.rec("undo");
    return { transaction: "tx1", plan_id: "p1", applied: [], memory: [], recovered: false };
  }
  async history() {
    this.rec("history");
    return this.historyItems;
  }
  async loadPlan(id: string) {
    this.rec("loadPlan", id);
    return this.loadResult(id);
  }
  async journals() {
    this.rec("journals");
    return this.journalList;
  }
  async discardJournal(id: string) {
    this.rec("discardJournal", id);
    return this.discardResult(id);
  }
  async runCommand(planId: string, command: string) {
    this.rec("runCommand", planId, command);
    this.output?.({ command, chunk: "1 passed\n" });
    return { command, exit_code: 0, output: "1 passed\n", timed_out: false, stopped: false, duration_ms: 12 };
  }
  async stopCommand() {
    this.rec("stopCommand");
  }
  async getSettings(): Promise<Settings> {
    return sampleSettings();
  }
  async saveSettings(s: Settings, key: string) {
    this.rec("saveSettings", s, key);
    return { ...s, key_set: true, key_hint: "sk-…1234" };
  }
  async presets() {
    return [{ id: "openai", name: "OpenAI", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini", needs_key: true }];
  }
  async testConnection() {
    return "OK";
  }
  onProgress(cb: (evs: ProgressEvent[]) => void) {
    this.progress = cb;
    return () => (this.progress = undefined);
  }
  onCommandOutput(cb: (o: CommandOutput) => void) {
    this.output = cb;
    return () => (this.output = undefined);
  }
  onFileDrop() {
    return () => {};
  }
}

/** sampleJournals: the undo history, a held transaction and a folder set aside. */
export function sampleJournals(): JournalInfo[] {
  return [
    {
      id: "20261122-100000.000000-aaaaaa", plan_id: "p1", state: "committed", created: "2026-11-22T10:00:00Z", where: ".fixplan/tx/20261122-100000.000000-aaaaaa",
      entries: [{ path: "calc.py", op: "update", original: ".fixplan/tx/20261122-100000.000000-aaaaaa/0.orig" }],
    },
    {
      id: "20261121-090000.000000-bbbbbb", plan_id: "p0", state: "held", created: "2026-11-21T09:00:00Z", where: ".fixplan/tx/20261121-090000.000000-bbbbbb",
      reason: "restore a.go: permission denied", kept: ["a.go"],
      entries: [
        { path: "a.go", op: "update", original: ".fixplan/tx/20261121-090000.000000-bbbbbb/0.orig" },
        { path: "new.go", op: "create" },
      ],
    },
    { id: "20260101-000000.000000-abcdef", state: "quarantined", where: ".fixplan/quarantine/20260101-000000.000000-abcdef", reason: "its journal was not written by your fixplan" },
  ];
}

/** foreignPlan is a plan shipped with a project: unsealed, bare, never applied. */
export function foreignPlan(): PlanRecord {
  return { ...samplePlan(), id: "99991231-235959.999999-ffffff", foreign: true, plan: { ...samplePlan().plan, summary: "shipped with the project" } };
}

export function sampleSettings(): Settings {
  return {
    provider: "openai", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini", timeout_seconds: 120, max_tokens: 8192, max_retries: 3,
    stream: true, context_budget: 98304, result_budget: 24576, command_timeout_seconds: 600, key_set: true, key_hint: "sk-…a1b2",
    key_source: "keychain", keychain_available: true, keychain_note: "",
  };
}

export const calcDiff = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,4 @@
 def divide(a, b):
+    if b == 0:
+        return None
     return a / b
`;

export function samplePlan(): PlanRecord {
  return {
    id: "p1",
    created_at: "2026-11-22T10:00:00Z",
    state: "draft",
    input: { problem: "ZeroDivisionError", logs: [] },
    plan: {
      mode: "fix-plan", summary: "divide() does not guard b == 0", questions: ["Keep Python 3.8?"], context_requests: [],
      plan: [{ step: "change", details: "return None for b == 0" }], proposed_changes: null, patch: null,
      commands_to_run: ["pytest -q"], verification: [], risks: ["callers expecting an exception"], rollback: [],
      memory_patch: [{ key: "project.default_test_command", value: "pytest -q" }],
    },
    changes: [
      { path: "calc.py", op: "update", diff: calcDiff, base_sha256: "ab".repeat(32) },
      { path: "notes.md", op: "create", diff: "diff --git a/notes.md b/notes.md\nnew file mode 100644\n--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+notes\n", base_sha256: "" },
    ],
    base: { sections: [{ title: "code calc.py", body: "1 | def divide(a, b):" }], redactions: 1, seen: [], warnings: [] },
    rounds: [],
    warnings: [],
    memory: [{ key: "project.default_test_command", value: "pytest -q" }],
  };
}
