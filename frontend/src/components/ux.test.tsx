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

describe("plan header and Context sent wording", () => {
  it("shows the cost in the header with where the prices come from, and no nested parentheses in Context sent", async () => {
    const b = new FakeBackend();
    b.planResult = async () => ({
      ...samplePlan(),
      usage: { tokenizer: "estimate", prompt_tokens: 6206, completion_tokens: 300, cost: 0.03 },
      calls: [{ model: "m", format: "json_schema", prompt_tokens: 6206, completion_tokens: 300 }],
    } as never);
    await shown(b);
    expect(screen.getByTestId("plan-cost-header").textContent).toBe("cost 0.03 at your Settings prices");
    const head = screen.getByTestId("context-sent").querySelector("summary")?.textContent ?? "";
    expect(head).not.toContain("))");
    expect(head).toMatch(/^Context sent: 1 section, 0 rounds, 1 redaction — the sections are ~[\d,]+ tokens \(estimated\)/);
    expect(screen.getByTestId("calls-why").textContent).toContain("each one sends the instructions and the conversation so far again");
  }, 60_000);

  it("names only the edits placed loosely, and nothing when all matched exactly", async () => {
    const { placementNote } = await import("./ChangeList");
    expect(placementNote(["edit 1: exact at line 18", "edit 2: exact at line 1", "edit 3: exact at line 13"])).toBe("");
    expect(placementNote(["exact", "exact"])).toBe("");
    expect(placementNote(["edit 1: exact at line 18", "edit 2: fuzzy: indentation at line 4"])).toBe("placed by a looser match — edit 2 at line 4, ignoring indentation");
    expect(placementNote(["exact", "offset +5"])).toBe("placed by a looser match — patch hunk 2: offset +5");
    const b = new FakeBackend();
    b.planResult = async () => {
      const p = samplePlan();
      return { ...p, changes: p.changes.map((c) => ({ ...c, placement: ["edit 1: exact at line 18", "edit 2: exact at line 1", "edit 3: exact at line 13"] })) };
    };
    await shown(b);
    expect(screen.queryAllByTestId("placement")).toHaveLength(0);
    expect(document.body.textContent).not.toContain("hunks: edit 1");
  }, 60_000);
});

