import {
  AppError,
  toAppError,
  type ApplyResult,
  type Backend,
  type FileChoice,
  type Check,
  type CommandResult,
  type HistoryItem,
  type JournalInfo,
  type LogFile,
  type PlanRecord,
  type Preset,
  type ProjectInfo,
  type Settings,
} from "../api/types";
import { foldProgress, type Progress } from "./progress";
import { editable, emptyReview, fileChoice, fileChoices, reviewable, splitDiff, step, withHunk, type ReviewActions, type ReviewState } from "./review";

export type CommandState = { running: boolean; output: string; result?: CommandResult };

/** ChecksState is the Verify panel of the plan shown: the commands that could verify
 * it (PlanChecks), those the user ticked, and commands the user typed in. */
export type ChecksState = { planId: string; list: Check[]; ticked: Record<string, boolean>; added: string[] };

export type State = {
  project: ProjectInfo | null;
  problem: string;
  logs: LogFile[];
  planning: boolean;
  progress: Progress | null;
  plan: PlanRecord | null;
  selected: Record<string, boolean>;
  memorySelected: Record<string, boolean>;
  answers: string[];
  busy: boolean;
  result: { kind: "applied" | "undone"; result: ApplyResult } | null;
  error: AppError | null;
  commands: Record<string, CommandState>;
  history: HistoryItem[] | null;
  /** journals is the open Journals drawer's list (null when closed). */
  journals: JournalInfo[] | null;
  /** discarding is the id of the journal being discarded. */
  discarding: string | null;
  settings: Settings | null;
  presets: Preset[];
  connection: string;
  /** verifyDefault is the verify_before_review setting (null until known). */
  verifyDefault: boolean | null;
  /** verifyRun is the Problem panel's "Verify before review" for the next runs (null: follow the setting). */
  verifyRun: boolean | null;
  /** planOnly is the Problem panel's "Plan only": ask for the approach first, the changes once it is approved. */
  planOnly: boolean;
  /** checks is the Verify panel of the plan shown (null while unknown or not offered). */
  checks: ChecksState | null;
  /** verifying: a verification of the plan shown is running (Cancel stops it). */
  verifying: boolean;
  /** approved lists the check commands approved for the project (the open Settings dialog). */
  approved: string[] | null;
  /** review holds the hunks rejected and the edits made in the plan shown (review.ts). */
  review: ReviewState;
  /** errorAt says where the error is shown: "actions" next to the Apply and Undo
   * buttons it came from (the top of the page is far above them), else at the top. */
  errorAt: "top" | "actions";
  /** summaries of plans seen, by id: a written plan names the approved plan by its summary. */
  summaries: Record<string, string>;
  /** changedSince is the id of the plan shown whose files changed on disk after it was made (Apply said so). */
  changedSince: string | null;
  /** latestApply is the latest transaction not undone (the one Undo undoes) and its
   * plan; null when there is none or it is unknown. Undo is offered only for that plan. */
  latestApply: { transaction: string; planId: string } | null;
};

export const initialState: State = {
  project: null,
  problem: "",
  logs: [],
  planning: false,
  progress: null,
  plan: null,
  selected: {},
  memorySelected: {},
  answers: [],
  busy: false,
  result: null,
  error: null,
  commands: {},
  history: null,
  journals: null,
  discarding: null,
  settings: null,
  presets: [],
  connection: "",
  verifyDefault: null,
  verifyRun: null,
  planOnly: false,
  checks: null,
  verifying: false,
  approved: null,
  review: emptyReview,
  errorAt: "top",
  summaries: {},
  changedSince: null,
  latestApply: null,
};

/** foreignError explains why a plan not made by this user is never applied or run. */
export function foreignError(id: string, what: "applied" | "run" | "verified"): AppError {
  return new AppError(
    "ERR_FOREIGN_STATE",
    `Plan ${id} was not made by your fixplan (it may have come with the project); it is never ${what}.`,
    "Make your own plan with Fix (plan).",
  );
}

/** undoLatestOnly is why Undo is not offered for an applied plan that is not the latest apply. */
export const undoLatestOnly = "Undo is available for the latest apply only: it undoes the newest change applied, which is another plan's.";

/** latestOf is the transaction the backend's Undo would undo: the newest committed
 * journal (journals are listed newest first). */
