// What Fix (plan) would cost for the problem typed: the Go side works it out
// (App.Estimate: the base context gathered, the first request built, nothing sent)
// once typing pauses, and the Problem panel shows it next to Fix.
import { toAppError, type Estimate } from "../../api/types";
import type { Core } from "../store";

export type EstimateState = {
  /** estimate is the estimate of the problem as last asked (null: none yet, or no problem). */
  estimate: Estimate | null;
  /** estimating: the problem, logs or settings changed and a new estimate is on its way. */
  estimating: boolean;
  /** estimateError says why no estimate could be made ("" when there is one). */
  estimateError: string;
};

export const estimateInitial: EstimateState = { estimate: null, estimating: false, estimateError: "" };

/** ESTIMATE_DELAY is how long typing must pause before the estimate is asked for (ms). */
export const ESTIMATE_DELAY = 600;

export type EstimateActions = ReturnType<typeof estimateSlice>;

export function estimateSlice(c: Core) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // seq numbers the requests: only the newest answer is shown.
  let seq = 0;
  const none = () => {
    seq++;
    clearTimeout(timer);
    c.set({ estimate: null, estimating: false, estimateError: "" });
  };
  const ask = async () => {
    const n = ++seq;
    const st = c.get();
    try {
      const est = await c.backend.estimate({ problem: st.problem, logs: st.logs, answers: [], previous: "", verify: false, no_verify: true, plan_only: st.planOnly });
      if (n === seq) c.set({ estimate: est, estimating: false, estimateError: "" });
    } catch (e) {
      const err = toAppError(e);
      // A cancelled estimate was replaced by a newer one (or a plan started).
      if (n === seq && err.code !== "ERR_CANCELLED") c.set({ estimate: null, estimating: false, estimateError: err.message });
    }
  };
  return {
    /** requestEstimate asks for the estimate of the problem once typing pauses (ESTIMATE_DELAY). */
    requestEstimate() {
      const st = c.get();
      if (!st.project || !st.problem.trim()) return none();
      clearTimeout(timer);
      if (!st.estimating) c.set({ estimating: true });
      timer = setTimeout(() => void ask(), ESTIMATE_DELAY);
    },
  };
}
