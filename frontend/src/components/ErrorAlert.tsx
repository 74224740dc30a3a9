import { useEffect, useRef } from "react";
import type { AppError } from "../api/types";

type Props = {
  error: AppError;
  onDismiss: () => void;
  onReplan?: () => void;
  /** focusOnShow scrolls the message into view and moves the keyboard focus to it
   * (a failure of a button far down the page is not seen otherwise). */
  focusOnShow?: boolean;
};

/** ErrorAlert shows what went wrong, what to do, and the files concerned. */
export function ErrorAlert({ error, onDismiss, onReplan, focusOnShow }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!focusOnShow || !el) return;
    el.scrollIntoView?.({ block: "nearest" });
    el.focus({ preventScroll: true });
  }, [focusOnShow, error]);
  const multiline = error.message.includes("\n");
  const [first, ...rest] = error.message.split("\n");
  return (
    <div className="alert" role="alert" data-testid="error" ref={ref} tabIndex={focusOnShow ? -1 : undefined}>
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
