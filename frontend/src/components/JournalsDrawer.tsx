import { useEffect, useRef, useState, type ReactNode } from "react";
import { discardable, type JournalInfo } from "../api/types";

type Props = {
  items: JournalInfo[];
  /** discarding is the id being discarded; every Discard button waits meanwhile. */
  discarding: string | null;
  onDiscard: (id: string) => void;
  /** planSummary names a plan by its summary when it is known ("" otherwise). */
  planSummary?: (id: string) => string;
  onClose: () => void;
  /** children are shown under the heading (the error of the last action). */
  children?: ReactNode;
};

const stateText: Record<string, string> = {
  committed: "committed",
  rolled_back: "rolled back",
  undone: "undone",
  held: "held",
  quarantined: "quarantined",
  applying: "applying",
  undoing: "undoing",
};

/** stateHelp says what a journal's state means, for people. */
export function stateHelp(state: string): string {
  switch (state) {
    case "committed":
      return "Applied changes: the undo history. It cannot be discarded here.";
    case "rolled_back":
      return "An interrupted apply that was rolled back.";
    case "undone":
      return "Applied changes that were undone.";
    case "held":
      return "A recovery could not finish; set aside. It blocks nothing.";
    case "quarantined":
      return "Not written by your fixplan (it may have come with the project) or malformed; set aside and never obeyed.";
  }
  return "Not finished yet.";
}

function when(created?: string): string {
  if (!created || created.startsWith("0001-")) return "";
  const d = new Date(created);
  if (Number.isNaN(d.getTime())) return created;
  // As History writes dates: 2026-11-22 10:00:00 (local time).
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** JournalsDrawer lists the project's transactions and the folders a recovery set
 * aside, with where every saved original is; Discard deletes one that needs no
 * more work (never the undo history). */
export function JournalsDrawer({ items, discarding, onDiscard, onClose, children, planSummary }: Props) {
  const ref = useRef<HTMLElement>(null);
  // Discard deletes a folder for good: it asks first, in place.
  const [asking, setAsking] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  // Escape closes the drawer wherever the focus is.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  // A discarded journal takes its focused button with it: keep the focus in the drawer.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) ref.current?.focus();
  }, [items]);
  return (
    <aside
      className="drawer"
      aria-label="Journals"
      data-testid="journals-drawer"
      ref={ref}
      tabIndex={-1}
    >
      <div className="row">
        <h2>Journals</h2>
        <span className="spacer" />
        <button onClick={onClose}>Close</button>
      </div>
      {children}
      {items.length === 0 && (
        <p className="muted" data-testid="journals-empty">
          No journals: nothing applied, nothing set aside.
        </p>
      )}
      <ul className="journals">
        {items.map((j) => {
          const entries = j.entries ?? [];
          const kept = j.kept ?? [];
          const busy = discarding === j.id;
          return (
            <li key={j.id} className={`journal journal-${j.state}`} data-testid="journal" data-id={j.id} data-state={j.state}>
              <div className="row journal-head">
                <span className={`badge state-${j.state}`} title={stateHelp(j.state)}>
                  {stateText[j.state] ?? j.state}
                </span>
                <code className="journal-id">{j.id}</code>
                {discardable(j) && (
                  <button
                    data-testid="journal-discard"
                    aria-label={`Discard ${j.id}`}
                    title={`Delete ${j.where}`}
                    onClick={() => setAsking(j.id)}
                    disabled={discarding !== null || asking === j.id}
                  >
                    {busy ? "Discarding…" : "Discard"}
                  </button>
                )}
              </div>
              {asking === j.id && !busy && (
                <div className="alert row" role="alertdialog" aria-label={`Delete ${j.id}?`} data-testid="journal-confirm">
                  <span className="small">
                    Delete <code>{j.where}</code> for good? It cannot be undone.
                  </span>
                  <span className="spacer" />
                  <button data-testid="journal-keep" onClick={() => setAsking(null)}>
                    Keep
                  </button>
                  <button
                    ref={confirmRef}
                    data-testid="journal-discard-confirm"
                    aria-label={`Delete ${j.id}`}
                    onClick={() => {
                      setAsking(null);
                      onDiscard(j.id);
                    }}
                  >
                    Delete
                  </button>
                </div>
              )}
              <p className="muted small journal-help">{stateHelp(j.state)}</p>
              <dl className="journal-facts">
                {j.plan_id && (
                  <>
                    <dt>Plan</dt>
                    <dd>
                      {planSummary?.(j.plan_id) ? <span data-testid="journal-plan-summary">“{planSummary(j.plan_id)}” </span> : null}
                      <code className="muted">{j.plan_id}</code>
                    </dd>
                  </>
                )}
                {when(j.created) && (
                  <>
                    <dt>Created</dt>
                    <dd>{when(j.created)}</dd>
                  </>
                )}
                <dt>Folder</dt>
                <dd>
                  <code data-testid="journal-where">{j.where}</code>
                </dd>
                {j.reason && (
                  <>
                    <dt>Reason</dt>
                    <dd data-testid="journal-reason">{j.reason}</dd>
                  </>
                )}
                {kept.length > 0 && (
                  <>
                    <dt>Kept as they are</dt>
                    <dd data-testid="journal-kept">
                      {kept.map((k, i) => (
                        <span key={k}>
                          {i > 0 && ", "}
                          <code>{k}</code>
                        </span>
                      ))}
                    </dd>
                  </>
                )}
              </dl>
              {entries.length > 0 && (
                <details className="journal-entries" data-testid="journal-entries">
                  <summary>
                    {entries.length} file{entries.length === 1 ? "" : "s"} and where each original is
                  </summary>
                  <ul>
                    {entries.map((en, i) => (
                      <li key={i}>
                        <span className={`badge op-${en.op}`}>{en.op}</span> <code className="file">{en.path}</code>{" "}
                        {en.original ? (
                          <span className="small">
                            original in <code>{en.original}</code>
                          </span>
                        ) : (
                          <span className="muted small">{en.op === "create" || en.op === "mkdir" ? "did not exist before" : "no saved original"}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
