import { useEffect } from "react";
import type { Toast as ToastState } from "../state/slices/editor";

/** NOTE_MS is how long a note stays; an error stays until it is dismissed. */
export const NOTE_MS = 8000;

type Props = { toast: ToastState; onDismiss: () => void };

/** Toast shows, over the page, what the editor was asked to open, or why it could not be. */
export function Toast({ toast, onDismiss }: Props) {
  useEffect(() => {
    if (toast.kind !== "note") return;
    const t = setTimeout(onDismiss, NOTE_MS);
    return () => clearTimeout(t);
  }, [toast, onDismiss]);
  const error = toast.kind === "error" ? toast.error : null;
  return (
    <div className={`toast toast-${toast.kind}`} role={error ? "alert" : "status"} data-testid="toast" data-kind={toast.kind}>
      <div className="toast-head">
        <span className="toast-text">{error ? error.message : toast.kind === "note" ? toast.text : ""}</span>
        {error && <code className="code">{error.code}</code>}
        <button className="link" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      </div>
      {error?.hint && <p className="hint small">{error.hint}</p>}
    </div>
  );
}
