// The commands the user runs for the plan shown, with their streamed output.
import type { CommandOutput, CommandResult } from "../../api/types";
import { foreignRefusal } from "../foreign";
import type { Core, State } from "../store";

export type CommandState = { running: boolean; output: string; result?: CommandResult };

export type CommandsState = {
  /** commands are the commands run for the plan shown, by command line. */
  commands: Record<string, CommandState>;
};

export const commandsInitial: CommandsState = { commands: {} };

/** withOutput appends a chunk a running command printed. */
export function withOutput(st: State, o: CommandOutput): Partial<State> {
  const cmd = st.commands[o.command] ?? { running: true, output: "" };
  return { commands: { ...st.commands, [o.command]: { ...cmd, output: cmd.output + o.chunk } } };
}

export function commandsSlice(c: Core) {
  const put = (command: string, state: CommandState) => c.set({ commands: { ...c.get().commands, [command]: state } });
  return {
    async runCommand(command: string) {
      const p = c.get().plan;
      if (!p) return;
      const refused = foreignRefusal(p, "run");
      if (refused) return c.fail(refused);
      put(command, { running: true, output: "" });
      try {
        const result = await c.backend.runCommand(p.id, command);
        put(command, { running: false, output: result.output, result });
      } catch (e) {
        put(command, { running: false, output: c.get().commands[command]?.output ?? "" });
        c.fail(e);
      }
    },

    async stopCommand() {
      try {
        await c.backend.stopCommand();
      } catch (e) {
        c.fail(e);
      }
    },
  };
}
