import { describe, expect, it } from "vitest";
import { planned } from "../fakeBackend";

describe("commands slice", () => {
  it("streams a running command's output and keeps it when the run fails", async () => {
    const { b, s } = await planned();
    let seen: unknown;
    b.runCommand = async (_planId: string, command: string) => {
      b.output?.({ command, chunk: "collecting…\n" });
      b.output?.({ command, chunk: "1 failed\n" });
      seen = s.get().commands[command];
      throw JSON.stringify({ code: "ERR_COMMAND_FAILED", message: "the command could not be started", hint: "" });
    };
    await s.runCommand("pytest -q");
    expect(seen).toEqual({ running: true, output: "collecting…\n1 failed\n" });
    expect(s.get().commands["pytest -q"]).toEqual({ running: false, output: "collecting…\n1 failed\n" });
    expect(s.get().error?.code).toBe("ERR_COMMAND_FAILED");
  });

  it("forgets what the commands printed once another plan is shown", async () => {
    const { s } = await planned();
    await s.runCommand("pytest -q");
    expect(Object.keys(s.get().commands)).toEqual(["pytest -q"]);
    await s.fix();
    expect(s.get().commands).toEqual({});
  });

  it("shows a failed Stop", async () => {
    const { b, s } = await planned();
    b.stopCommand = async () => {
      throw JSON.stringify({ code: "ERR_UNKNOWN", message: "stop failed", hint: "" });
    };
    await s.stopCommand();
    expect(s.get().error?.message).toBe("stop failed");
  });
});
