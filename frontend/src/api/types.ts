// Types mirroring the Go API (app.App and plan.Record). Kept by hand next to the
// generated bindings so the rest of the UI never depends on generated code.

export type ProjectInfo = { root: string; name: string; recovered: string[]; recent: string[] };
export type LogFile = { source: string; path: string };
/** PlanRequest is one Fix (plan). verify checks the plan in a scratch copy before it is
 * shown whatever the setting; no_verify skips that for this run. Both false: the
 * setting (verify_before_review) decides. */
export type PlanRequest = {
  problem: string;
  logs: LogFile[];
  answers: string[];
  previous: string;
  verify: boolean;
  no_verify: boolean;
  /** plan_only asks for the approach without file changes; writeChanges asks for them once it is approved. */
  plan_only?: boolean;
  /** review: what the user ticked, rejected or edited in the previous draft; the model is told. */
  review?: { paths: string[]; files: FileChoice[] };
};

export type ContextRequest = {
  type: "read_file" | "search" | "logs" | "env";
  path: string | null;
  start_line: number | null;
  end_line: number | null;
  query: string | null;
  glob: string | null;
  source: string | null;
  last_n: number | null;
};

export type Op = "create" | "update" | "delete" | "mkdir" | "rmdir";
export type FileChange = {
  path: string;
  op: Op;
  diff: string;
  base_sha256: string;
  placement?: string[];
  flags?: string[];
  /** syntax_issues: syntax errors this change introduces (Go, JSON, YAML, TOML, JavaScript, TypeScript), "line L, column C: message". */
  syntax_issues?: string[];
};
export type MemoryEntry = { key: string; value: unknown };
export type ContextResult = { request: ContextRequest; ok: boolean; text?: string; error?: string; redactions?: number; tokens?: number };

/** Usage is what a plan cost: tokens counted with tokenizer ("estimate" when the model's is not known),
 * the provider's tokens in/out (counted: fixplan counted them, the provider reported none), the cost at
 * the prices set in Settings (absent without prices), and the server's window the prompt was fitted to. */
export type Usage = {
  tokenizer: string;
  prompt_tokens: number;
  completion_tokens: number;
  counted?: boolean;
  window?: number;
  window_source?: string;
  base_budget?: number;
  compact?: boolean;
  repeats_avoided?: number;
  cost?: number;
};

/** VerifyState is the verdict of a verification in a scratch copy: verified (every check
 * passes, or the failing test passes and nothing new fails), partly (the failing test
 * passes but tests that passed before now fail), failed (the failing test or a check
 * still fails), not_verified (nothing could be concluded; the reason says why). */
export type VerifyState = "verified" | "partly" | "failed" | "not_verified";
/** CheckOutcome is one check's result compared with the same check on the unchanged copy. */
export type CheckOutcome = "passed" | "failed" | "new_failures" | "preexisting" | "not_run";
export type CheckResult = {
  command: string;
  /** focused: the command runs only the failing test (derived by fixplan). */
  focused?: boolean;
  outcome: CheckOutcome;
  exit_code: number;
  timed_out?: boolean;
  duration_ms: number;
  output: string;
  failures?: string[];
  new_failures?: string[];
  /** baseline_exit_code is the unchanged copy's exit code, -1 when it was not run. */
  baseline_exit_code: number;
};
/** VerifyAttempt is an earlier plan of the same run that failed verification. */
export type VerifyAttempt = { plan_id: string; summary: string; state: VerifyState; reason?: string; new_failures?: string[]; output?: string };
export type Verification = {
  state: VerifyState;
  reason?: string;
  commands: CheckResult[];
  new_failures?: string[];
  overhead_ms: number;
  attempts?: VerifyAttempt[];
};
/** Check is a command that could verify a plan. source says where it comes from:
 * "failing test" (derived by fixplan), "your remembered test command", a test command from the project's .fixplan/project.json, "proposed by the model",
 * "approved for this project"; approved ones run on every verification. */
export type Check = { command: string; focused: boolean; source: string; approved: boolean; from_project?: boolean };

