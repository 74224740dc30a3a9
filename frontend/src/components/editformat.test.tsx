import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { SettingsDialog } from "./SettingsDialog";
import { sampleSettings } from "../state/fakeBackend";

describe("Edit format setting", () => {
  it("shows the stored format and saves the one chosen", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    const sel = screen.getByLabelText("Edit format") as HTMLSelectElement;
    expect(sel.value).toBe("auto");
    expect(Array.from(sel.options).map((o) => o.value)).toEqual(["auto", "whole", "search_replace", "diff"]);
    fireEvent.change(sel, { target: { value: "search_replace" } });
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ edit_format: "search_replace" });
  });
});
