// The payloads of the runtime events app.App emits. Wails generates no models for
// events, so they are written here, one field a line: app/models_test.go holds each
// to its Go type (session.Event, app.CommandOutput).

/** ProgressEvent is one plan:progress event (session.Event); they arrive in batches. */
export type ProgressEvent = {
  stage: string;
  round: number;
  max_rounds: number;
  message: string;
  chars: number;
  requests: number;
};

/** CommandOutput is one chunk of a running command's output (command:output, app.CommandOutput). */
export type CommandOutput = {
  command: string;
  chunk: string;
};
