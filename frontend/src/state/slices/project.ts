// The project open, the problem typed and the logs attached to it.
import { toAppError, type LogFile, type ProjectInfo } from "../../api/types";
import type { Core, State } from "../store";
import type { EstimateActions } from "./estimate";

export type ProjectState = {
  project: ProjectInfo | null;
  problem: string;
  logs: LogFile[];
};

export const projectInitial: ProjectState = { project: null, problem: "", logs: [] };

/** sourceName turns a path into a log source name: the file name without extension. */
export function sourceName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** opened is the state once project is open: nothing shown of the one before. */
function opened(project: ProjectInfo): Partial<State> {
  return { project, plan: null, result: null, error: null, history: null, journals: null, progress: null, checks: null, latestApply: null };
}

export function projectSlice(c: Core, est: Pick<EstimateActions, "requestEstimate">) {
  /** change sets what the next plan is about and asks for its estimate. */
  const change = (patch: Partial<State>) => {
    c.set(patch);
    est.requestEstimate();
  };
  const addLogPaths = (paths: string[]) => {
    const logs = c.get().logs;
    const have = new Set(logs.map((l) => l.path));
    const add: LogFile[] = [];
    for (const p of paths) {
      if (!p || have.has(p)) continue;
      have.add(p);
      add.push({ source: sourceName(p), path: p });
    }
    if (add.length) change({ logs: [...logs, ...add] });
  };
  return {
    async chooseProject() {
      try {
        change(opened(await c.backend.chooseProject()));
      } catch (e) {
        const err = toAppError(e);
        if (err.code !== "ERR_CANCELLED") c.fail(err);
      }
    },

    async openProject(path: string) {
      try {
        change(opened(await c.backend.openProject(path)));
      } catch (e) {
        c.fail(e);
      }
    },

    /** dismissRecovery hides the recovery notice of the open project. */
    dismissRecovery: () => {
      const p = c.get().project;
      if (p) c.set({ project: { ...p, recovered: [] } });
    },

    setProblem: (problem: string) => change({ problem }),

    async chooseLogs() {
      try {
        addLogPaths((await c.backend.chooseLogFiles()).map((l) => l.path));
      } catch (e) {
        c.fail(e);
      }
    },

    /** addLogPaths attaches log files (chosen or dropped), each once, named after the file. */
    addLogPaths,
    renameLog: (i: number, source: string) => change({ logs: c.get().logs.map((l, j) => (j === i ? { ...l, source } : l)) }),
    removeLog: (i: number) => change({ logs: c.get().logs.filter((_, j) => j !== i) }),
  };
}
