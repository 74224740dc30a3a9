import type { FileChange } from "../api/types";
import { hunkLine, type FileRef, type Side } from "../state/jump";
import { splitDiff, type ReviewActions } from "../state/review";
import { DiffView } from "./DiffView";
import { OpenFile } from "./OpenFile";

type Props = {
  change: FileChange;
  layout: "side-by-side" | "line-by-line";
  /** rejected are this file's rejected hunks. */
  rejected: number[];
  /** focused is the hunk of this file the keyboard acts on, if any. */
  focused: number | null;
  /** actions are absent on a plan already applied: the hunks are only shown as they were chosen. */
  actions?: ReviewActions;
  /** onOpen opens a hunk's place in the user's editor, on side (the one on disk); absent: no links. */
  onOpen?: (at: FileRef) => void;
  side?: Side;
};

/** hunkId is the DOM id of a hunk block (the keyboard scrolls it into view). */
export function hunkId(path: string, n: number): string {
  return `hunk-${encodeURIComponent(path)}-${n}`;
}

/** HunkReview shows one file's diff hunk by hunk, each with Accept and Reject: what
 * is applied is exactly the accepted hunks (numbered as `fixplan apply --hunks`). */
export function HunkReview({ change, layout, rejected, focused, actions, onOpen, side = "old" }: Props) {
  const { head, hunks } = splitDiff(change.diff);
  return (
    <div className="hunks" data-testid="hunks" data-path={change.path}>
      {hunks.map((h) => {
        const rej = rejected.includes(h.n);
        // The button pressed is disabled at once: the focus stays on its hunk instead
        // of falling to the page (a, r and j/k go on from there).
        const decide = (e: React.MouseEvent<HTMLButtonElement>, accept: boolean) => {
          (e.currentTarget.closest(".hunk-block") as HTMLElement | null)?.focus();
          actions?.setHunk(change.path, h.n, accept);
        };
        return (
          <div
            key={h.n}
            id={hunkId(change.path, h.n)}
            className={`hunk-block ${rej ? "rejected" : "accepted"}${focused === h.n ? " focused" : ""}`}
            data-testid="hunk"
            data-path={change.path}
            data-n={h.n}
            data-state={rej ? "rejected" : "accepted"}
            tabIndex={-1}
            aria-label={`Hunk ${h.n} of ${hunks.length} of ${change.path}, ${rej ? "rejected" : "accepted"}`}
            onClick={() => actions?.focus(change.path, h.n)}
          >
            <div className="hunk-bar row">
              <span className="small">
                Hunk {h.n} of {hunks.length}
              </span>
              <span className={`badge ${rej ? "hunk-rejected" : "hunk-accepted"}`}>{rej ? "rejected: not applied" : "accepted"}</span>
              {onOpen && (
                <OpenFile at={{ path: change.path, line: hunkLine(h.text, side) }} onOpen={onOpen} className="small">
                  line {hunkLine(h.text, side)} ↗
                </OpenFile>
              )}
              <span className="spacer" />
              {actions && (
                <>
                  <button className="small" data-testid="hunk-accept" disabled={!rej} title="Accept this hunk (a)" onClick={(e) => decide(e, true)}>
                    Accept
                  </button>
                  <button className="small" data-testid="hunk-reject" disabled={rej} title="Reject this hunk (r)" onClick={(e) => decide(e, false)}>
                    Reject
                  </button>
                </>
              )}
            </div>
            <DiffView diff={head + h.text} layout={layout} />
          </div>
        );
      })}
    </div>
  );
}
