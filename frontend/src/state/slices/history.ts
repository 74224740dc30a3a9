// The History drawer (the plans stored) and the Journals drawer (the transactions
// and the folders set aside), and opening a stored plan.
import type { HistoryItem, JournalInfo } from "../../api/types";
import { normalizePlan } from "../record";
import type { Core } from "../store";
import type { ApplyActions } from "./apply";
import type { ChecksActions } from "./checks";
import type { RunActions } from "./run";

export type HistoryState = {
  /** history is the open History drawer's list (null when closed). */
  history: HistoryItem[] | null;
  /** journals is the open Journals drawer's list (null when closed). */
  journals: JournalInfo[] | null;
  /** discarding is the id of the journal being discarded. */
  discarding: string | null;
  /** summaries of plans seen, by id: a written plan names the approved plan by its summary. */
  summaries: Record<string, string>;
};

export const historyInitial: HistoryState = { history: null, journals: null, discarding: null, summaries: {} };

/** withSummaries adds the summaries of the plans listed in history. */
function withSummaries(summaries: Record<string, string>, history: HistoryItem[] | null): Record<string, string> {
  const out = { ...summaries };
  for (const h of history ?? []) out[h.id] = h.summary;
  return out;
}

export function historySlice(c: Core, s: Pick<RunActions, "showPlan"> & Pick<ApplyActions, "refreshLatestApply"> & Pick<ChecksActions, "loadChecks">) {
  return {
    async openHistory() {
      try {
        const history = await c.backend.history();
        c.set({ history, journals: null, summaries: withSummaries(c.get().summaries, history) });
      } catch (e) {
        c.fail(e);
      }
    },

    closeHistory: () => c.set({ history: null }),

    /** loadPlan shows a stored plan (from the History drawer). */
    async loadPlan(id: string) {
      try {
        const rec = normalizePlan(await c.backend.loadPlan(id));
        // The history item's flag and the record's agree; either one is enough to refuse.
        const listed = c.get().history?.find((h) => h.id === id);
        s.showPlan(listed?.foreign && !rec.foreign ? { ...rec, foreign: true } : rec);
        // An error was about the plan shown before (or the provider's last reply): not this one.
        c.set({ history: null, result: null, problem: rec.input.problem, error: null });
        if (rec.state === "applied" && !rec.foreign) await s.refreshLatestApply();
        await s.loadChecks();
      } catch (e) {
        c.fail(e);
      }
    },

    /** openJournals opens the Journals drawer: transactions and folders set aside. */
    async openJournals() {
      try {
        c.set({ journals: await c.backend.journals(), history: null });
      } catch (e) {
        c.fail(e);
        return;
      }
      // Journals name their plan: its summary reads better than its id.
      try {
        const history = await c.backend.history();
        c.set({ summaries: withSummaries(c.get().summaries, history) });
      } catch {
        // the ids are shown either way
      }
    },

    closeJournals: () => c.set({ journals: null }),

    /** discardJournal deletes a held, finished or set-aside journal and refreshes the list. */
    async discardJournal(id: string) {
      if (c.get().discarding) return;
      c.set({ discarding: id, error: null });
      try {
        await c.backend.discardJournal(id);
      } catch (e) {
        c.fail(e);
      }
      try {
        const journals = await c.backend.journals();
        if (c.get().journals) c.set({ journals });
      } catch (e) {
        if (!c.get().error) c.fail(e);
      } finally {
        c.set({ discarding: null });
      }
    },
  };
}
