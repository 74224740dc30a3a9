// What the user takes of the plan shown: the files and memory entries ticked, the
// hunks accepted or rejected, and the text edited by hand (pure rules in ../review).
import { toAppError, type FileChoice, type PlanRecord } from "../../api/types";
import { editable, emptyReview, fileChoice, fileChoices, reviewable, splitDiff, step, withHunk, type ReviewActions, type ReviewState } from "../review";
import type { Core, State } from "../store";

export type SelectionState = {
  selected: Record<string, boolean>;
  memorySelected: Record<string, boolean>;
  /** review holds the hunks rejected and the edits made in the plan shown (review.ts). */
  review: ReviewState;
};

export const selectionInitial: SelectionState = { selected: {}, memorySelected: {}, review: emptyReview };

/** selectedPaths are the ticked files of the plan shown, in its order. */
export function selectedPaths(st: State): string[] {
  return (st.plan?.changes ?? []).filter((c) => st.selected[c.path]).map((c) => c.path);
}

/** selectedMemory are the ticked memory entries of the plan shown. */
export function selectedMemory(st: State): string[] {
  return (st.plan?.memory ?? []).filter((m) => st.memorySelected[m.key]).map((m) => m.key);
}

/** reviewOpen: the plan shown is this user's draft, so hunks and edits can be chosen. */
export function reviewOpen(st: State): PlanRecord | null {
  const p = st.plan;
  return p && !p.foreign && p.state === "draft" ? p : null;
}

/** draftReview: re-planning the draft shown tells the model what the user ticked,
 * rejected or edited in it (nothing when everything is taken as proposed). */
export function draftReview(st: State, previous?: string): { review?: { paths: string[]; files: FileChoice[] } } {
  const p = reviewOpen(st);
  if (!p || !previous || p.id !== previous) return {};
  const r = st.review;
  const paths = selectedPaths(st);
  if (paths.length === p.changes.length && Object.keys(r.rejected).length === 0 && Object.keys(r.edits).length === 0) return {};
  return { review: { paths, files: fileChoices(p, st.selected, r) } };
}

/** untickedReview forgets the rejections of files ticked again after every hunk was rejected. */
function untickedReview(st: State, paths: string[]): ReviewState {
  const r = st.review;
  const rejected = { ...r.rejected };
  const previews = { ...r.previews };
  for (const path of paths) {
    const c = st.plan?.changes.find((x) => x.path === path);
    if (c && (rejected[path] ?? []).length >= splitDiff(c.diff).hunks.length) {
      delete rejected[path];
      delete previews[path];
    }
  }
  return { ...r, rejected, previews };
}

