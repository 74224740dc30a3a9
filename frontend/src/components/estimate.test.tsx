import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { App } from "../App";
import { Store } from "../state/store";
import { ESTIMATE_DELAY } from "../state/slices/estimate";
import { EstimateLine, estimateDetails } from "./EstimateLine";
import { SettingsDialog } from "./SettingsDialog";
import { FakeBackend, sampleEstimate, sampleSettings } from "../state/fakeBackend";
import type { Estimate, PlanRequest } from "../api/types";

/** line renders the estimate line alone (unmounting the one before). */
let unmountLast = () => {};
function line(e: Estimate | null, estimating = false, error = "") {
  unmountLast();
  const { unmount, getByTestId } = render(<EstimateLine estimate={e} estimating={estimating} error={error} />);
  unmountLast = unmount;
  return getByTestId("estimate");
}

describe("the estimate next to Fix", () => {
  it("shows the first request's tokens and the worst case with both context rounds, and asks for prices", () => {
    const el = line(sampleEstimate());
    // the figures include the reply cap: they are what the plan can reach
    expect(el.textContent).toBe("up to 12,950 tokens, 151,204 with 2 context rounds · set prices in Settings to see a cost");
    expect(el.dataset.state).toBe("ok");
    expect(el.className).toContain("muted");
    // the tooltip has every figure, the worst case of all 12 requests too
    expect(el.title).toContain("First request: 4,758 tokens in (3,100 of messages, 1,658 of the plan's JSON schema) and up to 8,192 out: 12,950");
    expect(el.title).toContain("Every request the loop can make (12: repairs, the read of unseen files, corrections): up to 1,187,022");
    expect(el.title).toContain("Tokens counted with o200k_base.");
  });

  it("shows the price at the Settings prices, and ~ for counts estimated from bytes", () => {
    const el = line({ ...sampleEstimate(), tokenizer: "estimate", first_cost: 0.0054, rounds_cost: 0.061, worst_cost: 0.5, notes: [] });
    expect(el.textContent).toBe("up to ~12,950 tokens, ~151,204 with 2 context rounds · cost up to 0.0054, 0.06 with rounds");
    // with no reply cap the first figure is what is sent; the reply comes on top
    const uncapped = line({ ...sampleEstimate(), reply_tokens: 0, first_tokens: 4758 });
    expect(uncapped.textContent).toBe("4,758 tokens and the reply, 151,204 with 2 context rounds · set prices in Settings to see a cost");
    expect(estimateDetails({ ...sampleEstimate(), first_cost: 0.0054 })).toContain(": 12,950, cost 0.0054");
  });

  it("turns to a warning when the first request crosses the ceiling or the window, or the rounds may", () => {
    const over = line({ ...sampleEstimate(), ceiling_tokens: 10000, over_ceiling: true, rounds_over_ceiling: true });
    expect(over.dataset.state).toBe("over-ceiling");
    expect(over.className).toContain("warn");
    expect(within(over).getByTestId("estimate-warning").textContent).toBe("Over your ceiling of 10,000 tokens per plan: Fix would stop before sending anything.");
    expect(over.textContent).toMatch(/^Over your ceiling .* anything\. up to 12,950 tokens, 151,204/);
    const rounds = line({ ...sampleEstimate(), ceiling_cost: 0.05, first_cost: 0.001, rounds_cost: 0.07, rounds_over_ceiling: true });
    expect(rounds.dataset.state).toBe("rounds-over-ceiling");
    expect(within(rounds).getByTestId("estimate-warning").textContent).toContain("The context rounds may cross your ceiling of 0.05 per plan");
    const win = line({ ...sampleEstimate(), window: 4096, window_source: "Ollama /api/ps", over_window: true });
    expect(within(win).getByTestId("estimate-warning").textContent).toContain("Too large for the model's window of 4,096 tokens");
  });

  it("says when it is being worked out, or could not be", () => {
    expect(line(null, true).textContent).toBe("Working out the cost…");
    expect(line(null, false, "the project folder does not exist").title).toBe("the project folder does not exist");
  });

  it("can be reached by the keyboard, and is described by its whole text (not only a tooltip)", () => {
    for (const make of [() => line(sampleEstimate()), () => line(null, false, "the project folder does not exist")]) {
      const el = make();
      expect(el.getAttribute("tabindex")).toBe("0");
      expect(el.tabIndex).toBe(0);
      const described = document.getElementById(el.getAttribute("aria-describedby") ?? "");
      expect(described?.textContent).toBe(el.title);
      expect(described?.className).toContain("visually-hidden");
      expect(el.contains(described)).toBe(false); // the visible line stays short
    }
    expect(screen.getByTestId("estimate-details").textContent).toBe("the project folder does not exist");
  });
});

