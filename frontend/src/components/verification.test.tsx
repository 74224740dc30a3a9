import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { VerificationView, VerifyBadge, verifyBadgeText, duration } from "./Verification";
import { SettingsDialog } from "./SettingsDialog";
import { App } from "../App";
import { Store } from "../state/store";
import { FakeBackend, foreignPlan, samplePlan, sampleSettings, sampleVerification } from "../state/fakeBackend";
import type { PlanRecord } from "../api/types";

/** shown renders the real App over a fake backend and makes a plan. */
async function shown(setup: (b: FakeBackend) => void = () => {}) {
  const b = new FakeBackend();
  setup(b);
  const store = new Store(b);
  render(<App store={store} />);
  await act(async () => {
    await store.start();
    store.setProblem("ZeroDivisionError");
    await store.fix();
  });
  return { b, store };
}

describe("verification badge", () => {
  it("says what each state concluded, in one line", () => {
    expect(verifyBadgeText(sampleVerification("verified"))).toBe("Verified — 2 checks pass");
    expect(verifyBadgeText(sampleVerification("partly"))).toBe("Partly — 1 new failure: TestMin");
    expect(verifyBadgeText(sampleVerification("failed"))).toBe("Failed — the failing test still fails");
    expect(verifyBadgeText(sampleVerification("not_verified"))).toBe(
      "Not verified — no check command is approved for this project; approve one to verify: pytest -q",
    );
  });

  it("counts one passing check in the singular and names many new failures", () => {
    const v = sampleVerification("verified");
    expect(verifyBadgeText({ ...v, commands: v.commands.slice(0, 1) })).toBe("Verified — 1 check passes");
    const p = sampleVerification("partly");
    expect(verifyBadgeText({ ...p, new_failures: ["TestA", "TestB", "TestC", "TestD"] })).toBe("Partly — 4 new failures: TestA, TestB, TestC and 1 more");
    expect(verifyBadgeText({ ...sampleVerification("failed"), reason: "a check fails with the change, and did not before" })).toBe(
      "Failed — a check fails with the change, and did not before",
    );
    expect(verifyBadgeText({ state: "not_verified", commands: [], overhead_ms: 0, reason: "verification was cancelled" })).toBe("Not verified — verification was cancelled");
  });

  it("is coloured by its state", () => {
    for (const st of ["verified", "partly", "failed", "not_verified"] as const) {
      const { unmount } = render(<VerifyBadge verification={sampleVerification(st)} />);
      const el = screen.getByTestId("verify-badge");
      expect(el.className).toBe(`verify-badge verify-${st}`);
      expect(el.getAttribute("data-state")).toBe(st);
      unmount();
    }
  });
});

describe("checks of a verification", () => {
  it("lists each check with its outcome, exit code, duration and folded output; new failures stand out", () => {
    render(<VerificationView verification={sampleVerification("partly")} />);
    const rows = screen.getAllByTestId("check-result");
    expect(rows.map((r) => r.getAttribute("data-outcome"))).toEqual(["passed", "new_failures"]);
    expect(rows[0].textContent).toContain("python3 -m pytest test_calc.py::test_divide_by_zero");
    expect(rows[0].textContent).toContain("the failing test");
    expect(within(rows[0]).getByTestId("check-facts").textContent).toBe("exit 0 · 400 ms");
    expect(within(rows[1]).getByTestId("check-facts").textContent).toBe("exit 1 · 2.1 s · before the change: exit 0");
    expect(within(rows[1]).getByTestId("new-failures").textContent).toBe("New failures: TestMin");
    expect(within(rows[0]).queryByTestId("new-failures")).toBeNull();
    const out = within(rows[1]).getByTestId("check-output");
    expect(out.closest("details")?.open).toBe(false);
    expect(out.textContent).toContain("--- FAIL: TestMin");
  });

  it("folds the earlier attempts with their state, reason and output", () => {
    render(<VerificationView verification={sampleVerification("failed")} />);
    const folded = screen.getByTestId("attempts") as HTMLDetailsElement;
    expect(folded.open).toBe(false);
    expect(folded.querySelector("summary")?.textContent).toBe("Earlier attempts (1)");
    const a = within(folded).getByTestId("attempt");
    expect(a.getAttribute("data-state")).toBe("failed");
    expect(a.textContent).toContain("Attempt 1: catch the exception in the caller");
    expect(a.textContent).toContain("the failing test still fails with the change");
    expect(a.querySelector("pre")?.textContent).toBe("E   ZeroDivisionError\n");
    // a check that did not run has no exit code or output
    const notRun = screen.getAllByTestId("check-result")[1];
    expect(notRun.getAttribute("data-outcome")).toBe("not_run");
    expect(within(notRun).queryByTestId("check-facts")).toBeNull();
  });

  it("words durations", () => {
    expect([duration(12), duration(2350), duration(65000)]).toEqual(["12 ms", "2.4 s", "1 min 5 s"]);
  });
});

