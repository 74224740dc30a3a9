import type { HistoryItem } from "../api/types";

/** HistoryDrawer lists the project's plans; a click reopens one. */
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
            <button className="history-item" onClick={() => onOpen(h.id)}>
              <span className={`badge state-${h.state}`}>{h.state}</span> <span className="muted small">{h.created_at}</span>
              <div>{h.summary || h.problem.slice(0, 80)}</div>
              <div className="muted small">{h.files} file change{h.files === 1 ? "" : "s"}</div>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
