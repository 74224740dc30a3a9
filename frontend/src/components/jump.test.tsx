import { afterEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { PlanRecord } from "../api/types";
import { AppError } from "../api/types";
import { FakeBackend, samplePlan, sampleSettings } from "../state/fakeBackend";
import type { FileRef } from "../state/jump";
import { Store } from "../state/store";
import { App } from "../App";
import { ChangeList } from "./ChangeList";
import { PlanView } from "./PlanView";
import { planViewProps } from "./planViewProps";
import { SettingsDialog } from "./SettingsDialog";
import { NOTE_MS, TOAST_GAP, Toast } from "./Toast";

/** framedPlan is the sample plan with the context a traceback gets: the frames and a window. */
function framedPlan(state: PlanRecord["state"] = "draft"): PlanRecord {
  const p = samplePlan();
  return {
    ...p,
    state,
    base: {
      ...p.base,
      sections: [
        { title: "Stack frames", body: "test_calc.py:5 → test_calc.py\n/usr/lib/python3.11/unittest/case.py:57 (library)\ncalc.py:2:9 → calc.py\n" },
        { title: "File calc.py lines 1-2 of 2 (around the stack frames)", body: "   1 | def divide(a, b):\n   2 |     return a / b\n" },
      ],
    },
    rounds: [
      {
        requests: [{ type: "read_file", path: "util.py", start_line: 10, end_line: 20 }],
        results: [{ request: { type: "read_file", path: "util.py", start_line: 10, end_line: 20 }, ok: true, text: "10 | x" }],
      },
    ],
  } as PlanRecord;
}

function renderPlan(plan: PlanRecord, onOpenFile?: (at: FileRef) => void) {
  render(<PlanView {...planViewProps(plan, { selected: { "calc.py": true }, onOpenFile })} />);
}

const links = () => screen.queryAllByTestId("open-in-editor").map((b) => `${b.getAttribute("data-path")}:${b.getAttribute("data-line")}`);

describe("Jump to the code", () => {
  afterEach(() => vi.useRealTimers());

  it("links a change's file header, the frames found in the project, the file sections and read_file results", () => {
    const open = vi.fn();
    renderPlan(framedPlan(), open);
    // notes.md is created by the draft: it is not on disk yet, so it has no link
    expect(links()).toEqual(["calc.py:2", "test_calc.py:5", "calc.py:2", "calc.py:1", "util.py:10"]);
    const row = document.querySelector('[data-testid="change-row"][data-path="calc.py"]') as HTMLDetailsElement;
    fireEvent.click(row.querySelector('[data-testid="open-in-editor"]') as HTMLElement);
    expect(open).toHaveBeenLastCalledWith({ path: "calc.py", line: 2 });
    expect(row.open).toBe(true); // the click opened the file, it did not fold the change
    fireEvent.click(screen.getByText("test_calc.py:5 → test_calc.py"));
    expect(open).toHaveBeenLastCalledWith({ path: "test_calc.py", line: 5 });
    expect(screen.getByTestId("frames").textContent).toContain("/usr/lib/python3.11/unittest/case.py:57 (library)");
    expect(screen.getByText("/usr/lib/python3.11/unittest/case.py:57 (library)", { exact: false }).closest("button")).toBeNull();
    expect(screen.getByText("calc.py:2:9 → calc.py").getAttribute("title")).toBe("Open calc.py at line 2 in your editor");
    expect(open).toHaveBeenCalledTimes(2);
  });

  it("opens an applied plan's files where the change put them, and no link without a way to open", () => {
    renderPlan(framedPlan("applied"), vi.fn());
    expect(links().slice(0, 2)).toEqual(["calc.py:2", "notes.md:1"]);
    document.body.innerHTML = "";
    renderPlan(framedPlan());
    expect(links()).toEqual([]);
    expect(screen.queryByTestId("frames")).toBeNull(); // the frames are plain text
  });

  it("links each hunk under review to its line", () => {
    const open = vi.fn();
    const diff = "--- a/s.py\n+++ b/s.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -30,3 +30,3 @@\n x\n-y\n+Y\n z\n";
    render(
      <ChangeList
        changes={[{ path: "s.py", op: "update", diff, base_sha256: "" }]}
        selected={{ "s.py": true }}
        layout="line-by-line"
        readOnly={false}
        onToggle={() => {}}
        onAll={() => {}}
        onLayout={() => {}}
        review={{ rejected: {}, edits: {}, previews: {}, focus: null, editing: null } as never}
        reviewActions={{ step: vi.fn(), setHunk: vi.fn(), focus: vi.fn(), edit: vi.fn(), discard: vi.fn(), save: vi.fn(), close: vi.fn() } as never}
        onOpen={open}
      />,
    );
    expect(links()).toEqual(["s.py:2", "s.py:2", "s.py:31"]);
    fireEvent.click(screen.getByText("line 31 ↗"));
    expect(open).toHaveBeenLastCalledWith({ path: "s.py", line: 31 });
  });

  it("says what the editor opened, and shows why not in an error toast that stays", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.openInEditor("calc.py", 2);
    expect(b.called("openInEditor").map((c) => c.args)).toEqual([["calc.py", 2]]);
    expect(s.get().toast).toEqual({ kind: "note", text: "Opened calc.py at line 2 with code (Settings)." });
    b.openResult = async () => {
      throw JSON.stringify({ code: "ERR_CONFIG", message: "no editor found to open the file: $VISUAL and $EDITOR are not set", hint: "set Settings → Open files with" });
    };
    await s.openInEditor("calc.py", 2);
    const t = s.get().toast;
    expect(t?.kind).toBe("error");
    expect(t?.kind === "error" && [t.error.code, t.error.hint]).toEqual(["ERR_CONFIG", "set Settings → Open files with"]);
    s.dismissToast();
    expect(s.get().toast).toBeNull();
  });

  it("hides a note after a while; an error toast stays until dismissed", () => {
    vi.useFakeTimers();
    const dismiss = vi.fn();
    const { unmount } = render(<Toast toast={{ kind: "note", text: "Opened calc.py at line 2 with code (Settings)." }} onDismiss={dismiss} />);
    expect(screen.getByRole("status").textContent).toContain("Opened calc.py at line 2");
    act(() => vi.advanceTimersByTime(NOTE_MS));
    expect(dismiss).toHaveBeenCalledTimes(1);
    unmount();
    const stay = vi.fn();
    render(<Toast toast={{ kind: "error", error: new AppError("ERR_PATH_OUTSIDE_ROOT", "not opened in the editor: path \"../x\" is outside", "only files inside the open project are opened") }} onDismiss={stay} />);
    act(() => vi.advanceTimersByTime(NOTE_MS * 10));
    expect(stay).not.toHaveBeenCalled();
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("ERR_PATH_OUTSIDE_ROOT");
    expect(alert.textContent).toContain("only files inside the open project are opened");
    fireEvent.click(screen.getByLabelText("Dismiss"));
    expect(stay).toHaveBeenCalledTimes(1);
  });

  it("gives the page room below, as tall as the toast, while it is shown (it covers nothing that cannot be scrolled into view)", () => {
    const tall = vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      return { height: this.dataset.testid === "toast" ? 90 : 0 } as DOMRect;
    });
    try {
      document.body.style.paddingBottom = "";
      const { unmount } = render(<Toast toast={{ kind: "error", error: new AppError("ERR_EDITOR", "could not start the editor", "check Open files with") }} onDismiss={() => {}} />);
      expect(document.body.style.paddingBottom).toBe(`${90 + 2 * TOAST_GAP}px`);
      unmount();
      expect(document.body.style.paddingBottom).toBe("");
    } finally {
      tall.mockRestore();
    }
  });

  it("Settings' Open files with is saved as typed, explained, with examples", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    const field = screen.getByTestId("open-with") as HTMLInputElement;
    expect(field.value).toBe("");
    expect(field.placeholder).toBe("auto");
    expect(screen.getByTestId("open-with-hint").textContent).toMatch(/\$VISUAL, then \$EDITOR .*then VS Code, then the system's default app/);
    expect(screen.getByTestId("open-with-hint").textContent).toContain("{file} is the file's full path and {line} the line");
    expect(Array.from(document.querySelectorAll("#open-with-examples option")).map((o) => o.getAttribute("value"))).toContain("code -g {file}:{line}");
    fireEvent.change(field, { target: { value: "subl {file}:{line}" } });
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ open_with: "subl {file}:{line}" });
  });

  it("the window: a click on a file header opens it through the backend and the toast says so", async () => {
    const b = new FakeBackend();
    render(<App store={new Store(b)} />);
    await waitFor(() => expect((screen.getByTestId("fix") as HTMLButtonElement).disabled).toBe(false), { timeout: 30_000 });
    fireEvent.change(screen.getByPlaceholderText(/Paste the error/), { target: { value: "ZeroDivisionError: division by zero" } });
    fireEvent.click(screen.getByTestId("fix"));
    const header = () => document.querySelector('[data-testid="change-row"][data-path="calc.py"] .file-link');
    await waitFor(() => expect(header()).not.toBeNull(), { timeout: 30_000 });
    expect(header()?.getAttribute("title")).toBe("Open calc.py at line 2 in your editor");
    fireEvent.click(header() as Element);
    await waitFor(() => expect(screen.getByTestId("toast").textContent).toContain("Opened calc.py at line 2 with code (Settings)."));
    expect(b.called("openInEditor").map((c) => c.args)).toEqual([["calc.py", 2]]);
  }, 60_000);
});
