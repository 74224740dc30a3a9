import { useEffect, useRef, type RefObject } from "react";

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/** focusables lists what Tab can reach inside el, in document order. */
export function focusables(el: HTMLElement): HTMLElement[] {
  return Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE));
}

/** useModal makes el a modal dialog for the keyboard: focus moves into it when it
 * opens (unless something inside already has it), Tab and Shift+Tab stay inside,
 * Escape calls onEscape (a key already handled inside, e.g. by the editor, is left
 * alone), and focus goes back to what had it before once the dialog closes. */
export function useModal(el: RefObject<HTMLElement>, onEscape: () => void) {
  const esc = useRef(onEscape);
  esc.current = onEscape;
  useEffect(() => {
    const box = el.current;
    if (!box) return;
    const before = document.activeElement as HTMLElement | null;
    if (!box.contains(document.activeElement)) (focusables(box)[0] ?? box).focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        if (e.defaultPrevented) return;
        e.preventDefault();
        esc.current();
        return;
      }
      if (e.key !== "Tab") return;
      const all = focusables(box);
      if (all.length === 0) {
        e.preventDefault();
        return;
      }
      const first = all[0];
      const last = all[all.length - 1];
      const at = document.activeElement;
      if (e.shiftKey && (at === first || !box.contains(at))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (at === last || !box.contains(at))) {
        e.preventDefault();
        first.focus();
      }
    };
    // Listening on the document: a key pressed while the focus has slipped out still acts here.
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (before && before.isConnected && before !== document.body) before.focus();
    };
  }, [el]);
}
