import type { AppError } from "../api/types";

/** ErrorAlert shows what went wrong, what to do, and the files concerned. */
export function ErrorAlert({ error, onDismiss, onReplan }: { error: AppError; onDismiss: () => void; onReplan?: () => void }) {
  const multiline = error.message.includes("\n");
  const [first, ...rest] = error.message.split("\n");
  return (
    <div className="alert" role="alert" data-testid="error">
      <div className="alert-head">
        <strong>{first}</strong>
        <code className="code">{error.code}</code>
        <button className="link" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      </div>
      {multiline && <pre className="hunk">{rest.join("\n")}</pre>}
      {error.hint && <p className="hint">{error.hint}</p>}
      {onReplan && (
        <button className="primary" data-testid="error-replan" onClick={onReplan}>
          Re-plan from the files as they are now
        </button>
      )}
      {error.paths.length > 0 && (
        <ul className="paths">
          {error.paths.map((p) => (
            <li key={p}>
              <code>{p}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
