import type { AppError } from "../api/types";

/** ErrorAlert shows what went wrong, what to do, and the files concerned. */
export function ErrorAlert({ error, onDismiss }: { error: AppError; onDismiss: () => void }) {
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
