import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { ChangeList } from "./ChangeList";
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
