import type { ProjectInfo } from "../api/types";

type Props = {
  project: ProjectInfo | null;
  onOpen: () => void;
  onRecent: (path: string) => void;
  onHistory: () => void;
  onJournals: () => void;
  onSettings: () => void;
};

/** Header shows the project root at all times and the global actions. */
export function Header({ project, onOpen, onRecent, onHistory, onJournals, onSettings }: Props) {
  const recent = (project?.recent ?? []).filter((r) => r !== project?.root);
  return (
    <header className="header">
      <span className="brand">fixplan</span>
      <span className="root" data-testid="project-root" title={project?.root ?? ""}>
        {project ? project.root : "No project open"}
      </span>
      <button data-testid="open-project" onClick={onOpen}>
        Open folder…
      </button>
      {recent.length > 0 && (
        <select aria-label="Recent projects" value="" onChange={(e) => e.target.value && onRecent(e.target.value)}>
          <option value="">Recent…</option>
          {recent.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      )}
      <span className="spacer" />
      <button data-testid="history" onClick={onHistory} disabled={!project}>
        History
      </button>
      <button data-testid="journals" onClick={onJournals} disabled={!project} title="Transactions of applied changes and folders set aside">
        Journals
      </button>
      <button data-testid="settings" onClick={onSettings}>
        Settings
      </button>
    </header>
  );
}
