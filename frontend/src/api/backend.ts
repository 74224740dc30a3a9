// The only module that talks to the Go side: typed wrappers over the bindings
// Wails generates from app.App (src/api/wailsjs, `wails generate module`) and its
// runtime events.
import * as App from "./wailsjs/go/app/App";
import { EventsOn, OnFileDrop, OnFileDropOff } from "./wailsjs/runtime/runtime";
import type { Data, Loose } from "./derive";
import { AppError, toAppError, type Backend, type CommandOutput, type ProgressEvent } from "./types";

type WailsWindow = { go?: { app?: { App?: unknown } }; runtime?: unknown };

function available(): boolean {
  const w = window as unknown as WailsWindow;
  return !!w.go?.app?.App && !!w.runtime;
}

/** Wire is a generated binding as it is called: Wails sends the arguments as JSON,
 * and Go's decoder takes any JSON of the model's shape (a field left out or null is
 * Go's zero value, a nil slice or pointer), so the arguments are the models' data,
 * not instances of the generated classes. */
type Wire<F> = F extends (...args: infer A) => infer R ? (...args: { [I in keyof A]: Loose<Data<A[I]>> | null }) => R : never;

/** go is the bound methods of app.App, called with data (this only widens what
 * their parameters accept, as described above). */
const go = App as { [K in keyof typeof App]: Wire<(typeof App)[K]> };

/** Keys are the field names of a model's data (of its elements, for a list). */
type Keys<T> = T extends readonly (infer E)[] ? Keys<E> : T extends object ? keyof T : never;
/** Fits says whether the type the UI expects (T, from types.ts) is the data of the
 * model R a binding returns: the same fields, each fitting the model's. */
type Fits<T, R> = [Keys<NonNullable<T>>] extends [Keys<Data<R>>]
  ? [Keys<Data<R>>] extends [Keys<NonNullable<T>>]
    ? [T] extends [Loose<Data<R>> | null]
      ? true
      : false
    : false
  : false;

/** call runs a bound method: the backend must be there, and a rejection becomes an
 * AppError. The result is the JSON of the Go value; T says what the Go side
 * guarantees beyond the generated model (types.ts). A T that does not fit the model
 * asks for a second argument no call can give, so it does not compile. */
async function call<R, T>(fn: () => Promise<R>, ..._fits: Fits<T, R> extends true ? [] : [doesNotFitTheModel: never]): Promise<T> {
  if (!available()) throw new AppError("ERR_NO_BACKEND", "the fixplan backend is not available", "start the app with `make run`");
  try {
    return (await fn()) as unknown as T;
  } catch (e) {
    throw toAppError(e);
  }
}

function on<T>(name: string, cb: (data: T) => void): () => void {
  if (!available()) return () => {};
  return EventsOn(name, cb);
}

/** appVersion is the version stamped into the running app (Settings' About line). */
export const appVersion = (): Promise<string> => call(() => go.Version());

/** wailsBackend calls the bound Go methods of app.App. */
export const wailsBackend: Backend = {
  chooseProject: () => call(() => go.ChooseProject()),
  openProject: (path) => call(() => go.OpenProject(path)),
  project: () => call(() => go.Project()),
  chooseLogFiles: () => call(() => go.ChooseLogFiles()),
  plan: (req) => call(() => go.Plan(req)),
  estimate: (req) => call(() => go.Estimate(req)),
  cancelPlan: () => call(() => go.CancelPlan()),
  apply: (req) => call(() => go.Apply(req)),
  previewSelection: (req) => call(() => go.PreviewSelection(req)),
  verifySelection: (planId, approve, req) => call(() => go.VerifySelection(planId, approve, req)),
  proposedText: (planId, path, accept) => call(() => go.ProposedText(planId, path, accept)),
  undo: () => call(() => go.Undo()),
  history: () => call(() => go.History()),
  journals: () => call(() => go.Journals()),
  discardJournal: (id) => call(() => go.DiscardJournal(id)),
  loadPlan: (id) => call(() => go.LoadPlan(id)),
  runCommand: (planId, command) => call(() => go.RunCommand(planId, command)),
  stopCommand: () => call(() => go.StopCommand()),
  planChecks: (planId) => call(() => go.PlanChecks(planId)),
  verifyPlan: (planId, approve) => call(() => go.VerifyPlan(planId, approve)),
  writeChanges: (planId) => call(() => go.WriteChanges(planId)),
  approvedChecks: () => call(() => go.ApprovedChecks()),
  revokeCheck: (command) => call(() => go.RevokeCheck(command)),
  getSettings: () => call(() => go.GetSettings()),
  saveSettings: (s, key) => call(() => go.SaveSettings(s, key)),
  presets: () => call(() => go.Presets()),
  testConnection: () => call(() => go.TestConnection()),
  openInEditor: (path, line) => call(() => go.OpenInEditor(path, line)),
  onProgress: (cb) => on<ProgressEvent[]>("plan:progress", cb),
  onCommandOutput: (cb) => on<CommandOutput>("command:output", cb),
  onFileDrop: (cb) => {
    if (!available()) return () => {};
    OnFileDrop((_x: number, _y: number, paths: string[]) => cb(paths), false);
    return () => OnFileDropOff();
  },
};
