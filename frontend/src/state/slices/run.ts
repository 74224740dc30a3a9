// The plan run: asking the model for a plan (Fix, re-plan, Fix again, Write the
// changes), its progress, the plan shown and the answers to its questions.
import { AppError, toAppError, type LogFile, type PlanRecord, type ProgressEvent } from "../../api/types";
import { foreignRefusal } from "../foreign";
import { foldProgress, type Progress } from "../progress";
import { normalizePlan } from "../record";
import { emptyReview } from "../review";
import type { Core, State } from "../store";
import type { ChecksActions } from "./checks";
import type { EstimateActions } from "./estimate";
import { draftReview } from "./selection";

export type RunState = {
  planning: boolean;
  progress: Progress | null;
  /** plan is the plan shown. */
  plan: PlanRecord | null;
  answers: string[];
  /** verifyDefault is the verify_before_review setting (null until known). */
  verifyDefault: boolean | null;
  /** verifyRun is the Problem panel's "Verify before review" for the next runs (null: follow the setting). */
  verifyRun: boolean | null;
  /** planOnly is the Problem panel's "Plan only": ask for the approach first, the changes once it is approved. */
  planOnly: boolean;
};

export const runInitial: RunState = { planning: false, progress: null, plan: null, answers: [], verifyDefault: null, verifyRun: null, planOnly: false };

/** withProgress folds a batch of progress events into the progress line (null: nothing to show). */
export function withProgress(st: State, all: ProgressEvent[]): Partial<State> | null {
  // Recovery notices arrive with the project (ProjectInfo.recovered) and are
  // listed in the Recovery notice; the progress line is for planning.
  // A verification's last events may arrive after its call returned: they
  // must not overwrite the finished state.
  const idle = !st.planning && !st.verifying;
  const evs = all.filter((ev) => ev.stage !== "recovery" && !(idle && ev.stage === "verify"));
  return evs.length ? { progress: foldProgress(st.progress, evs) } : null;
}

/** verifyBeforeReview is what the Problem panel's checkbox shows: this run's choice, else the setting. */
function verifyBeforeReview(st: State): boolean {
  return st.verifyRun ?? st.verifyDefault ?? false;
}

/** verifyFlags: the checkbox as the request carries it; both false leave it to the setting. */
function verifyFlags(st: State): { verify: boolean; no_verify: boolean } {
  if (st.verifyRun === null && st.verifyDefault === null) return { verify: false, no_verify: false };
  const on = verifyBeforeReview(st);
  return { verify: on, no_verify: !on };
}

export type RunActions = ReturnType<typeof runSlice>;

export function runSlice(c: Core, s: Pick<ChecksActions, "loadChecks">, est: Pick<EstimateActions, "requestEstimate">) {
  const showPlan = (rec: PlanRecord) => {
    rec = normalizePlan(rec);
    const selected: Record<string, boolean> = {};
    // A foreign plan is never applied: nothing of it starts ticked.
    for (const ch of rec.changes ?? []) selected[ch.path] = !rec.foreign;
    const memorySelected: Record<string, boolean> = {};
    for (const m of rec.memory ?? []) memorySelected[m.key] = !rec.foreign;
    c.set({ changedSince: null, plan: rec, selected, memorySelected, answers: (rec.plan.questions ?? []).map(() => ""), commands: {}, checks: null, review: emptyReview });
  };

  /** run asks the model for a plan and shows it with its Verify panel; a cancelled run is no error. */
  const run = async (ask: () => Promise<PlanRecord>) => {
    c.set({ planning: true, progress: null, error: null, result: null });
    try {
      const rec = await ask();
      showPlan(rec);
      // A verified run ends with verification steps; the plan is what is ready.
      const pr = c.get().progress;
      if (pr && (rec.verification || pr.stage === "verify")) c.set({ progress: { ...pr, stage: "done", message: "" } });
      c.set({ planning: false });
      await s.loadChecks();
    } catch (e) {
      const err = toAppError(e);
      const cancelled = err.code === "ERR_CANCELLED";
      c.set({ errorAt: "top", error: cancelled ? null : err, progress: cancelled ? null : c.get().progress });
    } finally {
      c.set({ planning: false });
    }
  };

  /** fix asks for a plan; extra lets re-plan and fix-again pass answers/previous/logs. */
  const fix = async (extra: { answers?: string[]; previous?: string; logs?: LogFile[] } = {}) => {
    const st = c.get();
    if (st.planning || st.verifying) return;
    if (!st.problem.trim()) {
      c.set({ errorAt: "top", error: new AppError("ERR_INVALID_INPUT", "The problem is empty.", "Paste the error, the stack trace or the failing test output.") });
      return;
    }
    await run(() => {
      const now = c.get();
      return c.backend.plan({
        problem: now.problem,
        logs: extra.logs ?? now.logs,
        answers: extra.answers ?? [],
        previous: extra.previous ?? "",
        ...verifyFlags(now),
        plan_only: now.planOnly,
        ...draftReview(now, extra.previous),
      });
    });
  };

  return {
    fix,
    showPlan,

    verifyBeforeReview: () => verifyBeforeReview(c.get()),
    setVerifyRun: (on: boolean) => c.set({ verifyRun: on }),
    setPlanOnly: (on: boolean) => {
      c.set({ planOnly: on });
      est.requestEstimate(); // the plan-only note is part of the first request
    },
    setAnswer: (i: number, v: string) => c.set({ answers: c.get().answers.map((a, j) => (j === i ? v : a)) }),

    async replan() {
      const st = c.get();
      if (!st.plan) return;
      await fix({ answers: st.answers, previous: st.plan.id });
    },

    /** fixAgain re-plans with the output of the commands the app ran. */
    async fixAgain() {
      const st = c.get();
      await fix({ previous: st.plan?.id ?? "", logs: [...st.logs, { source: "verification", path: "" }] });
    },

    /** writeChanges approves the approach of the plan shown (one without changes) and asks
     * the model to write its changes (mode "apply"); the written plan replaces it for review. */
    async writeChanges() {
      const { plan: p, planning, verifying, busy } = c.get();
      if (!p || planning || verifying || busy) return;
      const refused = foreignRefusal(p, "used to write changes");
      if (refused) return c.fail(refused);
      await run(async () => {
        const rec = await c.backend.writeChanges(p.id);
        // The approach is approved: the next Fix asks for changes again, not for a plan only.
        c.set({ planOnly: false, summaries: { ...c.get().summaries, [p.id]: p.plan.summary } });
        return rec;
      });
    },

    /** cancel stops the plan being made or verified. */
    async cancel() {
      try {
        await c.backend.cancelPlan();
      } catch (e) {
        c.fail(e);
      }
    },
  };
}
