// The Verify panel of the plan shown: the checks that could verify it, which are
// ticked, the commands typed in, and verifying the plan in a scratch copy.
import { toAppError, type Check, type PlanRecord } from "../../api/types";
import { foreignRefusal } from "../foreign";
import { normalizePlan } from "../record";
import type { Core, State } from "../store";
import { draftReview } from "./selection";

/** ChecksState is the Verify panel of the plan shown: the commands that could verify
 * it (PlanChecks), those the user ticked, and commands the user typed in. */
export type ChecksState = { planId: string; list: Check[]; ticked: Record<string, boolean>; added: string[] };

export type ChecksSliceState = {
  /** checks is the Verify panel of the plan shown (null while unknown or not offered). */
  checks: ChecksState | null;
  /** verifying: a verification of the plan shown is running (Cancel stops it). */
  verifying: boolean;
};

export const checksInitial: ChecksSliceState = { checks: null, verifying: false };

/** verifiable says whether the Verify panel may verify rec: the user's own draft with changes. */
export function verifiable(rec: PlanRecord): boolean {
  return !rec.foreign && rec.state === "draft" && rec.changes.length > 0;
}

/** approveList: the ticked checks not yet approved — what VerifyPlan approves and remembers. */
function approveList(st: State): string[] {
  const c = st.checks;
  if (!c) return [];
  return [...c.list.filter((x) => !x.approved).map((x) => x.command), ...c.added].filter((cmd) => c.ticked[cmd]);
}

export type ChecksActions = ReturnType<typeof checksSlice>;

export function checksSlice(c: Core) {
  const checks = () => c.get().checks;

  /** loadChecks fills the Verify panel of the plan shown (the user's own drafts only:
   * a foreign plan's commands are never offered for approval). */
  const loadChecks = async () => {
    const p = c.get().plan;
    if (!p || !verifiable(p)) return;
    try {
      const list = (await c.backend.planChecks(p.id)) ?? [];
      if (c.get().plan?.id !== p.id) return;
      const cur = checks();
      const prev = cur?.planId === p.id ? cur : null;
      const ticked: Record<string, boolean> = {};
      // Approved checks are ticked; a tick the user gave an unapproved one is kept
      // (a check revoked since is unticked).
      const wasApproved = new Set((prev?.list ?? []).filter((x) => x.approved).map((x) => x.command));
      for (const x of list) ticked[x.command] = x.approved || (!!prev?.ticked[x.command] && !wasApproved.has(x.command));
      const added = (prev?.added ?? []).filter((a) => !list.some((x) => x.command === a));
      for (const a of added) ticked[a] = prev?.ticked[a] ?? true;
      c.set({ checks: { planId: p.id, list, ticked, added } });
    } catch (e) {
      c.fail(e);
    }
  };

  return {
    loadChecks,
    approveList: () => approveList(c.get()),

    /** willVerify: some check would run (an approved one, or one ticked now). */
    willVerify: (): boolean => {
      const st = c.get();
      return !!st.checks && (st.checks.list.some((x) => x.approved) || approveList(st).length > 0);
    },

    /** toggleCheck ticks or unticks a check; approved ones always run (revoked in Settings). */
    toggleCheck: (command: string) => {
      const ch = checks();
      if (!ch || ch.list.some((x) => x.command === command && x.approved)) return;
      c.set({ checks: { ...ch, ticked: { ...ch.ticked, [command]: !ch.ticked[command] } } });
    },

    /** addCheck adds a command the user typed (like the CLI's --check), ticked. */
    addCheck: (command: string) => {
      const ch = checks();
      const cmd = command.trim();
      if (!ch || !cmd) return;
      const known = ch.list.some((x) => x.command === cmd) || ch.added.includes(cmd);
      c.set({ checks: { ...ch, added: known ? ch.added : [...ch.added, cmd], ticked: { ...ch.ticked, [cmd]: true } } });
    },

    removeAddedCheck: (command: string) => {
      const ch = checks();
      if (!ch) return;
      const ticked = { ...ch.ticked };
      delete ticked[command];
      c.set({ checks: { ...ch, added: ch.added.filter((a) => a !== command), ticked } });
    },

    /** verify checks the plan shown in a scratch copy with the approved and the ticked
     * checks; the verified record replaces the plan (the selection is kept). */
    async verify() {
      const st = c.get();
      const p = st.plan;
      if (!p || st.verifying || st.planning || st.busy) return;
      const refused = foreignRefusal(p, "verified");
      if (refused) return c.fail(refused);
      c.set({ verifying: true, progress: null, error: null });
      try {
        // With hunks rejected, files unticked or text edited, what is verified is what would be applied.
        const chosen = draftReview(c.get(), p.id).review;
        const approve = approveList(c.get());
        const rec = normalizePlan(
          chosen
            ? await c.backend.verifySelection(p.id, approve, { plan_id: p.id, paths: chosen.paths, memory_keys: [], files: chosen.files })
            : await c.backend.verifyPlan(p.id, approve),
        );
        if (c.get().plan?.id === rec.id) c.set({ plan: { ...rec, foreign: rec.foreign || p.foreign } });
        const ch = checks();
        // What was ticked is approved now; what was typed in is listed by PlanChecks from now on.
        if (ch?.planId === p.id) c.set({ checks: { ...ch, added: [] } });
      } catch (e) {
        const err = toAppError(e);
        if (err.code !== "ERR_CANCELLED") c.fail(err);
      } finally {
        c.set({ verifying: false, progress: null });
      }
      await loadChecks();
    },
  };
}