describe("the estimate as the problem is typed", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("asks the Go side once typing pauses, for the latest text, and shows it next to Fix", async () => {
    const b = new FakeBackend();
    const store = new Store(b);
    render(<App store={store} />);
    await act(async () => {
      await store.start();
    });
    fireEvent.change(screen.getByTestId("problem"), { target: { value: "Zero" } });
    fireEvent.change(screen.getByTestId("problem"), { target: { value: "ZeroDivisionError" } });
    await act(async () => {
      vi.advanceTimersByTime(ESTIMATE_DELAY - 1);
    });
    expect(b.called("estimate")).toHaveLength(0);
    expect(screen.getByTestId("estimate").textContent).toBe("Working out the cost…");
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(b.called("estimate")).toHaveLength(1);
    expect((b.called("estimate")[0].args[0] as PlanRequest).problem).toBe("ZeroDivisionError");
    const panel = screen.getByRole("region", { name: "Problem" });
    expect(within(panel).getByTestId("estimate").textContent).toContain("12,950 tokens");
    // right before the Fix button (with its description, which is not seen)
    expect(within(panel).getByTestId("estimate").parentElement?.nextElementSibling).toBe(within(panel).getByTestId("fix"));
  });

  it("shows only the newest answer, and nothing for an empty problem", async () => {
    const b = new FakeBackend();
    const slow: ((e: Estimate) => void)[] = [];
    b.estimateResult = () => new Promise((resolve) => slow.push(resolve));
    const store = new Store(b);
    await store.start();
    store.setProblem("first");
    await act(async () => vi.advanceTimersByTime(ESTIMATE_DELAY));
    store.setProblem("second");
    await act(async () => vi.advanceTimersByTime(ESTIMATE_DELAY));
    expect(slow).toHaveLength(2);
    await act(async () => slow[1]({ ...sampleEstimate(), first_tokens: 2 }));
    await act(async () => slow[0]({ ...sampleEstimate(), first_tokens: 1 }));
    expect(store.get().estimate?.first_tokens).toBe(2);
    store.setProblem("  ");
    expect(store.get().estimate).toBeNull();
    await act(async () => vi.advanceTimersByTime(ESTIMATE_DELAY));
    expect(b.called("estimate")).toHaveLength(2);
  });

  it("asks again when the settings are saved (prices, ceilings)", async () => {
    const b = new FakeBackend();
    const store = new Store(b);
    await store.start();
    store.setProblem("ZeroDivisionError");
    await act(async () => vi.advanceTimersByTime(ESTIMATE_DELAY));
    await store.saveSettings({ ...sampleSettings(), max_tokens_per_plan: 100 }, "");
    await act(async () => vi.advanceTimersByTime(ESTIMATE_DELAY));
    expect(b.called("estimate")).toHaveLength(2);
  });
});

describe("ceiling settings", () => {
  it("saves max tokens and max cost per plan, and refuses a negative one", () => {
    const onSave = vi.fn();
    render(<SettingsDialog settings={sampleSettings()} presets={[]} connection="" approved={null} onSave={onSave} onTest={() => {}} onRevoke={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByTestId("max-tokens-per-plan"), { target: { value: "-1" } });
    expect(screen.getByTestId("field-error").textContent).toBe("Must be a whole number of tokens, 0 (no ceiling) or more.");
    fireEvent.change(screen.getByTestId("max-tokens-per-plan"), { target: { value: "60000" } });
    fireEvent.change(screen.getByTestId("max-cost-per-plan"), { target: { value: "0.25" } });
    fireEvent.click(screen.getByText("Save"));
    expect(onSave.mock.calls[0][0]).toMatchObject({ max_tokens_per_plan: 60000, max_cost_per_plan: 0.25 });
  });
});
