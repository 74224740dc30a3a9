import type { Estimate, LogFile } from "../api/types";
import { EstimateLine } from "./EstimateLine";

type Props = {
  problem: string;
  logs: LogFile[];
  planning: boolean;
  progress: string;
  disabled: boolean;
  /** verify is the "Verify before review" checkbox for the next runs (it starts from the setting). */
  verify: boolean;
  onVerify: (on: boolean) => void;
  /** planOnly asks for the approach without file changes (they are written once it is approved). */
  planOnly?: boolean;
  onPlanOnly?: (on: boolean) => void;
  onProblem: (v: string) => void;
  onFix: () => void;
  onCancel: () => void;
  onAttach: () => void;
  onRename: (i: number, source: string) => void;
  onRemove: (i: number) => void;
  /** estimate is what the plan would cost (the Go side's), shown next to Fix. */
  estimate?: Estimate | null;
  estimating?: boolean;
  estimateError?: string;
};

/** ProblemPanel takes the problem, attached logs, and starts or cancels planning. */
export function ProblemPanel(p: Props) {
  return (
    <section className="panel problem" aria-label="Problem">
      <label htmlFor="problem" className="label">
        Problem
      </label>
      <textarea
        id="problem"
        data-testid="problem"
        value={p.problem}
        placeholder="Paste the error, stack trace or failing test output, or describe the problem…"
        onChange={(e) => p.onProblem(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            if (!p.planning && !p.disabled) p.onFix();
          }
        }}
        spellCheck={false}
      />
      <div className="logs">
        {p.logs.map((l, i) => (
          <div className="log" key={l.path || `${l.source}-${i}`} data-testid="log">
            <input aria-label="Log source" value={l.source} onChange={(e) => p.onRename(i, e.target.value)} />
            <span className="path" title={l.path}>
              {l.path || "(captured output)"}
            </span>
            <button className="link" aria-label={`Remove ${l.source}`} onClick={() => p.onRemove(i)}>
              Remove
            </button>
          </div>
        ))}
      </div>
      <div className="row">
        <button onClick={p.onAttach} disabled={p.disabled}>
          Attach logs…
        </button>
        <span className="muted small">or drop log files here</span>
        <span className="spacer" />
        <label className="small verify-run" title="Check the plan in a scratch copy with the approved checks before it is shown; a plan that fails goes back to the model">
          <input type="checkbox" data-testid="verify-run" checked={p.verify} disabled={p.planning} onChange={(e) => p.onVerify(e.target.checked)} /> Verify before review
        </label>
        {p.onPlanOnly && (
          <label className="small plan-only" title="Ask for the diagnosis and the steps first; once you approve them, Write the changes asks the model for the file changes">
            <input type="checkbox" data-testid="plan-only" checked={!!p.planOnly} disabled={p.planning} onChange={(e) => p.onPlanOnly?.(e.target.checked)} /> Plan only
          </label>
        )}
        {p.planning ? (
          <button data-testid="cancel" onClick={p.onCancel}>
            Cancel
          </button>
        ) : null}
        {!p.planning && <EstimateLine estimate={p.estimate ?? null} estimating={!!p.estimating} error={p.estimateError ?? ""} />}
        <button className="primary" data-testid="fix" onClick={p.onFix} disabled={p.planning || p.disabled} title="Ctrl/Cmd+Enter">
          Fix (plan)
        </button>
      </div>
      {(p.planning || p.progress) && (
        <div className="progress" data-testid="progress" aria-live="polite">
          {p.planning && <span className="spinner" aria-hidden="true" />}
          {p.progress}
        </div>
      )}
    </section>
  );
}
