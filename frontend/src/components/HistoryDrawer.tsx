import type { HistoryItem } from "../api/types";

/** HistoryDrawer lists the project's plans; a click reopens one. Plans not made by
 * this user's fixplan (foreign) carry a badge: they can be read, never applied. */
export function HistoryDrawer({ items, onOpen, onClose }: { items: HistoryItem[]; onOpen: (id: string) => void; onClose: () => void }) {
  return (
    <aside className="drawer" aria-label="History" data-testid="history-drawer">
      <div className="row">
        <h2>History</h2>
        <span className="spacer" />
        <button onClick={onClose}>Close</button>
      </div>
      {items.length === 0 && <p className="muted">No plans yet.</p>}
      <ul className="history">
        {items.map((h) => (
          <li key={h.id}>
            <button className="history-item" data-testid="history-item" data-id={h.id} data-foreign={h.foreign ? "true" : undefined} onClick={() => onOpen(h.id)}>
              <span className={`badge state-${h.state}`}>{h.state}</span>{" "}
              {h.foreign && (
                <>
                  <span className="badge foreign" data-testid="foreign-badge" title="Not sealed with your key: it came with the project or was edited. It can be read, never applied or run.">
                    foreign — not made by you
                  </span>{" "}
                </>
              )}
              {h.created_at && !h.created_at.startsWith("0001-") && <span className="muted small">{h.created_at}</span>}
              <div>{h.summary || h.problem.slice(0, 80)}</div>
              <div className="muted small" data-testid="history-files">
                {h.files} file change{h.files === 1 ? "" : "s"}
                {h.plan_only && " · plan only"}
                {h.approved_plan && ` · written for the approved plan ${h.approved_plan}`}
              </div>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
