import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { ChangeList } from "./ChangeList";
import { emptyReview, type ReviewActions, type ReviewState } from "../state/review";
import { samplePlan } from "../state/fakeBackend";
import type { FileChange } from "../api/types";

const twoHunks = `diff --git a/app.py b/app.py
--- a/app.py
+++ b/app.py
@@ -1,3 +1,3 @@
 import os
-A = 1
+A = 2
 B = 1
@@ -20,3 +20,3 @@
 X = 1
-Y = 1
+Y = 2
 Z = 1
`;
const changes: FileChange[] = [{ path: "app.py", op: "update", diff: twoHunks, base_sha256: "" }, ...samplePlan().changes];

function actions(): ReviewActions {
  return { setHunk: vi.fn(), toggleHunk: vi.fn(), focus: vi.fn(), step: vi.fn(), edit: vi.fn(), save: vi.fn(), discard: vi.fn(), close: vi.fn() };
}

function show(review: ReviewState, a: ReviewActions, readOnly = false) {
  return render(
    <ChangeList
      changes={changes}
      selected={{ "app.py": true, "calc.py": true, "notes.md": true }}
      layout="line-by-line"
      readOnly={readOnly}
      onToggle={() => {}}
      onAll={() => {}}
      onLayout={() => {}}
      review={review}
      reviewActions={a}
    />,
  );
}

describe("per-hunk review", () => {
  it("shows each hunk of a changed file with Accept and Reject, and Edit for changed and new files", () => {
    const a = actions();
    show({ ...emptyReview, rejected: { "app.py": [2] } }, a);
    const hunks = screen.getAllByTestId("hunk");
    expect(hunks.map((h) => [h.getAttribute("data-path"), h.getAttribute("data-n"), h.getAttribute("data-state")])).toEqual([
      ["app.py", "1", "accepted"],
      ["app.py", "2", "rejected"],
      ["calc.py", "1", "accepted"],
    ]);
    expect(hunks[0].textContent).toContain("Hunk 1 of 2");
    fireEvent.click(hunks[0].querySelector('[data-testid="hunk-reject"]')!);
    expect(a.setHunk).toHaveBeenCalledWith("app.py", 1, false);
    fireEvent.click(hunks[1].querySelector('[data-testid="hunk-accept"]')!);
    expect(a.setHunk).toHaveBeenCalledWith("app.py", 2, true);
    expect(screen.getByTestId("rejected-count").textContent).toBe("1 hunk rejected");
    expect(screen.getAllByTestId("edit-file")).toHaveLength(3);
    fireEvent.click(screen.getAllByTestId("edit-file")[2]);
    expect(a.edit).toHaveBeenCalledWith("notes.md");
    expect(screen.getByTestId("review-keys").textContent).toContain("a accept");
    expect(screen.getByTestId("review-not-verified").textContent).toContain("as you chose it");
  });

  it("answers the review keys, but not while typing", () => {
    const a = actions();
    show({ ...emptyReview, focus: { path: "app.py", n: 2 } }, a);
    act(() => {
      fireEvent.keyDown(window, { key: "j" });
      fireEvent.keyDown(window, { key: "k" });
      fireEvent.keyDown(window, { key: "r" });
      fireEvent.keyDown(window, { key: "a" });
      fireEvent.keyDown(window, { key: "e" });
    });
    expect(vi.mocked(a.step).mock.calls).toEqual([[1], [-1]]);
    expect(vi.mocked(a.setHunk).mock.calls).toEqual([
      ["app.py", 2, false],
      ["app.py", 2, true],
    ]);
    expect(a.edit).toHaveBeenCalledWith("app.py");
    const input = document.createElement("input");
    document.body.appendChild(input);
    fireEvent.keyDown(input, { key: "r" });
    expect(a.setHunk).toHaveBeenCalledTimes(2);
    expect(screen.getAllByTestId("hunk")[1].className).toContain("focused");
    // Not while a dialog is open over the plan.
    const dialog = document.createElement("div");
    dialog.setAttribute("role", "dialog");
    document.body.appendChild(dialog);
    fireEvent.keyDown(window, { key: "r" });
    expect(a.setHunk).toHaveBeenCalledTimes(2);
    dialog.remove();
  });

  it("shows a file edited by hand as the user's version", () => {
    show({ ...emptyReview, edits: { "calc.py": "x\n" }, previews: { "calc.py": { ...samplePlan().changes[0], diff: "--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-old\n+mine\n" } } }, actions());
    expect(screen.getByTestId("edited-badge")).toBeTruthy();
    expect(screen.getByTestId("discard-edit")).toBeTruthy();
    expect(screen.getAllByTestId("hunk").map((h) => h.getAttribute("data-path"))).toEqual(["app.py", "app.py"]);
    expect(screen.getByTestId("selection-preview").getAttribute("data-path")).toBe("calc.py");
  });

  it("shows what was rejected or edited when an applied plan is shown again", () => {
    render(
      <ChangeList
        changes={changes}
        selected={{}}
        layout="line-by-line"
        readOnly={true}
        onToggle={() => {}}
        onAll={() => {}}
        onLayout={() => {}}
        recorded={{
          files: [
            { path: "app.py", hunks: 2, rejected: [1] },
            { path: "calc.py", hunks: 1, edited: true, edit_diff: "--- proposed/calc.py\n+++ operator/calc.py\n@@ -1 +1 @@\n-a\n+mine\n" },
            { path: "notes.md", hunks: 1, unticked: true },
          ],
        }}
      />,
    );
    expect(screen.getAllByTestId("hunk").map((h) => h.getAttribute("data-state"))).toEqual(["rejected", "accepted"]);
    expect(screen.queryAllByTestId("hunk-reject")).toHaveLength(0);
    expect(screen.getByTestId("rejected-count").textContent).toBe("1 hunk rejected");
    expect(screen.getByTestId("recorded-edit").getAttribute("data-path")).toBe("calc.py");
    expect(screen.getByTestId("recorded-unticked")).toBeTruthy();
  });

  it("offers no review on a plan that cannot be applied", () => {
    const a = actions();
    show(emptyReview, a, true);
    expect(screen.queryAllByTestId("hunk")).toHaveLength(0);
    expect(screen.queryAllByTestId("edit-file")).toHaveLength(0);
    fireEvent.keyDown(window, { key: "j" });
    expect(a.step).not.toHaveBeenCalled();
  });
});