export function latestOf(journals: JournalInfo[]): { transaction: string; planId: string } | null {
  const j = journals.find((x) => x.state === "committed");
  return j ? { transaction: j.id, planId: j.plan_id ?? "" } : null;
}

/** undoableHere says whether Undo undoes the apply of rec: rec is applied, the user's,
 * and the latest apply not undone is this plan's (its transaction, when the record names it). */
export function undoableHere(rec: PlanRecord, latest: { transaction: string; planId: string } | null): boolean {
  if (rec.state !== "applied" || rec.foreign || !latest || latest.planId !== rec.id) return false;
  return !rec.transaction || rec.transaction === latest.transaction;
}

/** verifiable says whether the Verify panel may verify rec: the user's own draft with changes. */
export function verifiable(rec: PlanRecord): boolean {
  return !rec.foreign && rec.state === "draft" && rec.changes.length > 0;
}

/** baseName turns a path into a log source name: the file name without extension. */
export function sourceName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** normalizePlan fills the lists a stored record may lack (a foreign or older
 * plan file can be bare), so the views never meet a null where they expect a list. */
export function normalizePlan(rec: PlanRecord): PlanRecord {
  const list = <T,>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);
  const p = rec.plan ?? ({} as Partial<PlanRecord["plan"]>);
  const base = rec.base ?? ({} as Partial<PlanRecord["base"]>);
  const input = rec.input ?? ({} as Partial<PlanRecord["input"]>);
  return {
    ...rec,
    input: { ...input, problem: typeof input.problem === "string" ? input.problem : "", logs: input.logs ?? null },
    plan: {
      ...p,
      mode: p.mode ?? "fix-plan",
      summary: typeof p.summary === "string" ? p.summary : "",
      questions: list(p.questions),
      context_requests: list(p.context_requests),
      plan: list(p.plan),
      proposed_changes: p.proposed_changes ? { ...p.proposed_changes, actions: list(p.proposed_changes.actions), commands_to_run: list(p.proposed_changes.commands_to_run) } : null,
      patch: p.patch ?? null,
      commands_to_run: list(p.commands_to_run),
      verification: list(p.verification),
      risks: list(p.risks),
      rollback: list(p.rollback),
      memory_patch: list(p.memory_patch),
    },
    changes: list(rec.changes),
    base: { ...base, sections: list(base.sections), redactions: base.redactions ?? 0, seen: list(base.seen), warnings: list(base.warnings) },
    rounds: list(rec.rounds).map((r) => ({ requests: list(r?.requests), results: list(r?.results) })),
    warnings: list(rec.warnings),
    memory: list(rec.memory),
    ...(rec.verification
      ? {
          verification: {
            ...rec.verification,
            commands: list(rec.verification.commands),
            ...(rec.verification.attempts ? { attempts: list(rec.verification.attempts) } : {}),
          },
        }
      : {}),
  };
}

/** Store holds the UI state and performs every action through the Backend. */
export class Store {
  private state: State = initialState;
  private listeners = new Set<() => void>();
  private offs: (() => void)[] = [];

  constructor(private backend: Backend) {}

  get = (): State => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private set(patch: Partial<State>) {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((fn) => fn());
  }

  private fail(e: unknown, at: State["errorAt"] = "top") {
    this.set({ error: toAppError(e), errorAt: at });
  }

  /** start subscribes to events and loads the project opened at start-up. */
  async start() {
    this.offs.push(
      this.backend.onProgress((all) => {
        // Recovery notices arrive with the project (ProjectInfo.recovered) and are
        // listed in the Recovery notice; the progress line is for planning.
        // A verification's last events may arrive after its call returned: they
        // must not overwrite the finished state.
        const idle = !this.state.planning && !this.state.verifying;
        const evs = all.filter((ev) => ev.stage !== "recovery" && !(idle && ev.stage === "verify"));
        if (evs.length) this.set({ progress: foldProgress(this.state.progress, evs) });
      }),
    );
    this.offs.push(
      this.backend.onCommandOutput((o) => {
        const c = this.state.commands[o.command] ?? { running: true, output: "" };
        this.set({ commands: { ...this.state.commands, [o.command]: { ...c, output: c.output + o.chunk } } });
      }),
    );
    this.offs.push(this.backend.onFileDrop((paths) => this.addLogPaths(paths)));
    try {
      const p = await this.backend.project();
      if (p) this.set({ project: p });
    } catch (e) {
      this.fail(e);
    }
    try {
      // The Problem panel's "Verify before review" starts from the setting.
      this.set({ verifyDefault: !!(await this.backend.getSettings()).verify_before_review });
    } catch {
      // unknown: the request leaves it to the setting
    }
  }

