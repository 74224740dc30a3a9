import {
  AppError,
  toAppError,
  type ApplyResult,
  type Backend,
  type CommandResult,
  type HistoryItem,
  type LogFile,
  type PlanRecord,
  type Preset,
  type ProjectInfo,
  type Settings,
} from "../api/types";
import { foldProgress, type Progress } from "./progress";

export type CommandState = { running: boolean; output: string; result?: CommandResult };

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
  settings: Settings | null;
  presets: Preset[];
  connection: string;
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
  settings: null,
  presets: [],
  connection: "",
};

/** baseName turns a path into a log source name: the file name without extension. */
export function sourceName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
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

  private fail(e: unknown) {
    this.set({ error: toAppError(e) });
  }

  /** start subscribes to events and loads the project opened at start-up. */
  async start() {
    this.offs.push(this.backend.onProgress((evs) => this.set({ progress: foldProgress(this.state.progress, evs) })));
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
  }

  stop() {
    this.offs.forEach((off) => off());
    this.offs = [];
  }

  dismissError = () => this.set({ error: null });

  async chooseProject() {
    try {
      const p = await this.backend.chooseProject();
      this.set({ project: p, plan: null, result: null, error: null, history: null });
    } catch (e) {
      const err = toAppError(e);
      if (err.code !== "ERR_CANCELLED") this.fail(err);
    }
  }

  async openProject(path: string) {
    try {
      const p = await this.backend.openProject(path);
      this.set({ project: p, plan: null, result: null, error: null, history: null });
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

  /** fix asks for a plan; extra lets re-plan and fix-again pass answers/previous/logs. */
  async fix(extra: { answers?: string[]; previous?: string; logs?: LogFile[] } = {}) {
    if (this.state.planning) return;
    if (!this.state.problem.trim()) {
      this.set({ error: new AppError("ERR_INVALID_INPUT", "The problem is empty.", "Paste the error, the stack trace or the failing test output.") });
      return;
    }
    this.set({ planning: true, progress: null, error: null, result: null });
    try {
      const rec = await this.backend.plan({
        problem: this.state.problem,
        logs: extra.logs ?? this.state.logs,
        answers: extra.answers ?? [],
        previous: extra.previous ?? "",
      });
      this.showPlan(rec);
    } catch (e) {
      const err = toAppError(e);
      this.set({ error: err.code === "ERR_CANCELLED" ? null : err, progress: err.code === "ERR_CANCELLED" ? null : this.state.progress });
    } finally {
      this.set({ planning: false });
    }
  }

  showPlan(rec: PlanRecord) {
    const selected: Record<string, boolean> = {};
    for (const c of rec.changes ?? []) selected[c.path] = true;
    const memorySelected: Record<string, boolean> = {};
    for (const m of rec.memory ?? []) memorySelected[m.key] = true;
    this.set({ plan: rec, selected, memorySelected, answers: (rec.plan.questions ?? []).map(() => ""), commands: {} });
  }

  async cancel() {
    try {
      await this.backend.cancelPlan();
    } catch (e) {
      this.fail(e);
    }
  }

  toggleChange = (path: string) => this.set({ selected: { ...this.state.selected, [path]: !this.state.selected[path] } });
  setAllChanges = (on: boolean) => {
    const selected: Record<string, boolean> = {};
    for (const c of this.state.plan?.changes ?? []) selected[c.path] = on;
    this.set({ selected });
  };
  toggleMemory = (key: string) => this.set({ memorySelected: { ...this.state.memorySelected, [key]: !this.state.memorySelected[key] } });
  setAnswer = (i: number, v: string) => this.set({ answers: this.state.answers.map((a, j) => (j === i ? v : a)) });

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
    this.set({ busy: true, error: null });
    try {
      const result = await this.backend.apply({ plan_id: p.id, paths: this.selectedPaths(), memory_keys: this.selectedMemory() });
      this.set({ result: { kind: "applied", result }, plan: { ...p, state: "applied", transaction: result.transaction } });
    } catch (e) {
      this.fail(e);
    } finally {
      this.set({ busy: false });
    }
  }

  async undo() {
    if (this.state.busy) return;
    this.set({ busy: true, error: null });
    try {
      const result = await this.backend.undo();
      const p = this.state.plan;
      this.set({ result: { kind: "undone", result }, plan: p && p.id === result.plan_id ? { ...p, state: "undone" } : p });
    } catch (e) {
      this.fail(e);
    } finally {
      this.set({ busy: false });
    }
  }

  async runCommand(command: string) {
    const p = this.state.plan;
    if (!p) return;
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
      this.set({ history: await this.backend.history() });
    } catch (e) {
      this.fail(e);
    }
  }

  closeHistory = () => this.set({ history: null });

  async loadPlan(id: string) {
    try {
      const rec = await this.backend.loadPlan(id);
      this.showPlan(rec);
      this.set({ history: null, result: null, problem: rec.input.problem });
    } catch (e) {
      this.fail(e);
    }
  }

  async openSettings() {
    try {
      const [settings, presets] = await Promise.all([this.backend.getSettings(), this.backend.presets()]);
      this.set({ settings, presets, connection: "" });
    } catch (e) {
      this.fail(e);
    }
  }

  closeSettings = () => this.set({ settings: null });

  async saveSettings(s: Settings, apiKey: string) {
    try {
      this.set({ settings: await this.backend.saveSettings(s, apiKey), connection: "Saved." });
    } catch (e) {
      this.fail(e);
    }
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
