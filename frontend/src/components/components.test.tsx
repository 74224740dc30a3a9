import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { ChangeList } from "./ChangeList";
import { applyCount } from "./PlanView";
import { DiffView, LARGE_DIFF } from "./DiffView";
import { ErrorAlert } from "./ErrorAlert";
import { SettingsDialog } from "./SettingsDialog";
import { ProblemPanel } from "./ProblemPanel";
import { AppError } from "../api/types";
import { calcDiff, samplePlan, sampleSettings } from "../state/fakeBackend";

describe("ChangeList", () => {
  it("renders op badges and a checkbox per file", () => {
    const onToggle = vi.fn();
    const changes = samplePlan().changes;
    render(<ChangeList changes={changes} selected={{ "calc.py": true }} layout="line-by-line" readOnly={false} onToggle={onToggle} onAll={() => {}} onLayout={() => {}} />);
    const rows = screen.getAllByTestId("change-row");
    expect(rows.map((r) => r.getAttribute("data-path"))).toEqual(["calc.py", "notes.md"]);
    expect(rows[0].querySelector(".badge")?.textContent).toBe("update");
    expect(rows[1].querySelector(".badge")?.textContent).toBe("create");
    const boxes = screen.getAllByTestId("change-check") as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, false]);
    fireEvent.click(boxes[1]);
    expect(onToggle).toHaveBeenCalledWith("notes.md");
    expect(screen.getByText("1 of 2 files selected")).toBeTruthy();
  });
});

describe("DiffView", () => {
  it("renders a real unified diff with diff2html", () => {
    const { container } = render(<DiffView diff={calcDiff} layout="line-by-line" />);
    expect(container.querySelector(".d2h-wrapper")).not.toBeNull();
    expect(container.querySelectorAll(".d2h-ins").length).toBeGreaterThanOrEqual(2);
    expect(container.textContent).toContain("return None");
    expect(container.querySelector(".hljs-keyword")?.textContent).toBe("def");
  });
  it("collapses large diffs until asked", () => {
    const big = "--- a/x\n+++ b/x\n@@ -1,0 +1," + LARGE_DIFF + " @@\n" + Array.from({ length: LARGE_DIFF + 5 }, (_, i) => `+line ${i}`).join("\n") + "\n";
    render(<DiffView diff={big} layout="side-by-side" />);
    expect(screen.getByText(/Large diff/)).toBeTruthy();
    fireEvent.click(screen.getByText("Show it"));
    expect(screen.queryByText(/Large diff/)).toBeNull();
  });
});

describe("ErrorAlert", () => {
  it("shows the message, the hunk, the hint and the paths", () => {
    const e = new AppError("ERR_PATCH_APPLY_FAILED", "hunk 1 of calc.py does not apply.\nexpected lines:\n  return a % b", "re-plan", ["calc.py"]);
    render(<ErrorAlert error={e} onDismiss={() => {}} />);
    const el = screen.getByTestId("error");
    expect(el.textContent).toContain("hunk 1 of calc.py does not apply.");
    expect(el.querySelector("pre")?.textContent).toContain("return a % b");
    expect(el.textContent).toContain("re-plan");
    expect(el.textContent).toContain("ERR_PATCH_APPLY_FAILED");
    expect(el.querySelector("li code")?.textContent).toBe("calc.py");
    expect(screen.queryByTestId("error-replan")).toBeNull();
  });
  it("offers a re-plan when asked to", () => {
    const onReplan = vi.fn();
    render(<ErrorAlert error={new AppError("ERR_BASE_MISMATCH", "changed since the preview: a.go", "re-plan", ["a.go"])} onDismiss={() => {}} onReplan={onReplan} />);
    fireEvent.click(screen.getByTestId("error-replan"));
    expect(onReplan).toHaveBeenCalledTimes(1);
  });
});

describe("SettingsDialog", () => {
  it("never shows a full key, only the hint, and sends a new key once", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={[]} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    const key = screen.getByTestId("api-key") as HTMLInputElement;
    expect(key.type).toBe("password");
    expect(key.value).toBe("");
    expect(key.placeholder).toContain("sk-…a1b2");
    fireEvent.change(key, { target: { value: "sk-new" } });
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][1]).toBe("sk-new");
    expect(key.value).toBe("");
  });
});

describe("ProblemPanel", () => {
  it("starts planning with Ctrl+Enter", () => {
    const onFix = vi.fn();
    render(
      <ProblemPanel problem="boom" logs={[]} planning={false} progress="" disabled={false} verify={false} onVerify={() => {}} onProblem={() => {}} onFix={onFix} onCancel={() => {}} onAttach={() => {}} onRename={() => {}} onRemove={() => {}} />,
    );
    fireEvent.keyDown(screen.getByTestId("problem"), { key: "Enter", ctrlKey: true });
    expect(onFix).toHaveBeenCalledTimes(1);
  });
});

describe("labels say what they are about", () => {
  it("titles a recorded hand edit by its file, not as a rename, also in records that labelled the sides proposed/ and operator/", () => {
    const body = "@@ -1,3 +1,3 @@\n # Notes\n \n-divide() returns None for b == 0.\n+divide() returns None for b == 0 (by hand).\n";
    for (const head of ["--- NOTES.md\n+++ NOTES.md\n", "--- proposed/NOTES.md\n+++ operator/NOTES.md\n"]) {
      const change = { path: "NOTES.md", op: "create" as const, diff: "diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1 @@\n+x\n", base_sha256: "" };
      const { container, unmount } = render(
        <ChangeList
          changes={[change]}
          selected={{ "NOTES.md": true }}
          layout="line-by-line"
          readOnly
          onToggle={() => {}}
          onAll={() => {}}
          onLayout={() => {}}
          recorded={{ files: [{ path: "NOTES.md", hunks: 1, edited: true, edit_diff: head + body }] }}
        />,
      );
      const edit = screen.getByTestId("recorded-edit").querySelector('[data-testid="diff"]')!;
      expect(edit.querySelector(".d2h-file-name")?.textContent).toBe("NOTES.md");
      expect(edit.querySelector(".d2h-file-header")?.textContent).not.toMatch(/RENAMED|proposed|operator/);
      expect(edit.querySelectorAll(".d2h-moved"), head).toHaveLength(0);
      expect(container.querySelectorAll(".d2h-moved")).toHaveLength(0);
      unmount();
    }
  });

  it("says what Apply counts: files and memory entries", () => {
    expect(applyCount(2, 1)).toBe("2 files + 1 memory entry");
    expect(applyCount(1, 0)).toBe("1 file");
    expect(applyCount(0, 2)).toBe("2 memory entries");
  });

  it("keeps the edit format's names short and says what the chosen one does below", () => {
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={() => {}} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    const sel = screen.getByLabelText("Edit format") as HTMLSelectElement;
    expect(Array.from(sel.options).map((o) => o.textContent)).toEqual(["Auto", "Whole file", "Search/replace pairs", "Unified diff"]);
    expect(sel.getAttribute("aria-describedby")).toBe("edit-format-hint");
    expect(screen.getByTestId("edit-format-hint").textContent).toMatch(/^Whole small files, search\/replace edits in large ones/);
    fireEvent.change(sel, { target: { value: "diff" } });
    expect(screen.getByTestId("edit-format-hint").textContent).toBe("The model sends a unified diff against the files as they are.");
  });
});