  stop() {
    this.offs.forEach((off) => off());
    this.offs = [];
  }

  dismissError = () => this.set({ error: null });

  async chooseProject() {
    try {
      const p = await this.backend.chooseProject();
      this.set({ project: p, plan: null, result: null, error: null, history: null, journals: null, progress: null, checks: null, latestApply: null });
    } catch (e) {
      const err = toAppError(e);
      if (err.code !== "ERR_CANCELLED") this.fail(err);
    }
  }

  async openProject(path: string) {
    try {
      const p = await this.backend.openProject(path);
      this.set({ project: p, plan: null, result: null, error: null, history: null, journals: null, progress: null, checks: null, latestApply: null });
    } catch (e) {
      this.fail(e);
    }
  }

  setProblem = (problem: string) => this.set({ problem });

  async chooseLogs() {
    try {
      this.addLogPaths((await this.backend.chooseLogFiles()).map((l) => l.path));
    } catch (e) {
      this.fail(e);
    }
  }

  addLogPaths(paths: string[]) {
    const have = new Set(this.state.logs.map((l) => l.path));
    const add: LogFile[] = [];
    for (const p of paths) {
      if (!p || have.has(p)) continue;
      have.add(p);
      add.push({ source: sourceName(p), path: p });
    }
    if (add.length) this.set({ logs: [...this.state.logs, ...add] });
  }

  renameLog = (i: number, source: string) => this.set({ logs: this.state.logs.map((l, j) => (j === i ? { ...l, source } : l)) });
  removeLog = (i: number) => this.set({ logs: this.state.logs.filter((_, j) => j !== i) });

  /** verifyBeforeReview is what the Problem panel's checkbox shows: this run's choice, else the setting. */
  verifyBeforeReview(): boolean {
    return this.state.verifyRun ?? this.state.verifyDefault ?? false;
  }

  setVerifyRun = (on: boolean) => this.set({ verifyRun: on });

  setPlanOnly = (on: boolean) => this.set({ planOnly: on });

  /** verifyFlags: the checkbox as the request carries it; both false leave it to the setting. */
  private verifyFlags(): { verify: boolean; no_verify: boolean } {
    if (this.state.verifyRun === null && this.state.verifyDefault === null) return { verify: false, no_verify: false };
    const on = this.verifyBeforeReview();
    return { verify: on, no_verify: !on };
  }

  /** fix asks for a plan; extra lets re-plan and fix-again pass answers/previous/logs. */
  async fix(extra: { answers?: string[]; previous?: string; logs?: LogFile[] } = {}) {
    if (this.state.planning || this.state.verifying) return;
    if (!this.state.problem.trim()) {
      this.set({ errorAt: "top", error: new AppError("ERR_INVALID_INPUT", "The problem is empty.", "Paste the error, the stack trace or the failing test output.") });
      return;
    }
    this.set({ planning: true, progress: null, error: null, result: null });
    try {
      const rec = await this.backend.plan({
        problem: this.state.problem,
        logs: extra.logs ?? this.state.logs,
        answers: extra.answers ?? [],
        previous: extra.previous ?? "",
        ...this.verifyFlags(),
        plan_only: this.state.planOnly,
        ...this.draftReview(extra.previous),
      });
      this.showPlan(rec);
      // A verified run ends with verification steps; the plan is what is ready.
      const pr = this.state.progress;
      if (pr && (rec.verification || pr.stage === "verify")) this.set({ progress: { ...pr, stage: "done", message: "" } });
      this.set({ planning: false });
      await this.loadChecks();
    } catch (e) {
      const err = toAppError(e);
      this.set({ errorAt: "top", error: err.code === "ERR_CANCELLED" ? null : err, progress: err.code === "ERR_CANCELLED" ? null : this.state.progress });
    } finally {
      this.set({ planning: false });
    }
  }

