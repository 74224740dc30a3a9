// The types of the Go API (app.App, plan.Record and what they carry), derived from
// the models Wails generates from the Go structs (wailsjs/go/models.ts, `wails
// generate module`), so no field name is copied here by hand:
// app/models_test.go fails when the models no longer match the Go structs, and the
// compiler fails wherever the UI uses a field the models no longer have.
import type { Data, Refine } from "./derive";
import type { app, apply, plan, session } from "./wailsjs/go/models";
import type { CommandOutput, ProgressEvent } from "./events";

export type { CommandOutput, ProgressEvent };

/** Op is what a change does to its path. */
export type Op = "create" | "update" | "delete" | "mkdir" | "rmdir";
/** VerifyState is the verdict of a verification in a scratch copy: verified (every check
 * passes, or the failing test passes and nothing new fails), partly (the failing test
 * passes but tests that passed before now fail), failed (the failing test or a check
 * still fails), not_verified (nothing could be concluded; the reason says why). */
export type VerifyState = "verified" | "partly" | "failed" | "not_verified";
/** CheckOutcome is one check's result compared with the same check on the unchanged copy. */
export type CheckOutcome = "passed" | "failed" | "new_failures" | "preexisting" | "not_run";
export type EditFormat = "auto" | "whole" | "search_replace" | "diff";
/** JournalState: committed (the undo history), rolled_back, undone, held (a recovery could
 * not finish; set aside, blocks nothing) or quarantined (a folder under .fixplan/tx not
 * written by this user's fixplan, or malformed; moved to .fixplan/quarantine/, never obeyed). */
export type JournalState = "committed" | "rolled_back" | "undone" | "held" | "quarantined" | (string & {});

export type ProjectInfo = Data<app.ProjectInfo>;
export type LogFile = Data<app.LogFile>;
/** FileChoice narrows one ticked change: hunks are the accepted hunks, numbered from 1
 * as the diff shows them (null: all), content the user's own text in place of the proposal. */
export type FileChoice = Refine<Data<apply.FileChoice>, { hunks: number[] | null }>;
/** PlanRequest is one Fix (plan). verify checks the plan in a scratch copy before it is
 * shown whatever the setting; no_verify skips that for this run. Both false: the
 * setting (verify_before_review) decides. plan_only asks for the approach without file
 * changes; review is what the user ticked, rejected or edited in the previous draft. */
export type PlanRequest = Refine<Data<app.PlanRequest>, { review?: Refine<Data<app.ReviewRequest>, { files: FileChoice[] }> }>;
/** ApplyRequest: files narrows the ticked paths (absent: each taken as proposed). */
export type ApplyRequest = Refine<Data<app.ApplyRequest>, { files?: FileChoice[] }>;
/** Proposed is a proposed change's text for editing by hand: the file now ("" when new) and as proposed. */
export type Proposed = Data<app.Proposed>;

export type ContextRequest = Refine<Data<plan.ContextRequest>, { type: "read_file" | "search" | "logs" | "env" }>;
export type ContextResult = Refine<Data<plan.ContextResult>, { request: ContextRequest }>;
/** FileChange is one file of a plan's preview; syntax_issues are the syntax errors the change introduces. */
export type FileChange = Refine<Data<plan.FileChange>, { op: Op }>;
/** MemoryEntry is one memory entry; value is any JSON (json.RawMessage, which the generator calls number[]). */
export type MemoryEntry = Refine<Data<plan.MemoryEntry>, { value: unknown }>;
/** Usage is what a plan cost: tokens counted with tokenizer ("estimate" when the model's is not known),
 * the provider's tokens in/out (counted: fixplan counted them), the cost at the prices set in Settings
 * (absent without prices), and the server's window the prompt was fitted to. */
export type Usage = Data<plan.Usage>;
export type CheckResult = Refine<Data<plan.CheckResult>, { outcome: CheckOutcome }>;
/** VerifyAttempt is an earlier plan of the same run that failed verification. */
export type VerifyAttempt = Refine<Data<plan.VerifyAttempt>, { state: VerifyState }>;
/** VerifiedSelection is what a verdict covered: the plan as proposed, or the ticked files
 * (paths) with those narrowed to accepted hunks (null: all) or to the user's own text (by its SHA-256). */
