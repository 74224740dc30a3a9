import { lazy, Suspense, useEffect } from "react";
import type { FileChange, PlanRecord, Review } from "../api/types";
import { changeRef, type FileRef } from "../state/jump";
import { editable, reviewable, type ReviewActions, type ReviewState } from "../state/review";
import { DiffView } from "./DiffView";
import { HunkReview, hunkId } from "./HunkReview";
import { OpenFile } from "./OpenFile";

// CodeMirror is fetched only when the user edits a proposal.
const ProposalEditor = lazy(() => import("./ProposalEditor"));

type Props = {
  changes: FileChange[];
  selected: Record<string, boolean>;
  layout: "side-by-side" | "line-by-line";
  readOnly: boolean;
  onToggle: (path: string) => void;
  onAll: (on: boolean) => void;
  onLayout: (l: "side-by-side" | "line-by-line") => void;
  /** review and reviewActions turn on per-hunk review and Edit (a draft of the user's own). */
  review?: ReviewState;
  reviewActions?: ReviewActions;
  /** recorded is what the user rejected or edited when this plan was applied (shown read-only). */
  recorded?: Review | null;
  /** onOpen opens a file of the plan in the user's editor (its header and hunks link there);
   * state says which side of the diffs is on disk. Absent: no links. */
  onOpen?: (at: FileRef) => void;
  state?: PlanRecord["state"];
};

/** elsewhere: the key went to a text field, an editor, or a dialog or drawer open over
 * the plan (Settings, History, Journals), not to the review. */
function elsewhere(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return true;
  return !!document.querySelector('[role="dialog"], .drawer');
}

/** placementNote words how the model's edits were placed in the file, naming only
 * those placed by a looser match than an exact one ("" when every one matched exactly:
 * nothing to check). The Go side numbers them as the model's edits, not as the diff's hunks. */
export function placementNote(placement?: string[] | null): string {
  const loose: string[] = [];
  (placement ?? []).forEach((p, i) => {
    const sr = /^edit (\d+): (.*?) at line (\d+)\s*(.*)$/.exec(p);
    if (sr) {
      if (sr[2] !== "exact") loose.push(`edit ${sr[1]} at line ${sr[3]}, ${sr[2].replace(/^fuzzy: /, "ignoring ")}${sr[4] ? ` ${sr[4]}` : ""}`);
    } else if (p !== "exact") loose.push(`patch hunk ${i + 1}: ${p}`);
  });
  return loose.length ? `placed by a looser match — ${loose.join("; ")}` : "";
}

/** ChangeList lists every file change with its op badge, a checkbox and its diff; on a
 * draft each hunk of a changed file can be accepted or rejected (keys: j/k or n/p next
 * and previous hunk, a accept, r reject, e edit the file), and a created or changed
 * file's proposed text can be edited by hand. */
/** editDiffShown titles a recorded hand edit's diff by its file: records made before
 * fixplan wrote the file's path on both sides label them "proposed/P" and
 * "operator/P", which a diff view reads as a rename. */
export function editDiffShown(diff: string): string {
  return diff.replace(/^--- proposed\/(.+)\n\+\+\+ operator\/\1\n/m, "--- $1\n+++ $1\n");
}

/** fileHeader is a change's file name: a link that opens it in the editor at its first
 * change, when the file is on disk and links are on. */
function fileHeader(c: FileChange, state: PlanRecord["state"], onOpen?: (at: FileRef) => void) {
  const name = <code className="file">{c.path}</code>;
  const at = onOpen ? changeRef(c, state) : null;
  return at && onOpen ? (
    <OpenFile at={at} onOpen={onOpen} className="file-link">
      {name}
    </OpenFile>
  ) : (
    name
  );
}

