import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { SettingsDialog } from "./SettingsDialog";
import { PlanView } from "./PlanView";
import { planViewProps } from "./planViewProps";
import type { PlanRecord } from "../api/types";
import { samplePlan, sampleSettings } from "../state/fakeBackend";

function renderPlan(plan: PlanRecord) {
  render(<PlanView {...planViewProps(plan, { onWriteChanges: () => {} })} />);
}

describe("Context sent", () => {
  it("names the project's rules files the plan was sent, and the section shows them", () => {
    const p = samplePlan();
    const rules = { title: "Project rules (app/AGENTS.md, AGENTS.md)", body: "--- app/AGENTS.md (nearest to app/calc.py) ---\nUse Decimal.\n" };
    renderPlan({ ...p, base: { ...p.base, sections: [p.base.sections[0], rules, ...p.base.sections.slice(1)] } });
    expect(screen.getByTestId("rules-used").textContent).toBe(" · project rules from app/AGENTS.md, AGENTS.md");
    expect(screen.getByText("Project rules (app/AGENTS.md, AGENTS.md)")).toBeTruthy();
  });

  it("says nothing about rules when none were sent", () => {
    renderPlan(samplePlan());
    expect(screen.queryByTestId("rules-used")).toBeNull();
  });
});

describe("Project rules setting", () => {
  it("is on by default and saves no_project_rules when switched off", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    const box = screen.getByTestId("project-rules") as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ no_project_rules: true });
  });

  it("shows a stored off switch as unticked", () => {
    render(
      <SettingsDialog
        settings={{ ...sampleSettings(), no_project_rules: true }}
        presets={[]}
        connection=""
        approved={null}
        onSave={() => {}}
        onTest={() => {}}
        onRevoke={() => {}}
        onClose={() => {}}
      />,
    );
    expect((screen.getByTestId("project-rules") as HTMLInputElement).checked).toBe(false);
  });
});
