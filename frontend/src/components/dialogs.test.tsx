import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { SettingsDialog } from "./SettingsDialog";
import { HunkReview } from "./HunkReview";
import { focusables } from "./useModal";
import { sampleSettings } from "../state/fakeBackend";
import type { FileChange } from "../api/types";
import type { ReviewActions } from "../state/review";

function settings(onSave = vi.fn(), onClose = vi.fn()) {
  render(
    <>
      <button data-testid="opener">Settings</button>
      <textarea data-testid="behind" />
    </>,
  );
  screen.getByTestId("opener").focus();
  const r = render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={[]} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={onClose} />);
  return { onSave, onClose, ...r };
}

describe("Settings validates numbers in the dialog", () => {
  it("says what is wrong next to the field, keeps the typed value, and disables Save", () => {
    const { onSave } = settings();
    const win = screen.getByTestId("context-window") as HTMLInputElement;
    fireEvent.change(win, { target: { value: "-5" } });
    fireEvent.change(screen.getByTestId("check-timeout"), { target: { value: "0" } });
    expect(win.value).toBe("-5");
    expect(win.getAttribute("aria-invalid")).toBe("true");
    const msgs = screen.getAllByTestId("field-error");
    expect(msgs.map((m) => m.getAttribute("data-field"))).toEqual(["context_window", "check_timeout_seconds"]);
    expect(msgs[0].textContent).toBe("Must be a whole number of tokens, 0 (ask the server) or more.");
    expect(msgs[1].textContent).toBe("Must be a whole number of seconds, at least 1.");
    expect(screen.getByTestId("save-blocked").textContent).toBe("Correct the 2 values marked above to save.");
    const save = screen.getByText("Save") as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(save);
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(win, { target: { value: "8192" } });
    fireEvent.change(screen.getByTestId("check-timeout"), { target: { value: "60" } });
    fireEvent.change(screen.getByTestId("verify-attempts"), { target: { value: "6" } });
    expect(screen.getByTestId("field-error").textContent).toBe("Must be a whole number from 0 to 5.");
    fireEvent.change(screen.getByTestId("verify-attempts"), { target: { value: "1" } });
    expect(screen.queryAllByTestId("field-error")).toHaveLength(0);
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ context_window: 8192, check_timeout_seconds: 60, verify_attempts: 1 });
  });
});

describe("Settings is a modal for the keyboard", () => {
  it("takes the focus, keeps Tab inside, closes on Esc and gives the focus back", () => {
    const { onClose, unmount } = settings();
    const dialog = screen.getByTestId("settings-dialog");
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(dialog.closest(".modal-backdrop")).not.toBeNull();
    const all = focusables(dialog);
    all[all.length - 1].focus();
    fireEvent.keyDown(document.activeElement as Element, { key: "Tab" });
    expect(document.activeElement).toBe(all[0]);
    fireEvent.keyDown(document.activeElement as Element, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(all[all.length - 1]);
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.activeElement).toBe(screen.getByTestId("opener"));
  });
});

const diff = "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n b\n@@ -9,2 +9,2 @@\n-c = 3\n+c = 4\n d\n";
const change: FileChange = { path: "app.py", op: "update", diff } as FileChange;

describe("hunk buttons keep the keyboard focus", () => {
  it("leaves the focus on the hunk when the pressed button becomes disabled", () => {
    const setHunk = vi.fn();
    render(<HunkReview change={change} layout="line-by-line" rejected={[]} focused={null} actions={{ setHunk, focus: vi.fn() } as unknown as ReviewActions} />);
    const reject = screen.getAllByTestId("hunk-reject")[1];
    reject.focus();
    fireEvent.click(reject);
    expect(setHunk).toHaveBeenCalledWith("app.py", 2, false);
    expect(document.activeElement).toBe(screen.getAllByTestId("hunk")[1]);
  });
});

describe("the merge editor", () => {
  async function editor(text = "a\nB\n") {
    const { default: ProposalEditor } = await import("./ProposalEditor");
    const onSave = vi.fn();
    const onCancel = vi.fn();
    render(
      <>
        <button data-testid="edit-file">Edit</button>
      </>,
    );
    screen.getByTestId("edit-file").focus();
    const r = render(<ProposalEditor proposed={{ path: "calc.py", before: "a\nb\n", after: "a\nB\n", text }} onSave={onSave} onCancel={onCancel} />);
    return { onSave, onCancel, ...r };
  }

  it("asks before Esc throws typed text away", async () => {
    const { onCancel } = await editor();
    const content = document.querySelector(".cm-merge-b .cm-content") as HTMLElement;
    // type into the editable side
    const { EditorView } = await import("@codemirror/view");
    const view = EditorView.findFromDOM(content)!;
    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: "mine\n" } }));
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onCancel).not.toHaveBeenCalled();
    const ask = screen.getByTestId("editor-confirm-discard");
    expect(ask.textContent).toContain("Discard your edits to calc.py?");
    expect(document.activeElement).toBe(screen.getByTestId("editor-keep-editing"));
    // Esc again (or Keep editing) goes back to the text, which is still there
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(screen.queryByTestId("editor-confirm-discard")).toBeNull();
    expect(view.state.doc.toString()).toBe("a\nB\nmine\n");
    fireEvent.keyDown(document.body, { key: "Escape" });
    fireEvent.click(screen.getByTestId("editor-discard"));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("closes on Esc at once when nothing was typed, keeps Shift+Tab inside, and gives the focus back", async () => {
    const { onCancel, unmount } = await editor();
    const dialog = screen.getByTestId("proposal-editor");
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const all = focusables(dialog);
    all[0].focus();
    fireEvent.keyDown(all[0], { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(all[all.length - 1]);
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(onCancel).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.activeElement).toBe(screen.getByTestId("edit-file"));
  });
});

describe("a check's output", () => {
  it("opens at its end, where the traceback says what failed", async () => {
    const { VerificationView } = await import("./Verification");
    const { sampleVerification } = await import("../state/fakeBackend");
    const v = sampleVerification("verified");
    const long = Array.from({ length: 60 }, (_, i) => `  File "calc.py", line ${i}`).join("\n") + "\nZeroDivisionError: division by zero\n";
    v.commands = [{ ...v.commands[0], output: long }];
    render(<VerificationView verification={v} />);
    const pre = screen.getByTestId("check-output");
    Object.defineProperty(pre, "scrollHeight", { configurable: true, value: 900 });
    const details = pre.closest("details") as HTMLDetailsElement;
    expect(details.querySelector("summary")?.textContent).toBe("Output (opens at the end)");
    details.open = true;
    fireEvent(details, new Event("toggle"));
    expect(pre.scrollTop).toBe(900);
  });
});
