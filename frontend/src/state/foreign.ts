// The one place the UI knows the foreign-plan rule. A plan not sealed by this
// user's fixplan (e.g. shipped with the project) is marked foreign by the Go side,
// which refuses to apply, run, verify or write from it (ERR_FOREIGN_STATE). The UI
// only reads that mark: its views turn those actions off, and the store refuses
// them here, without asking the backend, should one be asked for anyway.
import { AppError, type PlanRecord } from "../api/types";

/** ForeignAct is what is never done with a foreign plan. */
export type ForeignAct = "applied" | "run" | "verified" | "used to write changes";

/** foreignRefusal is why act is refused for rec, or null when rec is the user's own plan. */
export function foreignRefusal(rec: PlanRecord, act: ForeignAct): AppError | null {
  if (!rec.foreign) return null;
  return new AppError(
    "ERR_FOREIGN_STATE",
    `Plan ${rec.id} was not made by your fixplan (it may have come with the project); it is never ${act}.`,
    "Make your own plan with Fix (plan).",
  );
}