describe("Verify panel", () => {
  it("pre-ticks approved checks, shows where the others come from, and says the project is never touched", async () => {
    await shown();
    const panel = screen.getByTestId("verify-panel");
    expect(panel.textContent).toMatch(/scratch copy.*never\s+touched/);
    const rows = within(panel).getAllByTestId("verify-check");
    expect(rows.map((r) => r.getAttribute("data-command"))).toEqual(["python3 -m pytest test_calc.py::test_divide_by_zero", "python3 -m pytest -q", "pytest -q"]);
    const boxes = within(panel).getAllByTestId("verify-check-box") as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([false, true, false]);
    expect(boxes.map((b) => b.disabled)).toEqual([false, true, false]);
    expect(rows[0].textContent).toContain("derived from the failing test");
    expect(rows[1].textContent).toContain("approved");
    expect(rows[2].textContent).toContain("proposed by the model");
    expect((screen.getByTestId("verify") as HTMLButtonElement).disabled).toBe(false);
  });

  it("sends exactly the ticked unapproved checks and the typed ones; the verified plan replaces the one shown", async () => {
    const { b, store } = await shown();
    // the user's selection survives the verification
    act(() => store.toggleChange("notes.md"));
    const panel = screen.getByTestId("verify-panel");
    const boxes = () => within(panel).getAllByTestId("verify-check-box") as HTMLInputElement[];
    fireEvent.click(boxes()[0]);
    fireEvent.click(boxes()[2]);
    fireEvent.click(boxes()[2]); // ticked, then unticked again
    fireEvent.change(screen.getByTestId("add-check"), { target: { value: "  sh -c 'grep -q \"b == 0\" calc.py'  " } });
    fireEvent.click(screen.getByTestId("add-check-button"));
    expect(boxes().map((x) => x.checked)).toEqual([true, true, false, true]);
    expect(screen.getAllByTestId("verify-check")[3].textContent).toContain("added by you");
    await act(async () => {
      fireEvent.click(screen.getByTestId("verify"));
    });
    // notes.md is unticked, so what is verified is exactly what Apply would write
    expect(b.called("verifyPlan")).toHaveLength(0);
    const [call] = b.called("verifySelection");
    expect(call.args.slice(0, 2)).toEqual(["p1", ["python3 -m pytest test_calc.py::test_divide_by_zero", "sh -c 'grep -q \"b == 0\" calc.py'"]]);
    expect((call.args[2] as { paths: string[] }).paths).toEqual(["calc.py"]);
    expect(screen.getByTestId("verify-badge").textContent).toBe("Verified — 2 checks pass · about your selection");
    expect(screen.getAllByTestId("check-result")).toHaveLength(2);
    expect(store.get().selected).toEqual({ "calc.py": true, "notes.md": false });
    // now approved: listed as such, ticked and fixed
    const after = within(screen.getByTestId("verify-panel")).getAllByTestId("verify-check");
    expect(after.map((r) => [r.getAttribute("data-command"), r.getAttribute("data-approved")])).toEqual([
      ["python3 -m pytest test_calc.py::test_divide_by_zero", "true"],
      ["python3 -m pytest -q", "true"],
      ["pytest -q", "false"],
      ["sh -c 'grep -q \"b == 0\" calc.py'", "true"],
    ]);
    expect(store.get().verifying).toBe(false);
  });

  it("waits while verifying: Verify, Fix and Apply are off and Cancel cancels through CancelPlan", async () => {
    let finish: (r: PlanRecord) => void = () => {};
    const { b } = await shown((b) => {
      b.verifyResult = () => new Promise((res) => (finish = res));
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId("verify"));
    });
    expect((screen.getByTestId("verify") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId("fix") as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId("apply") as HTMLButtonElement).disabled).toBe(true);
    act(() => b.progress!([{ stage: "verify", round: 0, max_rounds: 0, message: "verifying: run — python3 -m pytest -q", chars: 0, requests: 0 }]));
    expect(screen.getByTestId("verify-progress").textContent).toBe("Verifying: run — python3 -m pytest -q");
    await act(async () => {
      fireEvent.click(screen.getByTestId("verify-cancel"));
    });
    expect(b.called("cancelPlan")).toHaveLength(1);
    await act(async () => finish({ ...samplePlan(), verification: { state: "not_verified", reason: "verification was cancelled", commands: [], overhead_ms: 0 } }));
    expect(screen.getByTestId("verify-badge").textContent).toBe("Not verified — verification was cancelled · about the plan as proposed");
    expect(screen.queryByTestId("verify-progress")).toBeNull();
    expect((screen.getByTestId("fix") as HTMLButtonElement).disabled).toBe(false);
  });

  it("is off for a foreign plan: its commands are never offered and a verdict it carries is not shown", async () => {
    const b = new FakeBackend();
    b.loadResult = async () => ({ ...foreignPlan(), verification: sampleVerification("verified") });
    const store = new Store(b);
    render(<App store={store} />);
    await act(async () => {
      await store.loadPlan("99991231-235959.999999-ffffff");
    });
    expect((screen.getByTestId("verify") as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("verify").getAttribute("aria-describedby")).toBe("foreign-note");
    expect(screen.getByTestId("verify-disabled-reason").textContent).toMatch(/not made by you/);
    expect(screen.queryAllByTestId("verify-check")).toHaveLength(0);
    expect(screen.queryByTestId("verify-badge")).toBeNull();
    expect(screen.queryByTestId("verification")).toBeNull();
    expect(b.called("planChecks")).toHaveLength(0);
    await act(async () => {
      await store.verify();
    });
    expect(b.called("verifyPlan")).toHaveLength(0);
    expect(store.get().error?.code).toBe("ERR_FOREIGN_STATE");
  });

  it("is not offered for a plan without changes", async () => {
    const { b } = await shown((b) => {
      b.planResult = async () => ({ ...samplePlan(), changes: [] });
    });
    expect(screen.queryByTestId("verify-panel")).toBeNull();
    expect(b.called("planChecks")).toHaveLength(0);
  });
});

