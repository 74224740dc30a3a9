import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "./App";
import { Store } from "./state/store";
import { FakeBackend } from "./state/fakeBackend";

// Records whether the plan view's chunk (diff2html, highlight.js) has been loaded.
const chunk = vi.hoisted(() => ({ loaded: false }));
vi.mock("./lazyPlan", async (importOriginal) => {
  chunk.loaded = true;
  return await importOriginal();
});

describe("App's lazy plan view", () => {
  it("paints the problem box without the diff viewer, fetches it once a problem is typed, and shows the plan's diffs", async () => {
    render(<App store={new Store(new FakeBackend())} />);
    const fix = screen.getByTestId("fix") as HTMLButtonElement;
    await waitFor(() => expect(fix.disabled).toBe(false), { timeout: 30_000 });
    expect(chunk.loaded).toBe(false);

    // typing a problem fetches the chunk, so it is usually there before the plan
    fireEvent.change(screen.getByPlaceholderText(/Paste the error/), { target: { value: "ZeroDivisionError: division by zero" } });
    await waitFor(() => expect(chunk.loaded).toBe(true), { timeout: 30_000 });
    expect(document.querySelector(".d2h-wrapper")).toBeNull();
    fireEvent.click(fix);
    // generous: on a busy machine the first import of the chunk can take a while
    await waitFor(() => expect(document.querySelectorAll(".d2h-wrapper").length).toBeGreaterThan(0), { timeout: 30_000 });
    expect(chunk.loaded).toBe(true);
    expect(screen.getAllByTestId("change-row").map((r) => r.getAttribute("data-path"))).toEqual(["calc.py", "notes.md"]);
    const diff = screen.getAllByTestId("diff")[0];
    expect(diff.querySelectorAll(".d2h-ins").length).toBeGreaterThanOrEqual(2);
    expect(diff.textContent).toContain("return None");
    expect(diff.querySelector(".hljs-keyword")?.textContent).toBe("def");
  }, 60_000);
});
