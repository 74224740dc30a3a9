// The only module that talks to the Go side: typed wrappers over the bindings
// Wails generates from app.App (src/api/wailsjs, `wails generate module`) and its
// runtime events.
import * as App from "./wailsjs/go/app/App";
import { EventsOn, OnFileDrop, OnFileDropOff } from "./wailsjs/runtime/runtime";
import { AppError, toAppError, type Backend } from "./types";

type WailsWindow = { go?: { app?: { App?: unknown } }; runtime?: unknown };

function available(): boolean {
  const w = window as unknown as WailsWindow;
  return !!w.go?.app?.App && !!w.runtime;
}

async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  if (!available()) throw new AppError("ERR_NO_BACKEND", "the fixplan backend is not available", "start the app with `make run`");
  try {
    return (await fn()) as T;
  } catch (e) {
    throw toAppError(e);
  }
}

function on(name: string, cb: (data: never) => void): () => void {
  if (!available()) return () => {};
  return EventsOn(name, (data: unknown) => cb(data as never));
}

/** appVersion is the version stamped into the running app (Settings' About line). */
export const appVersion = (): Promise<string> => call(() => App.Version());

/** wailsBackend calls the bound Go methods of app.App. */
export const wailsBackend: Backend = {
  chooseProject: () => call(() => App.ChooseProject()),
  openProject: (path) => call(() => App.OpenProject(path)),
  project: () => call(() => App.Project()),
  chooseLogFiles: () => call(() => App.ChooseLogFiles()),
  plan: (req) => call(() => App.Plan(req as never)),
  cancelPlan: () => call(() => App.CancelPlan()),
  apply: (req) => call(() => App.Apply(req as never)),
  previewSelection: (req) => call(() => App.PreviewSelection(req as never)),
  verifySelection: (planId, approve, req) => call(() => App.VerifySelection(planId, approve, req as never)),
  proposedText: (planId, path, accept) => call(() => App.ProposedText(planId, path, accept as never)),
  undo: () => call(() => App.Undo()),
  history: () => call(() => App.History()),
  journals: () => call(() => App.Journals()),
  discardJournal: (id) => call(() => App.DiscardJournal(id)),
  loadPlan: (id) => call(() => App.LoadPlan(id)),
  runCommand: (planId, command) => call(() => App.RunCommand(planId, command)),
  stopCommand: () => call(() => App.StopCommand()),
  planChecks: (planId) => call(() => App.PlanChecks(planId)),
  verifyPlan: (planId, approve) => call(() => App.VerifyPlan(planId, approve)),
  writeChanges: (planId) => call(() => App.WriteChanges(planId)),
  approvedChecks: () => call(() => App.ApprovedChecks()),
  revokeCheck: (command) => call(() => App.RevokeCheck(command)),
  getSettings: () => call(() => App.GetSettings()),
  saveSettings: (s, key) => call(() => App.SaveSettings(s as never, key)),
  presets: () => call(() => App.Presets()),
  testConnection: () => call(() => App.TestConnection()),
  onProgress: (cb) => on("plan:progress", cb),
  onCommandOutput: (cb) => on("command:output", cb),
  onFileDrop: (cb) => {
    if (!available()) return () => {};
    OnFileDrop((_x: number, _y: number, paths: string[]) => cb(paths), false);
    return () => OnFileDropOff();
  },
};
