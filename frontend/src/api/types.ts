// Types mirroring the Go API (app.App and plan.Record). Kept by hand next to the
// generated bindings so the rest of the UI never depends on generated code.

export type ProjectInfo = { root: string; name: string; recovered: string[]; recent: string[] };
export type LogFile = { source: string; path: string };
export type PlanRequest = { problem: string; logs: LogFile[]; answers: string[]; previous: string };

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
};
export type MemoryEntry = { key: string; value: unknown };
export type ContextResult = { request: ContextRequest; ok: boolean; text?: string; error?: string; redactions?: number };

export type PlanRecord = {
  id: string;
  created_at: string;
  state: "draft" | "applied" | "undone" | "failed";
  input: { problem: string; logs: { source: string; path?: string; text?: string }[] | null; answers?: string[]; previous?: string };
  plan: {
    mode: "fix-plan" | "apply";
    summary: string;
    questions: string[];
    context_requests: ContextRequest[];
    plan: { step: string; details: string }[];
    proposed_changes: null | { patch: string | null; actions: { kind: string; path: string; content: string | null }[]; commands_to_run: string[] };
    patch: string | null;
    commands_to_run: string[];
    verification: string[];
    risks: string[];
    rollback: string[];
    memory_patch: MemoryEntry[];
  };
  changes: FileChange[];
  base: { sections: { title: string; body: string }[]; redactions: number; seen: { path: string; whole: boolean }[]; warnings: string[] };
  rounds: { requests: ContextRequest[]; results: ContextResult[] }[];
  warnings: string[];
  memory: MemoryEntry[];
  transaction?: string;
  applied_at?: string;
  raw?: string;
  issues?: string[];
  unfulfilled?: ContextRequest[];
  calls?: { turn: number; repair?: boolean; model: string; format: string; prompt_tokens: number; completion_tokens: number; attempts: number; duration_ms: number }[];
  /** foreign: not sealed by this user's fixplan (e.g. shipped with the project); shown, never applied or run. */
  foreign?: boolean;
};

export type ApplyRequest = { plan_id: string; paths: string[]; memory_keys: string[] };
export type ApplyResult = { transaction: string; plan_id: string; applied: FileChange[]; memory: string[]; recovered: boolean };
/** HistoryItem is one stored plan; foreign ones were not made by this user's fixplan and are never applied or run. */
export type HistoryItem = { id: string; created_at: string; state: string; summary: string; problem: string; files: number; foreign: boolean };

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
  undo(): Promise<ApplyResult>;
  history(): Promise<HistoryItem[]>;
  journals(): Promise<JournalInfo[]>;
  discardJournal(id: string): Promise<void>;
  loadPlan(id: string): Promise<PlanRecord>;
  runCommand(planId: string, command: string): Promise<CommandResult>;
  stopCommand(): Promise<void>;
  getSettings(): Promise<Settings>;
  saveSettings(s: Settings, apiKey: string): Promise<Settings>;
  presets(): Promise<Preset[]>;
  testConnection(): Promise<string>;
  onProgress(cb: (evs: ProgressEvent[]) => void): () => void;
  onCommandOutput(cb: (o: CommandOutput) => void): () => void;
  onFileDrop(cb: (paths: string[]) => void): () => void;
}
