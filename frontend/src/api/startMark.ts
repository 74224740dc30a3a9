// The page's side of the start-up trace (app.StartTrace): like backend.ts, it talks to
// the Go side, through one runtime event.
import { EventsEmit } from "./wailsjs/runtime/runtime";

/** reportStartMark tells the Go side the page reached a moment of its start-up
 * (app.EventStartMark); the app logs it only when FIXPLAN_TRACE_START is set, for
 * bench/overhead/app.sh. Outside the app (no Wails runtime) it does nothing. */
export function reportStartMark(mark: string): void {
  if (!(window as unknown as { runtime?: unknown }).runtime) return;
  EventsEmit("app:mark", { mark, unix_ms: performance.timeOrigin + performance.now() });
}