  showPlan(rec: PlanRecord) {
    rec = normalizePlan(rec);
    const selected: Record<string, boolean> = {};
    // A foreign plan is never applied: nothing of it starts ticked.
    for (const c of rec.changes ?? []) selected[c.path] = !rec.foreign;
    const memorySelected: Record<string, boolean> = {};
    for (const m of rec.memory ?? []) memorySelected[m.key] = !rec.foreign;
    this.set({ changedSince: null, plan: rec, selected, memorySelected, answers: (rec.plan.questions ?? []).map(() => ""), commands: {}, checks: null, review: emptyReview });
  }

  /** loadChecks fills the Verify panel of the plan shown (the user's own drafts only:
   * a foreign plan's commands are never offered for approval). */
  async loadChecks() {
    const p = this.state.plan;
    if (!p || !verifiable(p)) return;
    try {
      const list = (await this.backend.planChecks(p.id)) ?? [];
      if (this.state.plan?.id !== p.id) return;
      const prev = this.state.checks?.planId === p.id ? this.state.checks : null;
      const ticked: Record<string, boolean> = {};
      // Approved checks are ticked; a tick the user gave an unapproved one is kept
      // (a check revoked since is unticked).
      const wasApproved = new Set((prev?.list ?? []).filter((c) => c.approved).map((c) => c.command));
      for (const c of list) ticked[c.command] = c.approved || (!!prev?.ticked[c.command] && !wasApproved.has(c.command));
      const added = (prev?.added ?? []).filter((a) => !list.some((c) => c.command === a));
      for (const a of added) ticked[a] = prev?.ticked[a] ?? true;
      this.set({ checks: { planId: p.id, list, ticked, added } });
    } catch (e) {
      this.fail(e);
    }
  }

  /** toggleCheck ticks or unticks a check; approved ones always run (revoked in Settings). */
  toggleCheck = (command: string) => {
    const c = this.state.checks;
    if (!c || c.list.some((x) => x.command === command && x.approved)) return;
    this.set({ checks: { ...c, ticked: { ...c.ticked, [command]: !c.ticked[command] } } });
  };

  /** addCheck adds a command the user typed (like the CLI's --check), ticked. */
  addCheck = (command: string) => {
    const c = this.state.checks;
    const cmd = command.trim();
    if (!c || !cmd) return;
    const known = c.list.some((x) => x.command === cmd) || c.added.includes(cmd);
    this.set({ checks: { ...c, added: known ? c.added : [...c.added, cmd], ticked: { ...c.ticked, [cmd]: true } } });
  };

  removeAddedCheck = (command: string) => {
    const c = this.state.checks;
    if (!c) return;
    const ticked = { ...c.ticked };
    delete ticked[command];
    this.set({ checks: { ...c, added: c.added.filter((a) => a !== command), ticked } });
  };

  /** approveList: the ticked checks not yet approved — what VerifyPlan approves and remembers. */
  approveList(): string[] {
    const c = this.state.checks;
    if (!c) return [];
    return [...c.list.filter((x) => !x.approved).map((x) => x.command), ...c.added].filter((cmd) => c.ticked[cmd]);
  }

  /** willVerify: some check would run (an approved one, or one ticked now). */
  willVerify(): boolean {
    const c = this.state.checks;
    return !!c && (c.list.some((x) => x.approved) || this.approveList().length > 0);
  }

  /** verify checks the plan shown in a scratch copy with the approved and the ticked
   * checks; the verified record replaces the plan (the selection is kept). */
  async verify() {
    const p = this.state.plan;
    if (!p || this.state.verifying || this.state.planning || this.state.busy) return;
    if (p.foreign) {
      this.set({ errorAt: "top", error: foreignError(p.id, "verified") });
      return;
    }
    this.set({ verifying: true, progress: null, error: null });
    try {
      // With hunks rejected, files unticked or text edited, what is verified is what would be applied.
      const chosen = this.draftReview(p.id).review;
      const rec = normalizePlan(
        chosen
          ? await this.backend.verifySelection(p.id, this.approveList(), { plan_id: p.id, paths: chosen.paths, memory_keys: [], files: chosen.files })
          : await this.backend.verifyPlan(p.id, this.approveList()),
      );
      if (this.state.plan?.id === rec.id) this.set({ plan: { ...rec, foreign: rec.foreign || p.foreign } });
      const c = this.state.checks;
      // What was ticked is approved now; what was typed in is listed by PlanChecks from now on.
      if (c?.planId === p.id) this.set({ checks: { ...c, added: [] } });
    } catch (e) {
      const err = toAppError(e);
      if (err.code !== "ERR_CANCELLED") this.fail(err);
    } finally {
      this.set({ verifying: false, progress: null });
    }
    await this.loadChecks();
  }