export type VerifiedSelection = Refine<Data<plan.VerifiedSelection>, { scope: "proposed" | "selection"; files: Refine<Data<plan.VerifiedFile>, { hunks: number[] | null }>[] }>;
export type Verification = Refine<
  Data<plan.Verification>,
  { state: VerifyState; commands: CheckResult[]; attempts?: VerifyAttempt[] | null; covers?: VerifiedSelection | null }
>;
/** Review is what the user rejected or edited when the plan was applied; a re-plan tells the model. */
export type Review = Data<plan.Review>;
/** Check is a command that could verify a plan; source says where it comes from
 * (the failing test, the remembered test command, the project's .fixplan/project.json,
 * the model, an approval for this project); approved ones run on every verification. */
export type Check = Data<session.Check>;

/** PlanRecord is a stored plan. foreign: not sealed by this user's fixplan (e.g. shipped
 * with the project); shown, never applied, run or verified. approved_plan: these
 * changes were written (mode "apply") for the approved plan with this id. */
export type PlanRecord = Refine<
  Data<plan.Record>,
  {
    created_at: string;
    applied_at?: string | null;
    state: "draft" | "applied" | "undone" | "failed";
    input: Refine<Data<plan.ProblemInput>, { logs: Data<plan.LogSource>[] | null }>;
    changes: FileChange[];
    rounds: Refine<Data<plan.Round>, { requests: ContextRequest[]; results: ContextResult[] }>[];
    plan: Refine<Data<plan.Plan>, { mode: "fix-plan" | "apply"; context_requests: ContextRequest[]; memory_patch: MemoryEntry[] }>;
    memory: MemoryEntry[];
    unfulfilled?: ContextRequest[] | null;
    verification?: Verification | null;
  }
>;

export type ApplyResult = Refine<Data<app.ApplyResult>, { applied: FileChange[] }>;
/** HistoryItem is one stored plan; foreign ones were not made by this user's fixplan and are never applied or run. */
export type HistoryItem = Data<app.HistoryItem>;
/** JournalEntry is one file or folder of a journal; original is where its saved original is (root-relative). */
export type JournalEntry = Refine<Data<apply.JournalEntry>, { op: Op }>;
/** JournalInfo describes one transaction journal, or a folder set aside in .fixplan/quarantine/
 * (where: the folder, relative to the project root). created is left out when unknown
 * (omitzero, which the generator does not know). */
export type JournalInfo = Refine<Data<apply.JournalInfo>, { state: JournalState; created?: string; entries?: JournalEntry[] | null }>;

/** discardable says whether Discard is offered: everything but the undo history (committed). */
export function discardable(j: JournalInfo): boolean {
  return ["held", "quarantined", "rolled_back", "undone"].includes(j.state);
}
export type CommandResult = Data<session.CommandResult>;
/** Estimate is what a plan would cost, worked out by the Go side before anything is sent
 * (session.Estimate): the first request's tokens (prompt, schema, reply cap), the worst case
 * with both context rounds and of every request the loop can make, their costs at the
 * Settings prices (absent without prices), and whether the window or the per-plan ceiling
 * stops it. The UI only shows these numbers; it never counts tokens itself. */
export type Estimate = Data<session.Estimate>;
/** Settings are the settings as the window sees them: never the key, only whether one
 * is set, where from and a hint of it. */
export type Settings = Refine<Data<app.SettingsView>, { edit_format: EditFormat; key_source: "keychain" | "env" | "none" }>;
export type Preset = Data<session.Preset>;

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
  /** estimate works out what plan(req) would cost, sending nothing; a newer call cancels
   * the one still running (ERR_CANCELLED). */
  estimate(req: PlanRequest): Promise<Estimate>;
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
  /** openInEditor opens a project file at a line (0: none) in the user's editor and
   * says in one sentence what it did (or why the line could not be passed). */
  openInEditor(path: string, line: number): Promise<string>;
  onProgress(cb: (evs: ProgressEvent[]) => void): () => void;
  onCommandOutput(cb: (o: CommandOutput) => void): () => void;
  onFileDrop(cb: (paths: string[]) => void): () => void;
}
