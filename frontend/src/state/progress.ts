import type { ProgressEvent } from "../api/types";

export type Progress = { stage: string; message: string; round: number; maxRounds: number; chars: number; requests: number };

/** foldProgress applies a batch of events: the latest stage wins, streamed chars accumulate per round. */
export function foldProgress(prev: Progress | null, evs: ProgressEvent[]): Progress | null {
  let p = prev;
  for (const ev of evs) {
    const base: Progress = p ?? { stage: "", message: "", round: 0, maxRounds: ev.max_rounds, chars: 0, requests: 0 };
    if (ev.stage === "stream") {
      p = { ...base, stage: "stream", round: ev.round || base.round, chars: ev.chars };
    } else {
      p = { ...base, stage: ev.stage, message: ev.message, round: ev.round || base.round, maxRounds: ev.max_rounds || base.maxRounds, requests: ev.requests, chars: ev.stage === "ask" ? 0 : base.chars };
    }
  }
  return p;
}

/** stageText says what is happening, for people. */
export function stageText(p: Progress | null): string {
  if (!p) return "";
  const of = p.maxRounds ? ` of ${p.maxRounds}` : "";
  switch (p.stage) {
    case "gather":
      return "Gathering context…";
    case "estimate":
      // the estimate itself is shown next to Fix; the message is the CLI's line
      return "Context ready — sending the first request…";
    case "ask":
      return `Round ${p.round}${of} — asking the model…`;
    case "stream":
      return `Round ${p.round}${of} — receiving the reply (${p.chars.toLocaleString("en")} characters)`;
    case "repair":
      return "Repairing an invalid reply…";
    case "fulfil":
      return `Fulfilling ${p.requests} context request${p.requests === 1 ? "" : "s"}…`;
    case "preview":
      return "Computing the diffs…";
    case "verify":
      return verifyText(p.message);
    case "done":
      return "Plan ready.";
    case "error":
      // The error itself is in the message box, worded for people; the event
      // carries the raw chain ("… (HTTP 500): llm unavailable (HTTP 500): …").
      return "Planning stopped: the message above says why and what to do.";
    case "recovery":
      return p.message;
  }
  return p.message;
}

/** verifyText words a verification progress message ("verifying: run — go test ./..."). */
function verifyText(m: string): string {
  if (!m) return "Verifying in a scratch copy…";
  return m.charAt(0).toUpperCase() + m.slice(1);
}