  async cancel() {
    try {
      await this.backend.cancelPlan();
    } catch (e) {
      this.fail(e);
    }
  }

  toggleChange = (path: string) => {
    const on = !this.state.selected[path];
    this.set({ selected: { ...this.state.selected, [path]: on }, review: on ? this.untickedReview([path]) : this.state.review });
  };
  setAllChanges = (on: boolean) => {
    const selected: Record<string, boolean> = {};
    for (const c of this.state.plan?.changes ?? []) selected[c.path] = on;
    this.set({ selected, review: on ? this.untickedReview(Object.keys(selected)) : this.state.review });
  };
  /** untickedReview forgets the rejections of files ticked again after every hunk was rejected. */
  private untickedReview(paths: string[]): ReviewState {
    const r = this.state.review;
    const rejected = { ...r.rejected };
    const previews = { ...r.previews };
    for (const path of paths) {
      const c = this.state.plan?.changes.find((x) => x.path === path);
      if (c && (rejected[path] ?? []).length >= splitDiff(c.diff).hunks.length) {
        delete rejected[path];
        delete previews[path];
      }
    }
    return { ...r, rejected, previews };
  }
  toggleMemory = (key: string) => this.set({ memorySelected: { ...this.state.memorySelected, [key]: !this.state.memorySelected[key] } });
  setAnswer = (i: number, v: string) => this.set({ answers: this.state.answers.map((a, j) => (j === i ? v : a)) });

  /** writeChanges approves the approach of the plan shown (one without changes) and asks
   * the model to write its changes (mode "apply"); the written plan replaces it for review. */
  async writeChanges() {
    const p = this.state.plan;
    if (!p || p.foreign || this.state.planning || this.state.verifying || this.state.busy) return;
    this.set({ planning: true, progress: null, error: null, result: null });
    try {
      const rec = await this.backend.writeChanges(p.id);
      // The approach is approved: the next Fix asks for changes again, not for a plan only.
      this.set({ planOnly: false, summaries: { ...this.state.summaries, [p.id]: p.plan.summary } });
      this.showPlan(rec);
      const pr = this.state.progress;
      if (pr && (rec.verification || pr.stage === "verify")) this.set({ progress: { ...pr, stage: "done", message: "" } });
      this.set({ planning: false });
      await this.loadChecks();
    } catch (e) {
      const err = toAppError(e);
      this.set({ errorAt: "top", error: err.code === "ERR_CANCELLED" ? null : err, progress: err.code === "ERR_CANCELLED" ? null : this.state.progress });
    } finally {
      this.set({ planning: false });
    }
  }

  async replan() {
    const p = this.state.plan;
    if (!p) return;
    await this.fix({ answers: this.state.answers, previous: p.id });
  }

  selectedPaths(): string[] {
    return (this.state.plan?.changes ?? []).filter((c) => this.state.selected[c.path]).map((c) => c.path);
  }

  selectedMemory(): string[] {
    return (this.state.plan?.memory ?? []).filter((m) => this.state.memorySelected[m.key]).map((m) => m.key);
  }

