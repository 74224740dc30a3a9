// The UI state and everything the UI asks of the Go side. The store is composed of
// slices, one concern each (src/state/slices/): the project and the problem typed,
// what a plan of it would cost, the plan run, what the user takes of the plan shown, apply and undo, the Verify
// panel, the commands run, history and journals, settings, files opened in the
// user's editor. Each slice owns its part of State and its actions; all act through
// one Core (the state, one way to change it, the backend) and call another slice's
// actions only when given them.
import { toAppError, type AppError, type Backend } from "../api/types";
import { applyInitial, applySlice, type ApplyState } from "./slices/apply";
import { checksInitial, checksSlice, type ChecksSliceState } from "./slices/checks";
import { commandsInitial, commandsSlice, withOutput, type CommandsState } from "./slices/commands";
import { editorInitial, editorSlice, type EditorState } from "./slices/editor";
import { estimateInitial, estimateSlice, type EstimateState } from "./slices/estimate";
import { historyInitial, historySlice, type HistoryState } from "./slices/history";
import { projectInitial, projectSlice, type ProjectState } from "./slices/project";
import { runInitial, runSlice, withProgress, type RunState } from "./slices/run";
import { selectionInitial, selectionSlice, type SelectionState } from "./slices/selection";
import { settingsInitial, settingsSlice, type SettingsState } from "./slices/settings";

/** ErrorState is the one error shown. */
export type ErrorState = {
  error: AppError | null;
  /** errorAt says where the error is shown: "actions" next to the Apply and Undo
   * buttons it came from (the top of the page is far above them), else at the top. */
  errorAt: "top" | "actions";
};

export type State = ErrorState &
  ProjectState &
  EstimateState &
  RunState &
  SelectionState &
  ApplyState &
  ChecksSliceState &
  CommandsState &
  HistoryState &
  SettingsState &
  EditorState;

export const initialState: State = {
  error: null,
  errorAt: "top",
  ...projectInitial,
  ...estimateInitial,
  ...runInitial,
  ...selectionInitial,
  ...applyInitial,
  ...checksInitial,
  ...commandsInitial,
  ...historyInitial,
  ...settingsInitial,
  ...editorInitial,
};

/** Core is what every slice acts through. */
export interface Core {
  readonly backend: Backend;
  get(): State;
  /** set changes the state and tells the subscribers. */
  set(patch: Partial<State>): void;
  /** fail shows e (as an AppError) at the top, or next to the actions it came from. */
  fail(e: unknown, at?: State["errorAt"]): void;
}

/** slices are the actions of every slice; a slice is given the others it calls. */
function slices(c: Core) {
  const checks = checksSlice(c);
  const estimate = estimateSlice(c);
  const run = runSlice(c, checks, estimate);
  const apply = applySlice(c);
  return {
    ...projectSlice(c, estimate),
    ...estimate,
    ...run,
    ...selectionSlice(c),
    ...apply,
    ...checks,
    ...commandsSlice(c),
    ...historySlice(c, { ...run, ...apply, ...checks }),
    ...settingsSlice(c, checks, estimate),
    ...editorSlice(c),
  };
}

type Slices = ReturnType<typeof slices>;

/** Store holds the UI state and performs every action through the Backend; its
 * actions are the slices' (an interface merged with the class). */
export interface Store extends Slices {}

export class Store {
  private state: State = initialState;
  private listeners = new Set<() => void>();
  private offs: (() => void)[] = [];
  private core: Core;

  constructor(backend: Backend) {
    this.core = {
      backend,
      get: () => this.state,
      set: (patch) => {
        this.state = { ...this.state, ...patch };
        this.listeners.forEach((fn) => fn());
      },
      fail: (e, at = "top") => this.core.set({ error: toAppError(e), errorAt: at }),
    };
    Object.assign(this, slices(this.core));
  }

  get = (): State => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** start subscribes to events and loads the project opened at start-up. */
  async start() {
    const { backend, get, set, fail } = this.core;
    this.offs.push(
      backend.onProgress((evs) => {
        const patch = withProgress(get(), evs);
        if (patch) set(patch);
      }),
    );
    this.offs.push(backend.onCommandOutput((o) => set(withOutput(get(), o))));
    this.offs.push(backend.onFileDrop((paths) => this.addLogPaths(paths)));
    try {
      const p = await backend.project();
      if (p) set({ project: p });
    } catch (e) {
      fail(e);
    }
    try {
      // The Problem panel's "Verify before review" starts from the setting.
      set({ verifyDefault: !!(await backend.getSettings()).verify_before_review });
    } catch {
      // unknown: the request leaves it to the setting
    }
  }

  stop() {
    this.offs.forEach((off) => off());
    this.offs = [];
  }

  /** dismissError also takes away the progress line's "Planning stopped: the message above…",
   * which would otherwise point at nothing. */
  dismissError = () => {
    const p = this.core.get().progress;
    this.core.set(p?.stage === "error" ? { error: null, progress: null } : { error: null });
  };
}