describe("Settings: verification", () => {
  it("lists the approved checks and revokes one", async () => {
    const b = new FakeBackend();
    b.approvedList = ["python3 -m pytest -q", "sh -c 'grep -q x calc.py'"];
    const store = new Store(b);
    render(<App store={store} />);
    await act(async () => {
      await store.start();
      await store.openSettings();
    });
    const dialog = screen.getByTestId("settings-dialog");
    const rows = within(dialog).getAllByTestId("approved-check");
    expect(rows.map((r) => r.getAttribute("data-command"))).toEqual(["python3 -m pytest -q", "sh -c 'grep -q x calc.py'"]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole("button", { name: "Revoke python3 -m pytest -q" }));
    });
    expect(b.called("revokeCheck")[0].args).toEqual(["python3 -m pytest -q"]);
    expect(within(dialog).getAllByTestId("approved-check").map((r) => r.getAttribute("data-command"))).toEqual(["sh -c 'grep -q x calc.py'"]);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole("button", { name: "Revoke sh -c 'grep -q x calc.py'" }));
    });
    expect(within(dialog).getByTestId("approved-empty")).toBeTruthy();
  });

  it("unticks a revoked check in the plan's Verify panel", async () => {
    const { store } = await shown();
    expect((screen.getAllByTestId("verify-check-box")[1] as HTMLInputElement).checked).toBe(true);
    await act(async () => {
      await store.openSettings();
    });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Revoke python3 -m pytest -q" }));
    });
    const box = screen.getAllByTestId("verify-check-box")[1] as HTMLInputElement;
    expect([box.checked, box.disabled]).toEqual([false, false]);
  });

  it("saves the switch, the attempts and the check timeout", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    const sw = screen.getByRole("switch", { name: "Verify before review" }) as HTMLInputElement;
    expect(sw.checked).toBe(false);
    fireEvent.click(sw);
    fireEvent.change(screen.getByTestId("verify-attempts"), { target: { value: "1" } });
    fireEvent.change(screen.getByTestId("check-timeout"), { target: { value: "60" } });
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ verify_before_review: true, verify_attempts: 1, check_timeout_seconds: 60 });
    expect(screen.getByText(/Open a project to see its approved checks/)).toBeTruthy();
  });
});