  async apply() {
    const p = this.state.plan;
    if (!p || this.state.busy) return;
    if (p.foreign) {
      this.set({ error: foreignError(p.id, "applied"), errorAt: "actions" });
      return;
    }
    this.set({ busy: true, error: null });
    try {
      const files = fileChoices(p, this.state.selected, this.state.review);
      const result = await this.backend.apply({ plan_id: p.id, paths: this.selectedPaths(), memory_keys: this.selectedMemory(), ...(files.length ? { files } : {}) });
      this.set({
        result: { kind: "applied", result },
        plan: { ...p, state: "applied", transaction: result.transaction },
        checks: null,
        latestApply: { transaction: result.transaction, planId: p.id },
      });
      if (files.length || this.selectedPaths().length < p.changes.length) {
        // The record now keeps what was rejected or edited: the applied plan shows it.
        try {
          const review = (await this.backend.loadPlan(p.id)).review;
          if (review && this.state.plan?.id === p.id) this.set({ plan: { ...this.state.plan, review } });
        } catch {
          // the plan is applied either way; the view shows its diffs
        }
      }
    } catch (e) {
      this.fail(e, "actions");
      // A verification was of the files as they were: the badge must not vouch for them now.
      if (toAppError(e).code === "ERR_BASE_MISMATCH") this.set({ changedSince: p.id });
    } finally {
      this.set({ busy: false });
    }
  }

  /** The per-hunk review and hand edits of the plan shown (what the diff view calls). */
  reviewActions: ReviewActions = {
    setHunk: (path, n, accept) => void this.setHunk(path, n, accept),
    toggleHunk: (path, n) => void this.setHunk(path, n, (this.state.review.rejected[path] ?? []).includes(n)),
    focus: (path, n) => this.set({ review: { ...this.state.review, focus: { path, n } } }),
    step: (dir) => {
      const p = this.state.plan;
      if (p) this.set({ review: { ...this.state.review, focus: step(p, this.state.review, dir) } });
    },
    edit: (path) => void this.openEditor(path),
    save: (text) => void this.saveEdit(text),
    discard: (path) => void this.discardEdit(path),
    close: () => this.set({ review: { ...this.state.review, editing: null } }),
  };

  /** draftReview: re-planning the draft shown tells the model what the user ticked,
   * rejected or edited in it (nothing when everything is taken as proposed). */
  private draftReview(previous?: string): { review?: { paths: string[]; files: FileChoice[] } } {
    const p = this.reviewOpen();
    if (!p || !previous || p.id !== previous) return {};
    const r = this.state.review;
    const paths = this.selectedPaths();
    if (paths.length === p.changes.length && Object.keys(r.rejected).length === 0 && Object.keys(r.edits).length === 0) return {};
    return { review: { paths, files: fileChoices(p, this.state.selected, r) } };
  }

  /** reviewOpen: the plan shown is this user's draft, so hunks and edits can be chosen. */
  private reviewOpen(): PlanRecord | null {
    const p = this.state.plan;
    return p && !p.foreign && p.state === "draft" ? p : null;
  }

  /** setHunk accepts or rejects one hunk and previews what the file's choices write.
   * A file whose every hunk is rejected is unticked; accepting a hunk ticks it again. */
  async setHunk(path: string, n: number, accept: boolean) {
    const p = this.reviewOpen();
    const c = p?.changes.find((x) => x.path === path);
    if (!p || !c || !reviewable(c) || this.state.review.edits[path] !== undefined) return;
    const rejected = withHunk(this.state.review.rejected, path, n, accept);
    const all = splitDiff(c.diff).hunks.length;
    const none = (rejected[path] ?? []).length >= all;
    this.set({ review: { ...this.state.review, rejected, focus: { path, n } }, selected: { ...this.state.selected, [path]: !none } });
    await this.previewFile(path);
  }

  /** previewFile asks the Go side what applying path's choices writes (nothing: null). */
  private async previewFile(path: string, content?: string, onError: (e: unknown) => void = (e) => this.fail(e)): Promise<boolean> {
    const p = this.reviewOpen();
    const c = p?.changes.find((x) => x.path === path);
    if (!p || !c) return false;
    const r = this.state.review;
    const fc = content !== undefined ? { path, hunks: null, content } : fileChoice(c, r);
    const previews = { ...r.previews };
    if (!fc || (fc.hunks && fc.hunks.length === 0)) {
      if (fc) previews[path] = null;
      else delete previews[path];
      this.set({ review: { ...this.state.review, previews } });
      return true;
    }
    try {
      const out = await this.backend.previewSelection({ plan_id: p.id, paths: [path], memory_keys: [], files: [fc] });
      if (this.state.plan?.id !== p.id) return false;
      previews[path] = out.find((x) => x.path === path) ?? null;
      this.set({ review: { ...this.state.review, previews } });
      return true;
    } catch (e) {
      onError(e);
      return false;
    }
  }