export function ChangeList({ changes, selected, layout, readOnly, onToggle, onAll, onLayout, review, reviewActions, recorded, onOpen, state = "draft" }: Props) {
  const reviewing = !readOnly && !!review && !!reviewActions;
  const editing = review?.editing ?? null;
  const focus = review?.focus ?? null;
  useEffect(() => {
    if (!reviewing || editing || !reviewActions) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || elsewhere(e.target)) return;
      switch (e.key) {
        case "j":
        case "n":
          reviewActions.step(1);
          break;
        case "k":
        case "p":
          reviewActions.step(-1);
          break;
        case "a":
          if (focus) reviewActions.setHunk(focus.path, focus.n, true);
          break;
        case "r":
          if (focus) reviewActions.setHunk(focus.path, focus.n, false);
          break;
        case "e":
          if (focus) reviewActions.edit(focus.path);
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [reviewing, editing, focus, reviewActions]);
  useEffect(() => {
    if (focus) document.getElementById(hunkId(focus.path, focus.n))?.scrollIntoView?.({ block: "nearest" });
  }, [focus]);
  if (changes.length === 0) return <p className="muted">No file changes.</p>;
  const n = changes.filter((c) => selected[c.path]).length;
  return (
    <div className="changes">
      <div className="row">
        <span>
          {n} of {changes.length} file{changes.length === 1 ? "" : "s"} selected
        </span>
        {!readOnly && (
          <>
            <button className="link" onClick={() => onAll(true)}>
              all
            </button>
            <button className="link" onClick={() => onAll(false)}>
              none
            </button>
          </>
        )}
        <span className="spacer" />
        {reviewing && (
          <span className="muted small" data-testid="review-keys" title="Review the hunks with the keyboard">
            keys: j/k next/previous hunk · a accept · r reject · e edit
          </span>
        )}
        <label className="small">
          <input type="checkbox" checked={layout === "side-by-side"} onChange={(e) => onLayout(e.target.checked ? "side-by-side" : "line-by-line")} />{" "}
          side by side
        </label>
      </div>
      {reviewing && review && (Object.keys(review.rejected).length > 0 || Object.keys(review.edits).length > 0) && (
        <p className="muted small" data-testid="review-not-verified">
          Verify now checks the plan as you chose it: the ticked files, the accepted hunks and your own text.
        </p>
      )}
      {changes.map((c) => {
        const edited = reviewing && review?.edits[c.path] !== undefined;
        const rejected = (reviewing && review?.rejected[c.path]) || [];
        const pv = review?.previews[c.path];
        const rec = readOnly ? recorded?.files.find((f) => f.path === c.path) : undefined;
        return (
          <details className="change" key={c.path} data-testid="change-row" data-path={c.path} open>
            <summary>
              <input
                type="checkbox"
                data-testid="change-check"
                aria-label={`Apply ${c.path}`}
                checked={!!selected[c.path]}
                disabled={readOnly}
                onChange={() => onToggle(c.path)}
                onClick={(e) => e.stopPropagation()}
              />
              <span className={`badge op-${c.op}`}>{c.op}</span>
              {fileHeader(c, state, onOpen)}
              {(edited || rec?.edited) && (
                <span className="badge edited" data-testid="edited-badge">
                  edited by you
                </span>
              )}
              {(rec?.rejected ?? rejected).length > 0 && (
                <span className="badge hunk-rejected" data-testid="rejected-count">
                  {(rec?.rejected ?? rejected).length} hunk{(rec?.rejected ?? rejected).length === 1 ? "" : "s"} rejected
                </span>
              )}
              {(c.flags ?? []).map((f) => (
                <span className="flag" key={f}>
                  {f}
                </span>
              ))}
              {!edited && placementNote(c.placement) && (
                <span className="placement" data-testid="placement" title="Where the model's edits did not match the file exactly and were placed by a looser match: check these spots">
                  {placementNote(c.placement)}
                </span>
              )}
              {reviewing && editable(c) && (
                <span className="change-actions" onClick={(e) => e.preventDefault()}>
                  <button className="small" data-testid="edit-file" title="Edit the proposed text (e)" onClick={() => reviewActions?.edit(c.path)}>
                    {edited ? "Edit again" : "Edit"}
                  </button>
                  {edited && (
                    <button className="small" data-testid="discard-edit" onClick={() => reviewActions?.discard(c.path)}>
                      Use the proposal
                    </button>
                  )}
                </span>
              )}
            </summary>
            {rec?.edited ? (
              <div className="selection-preview" data-testid="recorded-edit" data-path={c.path}>
                <p className="muted small">You wrote your own version when applying; how it differed from this proposal:</p>
                <DiffView diff={editDiffShown(rec.edit_diff ?? "")} layout={layout} />
                <details>
                  <summary className="small">The proposal</summary>
                  <DiffView diff={c.diff} layout={layout} />
                </details>
              </div>
            ) : rec?.unticked ? (
              <>
                <p className="muted small" data-testid="recorded-unticked">
                  Left out when the plan was applied.
                </p>
                <DiffView diff={c.diff} layout={layout} />
              </>
            ) : rec && (rec.rejected ?? []).length > 0 ? (
              <HunkReview change={c} layout={layout} rejected={rec.rejected ?? []} focused={null} />
            ) : edited ? (
              <div className="selection-preview" data-testid="selection-preview" data-path={c.path}>
                <p className="muted small">Your version is what will be written:</p>
                {(pv?.flags ?? []).map((f) => (
                  <span className="flag" key={f}>
                    {f}
                  </span>
                ))}
                {pv ? <DiffView diff={pv.diff} layout={layout} /> : <p className="muted small">It leaves the file as it is: nothing is written.</p>}
              </div>
            ) : reviewing && reviewable(c) && review && reviewActions ? (
              <>
                <HunkReview change={c} layout={layout} rejected={rejected} focused={focus?.path === c.path ? focus.n : null} actions={reviewActions} onOpen={onOpen} />
                {rejected.length > 0 && (
                  <details className="selection-preview" data-testid="selection-preview" data-path={c.path}>
                    <summary className="small">What will be written (the accepted hunks)</summary>
                    {(pv?.flags ?? []).map((f) => (
                      <span className="flag" key={f}>
                        {f}
                      </span>
                    ))}
                    {pv ? <DiffView diff={pv.diff} layout={layout} /> : <p className="muted small">Every hunk is rejected: nothing is written to this file.</p>}
                  </details>
                )}
              </>
            ) : (
              <DiffView diff={c.diff} layout={layout} />
            )}
          </details>
        );
      })}
      {reviewing && editing && reviewActions && (
        <Suspense fallback={<p className="muted small">Loading the editor…</p>}>
          <ProposalEditor proposed={editing} onSave={reviewActions.save} onCancel={reviewActions.close} />
        </Suspense>
      )}
    </div>
  );
}
