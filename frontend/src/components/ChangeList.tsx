import type { FileChange } from "../api/types";
import { DiffView } from "./DiffView";

type Props = {
  changes: FileChange[];
  selected: Record<string, boolean>;
  layout: "side-by-side" | "line-by-line";
  readOnly: boolean;
  onToggle: (path: string) => void;
  onAll: (on: boolean) => void;
  onLayout: (l: "side-by-side" | "line-by-line") => void;
};

/** ChangeList lists every file change with its op badge, a checkbox and its diff. */
export function ChangeList({ changes, selected, layout, readOnly, onToggle, onAll, onLayout }: Props) {
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
        <label className="small">
          <input type="checkbox" checked={layout === "side-by-side"} onChange={(e) => onLayout(e.target.checked ? "side-by-side" : "line-by-line")} />{" "}
          side by side
        </label>
      </div>
      {changes.map((c) => (
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
            <code className="file">{c.path}</code>
            {(c.flags ?? []).map((f) => (
              <span className="flag" key={f}>
                {f}
              </span>
            ))}
            {(c.placement ?? []).some((p) => p !== "exact") && <span className="placement">hunks: {(c.placement ?? []).join("; ")}</span>}
          </summary>
          <DiffView diff={c.diff} layout={layout} />
        </details>
      ))}
    </div>
  );
}
