// Apply and Undo: writing the ticked changes of the plan shown in one transaction,
// and undoing the latest apply.
import { AppError, toAppError, type ApplyResult, type JournalInfo, type PlanRecord } from "../../api/types";
import { foreignRefusal } from "../foreign";
import { fileChoices } from "../review";
import type { Core } from "../store";
import { selectedMemory, selectedPaths } from "./selection";

/** LatestApply is the latest transaction not undone (the one Undo undoes) and its plan. */
export type LatestApply = { transaction: string; planId: string };

export type ApplyState = {
  /** busy: an apply or an undo is running. */
  busy: boolean;
  result: { kind: "applied" | "undone"; result: ApplyResult } | null;
  /** changedSince is the id of the plan shown whose files changed on disk after it was made (Apply said so). */
  changedSince: string | null;
  /** latestApply is the latest apply not undone; null when there is none or it is
   * unknown. Undo is offered only for its plan. */
  latestApply: LatestApply | null;
};

export const applyInitial: ApplyState = { busy: false, result: null, changedSince: null, latestApply: null };

/** undoLatestOnly is why Undo is not offered for an applied plan that is not the latest apply. */
export const undoLatestOnly = "Undo is available for the latest apply only: it undoes the newest change applied, which is another plan's.";

/** latestOf is the transaction the backend's Undo would undo: the newest committed
 * journal (journals are listed newest first). */
export function latestOf(journals: JournalInfo[]): LatestApply | null {
  const j = journals.find((x) => x.state === "committed");
  return j ? { transaction: j.id, planId: j.plan_id ?? "" } : null;
}

/** undoableHere says whether Undo undoes the apply of rec: rec is applied, the user's,
 * and the latest apply not undone is this plan's (its transaction, when the record names it). */
export function undoableHere(rec: PlanRecord, latest: LatestApply | null): boolean {
  if (rec.state !== "applied" || rec.foreign || !latest || latest.planId !== rec.id) return false;
  return !rec.transaction || rec.transaction === latest.transaction;
}

export type ApplyActions = ReturnType<typeof applySlice>;

export function applySlice(c: Core) {
  /** refreshLatestApply asks the backend which apply Undo would undo now (unknown → none offered). */
  const refreshLatestApply = async () => {
    try {
      c.set({ latestApply: latestOf(await c.backend.journals()) });
    } catch {
      c.set({ latestApply: null });
    }
  };

  return {
    refreshLatestApply,

    /** apply writes the ticked files (their accepted hunks, the user's text) and memory entries of the plan shown. */
    async apply() {
      const st = c.get();
      const p = st.plan;
      if (!p || st.busy) return;
      const refused = foreignRefusal(p, "applied");
      if (refused) return c.fail(refused, "actions");
      c.set({ busy: true, error: null });
      try {
        const files = fileChoices(p, st.selected, st.review);
        const result = await c.backend.apply({ plan_id: p.id, paths: selectedPaths(st), memory_keys: selectedMemory(st), ...(files.length ? { files } : {}) });
        c.set({
          result: { kind: "applied", result },
          plan: { ...p, state: "applied", transaction: result.transaction },
          checks: null,
          latestApply: { transaction: result.transaction, planId: p.id },
        });
        if (files.length || selectedPaths(c.get()).length < p.changes.length) {
          // The record now keeps what was rejected or edited: the applied plan shows it.
          try {
            const review = (await c.backend.loadPlan(p.id)).review;
            const shown = c.get().plan;
            if (review && shown?.id === p.id) c.set({ plan: { ...shown, review } });
          } catch {
            // the plan is applied either way; the view shows its diffs
          }
        }
      } catch (e) {
        c.fail(e, "actions");
        // A verification was of the files as they were: the badge must not vouch for them now.
        if (toAppError(e).code === "ERR_BASE_MISMATCH") c.set({ changedSince: p.id });
      } finally {
        c.set({ busy: false });
      }
    },

    async undo() {
      const st = c.get();
      if (st.busy) return;
      // The backend undoes the latest apply, whichever plan made it: never another
      // plan's from this one's view.
      if (!st.plan || !undoableHere(st.plan, st.latestApply)) {
        c.set({ errorAt: "actions", error: new AppError("ERR_NOTHING_TO_UNDO", undoLatestOnly, "open the latest applied plan from History to undo it") });
        return;
      }
      c.set({ busy: true, error: null });
      try {
        const result = await c.backend.undo();
        const p = c.get().plan;
        // What the commands printed was about the applied files: it is stale now.
        c.set({ result: { kind: "undone", result }, plan: p && p.id === result.plan_id ? { ...p, state: "undone" } : p, commands: {} });
        await refreshLatestApply();
      } catch (e) {
        c.fail(e, "actions");
      } finally {
        c.set({ busy: false });
      }
    },
  };
}
