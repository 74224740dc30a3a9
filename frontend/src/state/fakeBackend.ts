import { splitDiff } from "./review";
import { sha256Hex } from "./sha256";
import { Store } from "./store";
import type {
  ApplyRequest,
  Backend,
  FileChange,
  Check,
  CommandOutput,
  Estimate,
  HistoryItem,
  JournalInfo,
  PlanRecord,
  PlanRequest,
  ProgressEvent,
  ProjectInfo,
  Settings,
  Verification,
  VerifyState,
} from "../api/types";

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
  /** settings is what getSettings answers. */
  settings: Settings = sampleSettings();
  /** checkList is what planChecks lists; approved comes from approvedList, like the Go side. */
  checkList: Check[] = sampleChecks();
  approvedList: string[] = ["python3 -m pytest -q"];
  /** verifyResult answers verifyPlan after approve was approved; verified by default. */
  verifyResult: (id: string, approve: string[]) => Promise<PlanRecord> = async () => ({ ...samplePlan(), verification: sampleVerification("verified") });
  /** writeResult answers writeChanges: the sample plan written in apply mode by default. */
  writeResult: (id: string) => Promise<PlanRecord> = async (id) => ({ ...samplePlan(), id: "p2", approved_plan: id, plan: { ...samplePlan().plan, mode: "apply" } });
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
  /** estimateResult answers estimate: the sample estimate by default. */
  estimateResult: (req: PlanRequest) => Promise<Estimate> = async () => sampleEstimate();
  async estimate(req: PlanRequest) {
    this.rec("estimate", req);
    return this.estimateResult(req);
  }
  async writeChanges(planId: string) {
    this.rec("writeChanges", planId);
    return this.writeResult(planId);
  }
  async cancelPlan() {
    this.rec("cancelPlan");
  }
  async apply(req: ApplyRequest) {
    this.rec("apply", req);
    const r = await this.applyResult(req);
    // Like the Go side: the apply's journal is the newest of the undo history.
    this.journalList = [{ id: r.transaction, plan_id: r.plan_id, state: "committed", where: `.fixplan/tx/${r.transaction}` }, ...this.journalList];
    return r;
  }
  /** previewResult answers previewSelection: by default each ticked change with only
   * its accepted hunks, or "edited" for the user's content. */
  previewResult: (req: ApplyRequest) => Promise<FileChange[]> = async (req) => {
    const out: FileChange[] = [];
    for (const c of samplePlan().changes.concat(this.extraChanges)) {
      if (!req.paths.includes(c.path)) continue;
      const f = (req.files ?? []).find((x) => x.path === c.path);
      if (f?.content != null) out.push({ ...c, diff: `--- a/${c.path}\n+++ b/${c.path}\n@@ -1 +1 @@\n-old\n+${f.content}\n` });
      else if (f?.hunks) {
        const { head, hunks } = splitDiff(c.diff);
        if (f.hunks.length) out.push({ ...c, diff: head + hunks.filter((h) => f.hunks?.includes(h.n)).map((h) => h.text).join("") });
      } else out.push(c);
    }
    return out;
  };
  /** extraChanges are changes of plans the tests make beyond the sample plan. */
  extraChanges: FileChange[] = [];
  async previewSelection(req: ApplyRequest) {
    this.rec("previewSelection", req);
    return this.previewResult(req);
  }
  async verifySelection(planId: string, approve: string[], req: ApplyRequest) {
    this.rec("verifySelection", planId, approve, req);
    this.approve(approve); // like VerifyPlan, the backend approves the checks it runs
    // Like the Go side, the verdict records what it covered (the choices sent).
    const files = (req.files ?? []).map((f) => ({ path: f.path, hunks: f.content != null ? null : f.hunks, content_sha256: f.content != null ? sha256Hex(f.content) : undefined }));
    return withCovers(await this.verifyResult(planId, approve), { scope: "selection", paths: req.paths ?? [], files });
  }
  async proposedText(planId: string, path: string, accept: number[] | null) {
    this.rec("proposedText", planId, path, accept);
    return { path, before: "def divide(a, b):\n    return a / b\n", after: "def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n" };
  }
  /** undo undoes the newest committed journal, whichever plan's, like the Go side (it takes no plan). */
  async undo() {
    this.rec("undo");
    const j = this.journalList.find((x) => x.state === "committed");
    if (!j) throw JSON.stringify({ code: "ERR_NOTHING_TO_UNDO", message: "there is no applied change to undo", hint: "" });
    this.journalList = this.journalList.map((x) => (x === j ? { ...x, state: "undone" } : x));
    return { transaction: j.id, plan_id: j.plan_id ?? "", applied: [], memory: [], recovered: false };
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
  async planChecks(planId: string) {
    this.rec("planChecks", planId);
    return this.checkList.map((c) => ({ ...c, approved: this.approvedList.includes(c.command) }));
  }
  async verifyPlan(planId: string, approve: string[]) {
    this.rec("verifyPlan", planId, approve);
    this.approve(approve);
    return withCovers(await this.verifyResult(planId, approve), { scope: "proposed", paths: [], files: [] });
  }
  private approve(approve: string[]) {
    for (const a of approve) if (!this.approvedList.includes(a)) this.approvedList = [...this.approvedList, a];
    for (const a of approve) {
      if (!this.checkList.some((c) => c.command === a)) this.checkList = [...this.checkList, { command: a, focused: false, source: "approved for this project", approved: true, from_project: false }];
    }
  }
  async approvedChecks() {
    this.rec("approvedChecks");
    return [...this.approvedList].sort();
  }
  async revokeCheck(command: string) {
    this.rec("revokeCheck", command);
    this.approvedList = this.approvedList.filter((c) => c !== command);
  }
  async getSettings(): Promise<Settings> {
    return this.settings;
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
  /** openResult answers openInEditor: the Go side's sentence by default. */
  openResult: (path: string, line: number) => Promise<string> = async (path, line) => `Opened ${path} at line ${line} with code (Settings).`;
  async openInEditor(path: string, line: number) {
    this.rec("openInEditor", path, line);
    return this.openResult(path, line);
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
    stream: true, context_budget: 98304, result_budget: 24576, command_timeout_seconds: 600, verify_before_review: false, verify_attempts: 2,
    check_timeout_seconds: 300, edit_format: "auto", context_window: 0, price_input_per_mtok: 0, price_output_per_mtok: 0, no_project_rules: false, max_tokens_per_plan: 0, max_cost_per_plan: 0, key_set: true, key_hint: "sk-…a1b2", key_source: "keychain", keychain_available: true, keychain_note: "",
    open_with: "",
  };
}

/** sampleEstimate: a plan's estimate for gpt-4o-mini without prices or a ceiling. */
export function sampleEstimate(): Estimate {
  return {
    tokenizer: "o200k_base", prompt_tokens: 3100, schema_tokens: 1658, reply_tokens: 8192, first_tokens: 12950, rounds_tokens: 151204, worst_tokens: 1187022,
    worst_requests: 12, round_context_tokens: 30720, window: 0, window_source: "", over_window: false, ceiling_tokens: 0, ceiling_cost: 0,
    over_ceiling: false, rounds_over_ceiling: false, notes: ["set prices in Settings to see a cost"],
  };
}

/** sampleChecks: a focused command derived from the failing test, the remembered test command and the plan's own. */
export function sampleChecks(): Check[] {
  return [
    { command: "python3 -m pytest test_calc.py::test_divide_by_zero", focused: true, source: "failing test", approved: false, from_project: false },
    { command: "python3 -m pytest -q", focused: false, source: "remembered test command", approved: true, from_project: false },
    { command: "pytest -q", focused: false, source: "plan", approved: false, from_project: false },
  ];
}

/** sampleVerification is a verification of the sample plan in each state. */
export function sampleVerification(state: VerifyState): Verification {
  const focused = { command: "python3 -m pytest test_calc.py::test_divide_by_zero", focused: true, baseline_exit_code: -1 };
  const suite = { command: "go test ./...", baseline_exit_code: -1 };
  switch (state) {
    case "verified":
      return {
        state, reason: "2 of 2 checks pass with the change", overhead_ms: 85,
        commands: [
          { ...focused, outcome: "passed", exit_code: 0, duration_ms: 412, output: "1 passed in 0.01s\n" },
          { ...suite, outcome: "passed", exit_code: 0, duration_ms: 2350, output: "ok  \tcalc\t0.01s\n" },
        ],
      };
    case "partly":
      return {
        state, reason: "1 new failure(s): TestMin", new_failures: ["TestMin"], overhead_ms: 90,
        commands: [
          { ...focused, outcome: "passed", exit_code: 0, duration_ms: 400, output: "1 passed\n" },
          { ...suite, outcome: "new_failures", exit_code: 1, duration_ms: 2100, output: "--- FAIL: TestMin (0.00s)\nFAIL\tcalc\n", failures: ["TestMin"], new_failures: ["TestMin"], baseline_exit_code: 0 },
        ],
      };
    case "failed":
      return {
        state, reason: "the failing test still fails with the change", overhead_ms: 70,
        commands: [
          { ...focused, outcome: "failed", exit_code: 1, duration_ms: 380, output: "E   ZeroDivisionError: division by zero\n1 failed\n", failures: ["test_divide_by_zero"] },
          { ...suite, outcome: "not_run", exit_code: 0, duration_ms: 0, output: "" },
        ],
        attempts: [
          { plan_id: "p0", summary: "catch the exception in the caller", state: "failed", reason: "the failing test still fails with the change", output: "E   ZeroDivisionError\n" },
        ],
      };
    case "not_verified":
      return { state, reason: "no check command is approved for this project; approve one to verify: pytest -q", overhead_ms: 0, commands: [] };
  }
}

/** withCovers is rec with its verdict saying what it covered, unless it says already. */
function withCovers(rec: PlanRecord, covers: NonNullable<Verification["covers"]>): PlanRecord {
  const v = rec.verification;
  return v && !v.covers ? { ...rec, verification: { ...v, covers } } : rec;
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

/** planned is a started store over a fake backend showing the plan made for problem. */
export async function planned(problem = "ZeroDivisionError: division by zero") {
  const b = new FakeBackend();
  const s = new Store(b);
  await s.start();
  s.setProblem(problem);
  await s.fix();
  return { b, s };
}
