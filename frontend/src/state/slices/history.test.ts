import { describe, expect, it } from "vitest";
import { Store } from "../store";
import { FakeBackend } from "../fakeBackend";

describe("history slice", () => {
  it("names the journals' plans by their summaries, and shows the journals without them", async () => {
    const b = new FakeBackend();
    b.historyItems = [{ id: "p1", created_at: "2026-11-22 10:00:00", state: "applied", summary: "guard b == 0", problem: "x", files: 1, foreign: false }];
    const s = new Store(b);
    await s.openJournals();
    expect(s.get().summaries).toEqual({ p1: "guard b == 0" });
    const bare = new FakeBackend();
    bare.history = async () => {
      throw new Error("history unreadable");
    };
    const t = new Store(bare);
    await t.openJournals();
    expect(t.get().journals).toHaveLength(3);
    expect(t.get().error).toBeNull();
  });

  it("asks which apply Undo would undo when an applied plan is opened", async () => {
    const b = new FakeBackend();
    b.loadResult = async () => ({ ...(await new FakeBackend().loadResult("p1")), state: "applied", transaction: "20261122-100000.000000-aaaaaa" });
    const s = new Store(b);
    await s.loadPlan("p1");
    expect(s.get().latestApply).toEqual({ transaction: "20261122-100000.000000-aaaaaa", planId: "p1" });
    expect(b.called("planChecks")).toHaveLength(0);
  });
});