export type PlanRecord = {
  id: string;
  created_at: string;
  state: "draft" | "applied" | "undone" | "failed";
  input: { problem: string; logs: { source: string; path?: string; text?: string }[] | null; answers?: string[]; previous?: string; plan_only?: boolean };
  plan: {
    mode: "fix-plan" | "apply";
    summary: string;
    questions: string[];
    context_requests: ContextRequest[];
    plan: { step: string; details: string }[];
    proposed_changes: null | { patch: string | null; actions: { kind: string; path: string; content: string | null; edits?: { search: string; replace: string }[] | null }[]; commands_to_run: string[] };
    patch: string | null;
    commands_to_run: string[];
    verification: string[];
    risks: string[];
    rollback: string[];
    memory_patch: MemoryEntry[];
  };
  changes: FileChange[];
  base: { sections: { title: string; body: string; tokens?: number }[]; redactions: number; seen: { path: string; whole: boolean }[]; warnings: string[] };
  rounds: { requests: ContextRequest[]; results: ContextResult[] }[];
  warnings: string[];
  memory: MemoryEntry[];
  transaction?: string;
  applied_at?: string;
  raw?: string;
  issues?: string[];
  unfulfilled?: ContextRequest[];
  calls?: { turn: number; repair?: boolean; model: string; format: string; prompt_tokens: number; completion_tokens: number; attempts: number; duration_ms: number }[];
  /** usage: tokens and cost of the plan and the window it was fitted to (absent in older plans). */
  usage?: Usage;
  /** verification: the plan was checked in a scratch copy of the project. */
  verification?: Verification;
  /** foreign: not sealed by this user's fixplan (e.g. shipped with the project); shown, never applied, run or verified. */
  foreign?: boolean;
  /** approved_plan: these changes were written (mode "apply") for the approved plan with this id. */
  approved_plan?: string;
  /** review: what the user rejected or edited when applying this plan. */
  review?: Review;
};

/** FileChoice narrows one ticked change: hunks are the accepted hunks, numbered from 1
 * as the diff shows them (null: all), content the user's own text in place of the proposal. */
export type FileChoice = { path: string; hunks: number[] | null; content: string | null };
export type ApplyRequest = { plan_id: string; paths: string[]; memory_keys: string[]; files?: FileChoice[] };
/** Proposed is a proposed change's text for editing by hand: the file now ("" when new) and as proposed. */
export type Proposed = { path: string; before: string; after: string };
/** Review is what the user rejected or edited when the plan was applied; a re-plan tells the model. */
export type Review = { files: { path: string; hunks: number; rejected?: number[]; unticked?: boolean; edited?: boolean; edit_diff?: string }[] };
export type ApplyResult = { transaction: string; plan_id: string; applied: FileChange[]; memory: string[]; recovered: boolean };
/** HistoryItem is one stored plan; foreign ones were not made by this user's fixplan and are never applied or run. */
export type HistoryItem = {
  id: string;
  created_at: string;
  state: string;
  summary: string;
  problem: string;
  files: number;
  foreign: boolean;
  /** plan_only: the approach alone was asked for; approved_plan: changes written for that plan. */
  plan_only?: boolean;
  approved_plan?: string;
};

/** JournalState: committed (the undo history), rolled_back, undone, held (a recovery could
 * not finish; set aside, blocks nothing) or quarantined (a folder under .fixplan/tx not
 * written by this user's fixplan, or malformed; moved to .fixplan/quarantine/, never obeyed). */
export type JournalState = "committed" | "rolled_back" | "undone" | "held" | "quarantined" | (string & {});
/** JournalEntry is one file or folder of a journal; original is where its saved original is (root-relative). */
export type JournalEntry = { path: string; op: Op; original?: string };
/** JournalInfo describes one transaction journal, or a folder set aside in .fixplan/quarantine/. */
export type JournalInfo = {
  id: string;
  plan_id?: string;
  state: JournalState;
  created?: string;
  /** where is the folder, relative to the project root. */
  where: string;
  reason?: string;
  kept?: string[];
  entries?: JournalEntry[];
};

