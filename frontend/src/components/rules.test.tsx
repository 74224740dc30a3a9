import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { SettingsDialog } from "./SettingsDialog";
import { sampleSettings } from "../state/fakeBackend";

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
