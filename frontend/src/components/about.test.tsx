import { afterEach, describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { SettingsDialog } from "./SettingsDialog";
import { sampleSettings } from "../state/fakeBackend";

type WailsWindow = { go?: unknown; runtime?: unknown };

const dialog = () => <SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={[]} onSave={() => {}} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />;

describe("SettingsDialog About line", () => {
  afterEach(() => {
    delete (window as WailsWindow).go;
    delete (window as WailsWindow).runtime;
  });

  it("shows the version the running app was built with", async () => {
    (window as WailsWindow).go = { app: { App: { Version: () => Promise.resolve("v1.2.3-4-gabc1234") } } };
    (window as WailsWindow).runtime = {};
    render(dialog());
    expect((await screen.findByTestId("about")).textContent).toBe("About: fixplan v1.2.3-4-gabc1234");
  });

  it("shows nothing without a backend", async () => {
    render(dialog());
    await new Promise((r) => setTimeout(r, 10));
    expect(screen.queryByTestId("about")).toBeNull();
  });
});
