import { describe, expect, it } from "vitest";
import { Store } from "../store";
import { FakeBackend } from "../fakeBackend";

describe("settings slice", () => {
  it("says Testing… while the connection is tested, then the answer", async () => {
    const b = new FakeBackend();
    let during = "";
    b.testConnection = async () => {
      during = s.get().connection;
      return "OK: gpt-4o-mini answered";
    };
    const s = new Store(b);
    await s.openSettings();
    await s.testConnection();
    expect(during).toBe("Testing…");
    expect(s.get().connection).toBe("OK: gpt-4o-mini answered");
  });

  it("clears the line and shows the error in the dialog when the test fails", async () => {
    const b = new FakeBackend();
    b.testConnection = async () => {
      throw JSON.stringify({ code: "ERR_PROVIDER_AUTH", message: "the provider refused the key", hint: "check the key" });
    };
    const s = new Store(b);
    await s.openSettings();
    await s.testConnection();
    expect(s.get().connection).toBe("");
    expect(s.get().settingsError?.code).toBe("ERR_PROVIDER_AUTH");
    expect(s.get().error).toBeNull(); // the main window's error is not replaced
  });

  it("lists approved checks only with a project open, and forgets them on close", async () => {
    const b = new FakeBackend();
    const s = new Store(b);
    await s.openSettings();
    expect(s.get().approved).toBeNull();
    expect(b.called("approvedChecks")).toHaveLength(0);
    await s.start();
    await s.openSettings();
    expect(s.get().approved).toEqual(["python3 -m pytest -q"]);
    s.closeSettings();
    expect([s.get().settings, s.get().approved]).toEqual([null, null]);
  });
});
