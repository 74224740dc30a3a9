import { describe, expect, it } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { App } from "../App";
import { Store } from "../state/store";
import { FakeBackend } from "../state/fakeBackend";

const planning = "Planning stopped: the message above says why and what to do.";

/** stopped renders the app after a Fix the ceiling stopped, and a Settings save the Go side refuses. */
async function stopped() {
  const b = new FakeBackend();
  b.planResult = async () => {
    b.progress?.([{ stage: "error", message: "ERR_CEILING: …" } as never]);
    throw JSON.stringify({ code: "ERR_CEILING", message: "the first request needs 12,573 tokens, over the ceiling", hint: "raise Max tokens per plan" });
  };
  b.saveSettings = async () => {
    throw JSON.stringify({ code: "ERR_INVALID_INPUT", message: "max cost per plan needs the prices", hint: "set the prices" });
  };
  const store = new Store(b);
  render(<App store={store} />);
  await act(async () => {
    await store.start();
    store.setProblem("x");
    await store.fix();
  });
  await act(async () => {
    await store.openSettings();
  });
  const dialog = screen.getByTestId("settings-dialog");
  fireEvent.change(within(dialog).getByTestId("max-cost-per-plan"), { target: { value: "0.05" } });
  await act(async () => {
    fireEvent.click(within(dialog).getByText("Save"));
  });
  return { store, b };
}

describe("a failed Settings save", () => {
  it("is shown in the dialog, and the planning error stays in the main window", async () => {
    const { store } = await stopped();
    const dialog = screen.getByTestId("settings-dialog");
    expect(within(dialog).getByTestId("error").textContent).toContain("max cost per plan needs the prices");
    expect(within(dialog).queryByText("Saved.")).toBeNull();
    await act(async () => store.closeSettings());
    expect(screen.getByTestId("error").textContent).toContain("over the ceiling");
    expect(screen.getByTestId("error").textContent).not.toContain("max cost per plan");
    expect(screen.getByTestId("progress").textContent).toBe(planning);
  }, 30_000);

  it("is gone when the dialog is opened again, or a field changes", async () => {
    const { store } = await stopped();
    fireEvent.change(within(screen.getByTestId("settings-dialog")).getByTestId("price-input"), { target: { value: "2" } });
    expect(within(screen.getByTestId("settings-dialog")).queryByTestId("error")).toBeNull();
    fireEvent.click(within(screen.getByTestId("settings-dialog")).getByText("Save"));
    await act(async () => {});
    expect(within(screen.getByTestId("settings-dialog")).getByTestId("error")).toBeTruthy();
    await act(async () => store.closeSettings());
    await act(async () => {
      await store.openSettings();
    });
    expect(within(screen.getByTestId("settings-dialog")).queryByTestId("error")).toBeNull();
  }, 30_000);
});

describe("dismissing a planning error", () => {
  it("takes away the progress line that points at it", async () => {
    const { store } = await stopped();
    await act(async () => store.closeSettings());
    expect(screen.getByTestId("progress").textContent).toBe(planning);
    fireEvent.click(within(screen.getByTestId("error")).getByLabelText("Dismiss"));
    expect(screen.queryByTestId("error")).toBeNull();
    expect(screen.queryByTestId("progress")).toBeNull();
  }, 30_000);
});
