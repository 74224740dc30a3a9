import { describe, expect, it } from "vitest";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { Store } from "../state/store";
import { FakeBackend, samplePlan } from "../state/fakeBackend";
import type { ApplyResult } from "../api/types";

/** shown renders the app with a plan made from the fake backend. */
async function shown(b = new FakeBackend()) {
  const store = new Store(b);
  render(<App store={store} />);
  await act(async () => {
    await store.start();
    store.setProblem("ZeroDivisionError");
    await store.fix();
  });
  await waitFor(() => expect(screen.getAllByTestId("change-row").length).toBeGreaterThan(0), { timeout: 30_000 });
  return { store, b };
}

const baseMismatch = JSON.stringify({ code: "ERR_BASE_MISMATCH", message: "calc.py changed on disk after the plan", hint: "re-plan", paths: ["calc.py"] });

describe("failures of Apply and Undo are shown next to the buttons", () => {
  it("puts an Apply failure right after the Apply button, focused, and none at the top", async () => {
    const b = new FakeBackend();
    b.applyResult = async () => {
      throw baseMismatch;
    };
    await shown(b);
    fireEvent.click(screen.getByTestId("apply"));
    const err = await screen.findByTestId("error");
    // the alert follows the actions row inside the plan, not the top of the page
    const actions = screen.getByTestId("apply").closest(".actions") as HTMLElement;
    expect(actions.nextElementSibling).toBe(err);
    expect(screen.getAllByTestId("error")).toHaveLength(1);
    expect(document.activeElement).toBe(err);
    expect(err.textContent).toContain("calc.py changed on disk");
    expect(within(err).getByTestId("error-replan")).toBeTruthy();
  }, 60_000);

  it("puts an Undo failure next to the Undo button", async () => {
    const b = new FakeBackend();
    b.undo = async () => {
      throw JSON.stringify({ code: "ERR_NOTHING_TO_UNDO", message: "there is no applied change to undo", hint: "" });
    };
    await shown(b);
    fireEvent.click(screen.getByTestId("apply"));
    await screen.findByTestId("apply-result");
    fireEvent.click(screen.getByTestId("undo"));
    const err = await screen.findByTestId("error");
    expect((screen.getByTestId("undo").closest(".actions") as HTMLElement).nextElementSibling).toBe(err);
    expect(document.activeElement).toBe(err);
  }, 60_000);
});

describe("Undo is offered only for an applied plan", () => {
  it("has no Undo on a new draft, an enabled one once applied, a disabled one after undoing", async () => {
    await shown();
    expect(screen.queryByTestId("undo")).toBeNull();
    fireEvent.click(screen.getByTestId("apply"));
    await screen.findByTestId("apply-result");
    const undo = screen.getByTestId("undo") as HTMLButtonElement;
    expect(undo.disabled).toBe(false);
    fireEvent.click(undo);
    await waitFor(() => expect(screen.getByTestId("apply-result").textContent).toContain("Undone"));
    expect((screen.getByTestId("undo") as HTMLButtonElement).disabled).toBe(true);
  }, 60_000);

  it("shows no Apply and no Undo for a plan without changes (Plan only)", async () => {
    const b = new FakeBackend();
    b.planResult = async () => ({ ...samplePlan(), changes: [], memory: [], input: { ...samplePlan().input, plan_only: true } });
    await act(async () => {
      const store = new Store(b);
      render(<App store={store} />);
      await store.start();
      store.setProblem("x");
      await store.fix();
    });
    await screen.findByTestId("write-changes-offer");
    expect(screen.queryByTestId("apply")).toBeNull();
    expect(screen.queryByTestId("undo")).toBeNull();
  }, 60_000);
});

describe("after Undo", () => {
  it("says the files were restored (not updated), why Apply is off, and drops the stale run output", async () => {
    const b = new FakeBackend();
    (b as { undo: () => Promise<ApplyResult> }).undo = async () => ({ transaction: "tx1", plan_id: "p1", applied: samplePlan().changes, memory: [], recovered: false });
    const { store } = await shown(b);
    fireEvent.click(screen.getByTestId("apply"));
    await screen.findByTestId("apply-result");
    const cmd = store.get().plan?.plan.commands_to_run?.[0];
    if (cmd) {
      await act(() => store.runCommand(cmd));
      expect(screen.getAllByTestId("command-output").length).toBeGreaterThan(0);
    }
    fireEvent.click(screen.getByTestId("undo"));
    const box = await screen.findByTestId("apply-result");
    await waitFor(() => expect(box.textContent).toContain("Undone"));
    expect(screen.getByTestId("undone-note").textContent).toContain("back as they were");
    expect(box.textContent).toContain("restored");
    expect(box.textContent?.toLowerCase()).not.toContain("update");
    expect(screen.getByTestId("apply-disabled-reason").textContent).toContain("this plan was undone");
    expect(screen.queryAllByTestId("command-output")).toHaveLength(0);
  }, 60_000);
});

describe("stale errors", () => {
  it("drops the provider error of the last Fix when another plan is opened from History", async () => {
    const b = new FakeBackend();
    const store = new Store(b);
    render(<App store={store} />);
    b.planResult = async () => {
      throw JSON.stringify({ code: "ERR_PROVIDER", message: "llm unavailable (HTTP 500)", hint: "try again" });
    };
    await act(async () => {
      await store.start();
      store.setProblem("x");
      await store.fix();
    });
    expect(screen.getByTestId("error").textContent).toContain("llm unavailable");
    await act(() => store.openHistory());
    await act(() => store.loadPlan("p1"));
    await screen.findAllByTestId("change-row");
    expect(screen.queryByTestId("error")).toBeNull();
  }, 60_000);
});
