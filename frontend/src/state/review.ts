// Per-hunk review and hand edits of a plan's changes, as pure functions the store
// uses. Hunks are numbered from 1 in the order the preview diff shows its "@@"
// lines — the same numbering the Go side (apply.ParseHunks) and
// `fixplan apply --hunks PATH:N` use.
import type { FileChange, FileChoice, PlanRecord, Proposed } from "../api/types";

export type HunkText = { n: number; header: string; text: string };

/** splitDiff splits one file's diff into its header (diff --git, ---, +++) and its hunks. */
export function splitDiff(diff: string): { head: string; hunks: HunkText[] } {
  const lines = diff.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const head: string[] = [];
  const hunks: HunkText[] = [];
  let cur: string[] | null = null;
  const flush = () => {
    if (cur) hunks.push({ n: hunks.length + 1, header: cur[0], text: cur.join("\n") + "\n" });
  };
  for (const l of lines) {
    if (l.startsWith("@@ ")) {
      flush();
      cur = [l];
    } else if (cur) {
      cur.push(l);
    } else {
      head.push(l);
    }
  }
  flush();
  return { head: head.length ? head.join("\n") + "\n" : "", hunks };
}

/** hunkDiff is one hunk as a diff of its own (the file header plus the hunk), for the diff viewer. */
export function hunkDiff(head: string, h: HunkText): string {
  return head + h.text;
}

/** ReviewState is what the user decided about the shown plan's changes. */
export type ReviewState = {
  /** rejected lists the rejected hunks of each file. */
  rejected: Record<string, number[]>;
  /** edits holds the user's own content for a file, in place of the proposal. */
  edits: Record<string, string>;
  /** previews is what applying a file's choices writes (recomputed by the Go side); null: nothing. */
  previews: Record<string, FileChange | null>;
  /** focus is the hunk the keyboard acts on. */
  focus: { path: string; n: number } | null;
  /** editing is the proposal open in the editor, with the text it starts from and why
   * the last text saved was refused. */
  editing: (Proposed & { text: string; error?: string }) | null;
};

export const emptyReview: ReviewState = { rejected: {}, edits: {}, previews: {}, focus: null, editing: null };

/** reviewable: a change whose hunks can be accepted or rejected one by one (a
 * changed file; a created or deleted file is taken or left whole by its tick). */
export function reviewable(c: FileChange): boolean {
  return c.op === "update" && c.diff.includes("\n@@ ");
}

/** editable: a change whose new text the user can edit by hand. */
export function editable(c: FileChange): boolean {
  return c.op === "update" || c.op === "create";
}

/** fileChoice is what the Go side gets for one file, or null when the user took the proposal as it is. */
export function fileChoice(c: FileChange, r: ReviewState): FileChoice | null {
  const edit = r.edits[c.path];
  if (edit !== undefined) return { path: c.path, hunks: null, content: edit };
  const rej = r.rejected[c.path] ?? [];
  if (rej.length === 0) return null;
  const all = splitDiff(c.diff).hunks.map((h) => h.n);
  return { path: c.path, hunks: all.filter((n) => !rej.includes(n)), content: null };
}

/** fileChoices are the choices for the ticked files of plan. */
export function fileChoices(plan: PlanRecord, selected: Record<string, boolean>, r: ReviewState): FileChoice[] {
  const out: FileChoice[] = [];
  for (const c of plan.changes) {
    if (!selected[c.path]) continue;
    const fc = fileChoice(c, r);
    if (fc) out.push(fc);
  }
  return out;
}

/** hunkStops are the hunks the keyboard visits, in the order they are shown
 * (files edited by hand have none: their edit replaces the hunks). */
export function hunkStops(plan: PlanRecord, r: ReviewState): { path: string; n: number }[] {
  const out: { path: string; n: number }[] = [];
  for (const c of plan.changes) {
    if (r.edits[c.path] !== undefined || !reviewable(c)) continue;
    for (const h of splitDiff(c.diff).hunks) out.push({ path: c.path, n: h.n });
  }
  return out;
}

/** step moves the focus to the next (+1) or previous (-1) hunk. */
export function step(plan: PlanRecord, r: ReviewState, dir: 1 | -1): { path: string; n: number } | null {
  const stops = hunkStops(plan, r);
  if (stops.length === 0) return null;
  const i = r.focus ? stops.findIndex((s) => s.path === r.focus?.path && s.n === r.focus?.n) : -1;
  if (i < 0) return dir === 1 ? stops[0] : stops[stops.length - 1];
  return stops[Math.min(stops.length - 1, Math.max(0, i + dir))];
}

/** withHunk returns the rejected lists with hunk n of path accepted or rejected. */
export function withHunk(rejected: Record<string, number[]>, path: string, n: number, accept: boolean): Record<string, number[]> {
  const cur = (rejected[path] ?? []).filter((x) => x !== n);
  const next = accept ? cur : [...cur, n].sort((a, b) => a - b);
  const out = { ...rejected };
  if (next.length) out[path] = next;
  else delete out[path];
  return out;
}

/** ReviewActions are what the diff view calls (the store implements them). */
export type ReviewActions = {
  setHunk: (path: string, n: number, accept: boolean) => void;
  toggleHunk: (path: string, n: number) => void;
  focus: (path: string, n: number) => void;
  step: (dir: 1 | -1) => void;
  edit: (path: string) => void;
  save: (text: string) => void;
  discard: (path: string) => void;
  close: () => void;
};