describe("Write the changes", () => {
  it("unticks Plan only and names the approved plan by its summary", async () => {
    const b = new FakeBackend();
    b.planResult = async () => ({ ...samplePlan(), id: "p0", changes: [], memory: [], input: { ...samplePlan().input, plan_only: true }, plan: { ...samplePlan().plan, summary: "guard the division" } });
    const store = new Store(b);
    render(<App store={store} />);
    await act(async () => {
      await store.start();
      store.setProblem("x");
      store.setPlanOnly(true);
      await store.fix();
    });
    expect((screen.getByTestId("plan-only") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(await screen.findByTestId("write-changes"));
    const approved = await screen.findByTestId("approved-plan");
    expect(approved.textContent).toContain("“guard the division”");
    expect(approved.textContent).toContain("p0");
    expect((screen.getByTestId("plan-only") as HTMLInputElement).checked).toBe(false);
  }, 60_000);
});

describe("a reviewed draft", () => {
  it("offers to re-plan with the choices made, and that request carries them", async () => {
    const { store, b } = await shown();
    expect(screen.queryByTestId("replan-reviewed-offer")).toBeNull();
    fireEvent.click(screen.getAllByTestId("change-check")[1]);
    const offer = screen.getByTestId("replan-reviewed-offer");
    expect(offer.textContent).toContain("Fix (plan) above starts a new plan and does not send your choices");
    await act(async () => fireEvent.click(screen.getByTestId("replan-draft-reviewed")));
    const req = b.called("plan").pop()!.args[0] as { previous: string; review?: { paths: string[] } };
    expect(req.previous).toBe("p1");
    expect(req.review?.paths).toEqual(["calc.py"]);
    expect(store.get().planning).toBe(false);
  }, 60_000);
});

describe("Journals", () => {
  it("names a journal's plan by its summary and writes dates as History does", async () => {
    const b = new FakeBackend();
    b.historyItems = [{ ...b.historyItems[0], id: "p1", summary: "guard b == 0" }];
    const store = new Store(b);
    render(<App store={store} />);
    await act(async () => {
      await store.start();
      await store.openJournals();
    });
    const row = screen.getAllByTestId("journal").find((r) => r.getAttribute("data-id") === "20261122-100000.000000-aaaaaa")!;
    expect(within(row).getByTestId("journal-plan-summary").textContent).toBe("“guard b == 0” ");
    expect(row.textContent).toMatch(/Created\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  }, 60_000);
});

describe("a verified plan whose files changed", () => {
  it("says the verification was of the files as they were once Apply finds them changed", async () => {
    const b = new FakeBackend();
    b.planResult = async () => ({ ...samplePlan(), verification: (await import("../state/fakeBackend")).sampleVerification("verified") });
    b.applyResult = async () => {
      throw baseMismatch;
    };
    await shown(b);
    expect(screen.queryByTestId("verify-stale")).toBeNull();
    fireEvent.click(screen.getByTestId("apply"));
    expect((await screen.findByTestId("verify-stale")).textContent).toBe("checked against the files as they were — they changed on disk since");
  }, 60_000);
});

describe("a provider failure", () => {
  it("is said once, in the message box, not again raw in the progress line", async () => {
    const b = new FakeBackend();
    const store = new Store(b);
    render(<App store={store} />);
    const raw = "ERR_PROVIDER_UNAVAILABLE: cannot get an answer from http://127.0.0.1:1 (HTTP 500): llm unavailable (HTTP 500): llmtest: no scripted reply left";
    b.planResult = async () => {
      b.progress?.([{ stage: "error", message: raw } as never]);
      throw JSON.stringify({ code: "ERR_PROVIDER_UNAVAILABLE", message: "cannot get an answer from http://127.0.0.1:1 (HTTP 500)", hint: "is the server running?" });
    };
    await act(async () => {
      await store.start();
      store.setProblem("x");
      await store.fix();
    });
    expect(screen.getByTestId("error").textContent).toContain("cannot get an answer from http://127.0.0.1:1 (HTTP 500)");
    expect(screen.getByTestId("progress").textContent).toBe("Planning stopped: the message above says why and what to do.");
    expect(document.body.textContent).not.toContain("llm unavailable (HTTP 500)");
  }, 60_000);
});

describe("Undo from History is offered only for the latest apply", () => {
  it("offers no Undo on an older applied plan (Undo would undo another plan's apply), and does on the latest", async () => {
    const b = new FakeBackend();
    // p2 was applied after p1; neither is undone: Undo (which takes no plan) undoes p2's.
    b.journalList = [
      { id: "20261122-110000.000000-bbbbbb", plan_id: "p2", state: "committed", where: ".fixplan/tx/20261122-110000.000000-bbbbbb" },
      { id: "20261122-100000.000000-aaaaaa", plan_id: "p1", state: "committed", where: ".fixplan/tx/20261122-100000.000000-aaaaaa" },
    ];
    const tx: Record<string, string> = { p1: "20261122-100000.000000-aaaaaa", p2: "20261122-110000.000000-bbbbbb" };
    b.historyItems = [
      { id: "p2", created_at: "2026-11-22 11:00:00", state: "applied", summary: "second", problem: "y", files: 1, foreign: false },
      { id: "p1", created_at: "2026-11-22 10:00:00", state: "applied", summary: "first", problem: "x", files: 1, foreign: false },
    ];
    b.loadResult = async (id) => ({ ...samplePlan(), id, state: "applied", transaction: tx[id] });
    const store = new Store(b);
    render(<App store={store} />);
    await act(async () => {
      await store.start();
      await store.openHistory();
      await store.loadPlan("p1");
    });
    await screen.findByTestId("undo-latest-only");
    expect(screen.queryByTestId("undo")).toBeNull();
    expect(screen.getByTestId("undo-latest-only").textContent).toContain("Undo is available for the latest apply only");
    // Even asked directly, the store does not undo another plan's apply.
    await act(() => store.undo());
    expect(b.called("undo")).toHaveLength(0);
    expect(b.journalList.filter((j) => j.state === "committed")).toHaveLength(2);

    await act(() => store.loadPlan("p2"));
    const undo = (await screen.findByTestId("undo")) as HTMLButtonElement;
    expect(undo.disabled).toBe(false);
    expect(screen.queryByTestId("undo-latest-only")).toBeNull();
    fireEvent.click(undo);
    await waitFor(() => expect(screen.getByTestId("apply-result").textContent).toContain("Undone"));
    expect(b.called("undo")).toHaveLength(1);
    expect(b.journalList.find((j) => j.plan_id === "p2")?.state).toBe("undone");

    // p1's apply is now the latest not undone: its Undo is offered.
    await act(() => store.loadPlan("p1"));
    expect(((await screen.findByTestId("undo")) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId("undo-latest-only")).toBeNull();
  }, 60_000);
});