describe("Verify before review, per run", () => {
  it("starts from the setting and is sent as verify / no_verify", async () => {
    const { b } = await shown((b) => {
      b.settings = { ...sampleSettings(), verify_before_review: true };
    });
    const box = screen.getByTestId("verify-run") as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(b.called("plan")[0].args[0]).toMatchObject({ verify: true, no_verify: false });
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    await act(async () => {
      fireEvent.click(screen.getByTestId("fix"));
    });
    expect(b.called("plan")[1].args[0]).toMatchObject({ verify: false, no_verify: true });
  });

  it("verifies one run when the setting is off", async () => {
    const { b } = await shown();
    const box = screen.getByTestId("verify-run") as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(b.called("plan")[0].args[0]).toMatchObject({ verify: false, no_verify: true });
    fireEvent.click(box);
    await act(async () => {
      fireEvent.click(screen.getByTestId("fix"));
    });
    expect(b.called("plan")[1].args[0]).toMatchObject({ verify: true, no_verify: false });
  });
});

describe("what the verdict shown is about", () => {
  it("says it is about the plan as proposed, turns stale when a hunk is rejected, and is about the selection once verified again", async () => {
    const { b, store } = await shown();
    await act(async () => {
      await store.verify();
    });
    const badge = () => screen.getByTestId("verify-badge");
    expect(badge().textContent).toBe("Verified — 2 checks pass · about the plan as proposed");
    expect(badge().getAttribute("data-stale")).toBe("false");
    expect(screen.queryByTestId("verdict-stale")).toBeNull();

    await act(async () => {
      await store.setHunk("calc.py", 1, false);
    });
    expect(badge().getAttribute("data-stale")).toBe("true");
    expect(badge().textContent).toContain("about the plan as proposed");
    expect(screen.getByTestId("verdict-stale").textContent).toMatch(/stale: your choices changed since this verdict/);

    await act(async () => {
      await store.verify();
    });
    expect(b.called("verifySelection")).toHaveLength(1);
    expect(badge().textContent).toBe("Verified — 2 checks pass · about your selection");
    expect(badge().getAttribute("data-stale")).toBe("false");
    expect(screen.queryByTestId("verdict-stale")).toBeNull();

    // Taking the hunk back returns to the plan as proposed: the selection's verdict is stale.
    await act(async () => {
      await store.setHunk("calc.py", 1, true);
    });
    expect(badge().getAttribute("data-stale")).toBe("true");
  });
});

describe("the model's whole answer", () => {
  it("shows the plan's mode, what to expect after the fix and how to roll it back by hand", async () => {
    await shown((b) => {
      b.planResult = async () => {
        const p = samplePlan();
        return { ...p, plan: { ...p.plan, verification: ["test_divide_by_zero passes"], rollback: ["git checkout calc.py", "rm notes.md"] } };
      };
    });
    expect(screen.getByTestId("plan-mode").textContent).toBe("mode: fix-plan");
    expect(Array.from(screen.getByTestId("plan-expect").querySelectorAll("li"), (li) => li.textContent)).toEqual(["test_divide_by_zero passes"]);
    expect(Array.from(screen.getByTestId("plan-rollback").querySelectorAll("li"), (li) => li.textContent)).toEqual(["git checkout calc.py", "rm notes.md"]);
    expect(screen.getByText(/fixplan's own Undo does not depend on it/)).toBeTruthy();
  });

  it("leaves out the lists the model left empty, and names the apply mode", async () => {
    await shown((b) => {
      b.planResult = async () => ({ ...samplePlan(), plan: { ...samplePlan().plan, mode: "apply" } });
    });
    expect(screen.getByTestId("plan-mode").textContent).toBe("mode: apply");
    expect(screen.queryByTestId("plan-expect")).toBeNull();
    expect(screen.queryByTestId("plan-rollback")).toBeNull();
  });
});
