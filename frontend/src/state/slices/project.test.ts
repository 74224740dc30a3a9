import { describe, expect, it } from "vitest";
import { Store } from "../store";
import { FakeBackend } from "../fakeBackend";

describe("project slice", () => {
  it("shows nothing of the project before once another is opened, and keeps the problem typed", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    s.setProblem("ZeroDivisionError");
    await s.fix();
    await s.apply();
    await s.openHistory();
    expect([s.get().plan, s.get().result, s.get().history, s.get().latestApply].every((v) => v !== null)).toBe(true);
    await s.openProject("/work/other");
    const st = s.get();
    expect(st.project?.root).toBe("/work/other");
    expect([st.plan, st.result, st.error, st.history, st.journals, st.progress, st.checks, st.latestApply]).toEqual([null, null, null, null, null, null, null, null]);
    expect(st.problem).toBe("ZeroDivisionError");
    expect(b.called("openProject")[0].args).toEqual(["/work/other"]);
  });

  it("takes a closed folder dialog as no error and shows any other failure", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.start();
    b.chooseProject = async () => {
      throw JSON.stringify({ code: "ERR_CANCELLED", message: "no folder chosen", hint: "" });
    };
    await s.chooseProject();
    expect(s.get().error).toBeNull();
    expect(s.get().project?.root).toBe("/work/proj");
    b.chooseProject = async () => {
      throw JSON.stringify({ code: "ERR_NOT_FOUND", message: "/gone does not exist", hint: "" });
    };
    await s.chooseProject();
    expect(s.get().error?.code).toBe("ERR_NOT_FOUND");
  });

  it("attaches a chosen log once, renames and removes it", async () => {
    const s = new Store(new FakeBackend());
    await s.chooseLogs();
    await s.chooseLogs();
    expect(s.get().logs).toEqual([{ source: "app", path: "/var/log/app.log" }]);
    s.renameLog(0, "server");
    expect(s.get().logs).toEqual([{ source: "server", path: "/var/log/app.log" }]);
    s.removeLog(0);
    expect(s.get().logs).toEqual([]);
  });
});
