import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { PlanView } from "./PlanView";
import { planViewProps } from "./planViewProps";
import { ProblemPanel } from "./ProblemPanel";
import { HistoryDrawer } from "./HistoryDrawer";
import type { PlanRecord } from "../api/types";
import { Store } from "../state/store";
import { FakeBackend, samplePlan } from "../state/fakeBackend";

/** approachOnly is a plan made with Plan only: steps, no file changes. */
function approachOnly(): PlanRecord {
  const p = samplePlan();
  return { ...p, input: { ...p.input, plan_only: true }, changes: [], memory: [], plan: { ...p.plan, questions: [] } };
}

function renderPlan(plan: PlanRecord, onWriteChanges = vi.fn()) {
  render(<PlanView {...planViewProps(plan, { onWriteChanges })} />);
  return onWriteChanges;
}

describe("Plan only and Write the changes", () => {
  it("sends plan_only with the next Fix when the switch is on", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    s.setProblem("ZeroDivisionError");
    s.setPlanOnly(true);
    await s.fix();
    expect((b.called("plan")[0].args[0] as { plan_only: boolean }).plan_only).toBe(true);
    s.setPlanOnly(false);
    await s.fix();
    expect((b.called("plan")[1].args[0] as { plan_only: boolean }).plan_only).toBe(false);
  });

  it("writes the changes of the plan shown and shows the written plan ticked", async () => {
    const b = new FakeBackend();
    b.planResult = async () => approachOnly();
    const s = new Store(b);
    await s.start();
    s.setProblem("ZeroDivisionError");
    await s.fix();
    expect(s.get().plan?.changes).toEqual([]);
    await s.writeChanges();
    expect(b.called("writeChanges")[0].args).toEqual(["p1"]);
    expect(s.get().plan?.id).toBe("p2");
    expect(s.get().plan?.approved_plan).toBe("p1");
    expect(s.get().selected).toEqual({ "calc.py": true, "notes.md": true });
    expect(s.get().planning).toBe(false);
  });

  it("never writes changes for a foreign plan", async () => {
    const b = new FakeBackend();
    b.planResult = async () => ({ ...approachOnly(), foreign: true });
    const s = new Store(b);
    await s.start();
    s.setProblem("x");
    await s.fix();
    await s.writeChanges();
    expect(b.called("writeChanges")).toHaveLength(0);
  });

  it("shows a refusal of the backend as an error", async () => {
    const b = new FakeBackend();
    b.planResult = async () => approachOnly();
    b.writeResult = async () => {
      throw JSON.stringify({ code: "ERR_FOREIGN_STATE", message: "plan p1 was not made by your fixplan", hint: "make your own plan" });
    };
    const s = new Store(b);
    await s.start();
    s.setProblem("x");
    await s.fix();
    await s.writeChanges();
    expect(s.get().error?.code).toBe("ERR_FOREIGN_STATE");
    expect(s.get().plan?.id).toBe("p1");
  });

  it("offers Write the changes on a draft without changes only", () => {
    const onWrite = renderPlan(approachOnly());
    expect(screen.getByTestId("write-changes-offer").textContent).toContain("You asked for the plan only.");
    fireEvent.click(screen.getByTestId("write-changes"));
    expect(onWrite).toHaveBeenCalledTimes(1);
  });

  it("does not offer it for a plan with changes, a foreign plan, written changes or a plan without steps", () => {
    renderPlan(samplePlan());
    renderPlan({ ...approachOnly(), foreign: true });
    renderPlan({ ...approachOnly(), approved_plan: "p0" });
    renderPlan({ ...approachOnly(), plan: { ...approachOnly().plan, plan: [], questions: ["Which Python version?"] } });
    expect(screen.queryByTestId("write-changes")).toBeNull();
    expect(screen.getByTestId("approved-plan").textContent).toContain("p0");
  });

  it("flags a change that introduces a syntax error", () => {
    const p = samplePlan();
    p.changes[0] = { ...p.changes[0], syntax_issues: ["line 3, column 1: expected '}', found 'EOF'"] };
    renderPlan(p);
    const note = screen.getByTestId("syntax-issues");
    expect(note.textContent).toContain("calc.py");
    expect(note.textContent).toContain("line 3, column 1: expected '}', found 'EOF'");
    expect(note.textContent).not.toContain("notes.md");
  });

  it("labels plan-only plans and written changes in the history", () => {
    const base = { created_at: "2026-11-22 10:00:00", state: "draft", problem: "x", foreign: false };
    render(
      <HistoryDrawer
        items={[
          { ...base, id: "p2", summary: "written", files: 1, approved_plan: "p1" },
          { ...base, id: "p1", summary: "approach", files: 0, plan_only: true },
        ]}
        onOpen={() => {}}
        onClose={() => {}}
      />,
    );
    const rows = screen.getAllByTestId("history-files").map((r) => r.textContent);
    expect(rows).toEqual(["1 file change · written for the approved plan p1", "0 file changes · plan only"]);
  });

  it("has a Plan only switch next to Fix", () => {
    const onPlanOnly = vi.fn();
    render(
      <ProblemPanel
        problem="boom"
        logs={[]}
        planning={false}
        progress=""
        disabled={false}
        verify={false}
        onVerify={() => {}}
        planOnly={false}
        onPlanOnly={onPlanOnly}
        onProblem={() => {}}
        onFix={() => {}}
        onCancel={() => {}}
        onAttach={() => {}}
        onRename={() => {}}
        onRemove={() => {}}
      />,
    );
    fireEvent.click(screen.getByTestId("plan-only"));
    expect(onPlanOnly).toHaveBeenCalledWith(true);
  });
});
