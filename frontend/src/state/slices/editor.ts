// Jump to the code: opening a file of the plan in the user's editor, and the toast
// that says how it went.
import { toAppError, type AppError } from "../../api/types";
import type { Core } from "../store";

/** Toast is a short message over the page: what the editor was asked to open, or why
 * it could not be. */
export type Toast = { kind: "note"; text: string } | { kind: "error"; error: AppError };

export type EditorState = {
  /** toast is the message shown over the page (null: none). */
  toast: Toast | null;
};

export const editorInitial: EditorState = { toast: null };

export function editorSlice(c: Core) {
  return {
    /** openInEditor opens path at line in the user's editor (Settings → Open files with). */
    async openInEditor(path: string, line: number) {
      try {
        c.set({ toast: { kind: "note", text: await c.backend.openInEditor(path, line) } });
      } catch (e) {
        c.set({ toast: { kind: "error", error: toAppError(e) } });
      }
    },

    dismissToast: () => c.set({ toast: null }),
  };
}