export function selectionSlice(c: Core) {
  const review = () => c.get().review;

  /** previewFile asks the Go side what applying path's choices writes (nothing: null). */
  const previewFile = async (path: string, content?: string, onError: (e: unknown) => void = (e) => c.fail(e)): Promise<boolean> => {
    const p = reviewOpen(c.get());
    const ch = p?.changes.find((x) => x.path === path);
    if (!p || !ch) return false;
    const r = review();
    const fc = content !== undefined ? { path, hunks: null, content } : fileChoice(ch, r);
    const previews = { ...r.previews };
    if (!fc || (fc.hunks && fc.hunks.length === 0)) {
      if (fc) previews[path] = null;
      else delete previews[path];
      c.set({ review: { ...review(), previews } });
      return true;
    }
    try {
      const out = await c.backend.previewSelection({ plan_id: p.id, paths: [path], memory_keys: [], files: [fc] });
      if (c.get().plan?.id !== p.id) return false;
      previews[path] = out.find((x) => x.path === path) ?? null;
      c.set({ review: { ...review(), previews } });
      return true;
    } catch (e) {
      onError(e);
      return false;
    }
  };

  /** setHunk accepts or rejects one hunk and previews what the file's choices write.
   * A file whose every hunk is rejected is unticked; accepting a hunk ticks it again. */
  const setHunk = async (path: string, n: number, accept: boolean) => {
    const st = c.get();
    const p = reviewOpen(st);
    const ch = p?.changes.find((x) => x.path === path);
    if (!p || !ch || !reviewable(ch) || st.review.edits[path] !== undefined) return;
    const rejected = withHunk(st.review.rejected, path, n, accept);
    const all = splitDiff(ch.diff).hunks.length;
    const none = (rejected[path] ?? []).length >= all;
    c.set({ review: { ...st.review, rejected, focus: { path, n } }, selected: { ...st.selected, [path]: !none } });
    await previewFile(path);
  };

  /** openEditor opens a proposal in the editor: the user's earlier edit, else the proposed text. */
  const openEditor = async (path: string) => {
    const p = reviewOpen(c.get());
    const ch = p?.changes.find((x) => x.path === path);
    if (!p || !ch || !editable(ch)) return;
    try {
      // The editor starts from what would be written now: the accepted hunks.
      const fc = fileChoice(ch, { ...review(), edits: {} });
      const pr = await c.backend.proposedText(p.id, path, fc?.hunks ?? null);
      if (c.get().plan?.id !== p.id) return;
      c.set({ review: { ...review(), editing: { ...pr, text: review().edits[path] ?? pr.after } } });
    } catch (e) {
      c.fail(e);
    }
  };

  /** discardEdit drops the user's text for path: the proposal applies again. */
  const discardEdit = async (path: string) => {
    const r = review();
    const edits = { ...r.edits };
    delete edits[path];
    const previews = { ...r.previews };
    delete previews[path];
    c.set({ review: { ...r, edits, previews } });
  };

  /** saveEdit keeps the user's text for the file being edited once the Go side has
   * checked and previewed it (an invalid text keeps the editor open with the error). */
  const saveEdit = async (text: string) => {
    const ed = review().editing;
    if (!ed) return;
    if (text === ed.after) {
      await discardEdit(ed.path);
      c.set({ review: { ...review(), editing: null } });
      return;
    }
    c.set({ review: { ...review(), editing: { ...ed, error: undefined } } });
    // A refusal is shown in the editor, which stays open with the text.
    const refused = (e: unknown) => {
      const err = toAppError(e);
      const cur = review().editing;
      if (cur?.path === ed.path) c.set({ review: { ...review(), editing: { ...cur, error: `${err.code}: ${err.message}${err.hint ? ` — ${err.hint}` : ""}` } } });
    };
    if (!(await previewFile(ed.path, text, refused))) return;
    const r = review();
    const rejected = { ...r.rejected };
    delete rejected[ed.path];
    c.set({ review: { ...r, edits: { ...r.edits, [ed.path]: text }, rejected, editing: null }, selected: { ...c.get().selected, [ed.path]: true } });
  };

  /** The per-hunk review and hand edits of the plan shown (what the diff view calls). */
  const reviewActions: ReviewActions = {
    setHunk: (path, n, accept) => void setHunk(path, n, accept),
    toggleHunk: (path, n) => void setHunk(path, n, (review().rejected[path] ?? []).includes(n)),
    focus: (path, n) => c.set({ review: { ...review(), focus: { path, n } } }),
    step: (dir) => {
      const p = c.get().plan;
      if (p) c.set({ review: { ...review(), focus: step(p, review(), dir) } });
    },
    edit: (path) => void openEditor(path),
    save: (text) => void saveEdit(text),
    discard: (path) => void discardEdit(path),
    close: () => c.set({ review: { ...review(), editing: null } }),
  };

  return {
    reviewActions,
    setHunk,
    openEditor,
    saveEdit,
    discardEdit,

    toggleChange: (path: string) => {
      const st = c.get();
      const on = !st.selected[path];
      c.set({ selected: { ...st.selected, [path]: on }, review: on ? untickedReview(st, [path]) : st.review });
    },
    setAllChanges: (on: boolean) => {
      const st = c.get();
      const selected: Record<string, boolean> = {};
      for (const ch of st.plan?.changes ?? []) selected[ch.path] = on;
      c.set({ selected, review: on ? untickedReview(st, Object.keys(selected)) : st.review });
    },
    toggleMemory: (key: string) => {
      const sel = c.get().memorySelected;
      c.set({ memorySelected: { ...sel, [key]: !sel[key] } });
    },
    selectedPaths: () => selectedPaths(c.get()),
    selectedMemory: () => selectedMemory(c.get()),
  };
}
