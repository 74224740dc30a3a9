import { useEffect, useLayoutEffect, useRef } from "react";
import type { Toast as ToastState } from "../state/slices/editor";

/** NOTE_MS is how long a note stays; an error stays until it is dismissed. */
export const NOTE_MS = 8000;

/** TOAST_GAP is the toast's distance from the window's bottom edge (.toast bottom) and
 * the room left above it. */
export const TOAST_GAP = 16;

/** useRoomBelow gives the page, while el is shown, bottom padding as tall as el and
 * its gaps, so what the fixed toast covers (a Run button, a hunk's Accept and Reject
 * at the end of the page) can be scrolled out from under it. */
function useRoomBelow(el: React.RefObject<HTMLElement>) {
  useLayoutEffect(() => {
    const box = el.current;
    if (!box) return;
    const body = document.body;
    const before = body.style.paddingBottom;
    const fit = () => {
      body.style.paddingBottom = `${Math.ceil(box.getBoundingClientRect().height) + 2 * TOAST_GAP}px`;
    };
    fit();
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(fit);
    ro?.observe(box);
    return () => {
      ro?.disconnect();
      body.style.paddingBottom = before;
    };
  }, [el]);
}

type Props = { toast: ToastState; onDismiss: () => void };

/** Toast shows, over the page, what the editor was asked to open, or why it could not be. */
export function Toast({ toast, onDismiss }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useRoomBelow(box);
  useEffect(() => {
    if (toast.kind !== "note") return;
    const t = setTimeout(onDismiss, NOTE_MS);
    return () => clearTimeout(t);
  }, [toast, onDismiss]);
  const error = toast.kind === "error" ? toast.error : null;
  return (
    <div className={`toast toast-${toast.kind}`} role={error ? "alert" : "status"} data-testid="toast" data-kind={toast.kind} ref={box}>
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
