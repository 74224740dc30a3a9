import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { App } from "../App";
import { Store } from "../state/store";
import { SettingsDialog } from "./SettingsDialog";
import { formatCost, tokenText } from "./PlanView";
import { FakeBackend, samplePlan, sampleSettings } from "../state/fakeBackend";
import type { PlanRecord } from "../api/types";

/** costly is the sample plan as a small local window and prices made it. */
function costly(): PlanRecord {
  const p = samplePlan();
  return {
    ...p,
    base: { ...p.base, sections: [{ title: "File calc.py lines 1-2 of 2 (around the stack frames)", body: "1 | def divide(a, b):", tokens: 1234 }] },
    calls: [{ turn: 1, model: "gpt-4o-mini", format: "json_schema", prompt_tokens: 3000, completion_tokens: 500, attempts: 1, duration_ms: 900 }],
    usage: { tokenizer: "o200k_base", prompt_tokens: 3000, completion_tokens: 500, window: 4096, window_source: "Ollama /api/ps (the running model's context_length)", compact: true, repeats_avoided: 700, cost: 0.0125 },
  };
}

async function shown(plan: PlanRecord) {
  const b = new FakeBackend();
  b.planResult = async () => plan;
  const store = new Store(b);
  render(<App store={store} />);
  await act(async () => {
    await store.start();
    store.setProblem("ZeroDivisionError");
    await store.fix();
  });
}

describe("what a plan cost", () => {
  it("shows each section's tokens, the plan's tokens in and out, its cost and the window it was fitted to", async () => {
    await shown(costly());
    const sent = screen.getByTestId("context-sent");
    expect(sent.querySelector("summary")?.textContent).toContain("1,234 tokens");
    expect(within(sent).getByTestId("section-tokens").textContent).toBe(" — 1,234 tokens");
    expect(within(sent).getByTestId("calls").textContent).toContain("3,000 tokens in");
    expect(within(sent).getByTestId("plan-cost").textContent).toBe(", cost 0.01");
    const w = within(sent).getByTestId("window").textContent ?? "";
    expect(w).toContain("4,096-token window (Ollama /api/ps");
    expect(w).toContain("compact prompt");
    expect(w).toContain("700 tokens the model already had were not sent again");
  });

  it("says when counts are estimates and shows no cost without prices", async () => {
    const p = costly();
    p.usage = { ...p.usage!, tokenizer: "estimate", cost: undefined, window: 0, repeats_avoided: 0 };
    await shown(p);
    const sent = screen.getByTestId("context-sent");
    expect(within(sent).getByTestId("section-tokens").textContent).toBe(" — ~1,234 tokens (estimated)");
    expect(within(sent).queryByTestId("plan-cost")).toBeNull();
    expect(within(sent).queryByTestId("window")).toBeNull();
  });

  it("words counts and costs", () => {
    expect(tokenText(1, { tokenizer: "cl100k_base", prompt_tokens: 0, completion_tokens: 0 })).toBe("1 token");
    expect(tokenText(2500)).toBe("~2,500 tokens (estimated)");
    expect(formatCost(1.5)).toBe("1.50");
    expect(formatCost(0.00042)).toBe("0.00042");
  });
});

describe("token settings", () => {
  it("saves the window and the prices per million tokens", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByTestId("context-window"), { target: { value: "8192" } });
    fireEvent.change(screen.getByTestId("price-input"), { target: { value: "0.15" } });
    fireEvent.change(screen.getByTestId("price-output"), { target: { value: "0.6" } });
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ context_window: 8192, price_input_per_mtok: 0.15, price_output_per_mtok: 0.6 });
  });
});
