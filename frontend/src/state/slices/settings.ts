// The Settings dialog: the provider settings and the key, the presets, the
// connection test, and the checks approved for the project.
import { toAppError, type AppError, type Preset, type Settings } from "../../api/types";
import type { Core } from "../store";
import type { ChecksActions } from "./checks";
import type { EstimateActions } from "./estimate";

export type SettingsState = {
  /** settings are the open Settings dialog's (null when closed). */
  settings: Settings | null;
  presets: Preset[];
  /** connection says how the last save or connection test went. */
  connection: string;
  /** approved lists the check commands approved for the project (the open Settings dialog). */
  approved: string[] | null;
  /** settingsError is why a save, a connection test or a revoke in the open Settings dialog
   * failed: it is shown in the dialog, never in place of the main window's error (a
   * planning error stays there), and is cleared when the dialog opens or its fields change. */
  settingsError: AppError | null;
};

export const settingsInitial: SettingsState = { settings: null, presets: [], connection: "", approved: null, settingsError: null };

export function settingsSlice(c: Core, s: Pick<ChecksActions, "loadChecks">, est: Pick<EstimateActions, "requestEstimate">) {
  /** failIn shows e in the Settings dialog. */
  const failIn = (e: unknown) => c.set({ settingsError: toAppError(e) });

  /** loadApproved lists the checks approved for the open project (Settings). */
  const loadApproved = async () => {
    if (!c.get().project) return;
    try {
      const approved = await c.backend.approvedChecks();
      if (c.get().settings) c.set({ approved: approved ?? [] });
    } catch (e) {
      failIn(e);
    }
  };

  return {
    async openSettings() {
      try {
        const [settings, presets] = await Promise.all([c.backend.getSettings(), c.backend.presets()]);
        c.set({ settings, presets, connection: "", approved: null, settingsError: null, verifyDefault: !!settings.verify_before_review });
      } catch (e) {
        c.fail(e);
        return;
      }
      await loadApproved();
    },

    closeSettings: () => c.set({ settings: null, approved: null, settingsError: null }),

    /** editSettings: a field of the dialog changed, so the last save's error no longer holds. */
    editSettings: () => {
      if (c.get().settingsError) c.set({ settingsError: null });
    },

    dismissSettingsError: () => c.set({ settingsError: null }),

    async saveSettings(settings: Settings, apiKey: string) {
      c.set({ settingsError: null });
      try {
        const saved = await c.backend.saveSettings(settings, apiKey);
        // The next runs follow the new setting.
        c.set({ settings: saved, connection: "Saved.", verifyDefault: !!saved.verify_before_review, verifyRun: null });
        est.requestEstimate(); // prices, ceilings, budgets and the model change what a plan costs
      } catch (e) {
        c.set({ connection: "" });
        failIn(e);
      }
    },

    /** revokeCheck withdraws a check's approval for the project; it no longer runs unless ticked again. */
    async revokeCheck(command: string) {
      try {
        await c.backend.revokeCheck(command);
      } catch (e) {
        failIn(e);
      }
      await loadApproved();
      if (c.get().checks) await s.loadChecks();
    },

    async testConnection() {
      c.set({ connection: "Testing…", settingsError: null });
      try {
        c.set({ connection: await c.backend.testConnection() });
      } catch (e) {
        c.set({ connection: "" });
        failIn(e);
      }
    },
  };
}