describe("ProposalEditor", () => {
  it("shows the file beside the editable proposal and saves the edited text", async () => {
    const { default: ProposalEditor } = await import("./ProposalEditor");
    const onSave = vi.fn();
    const onCancel = vi.fn();
    const { container } = render(
      <ProposalEditor proposed={{ path: "calc.py", before: "a\nb\n", after: "a\nB\n", text: "a\nB, mine\n" }} onSave={onSave} onCancel={onCancel} />,
    );
    expect(container.querySelectorAll(".cm-editor")).toHaveLength(2);
    expect(container.querySelector(".cm-merge-b")?.textContent).toContain("B, mine");
    fireEvent.click(screen.getByTestId("editor-save"));
    expect(onSave).toHaveBeenCalledWith("a\nB, mine\n");
    fireEvent.click(screen.getByTestId("editor-reset"));
    fireEvent.click(screen.getByTestId("editor-save"));
    expect(onSave).toHaveBeenLastCalledWith("a\nB\n");
    fireEvent.click(screen.getByTestId("editor-cancel"));
    expect(onCancel).toHaveBeenCalled();
  });

  it("says in the editor why the text was not saved", async () => {
    const { default: ProposalEditor } = await import("./ProposalEditor");
    render(<ProposalEditor proposed={{ path: "calc.py", before: "a\n", after: "b\n", text: "b\n", error: "ERR_BINARY_CONTENT: looks binary" }} onSave={() => {}} onCancel={() => {}} />);
    expect(screen.getByTestId("editor-error").textContent).toBe("Not saved: ERR_BINARY_CONTENT: looks binary");
  });

  it("edits a new file in a plain editor", async () => {
    const { default: ProposalEditor } = await import("./ProposalEditor");
    const { container } = render(<ProposalEditor proposed={{ path: "n.md", before: "", after: "x\n", text: "x\n" }} onSave={() => {}} onCancel={() => {}} />);
    expect(container.querySelectorAll(".cm-editor")).toHaveLength(1);
    expect(container.querySelector(".cm-mergeView")).toBeNull();
  });
});