/** discardable says whether Discard is offered: everything but the undo history (committed). */
export function discardable(j: JournalInfo): boolean {
  return ["held", "quarantined", "rolled_back", "undone"].includes(j.state);
}
export type CommandResult = { command: string; exit_code: number; output: string; timed_out: boolean; stopped: boolean; duration_ms: number };
export type EditFormat = "auto" | "whole" | "search_replace" | "diff";
export type Settings = {
  provider: string;
  base_url: string;
  model: string;
  timeout_seconds: number;
  max_tokens: number;
  max_retries: number;
  stream: boolean;
  context_budget: number;
  result_budget: number;
  command_timeout_seconds: number;
  /** verify_before_review checks every plan in a scratch copy with the approved checks before it is shown. */
  verify_before_review: boolean;
  /** verify_attempts: how often a plan that fails verification goes back to the model (0–5). */
  verify_attempts: number;
  check_timeout_seconds: number;
  /** context_window: the model's window in tokens for servers that do not say (0: ask the server). */
  context_window?: number;
  /** prices per million prompt / reply tokens (0: not set); plans then show their cost. */
  price_input_per_mtok?: number;
  price_output_per_mtok?: number;
  /** edit_format: how the model is asked to change existing files (auto picks by file size and past failures). */
  edit_format: EditFormat;
  /** no_project_rules leaves the project's instructions for AI tools (AGENTS.md, CLAUDE.md, .cursorrules, …) out of the context sent. */
  no_project_rules?: boolean;
  key_set: boolean;
  key_hint: string;
  key_source: "keychain" | "env" | "none";
  keychain_available: boolean;
  keychain_note: string;
};
export type Preset = { id: string; name: string; base_url: string; model: string; needs_key: boolean };
export type ProgressEvent = { stage: string; round: number; max_rounds: number; message: string; chars: number; requests: number };
export type CommandOutput = { command: string; chunk: string };

/** AppError is what a rejected call carries: a stable code, a sentence, what to do. */
export class AppError extends Error {
  constructor(
    public code: string,
    message: string,
    public hint: string = "",
    public paths: string[] = [],
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** toAppError parses the JSON {code, message, hint, paths} the Go side rejects with. */
export function toAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const text = e instanceof Error ? e.message : typeof e === "string" ? e : JSON.stringify(e);
  try {
    const v = JSON.parse(text);
    if (v && typeof v === "object" && typeof v.code === "string") {
      return new AppError(v.code, v.message ?? "", v.hint ?? "", Array.isArray(v.paths) ? v.paths : []);
    }
  } catch {
    // not JSON: a plain message
  }
  return new AppError("ERR_UNKNOWN", text);
}

/** Backend is everything the UI asks of the Go side; the store takes one. */
export interface Backend {
  chooseProject(): Promise<ProjectInfo>;
  openProject(path: string): Promise<ProjectInfo>;
  project(): Promise<ProjectInfo | null>;
  chooseLogFiles(): Promise<LogFile[]>;
  plan(req: PlanRequest): Promise<PlanRecord>;
  cancelPlan(): Promise<void>;
  apply(req: ApplyRequest): Promise<ApplyResult>;
  /** previewSelection shows what apply(req) would write (accepted hunks, the user's edits), writing nothing. */
  previewSelection(req: ApplyRequest): Promise<FileChange[]>;
  /** verifySelection verifies a draft in a scratch copy as the user chose it (req: ticked
   * files, accepted hunks, own text), like verifyPlan. */
  verifySelection(planId: string, approve: string[], req: ApplyRequest): Promise<PlanRecord>;
  /** proposedText is a proposed change's text, to edit it by hand: with accept, only
   * those hunks of it (null: all). */
  proposedText(planId: string, path: string, accept: number[] | null): Promise<Proposed>;
  undo(): Promise<ApplyResult>;
  history(): Promise<HistoryItem[]>;
  journals(): Promise<JournalInfo[]>;
  discardJournal(id: string): Promise<void>;
  loadPlan(id: string): Promise<PlanRecord>;
  runCommand(planId: string, command: string): Promise<CommandResult>;
  /** planChecks lists the commands that could verify a plan. */
  planChecks(planId: string): Promise<Check[]>;
  /** verifyPlan verifies a plan in a scratch copy with the approved checks plus approve
   * (approved now, remembered for the project); progress arrives as "verify" events,
   * cancelPlan stops it. */
  verifyPlan(planId: string, approve: string[]): Promise<PlanRecord>;
  /** writeChanges asks the model (mode "apply") for the file changes of an approved plan
   * that has none; the new plan arrives like plan()'s, with progress events. */
  writeChanges(planId: string): Promise<PlanRecord>;
  approvedChecks(): Promise<string[]>;
  revokeCheck(command: string): Promise<void>;
  stopCommand(): Promise<void>;
  getSettings(): Promise<Settings>;
  saveSettings(s: Settings, apiKey: string): Promise<Settings>;
  presets(): Promise<Preset[]>;
  testConnection(): Promise<string>;
  onProgress(cb: (evs: ProgressEvent[]) => void): () => void;
  onCommandOutput(cb: (o: CommandOutput) => void): () => void;
  onFileDrop(cb: (paths: string[]) => void): () => void;
}
