import { describe, expect, it } from "vitest";
import { foreignRefusal } from "./foreign";
import { Store } from "./store";
import { FakeBackend, foreignPlan, samplePlan } from "./fakeBackend";

describe("the foreign-plan rule", () => {
  it("refuses nothing of the user's own plan", () => {
    expect(foreignRefusal(samplePlan(), "applied")).toBeNull();
  });

  it("refuses a foreign plan with the code the Go side refuses it with", () => {
    const err = foreignRefusal(foreignPlan(), "verified")!;
    expect(err.code).toBe("ERR_FOREIGN_STATE");
    expect(err.message).toContain(foreignPlan().id);
    expect(err.message).toMatch(/never verified/);
  });

  it("keeps every action on a foreign plan from the backend", async () => {
    const b = new FakeBackend();
    b.loadResult = async () => ({ ...foreignPlan(), changes: [], plan: { ...foreignPlan().plan, plan: [{ step: "s", details: "d" }] } });
    const s = new Store(b);
    await s.loadPlan("99991231-235959.999999-ffffff");
    for (const act of [() => s.apply(), () => s.runCommand("pytest -q"), () => s.verify(), () => s.writeChanges()]) {
      s.dismissError();
      await act();
      expect(s.get().error?.code).toBe("ERR_FOREIGN_STATE");
    }
    expect(["apply", "runCommand", "verifyPlan", "verifySelection", "writeChanges"].flatMap((m) => b.called(m))).toEqual([]);
  });
});