  /** openEditor opens a proposal in the editor: the user's earlier edit, else the proposed text. */
  async openEditor(path: string) {
    const p = this.reviewOpen();
    const c = p?.changes.find((x) => x.path === path);
    if (!p || !c || !editable(c)) return;
    try {
      // The editor starts from what would be written now: the accepted hunks.
      const fc = fileChoice(c, { ...this.state.review, edits: {} });
      const pr = await this.backend.proposedText(p.id, path, fc?.hunks ?? null);
      if (this.state.plan?.id !== p.id) return;
      this.set({ review: { ...this.state.review, editing: { ...pr, text: this.state.review.edits[path] ?? pr.after } } });
    } catch (e) {
      this.fail(e);
    }
  }

  /** saveEdit keeps the user's text for the file being edited once the Go side has
   * checked and previewed it (an invalid text keeps the editor open with the error). */
  async saveEdit(text: string) {
    const ed = this.state.review.editing;
    if (!ed) return;
    if (text === ed.after) {
      await this.discardEdit(ed.path);
      this.set({ review: { ...this.state.review, editing: null } });
      return;
    }
    this.set({ review: { ...this.state.review, editing: { ...ed, error: undefined } } });
    // A refusal is shown in the editor, which stays open with the text.
    const refused = (e: unknown) => {
      const err = toAppError(e);
      const cur = this.state.review.editing;
      if (cur?.path === ed.path) this.set({ review: { ...this.state.review, editing: { ...cur, error: `${err.code}: ${err.message}${err.hint ? ` — ${err.hint}` : ""}` } } });
    };
    if (!(await this.previewFile(ed.path, text, refused))) return;
    const r = this.state.review;
    const rejected = { ...r.rejected };
    delete rejected[ed.path];
    this.set({ review: { ...r, edits: { ...r.edits, [ed.path]: text }, rejected, editing: null }, selected: { ...this.state.selected, [ed.path]: true } });
  }

  /** discardEdit drops the user's text for path: the proposal applies again. */
  async discardEdit(path: string) {
    const r = this.state.review;
    const edits = { ...r.edits };
    delete edits[path];
    const previews = { ...r.previews };
    delete previews[path];
    this.set({ review: { ...r, edits, previews } });
  }

  async undo() {
    if (this.state.busy) return;
    const shown = this.state.plan;
    // The backend undoes the latest apply, whichever plan made it: never another
    // plan's from this one's view.
    if (!shown || !undoableHere(shown, this.state.latestApply)) {
      this.set({ errorAt: "actions", error: new AppError("ERR_NOTHING_TO_UNDO", undoLatestOnly, "open the latest applied plan from History to undo it") });
      return;
    }
    this.set({ busy: true, error: null });
    try {
      const result = await this.backend.undo();
      const p = this.state.plan;
      // What the commands printed was about the applied files: it is stale now.
      this.set({ result: { kind: "undone", result }, plan: p && p.id === result.plan_id ? { ...p, state: "undone" } : p, commands: {} });
      await this.refreshLatestApply();
    } catch (e) {
      this.fail(e, "actions");
    } finally {
      this.set({ busy: false });
    }
  }

  /** refreshLatestApply asks the backend which apply Undo would undo now (unknown → none offered). */
  async refreshLatestApply() {
    try {
      this.set({ latestApply: latestOf(await this.backend.journals()) });
    } catch {
      this.set({ latestApply: null });
    }
  }

  async runCommand(command: string) {
    const p = this.state.plan;
    if (!p) return;
    if (p.foreign) {
      this.set({ errorAt: "top", error: foreignError(p.id, "run") });
      return;
    }
    this.set({ commands: { ...this.state.commands, [command]: { running: true, output: "" } } });
    try {
      const result = await this.backend.runCommand(p.id, command);
      this.set({ commands: { ...this.state.commands, [command]: { running: false, output: result.output, result } } });
    } catch (e) {
      this.set({ commands: { ...this.state.commands, [command]: { running: false, output: this.state.commands[command]?.output ?? "" } } });
      this.fail(e);
    }
  }

  async stopCommand() {
    try {
      await this.backend.stopCommand();
    } catch (e) {
      this.fail(e);
    }
  }

