// The only module that touches window.go / window.runtime (the Wails bindings).
import { AppError, toAppError, type Backend } from "./types";

type GoApp = Record<string, (...args: unknown[]) => Promise<unknown>>;
type Runtime = {
  EventsOn(name: string, cb: (...data: unknown[]) => void): () => void;
  OnFileDrop?(cb: (x: number, y: number, paths: string[]) => void, useDropTarget: boolean): void;
  OnFileDropOff?(): void;
};
type WailsWindow = { go?: { app?: { App?: GoApp } }; runtime?: Runtime };

function goApp(): GoApp {
  const app = (window as unknown as WailsWindow).go?.app?.App;
  if (!app) throw new AppError("ERR_NO_BACKEND", "the fixplan backend is not available", "start the app with `make run`");
  return app;
}

function runtime(): Runtime | undefined {
  return (window as unknown as WailsWindow).runtime;
}

async function call<T>(method: string, ...args: unknown[]): Promise<T> {
  try {
    return (await goApp()[method](...args)) as T;
  } catch (e) {
    throw toAppError(e);
  }
}

/** wailsBackend calls the bound Go methods of app.App. */
export const wailsBackend: Backend = {
  chooseProject: () => call("ChooseProject"),
  openProject: (path) => call("OpenProject", path),
  project: () => call("Project"),
  chooseLogFiles: () => call("ChooseLogFiles"),
  plan: (req) => call("Plan", req),
  cancelPlan: () => call("CancelPlan"),
  apply: (req) => call("Apply", req),
  undo: () => call("Undo"),
  history: () => call("History"),
  loadPlan: (id) => call("LoadPlan", id),
  runCommand: (planId, command) => call("RunCommand", planId, command),
  stopCommand: () => call("StopCommand"),
  getSettings: () => call("GetSettings"),
  saveSettings: (s, key) => call("SaveSettings", s, key),
  presets: () => call("Presets"),
  testConnection: () => call("TestConnection"),
  onProgress: (cb) => runtime()?.EventsOn("plan:progress", (evs) => cb(evs as never)) ?? (() => {}),
  onCommandOutput: (cb) => runtime()?.EventsOn("command:output", (o) => cb(o as never)) ?? (() => {}),
  onFileDrop: (cb) => {
    const rt = runtime();
    if (!rt?.OnFileDrop) return () => {};
    rt.OnFileDrop((_x, _y, paths) => cb(paths), false);
    return () => rt.OnFileDropOff?.();
  },
};
