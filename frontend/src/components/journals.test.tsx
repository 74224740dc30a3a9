import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { JournalsDrawer } from "./JournalsDrawer";
import { HistoryDrawer } from "./HistoryDrawer";
import { PlanView } from "./PlanView";
import { planViewProps } from "./planViewProps";
import { RecoveryNotice } from "./RecoveryNotice";
import { App } from "../App";
import { Store } from "../state/store";
import { FakeBackend, foreignPlan, sampleJournals, samplePlan } from "../state/fakeBackend";
import type { PlanRecord } from "../api/types";

function planView(plan: PlanRecord) {
  const selected = Object.fromEntries(plan.changes.map((c) => [c.path, true]));
  const memorySelected = Object.fromEntries(plan.memory.map((m) => [m.key, true]));
  const onApply = vi.fn();
  const onRun = vi.fn();
  const onReplan = vi.fn();
  render(<PlanView {...planViewProps(plan, { selected, memorySelected, answers: ["3.8"], onReplan, onApply, onRun })} />);
  return { onApply, onRun, onReplan };
}

describe("JournalsDrawer", () => {
  it("lists state, id, plan, reason, kept files and where each original is", () => {
    render(<JournalsDrawer items={sampleJournals()} discarding={null} onDiscard={() => {}} onClose={() => {}} />);
    const rows = screen.getAllByTestId("journal");
    expect(rows.map((r) => r.getAttribute("data-state"))).toEqual(["committed", "held", "quarantined"]);
    const held = rows[1];
    expect(held.querySelector(".badge.state-held")?.textContent).toBe("held");
    expect(held.textContent).toContain("20261121-090000.000000-bbbbbb");
    expect(held.textContent).toContain("p0");
    expect(within(held).getByTestId("journal-reason").textContent).toBe("restore a.go: permission denied");
    expect(within(held).getByTestId("journal-kept").textContent).toBe("a.go");
    const entries = within(held).getByTestId("journal-entries");
    expect(entries.querySelector("summary")?.textContent).toBe("2 files and where each original is");
    expect(entries.textContent).toContain("original in .fixplan/tx/20261121-090000.000000-bbbbbb/0.orig");
    expect(entries.textContent).toContain("did not exist before");
    const q = rows[2];
    expect(q.querySelector(".badge.state-quarantined")?.textContent).toBe("quarantined");
    expect(within(q).getByTestId("journal-where").textContent).toBe(".fixplan/quarantine/20260101-000000.000000-abcdef");
    expect(within(q).queryByTestId("journal-entries")).toBeNull();
  });

  it("offers Discard for everything but the undo history", () => {
    const onDiscard = vi.fn();
    const items = [...sampleJournals(), { id: "t-rb", state: "rolled_back", where: ".fixplan/tx/t-rb" }, { id: "t-u", state: "undone", where: ".fixplan/tx/t-u" }];
    render(<JournalsDrawer items={items} discarding={null} onDiscard={onDiscard} onClose={() => {}} />);
    const rows = screen.getAllByTestId("journal");
    expect(rows.map((r) => !!within(r).queryByTestId("journal-discard"))).toEqual([false, true, true, true, true]);
    fireEvent.click(within(rows[2]).getByRole("button", { name: "Discard 20260101-000000.000000-abcdef" }));
    // it asks first: Keep leaves it, Delete discards it
    const ask = within(rows[2]).getByTestId("journal-confirm");
    expect(ask.textContent).toContain("for good? It cannot be undone.");
    expect(document.activeElement).toBe(within(rows[2]).getByTestId("journal-discard-confirm"));
    fireEvent.click(within(rows[2]).getByTestId("journal-keep"));
    expect(onDiscard).not.toHaveBeenCalled();
    expect(within(rows[2]).queryByTestId("journal-confirm")).toBeNull();
    fireEvent.click(within(rows[2]).getByRole("button", { name: "Discard 20260101-000000.000000-abcdef" }));
    fireEvent.click(within(rows[2]).getByRole("button", { name: "Delete 20260101-000000.000000-abcdef" }));
    expect(onDiscard).toHaveBeenCalledWith("20260101-000000.000000-abcdef");
  });

  it("waits while a discard runs, is focused when opened and closes with Escape", () => {
    const onClose = vi.fn();
    render(<JournalsDrawer items={sampleJournals()} discarding="20260101-000000.000000-abcdef" onDiscard={() => {}} onClose={onClose} />);
    const buttons = screen.getAllByTestId("journal-discard") as HTMLButtonElement[];
    expect(buttons.every((b) => b.disabled)).toBe(true);
    expect(buttons[1].textContent).toBe("Discarding…");
    const drawer = screen.getByTestId("journals-drawer");
    expect(document.activeElement).toBe(drawer);
    fireEvent.keyDown(drawer, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("keeps the focus in the drawer when the focused journal goes, and Escape still closes it", () => {
    const onClose = vi.fn();
    const { rerender } = render(<JournalsDrawer items={sampleJournals()} discarding={null} onDiscard={() => {}} onClose={onClose} />);
    const last = screen.getAllByTestId("journal-discard").pop()!;
    last.focus();
    expect(document.activeElement).toBe(last);
    rerender(<JournalsDrawer items={sampleJournals().slice(0, 2)} discarding={null} onDiscard={() => {}} onClose={onClose} />);
    expect(document.activeElement).toBe(screen.getByTestId("journals-drawer"));
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("says when there is nothing", () => {
    render(<JournalsDrawer items={[]} discarding={null} onDiscard={() => {}} onClose={() => {}} />);
    expect(screen.getByTestId("journals-empty")).toBeTruthy();
  });
});

describe("RecoveryNotice", () => {
  it("puts each message on its own line and leads to the journals", () => {
    const onJournals = vi.fn();
    render(<RecoveryNotice messages={["applying plan X was interrupted; it has been rolled back", ".fixplan/tx/N was set aside in .fixplan/quarantine/N"]} onJournals={onJournals} onDismiss={() => {}} />);
    expect(screen.getAllByTestId("recovery-line").map((l) => l.textContent)).toEqual([
      "applying plan X was interrupted; it has been rolled back",
      ".fixplan/tx/N was set aside in .fixplan/quarantine/N",
    ]);
    expect(screen.getByTestId("recovery").textContent).toMatch(/^Recovery/);
    fireEvent.click(screen.getByRole("button", { name: "Journals…" }));
    expect(onJournals).toHaveBeenCalledTimes(1);
  });
});

describe("foreign plans", () => {
  it("are badged in the history", () => {
    const items = [
      { id: "p1", created_at: "2026-11-22 10:00:00", state: "draft", summary: "mine", problem: "x", files: 1, foreign: false },
      { id: "f1", created_at: "0001-01-01 00:00:00", state: "draft", summary: "shipped", problem: "", files: 0, foreign: true },
    ];
    render(<HistoryDrawer items={items} onOpen={() => {}} onClose={() => {}} />);
    const [mine, theirs] = screen.getAllByTestId("history-item");
    expect(within(mine).queryByTestId("foreign-badge")).toBeNull();
    expect(within(theirs).getByTestId("foreign-badge").textContent).toBe("foreign — not made by you");
    expect(theirs.textContent).not.toContain("0001-01-01");
  });

  it("cannot be applied, run or re-planned from, and the view says why", () => {
    const { onApply, onRun, onReplan } = planView(foreignPlan());
    const apply = screen.getByTestId("apply") as HTMLButtonElement;
    const run = screen.getByTestId("run-command") as HTMLButtonElement;
    const replan = screen.getByTestId("replan") as HTMLButtonElement;
    expect([apply.disabled, run.disabled, replan.disabled]).toEqual([true, true, true]);
    const note = screen.getByTestId("foreign-note");
    expect(note.textContent).toContain("This plan cannot be applied.");
    expect(apply.getAttribute("aria-describedby")).toBe(note.id);
    expect(run.getAttribute("aria-describedby")).toBe(note.id);
    expect(screen.getByTestId("apply-disabled-reason").textContent).toMatch(/not made by you/);
    expect((screen.getAllByTestId("change-check") as HTMLInputElement[]).every((c) => c.disabled)).toBe(true);
    fireEvent.click(apply);
    fireEvent.click(run);
    expect(onApply).not.toHaveBeenCalled();
    expect(onRun).not.toHaveBeenCalled();
    expect(onReplan).not.toHaveBeenCalled();
  });

  it("leaves the user's own plans alone", () => {
    planView(samplePlan());
    expect((screen.getByTestId("apply") as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByTestId("run-command") as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId("foreign-note")).toBeNull();
    expect(screen.queryByTestId("foreign-badge")).toBeNull();
  });
});

describe("App with journals", () => {
  async function app(b: FakeBackend) {
    const store = new Store(b);
    await act(async () => {
      render(<App store={store} />);
    });
    return store;
  }

  it("goes from the recovery notice to the journals and discards one", async () => {
    const b = new FakeBackend();
    b.recovered = [".fixplan/tx/20260101-000000.000000-abcdef was set aside in .fixplan/quarantine/20260101-000000.000000-abcdef: its journal was not written by your fixplan"];
    await app(b);
    expect(screen.getByTestId("recovery-line").textContent).toMatch(/set aside/);
    await act(async () => fireEvent.click(screen.getByTestId("recovery-journals")));
    expect(screen.getAllByTestId("journal")).toHaveLength(3);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Discard 20260101-000000.000000-abcdef" })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Delete 20260101-000000.000000-abcdef" })));
    expect(b.called("discardJournal")[0].args).toEqual(["20260101-000000.000000-abcdef"]);
    expect(screen.getAllByTestId("journal").map((j) => j.getAttribute("data-state"))).toEqual(["committed", "held"]);
  });

  it("shows a refused discard in the drawer through the ErrorAlert", async () => {
    const b = new FakeBackend();
    b.discardResult = async () => {
      throw JSON.stringify({ code: "ERR_IO", message: "discard t: permission denied", hint: "check the folder's permissions" });
    };
    await app(b);
    await act(async () => fireEvent.click(screen.getByTestId("journals")));
    await act(async () => fireEvent.click(screen.getAllByTestId("journal-discard")[0]));
    await act(async () => fireEvent.click(screen.getByTestId("journal-discard-confirm")));
    const drawer = screen.getByTestId("journals-drawer");
    const err = within(drawer).getByTestId("error");
    expect(err.textContent).toContain("discard t: permission denied");
    expect(err.textContent).toContain("check the folder's permissions");
    expect(screen.getAllByTestId("error")).toHaveLength(1);
    expect(screen.getAllByTestId("journal")).toHaveLength(3);
    await act(async () => fireEvent.click(within(drawer).getByText("Close")));
    expect(screen.queryByTestId("journals-drawer")).toBeNull();
    expect(screen.getByTestId("error")).toBeTruthy();
  });

  it("opens a foreign plan from the history with Apply off", async () => {
    const b = new FakeBackend();
    b.historyItems = [{ id: "99991231-235959.999999-ffffff", created_at: "0001-01-01 00:00:00", state: "draft", summary: "shipped with the project", problem: "", files: 2, foreign: true }];
    b.loadResult = async () => foreignPlan();
    await app(b);
    await act(async () => fireEvent.click(screen.getByTestId("history")));
    expect(screen.getByTestId("foreign-badge")).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId("history-item")));
    expect(screen.getByTestId("summary").textContent).toBe("shipped with the project");
    expect((screen.getByTestId("apply") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("foreign-note")).toBeTruthy();
  });
});