  /** fixAgain re-plans with the output of the commands the app ran. */
  async fixAgain() {
    const p = this.state.plan;
    await this.fix({ previous: p?.id ?? "", logs: [...this.state.logs, { source: "verification", path: "" }] });
  }

  async openHistory() {
    try {
      const history = await this.backend.history();
      const summaries = { ...this.state.summaries };
      for (const h of history ?? []) summaries[h.id] = h.summary;
      this.set({ history, journals: null, summaries });
    } catch (e) {
      this.fail(e);
    }
  }

  closeHistory = () => this.set({ history: null });

  async loadPlan(id: string) {
    try {
      const rec = normalizePlan(await this.backend.loadPlan(id));
      // The history item's flag and the record's agree; either one is enough to refuse.
      const listed = this.state.history?.find((h) => h.id === id);
      this.showPlan(listed?.foreign && !rec.foreign ? { ...rec, foreign: true } : rec);
      // An error was about the plan shown before (or the provider's last reply): not this one.
      this.set({ history: null, result: null, problem: rec.input.problem, error: null });
      if (rec.state === "applied" && !rec.foreign) await this.refreshLatestApply();
      await this.loadChecks();
    } catch (e) {
      this.fail(e);
    }
  }

  /** openJournals opens the Journals drawer: transactions and folders set aside. */
  async openJournals() {
    try {
      this.set({ journals: await this.backend.journals(), history: null });
    } catch (e) {
      this.fail(e);
      return;
    }
    // Journals name their plan: its summary reads better than its id.
    try {
      const summaries = { ...this.state.summaries };
      for (const h of (await this.backend.history()) ?? []) summaries[h.id] = h.summary;
      this.set({ summaries });
    } catch {
      // the ids are shown either way
    }
  }

  closeJournals = () => this.set({ journals: null });

  /** discardJournal deletes a held, finished or set-aside journal and refreshes the list. */
  async discardJournal(id: string) {
    if (this.state.discarding) return;
    this.set({ discarding: id, error: null });
    try {
      await this.backend.discardJournal(id);
    } catch (e) {
      this.fail(e);
    }
    try {
      const journals = await this.backend.journals();
      if (this.state.journals) this.set({ journals });
    } catch (e) {
      if (!this.state.error) this.fail(e);
    } finally {
      this.set({ discarding: null });
    }
  }

  /** dismissRecovery hides the recovery notice of the open project. */
  dismissRecovery = () => {
    const p = this.state.project;
    if (p) this.set({ project: { ...p, recovered: [] } });
  };

  async openSettings() {
    try {
      const [settings, presets] = await Promise.all([this.backend.getSettings(), this.backend.presets()]);
      this.set({ settings, presets, connection: "", approved: null, verifyDefault: !!settings.verify_before_review });
    } catch (e) {
      this.fail(e);
      return;
    }
    await this.loadApproved();
  }

  /** loadApproved lists the checks approved for the open project (Settings). */
  private async loadApproved() {
    if (!this.state.project) return;
    try {
      const approved = await this.backend.approvedChecks();
      if (this.state.settings) this.set({ approved: approved ?? [] });
    } catch (e) {
      this.fail(e);
    }
  }

  closeSettings = () => this.set({ settings: null, approved: null });

  async saveSettings(s: Settings, apiKey: string) {
    try {
      const saved = await this.backend.saveSettings(s, apiKey);
      // The next runs follow the new setting.
      this.set({ settings: saved, connection: "Saved.", verifyDefault: !!saved.verify_before_review, verifyRun: null });
    } catch (e) {
      this.fail(e);
    }
  }

  /** revokeCheck withdraws a check's approval for the project; it no longer runs unless ticked again. */
  async revokeCheck(command: string) {
    try {
      await this.backend.revokeCheck(command);
    } catch (e) {
      this.fail(e);
    }
    await this.loadApproved();
    if (this.state.checks) await this.loadChecks();
  }

  async testConnection() {
    this.set({ connection: "Testing…" });
    try {
      this.set({ connection: await this.backend.testConnection() });
    } catch (e) {
      const err = toAppError(e);
      this.set({ connection: "" });
      this.fail(err);
    }
  }
}
