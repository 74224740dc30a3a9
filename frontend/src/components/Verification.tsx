import { useRef, useState } from "react";
import type { Check, CheckOutcome, CheckResult, Verification, VerifyAttempt, VerifyState } from "../api/types";
import type { ChecksState } from "../state/slices/checks";
import { aboutText, type VerdictAbout } from "../state/verdict";

const STATE_LABEL: Record<VerifyState, string> = {
  verified: "Verified",
  partly: "Partly",
  failed: "Failed",
  not_verified: "Not verified",
};

function stateLabel(s: string): string {
  return STATE_LABEL[s as VerifyState] ?? s;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function names(list: string[], max = 3): string {
  return list.length > max ? `${list.slice(0, max).join(", ")} and ${list.length - max} more` : list.join(", ");
}

/** newFailures are the tests that passed before the change and fail with it, over all checks. */
function newFailures(v: Verification): string[] {
  if (v.new_failures?.length) return v.new_failures;
  return Array.from(new Set(v.commands.flatMap((c) => c.new_failures ?? [])));
}

/** verifyBadgeText says in one line what the verification concluded:
 * "Verified — 2 checks pass", "Partly — 1 new failure: TestMin",
 * "Failed — the failing test still fails", "Not verified — <reason>". */
export function verifyBadgeText(v: Verification): string {
  const label = stateLabel(v.state);
  let detail = v.reason ?? "";
  switch (v.state) {
    case "verified": {
      const n = v.commands.filter((c) => c.outcome === "passed").length;
      detail = n > 0 ? plural(n, "check passes", "checks pass") : detail;
      break;
    }
    case "partly": {
      const nf = newFailures(v);
      if (nf.length) detail = `${plural(nf.length, "new failure", "new failures")}: ${names(nf)}`;
      break;
    }
    case "failed":
      detail = (detail || "a check fails with the change").replace(/ with the change$/, "");
      break;
    case "not_verified":
      detail = detail || "nothing could be concluded";
      break;
  }
  return detail ? `${label} — ${detail}` : label;
}

/** VerifyBadge is the verification verdict shown next to the plan title, with what it
 * is about (the plan as proposed, or the user's selection) and, when the choices shown
 * differ from those it verified, that it is stale. */
export function VerifyBadge({ verification, about }: { verification: Verification; about?: VerdictAbout }) {
  return (
    <>
      <span
        className={`verify-badge verify-${verification.state}${about?.stale ? " verify-stale" : ""}`}
        data-testid="verify-badge"
        data-state={verification.state}
        data-about={about?.about}
        data-stale={about ? String(about.stale) : undefined}
        role="status"
      >
        {verifyBadgeText(verification)}
        {about && <span className="verify-about"> · {aboutText(about)}</span>}
      </span>
      {about?.stale && (
        <span className="flag" data-testid="verdict-stale" role="status">
          stale: your choices changed since this verdict — verify again
        </span>
      )}
    </>
  );
}

const OUTCOME_TEXT: Record<CheckOutcome, string> = {
  passed: "passes",
  failed: "fails",
  new_failures: "new failures",
  preexisting: "fails as before the change",
  not_run: "not run",
};

/** duration words milliseconds for people: 412 ms, 2.4 s, 1 min 5 s. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

function CheckResultRow({ c }: { c: CheckResult }) {
  const nf = c.new_failures ?? [];
  return (
    <li className={`check-result outcome-${c.outcome}`} data-testid="check-result" data-outcome={c.outcome}>
      <div className="row check-head">
        <span className={`outcome outcome-${c.outcome}`}>{OUTCOME_TEXT[c.outcome] ?? c.outcome}</span>
        <code className="cmd">{c.command}</code>
        {c.focused && <span className="muted small">the failing test</span>}
        <span className="spacer" />
        {c.outcome !== "not_run" && (
          <span className="muted small" data-testid="check-facts">
            {c.timed_out ? "timed out" : `exit ${c.exit_code}`} · {duration(c.duration_ms)}
            {c.baseline_exit_code >= 0 && ` · before the change: exit ${c.baseline_exit_code}`}
          </span>
        )}
      </div>
      {nf.length > 0 && (
        <p className="new-failures" data-testid="new-failures">
          New failures:{" "}
          {nf.map((n, i) => (
            <span key={n}>
              {i > 0 && ", "}
              <code>{n}</code>
            </span>
          ))}
        </p>
      )}
      {c.outcome !== "not_run" && (
        <OutputTail text={c.output || "(no output)"} testid="check-output" />
      )}
    </li>
  );
}

/** OutputTail is a check's output, collapsed; opened, it shows its end — where a
 * traceback says what failed — and scrolls up for the rest. */
function OutputTail({ text, testid }: { text: string; testid?: string }) {
  const pre = useRef<HTMLPreElement>(null);
  return (
    <details
      className="check-output"
      onToggle={(e) => {
        const el = pre.current;
        if ((e.currentTarget as HTMLDetailsElement).open && el) el.scrollTop = el.scrollHeight;
      }}
    >
      <summary>Output{text.split("\n").length > 20 ? " (opens at the end)" : ""}</summary>
      <pre ref={pre} data-testid={testid}>
        {text}
      </pre>
    </details>
  );
}

function AttemptRow({ a, n }: { a: VerifyAttempt; n: number }) {
  return (
    <li className="attempt" data-testid="attempt" data-state={a.state}>
      <div className="row">
        <span className={`verify-badge verify-${a.state}`}>{stateLabel(a.state)}</span>
        <span>
          Attempt {n}: {a.summary || "(no summary)"}
        </span>
      </div>
      {a.reason && <p className="small attempt-reason">{a.reason}</p>}
      {(a.new_failures ?? []).length > 0 && (
        <p className="new-failures small">
          New failures: <code>{(a.new_failures ?? []).join(", ")}</code>
        </p>
      )}
      {a.output && (
        <OutputTail text={a.output} />
      )}
    </li>
  );
}

/** VerificationView lists what the verification ran: each check with its outcome, and
 * the earlier attempts that failed and went back to the model. */
export function VerificationView({ verification: v }: { verification: Verification }) {
  const attempts = v.attempts ?? [];
  return (
    <div className="verification" data-testid="verification">
      {v.commands.length > 0 && (
        <>
          <h4>Checks</h4>
          <ul className="check-results">
            {v.commands.map((c, i) => (
              <CheckResultRow key={`${i}-${c.command}`} c={c} />
            ))}
          </ul>
          {v.overhead_ms > 0 && <p className="muted small">Copying, applying and cleaning up took {duration(v.overhead_ms)} beyond the checks themselves.</p>}
        </>
      )}
      {attempts.length > 0 && (
        <details className="attempts" data-testid="attempts">
          <summary>Earlier attempts ({attempts.length})</summary>
          <ol className="attempt-list">
            {attempts.map((a, i) => (
              <AttemptRow key={`${i}-${a.plan_id}`} a={a} n={i + 1} />
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}

const SOURCE_TEXT: Record<string, string> = {
  "failing test": "derived from the failing test",
  "remembered test command": "the project's remembered test command",
  plan: "proposed by the model",
  "approved for this project": "approved for this project",
};

export function sourceText(c: Check): string {
  return SOURCE_TEXT[c.source] ?? c.source;
}

type PanelProps = {
  /** checks is null while the list is loading (or for a plan that cannot be verified). */
  checks: ChecksState | null;
  foreign: boolean;
  /** describedBy is the id of the note that says why a foreign plan is never verified. */
  describedBy?: string;
  verifying: boolean;
  /** busy: something else is running (planning, applying). */
  busy: boolean;
  progress: string;
  onToggle: (command: string) => void;
  onAdd: (command: string) => void;
  onRemove: (command: string) => void;
  onVerify: () => void;
  onCancel: () => void;
};

/** VerifyPanel offers to verify the plan in a scratch copy with the checks the user ticks. */
export function VerifyPanel(p: PanelProps) {
  const [draft, setDraft] = useState("");
  const list = p.checks?.list ?? [];
  const added = p.checks?.added ?? [];
  const ticked = p.checks?.ticked ?? {};
  const anyToRun = list.some((c) => c.approved) || [...list.map((c) => c.command), ...added].some((c) => ticked[c]);
  const off = p.foreign || p.verifying || p.busy || !p.checks;
  const add = () => {
    if (!draft.trim()) return;
    p.onAdd(draft);
    setDraft("");
  };
  return (
    <div className="verify-panel" data-testid="verify-panel" aria-label="Verify">
      <h4>Verify</h4>
      <p className="muted small" data-testid="verify-note">
        Checks run in a scratch copy of the project with the plan's changes applied, and on an unchanged copy for comparison; your project is never
        touched. A ticked check is approved for this project and remembered; approved checks always run (revoke them in Settings).
      </p>
      {p.foreign ? (
        <p className="muted small" data-testid="verify-disabled-reason">
          Verify is off: this plan was not made by you, so its commands are never run.
        </p>
      ) : (
        <>
          {list.length === 0 && added.length === 0 && p.checks && (
            <p className="muted small">No check is known for this plan. Add the command that tests the fix, e.g. your test suite.</p>
          )}
          <ul className="verify-checks">
            {list.map((c) => (
              <li key={c.command} data-testid="verify-check" data-command={c.command} data-approved={c.approved}>
                <label>
                  <input
                    type="checkbox"
                    data-testid="verify-check-box"
                    checked={!!ticked[c.command]}
                    disabled={c.approved || p.verifying}
                    title={c.approved ? "Approved for this project: it always runs (revoke it in Settings)" : "Tick to approve it for this project and run it"}
                    onChange={() => p.onToggle(c.command)}
                  />{" "}
                  <code className="cmd">{c.command}</code>
                </label>{" "}
                <span className="muted small check-source">{c.approved ? "approved" : sourceText(c)}</span>
                {c.approved && c.source !== "approved for this project" && <span className="muted small"> · {sourceText(c)}</span>}
              </li>
            ))}
            {added.map((c) => (
              <li key={c} data-testid="verify-check" data-command={c} data-approved={false}>
                <label>
                  <input type="checkbox" data-testid="verify-check-box" checked={!!ticked[c]} disabled={p.verifying} onChange={() => p.onToggle(c)} />{" "}
                  <code className="cmd">{c}</code>
                </label>{" "}
                <span className="muted small check-source">added by you</span>{" "}
                <button className="link small" onClick={() => p.onRemove(c)} aria-label={`Remove ${c}`} disabled={p.verifying}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <form
            className="row add-check"
            onSubmit={(e) => {
              e.preventDefault();
              add();
            }}
          >
            <input
              data-testid="add-check"
              aria-label="Add a check command"
              placeholder="Add a check command, e.g. python3 -m pytest -q"
              value={draft}
              disabled={!p.checks || p.verifying}
              onChange={(e) => setDraft(e.target.value)}
              spellCheck={false}
            />
            <button type="submit" data-testid="add-check-button" disabled={!p.checks || p.verifying || !draft.trim()}>
              Add
            </button>
          </form>
        </>
      )}
      <div className="row">
        <button
          className="primary"
          data-testid="verify"
          onClick={p.onVerify}
          disabled={off || !anyToRun}
          aria-describedby={p.foreign ? p.describedBy : undefined}
          title={p.foreign ? "Not made by you: never verified" : undefined}
        >
          Verify
        </button>
        {p.verifying && (
          <button data-testid="verify-cancel" onClick={p.onCancel}>
            Cancel
          </button>
        )}
        {p.verifying ? (
          <span className="progress" data-testid="verify-progress" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            {p.progress || "Verifying in a scratch copy…"}
          </span>
        ) : (
          !p.foreign && p.checks && !anyToRun && <span className="muted small">Tick or add a check to verify.</span>
        )}
      </div>
    </div>
  );
}
