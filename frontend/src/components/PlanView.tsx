import { useState, type ReactNode } from "react";
import type { ApplyResult, ContextRequest, PlanRecord, Usage } from "../api/types";
import { undoLatestOnly } from "../state/slices/apply";
import type { ChecksState } from "../state/slices/checks";
import type { CommandState } from "../state/slices/commands";
import { emptyReview, type ReviewActions, type ReviewState } from "../state/review";
import { verdictAbout } from "../state/verdict";
import { frameRef, sectionRef, type FileRef } from "../state/jump";
import { ChangeList } from "./ChangeList";
import { OpenFile } from "./OpenFile";
import { VerificationView, VerifyBadge, VerifyPanel } from "./Verification";
import { formatCost } from "./format";

type Props = {
  plan: PlanRecord;
  selected: Record<string, boolean>;
  memorySelected: Record<string, boolean>;
  answers: string[];
  commands: Record<string, CommandState>;
  busy: boolean;
  planning: boolean;
  result: { kind: "applied" | "undone"; result: ApplyResult } | null;
  onToggle: (path: string) => void;
  onAll: (on: boolean) => void;
  onToggleMemory: (key: string) => void;
  onAnswer: (i: number, v: string) => void;
  onReplan: () => void;
  onApply: () => void;
  onUndo: () => void;
  /** undoHere: the latest apply not undone is this plan's, so Undo (which undoes the
   * latest apply) undoes this one; else Undo is not offered here. */
  undoHere?: boolean;
  onRun: (cmd: string) => void;
  onStop: () => void;
  onFixAgain: () => void;
  /** checks is the Verify panel's list (null while loading). */
  checks: ChecksState | null;
  verifying: boolean;
  /** verifyProgress says what the running verification does. */
  verifyProgress: string;
  onToggleCheck: (command: string) => void;
  onAddCheck: (command: string) => void;
  onRemoveCheck: (command: string) => void;
  onVerify: () => void;
  onCancelVerify: () => void;
  /** onWriteChanges approves a plan without changes and asks the model to write them. */
  onWriteChanges?: () => void;
  /** review and reviewActions: per-hunk accept/reject and Edit of the draft's changes. */
  review?: ReviewState;
  reviewActions?: ReviewActions;
  /** filesChanged: the plan's files changed on disk after it was made, so a verification is out of date. */
  filesChanged?: boolean;
  /** approvedSummary is the summary of the approved plan these changes were written for, when known. */
  approvedSummary?: string;
  /** onReplanReviewed re-plans this draft telling the model what was rejected, unticked or edited in it. */
  onReplanReviewed?: () => void;
  /** actionError is a failure of Apply or Undo, shown next to those buttons. */
  actionError?: ReactNode;
  /** onOpenFile opens a place of the project in the user's editor: the changes' file
   * headers and hunks, the stack frames and file sections of Context sent link there. */
  onOpenFile?: (at: FileRef) => void;
};

export function describeRequest(r: ContextRequest): string {
  switch (r.type) {
    case "read_file":
      return `read_file ${r.path}${r.start_line ? `:${r.start_line}-${r.end_line ?? ""}` : ""}`;
    case "search":
      return `search "${r.query}"${r.glob ? ` in ${r.glob}` : ""}`;
    case "logs":
      return `logs ${r.source}${r.last_n ? ` (last ${r.last_n})` : ""}`;
  }
  return r.type;
}

const FOREIGN_NOTE = "foreign-note";

function memValue(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** PlanView shows one plan: summary, questions, steps, risks, commands, context, memory and changes. */
/** rulesUsed lists the project's instruction files for AI tools the plan was sent
 * (the files of its "Project rules (…)" section), or "" when there were none. */
function rulesUsed(plan: PlanRecord): string {
  const t = plan.base.sections.find((s) => s.title.startsWith("Project rules ("))?.title ?? "";
  return t.slice("Project rules (".length, -1);
}

/** reviewed says the user rejected, unticked or edited something in the draft shown. */
function reviewed(plan: PlanRecord, selected: Record<string, boolean>, review?: ReviewState): boolean {
  if (review && (Object.keys(review.rejected).some((k) => (review.rejected[k] ?? []).length > 0) || Object.keys(review.edits).length > 0)) return true;
  return plan.changes.some((c) => !selected[c.path]);
}

/** applyCount says what Apply writes: "2 files + 1 memory entry". */
export function applyCount(files: number, memory: number): string {
  const parts: string[] = [];
  if (files > 0) parts.push(`${files} ${files === 1 ? "file" : "files"}`);
  if (memory > 0) parts.push(`${memory} ${memory === 1 ? "memory entry" : "memory entries"}`);
  return parts.join(" + ");
}

export function PlanView(p: Props) {
  const { plan } = p;
  const [layout, setLayout] = useState<"side-by-side" | "line-by-line">("line-by-line");
  const commands = Array.from(new Set([...(plan.plan.commands_to_run ?? []), ...(plan.plan.proposed_changes?.commands_to_run ?? [])]));
  const nFiles = plan.changes.filter((c) => p.selected[c.path]).length;
  const nMemory = plan.memory.filter((m) => p.memorySelected[m.key]).length;
  const nSelected = nFiles + nMemory;
  const ranAny = Object.values(p.commands).some((c) => c.result);
  const foreign = !!plan.foreign;
  const readOnly = plan.state !== "draft" || foreign;
  // A foreign plan's verification is not this user's: it is never shown as a verdict.
  const verification = foreign ? undefined : plan.verification;
  // A plan with no file or memory changes (e.g. Plan only) has nothing to apply.
  const applicable = plan.changes.length > 0 || plan.memory.length > 0;
  // Undo undoes the latest apply: offered only where that is this plan's own.
  const undoable = plan.state === "applied" && !foreign && !!p.undoHere;
  const undoElsewhere = plan.state === "applied" && !foreign && !p.undoHere && p.result?.kind !== "undone";
  const applyOff = foreign
    ? "Apply is off: this plan was not made by you."
    : plan.state === "undone" && applicable
      ? "Apply is off: this plan was undone. To apply it again, re-plan with Fix: the files may have changed since."
      : "";
  if (plan.state === "failed") {
    return (
      <section className="panel" aria-label="Plan">
        <h2>The model's reply could not be used</h2>
        <ul>
          {(plan.issues ?? []).map((i) => (
            <li key={i}>
              <code>{i}</code>
            </li>
          ))}
        </ul>
        <h3>Raw reply</h3>
        <pre className="raw">{plan.raw}</pre>
      </section>
    );
  }
  return (
    <section className="panel plan" aria-label="Plan">
      <div className="row">
        <h2 data-testid="summary">{plan.plan.summary || "(no summary)"}</h2>
        <span className={`badge state-${plan.state}`}>{plan.state}</span>
        <span
          className="badge plan-mode"
          data-testid="plan-mode"
          title={plan.plan.mode === "apply" ? "The model wrote the final changes of an approved plan" : "The model proposes a fix for you to review"}
        >
          mode: {plan.plan.mode}
        </span>
        {foreign && (
          <span className="badge foreign" data-testid="foreign-badge">
            foreign — not made by you
          </span>
        )}
        {verification && (
          <VerifyBadge verification={verification} about={verdictAbout(verification, plan, p.selected, p.review ?? emptyReview, plan.state === "draft")} />
        )}
        {verification && p.filesChanged && (
          <span className="flag" data-testid="verify-stale">
            checked against the files as they were — they changed on disk since
          </span>
        )}
        {plan.usage?.cost != null && (
          <span className="muted small" data-testid="plan-cost-header" title="At the prices per 1M tokens set in Settings, in your provider's currency">
            cost {formatCost(plan.usage.cost)} at your Settings prices
          </span>
        )}
      </div>
      {foreign && (
        <div className="foreign-note" id={FOREIGN_NOTE} data-testid="foreign-note" role="note">
          <strong>This plan cannot be applied.</strong> It was not made by your fixplan: it is not sealed with your key, so it came with the project
          or was edited. You can read it; its changes are never applied, its checks are never run and any verification it claims is not shown. To act on
          it, make your own plan with Fix (plan).
        </div>
      )}
      {plan.warnings.length > 0 && (
        <ul className="warnings" data-testid="warnings">
          {plan.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {(verification || (plan.state === "draft" && plan.changes.length > 0)) && (
        <section className="verify-section" aria-label="Verification">
          {verification && <VerificationView verification={verification} />}
          {plan.state === "draft" && plan.changes.length > 0 && (
            <VerifyPanel
              checks={p.checks}
              foreign={foreign}
              describedBy={FOREIGN_NOTE}
              verifying={p.verifying}
              busy={p.busy || p.planning}
              progress={p.verifyProgress}
              onToggle={p.onToggleCheck}
              onAdd={p.onAddCheck}
              onRemove={p.onRemoveCheck}
              onVerify={p.onVerify}
              onCancel={p.onCancelVerify}
            />
          )}
        </section>
      )}
      {plan.plan.questions.length > 0 && (
        <div className="questions">
          <h3>Questions</h3>
          {plan.plan.questions.map((q, i) => (
            <label key={i} className="question">
              <span>{q}</span>
              <input data-testid="answer" value={p.answers[i] ?? ""} onChange={(e) => p.onAnswer(i, e.target.value)} placeholder="Your answer" />
            </label>
          ))}
          <button
            data-testid="replan"
            onClick={p.onReplan}
            disabled={p.planning || foreign || p.answers.every((a) => !a.trim())}
            aria-describedby={foreign ? FOREIGN_NOTE : undefined}
          >
            Re-plan with answers
          </button>
        </div>
      )}
      {plan.plan.plan.length > 0 && (
        <>
          <h3>Steps</h3>
          <ol className="steps">
            {plan.plan.plan.map((s, i) => (
              <li key={i}>
                <strong>{s.step}</strong> {s.details}
              </li>
            ))}
          </ol>
        </>
      )}
      {plan.plan.risks.length > 0 && (
        <>
          <h3>Risks</h3>
          <ul>
            {plan.plan.risks.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </>
      )}
      {plan.plan.verification.length > 0 && (
        <>
          <h3>What to expect after the fix</h3>
          <ul data-testid="plan-expect">
            {plan.plan.verification.map((v, i) => (
              <li key={i}>{v}</li>
            ))}
          </ul>
        </>
      )}
      {plan.plan.rollback.length > 0 && (
        <>
          <h3>Rollback by hand</h3>
          <p className="muted small">The model's advice for undoing the change yourself; fixplan's own Undo does not depend on it.</p>
          <ul data-testid="plan-rollback">
            {plan.plan.rollback.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </>
      )}
      <h3>Changes</h3>
      {plan.approved_plan && (
        <p className="muted small" data-testid="approved-plan">
          Written for the approved plan {p.approvedSummary ? <>“{p.approvedSummary}” </> : null}
          <code className="muted">{plan.approved_plan}</code>.
        </p>
      )}
      {plan.changes.some((c) => (c.syntax_issues ?? []).length > 0) && (
        <ul className="warnings syntax-issues" data-testid="syntax-issues" role="note">
          {plan.changes
            .filter((c) => (c.syntax_issues ?? []).length > 0)
            .map((c) => (
              <li key={c.path}>
                <strong>Syntax error</strong> introduced in <code>{c.path}</code>: {(c.syntax_issues ?? []).join("; ")} — the model was asked once to correct it;
                review this file before applying it.
              </li>
            ))}
        </ul>
      )}
      {plan.changes.length === 0 && plan.plan.plan.length > 0 && plan.state === "draft" && !foreign && !plan.approved_plan && p.onWriteChanges && (
        <div className="write-changes row" data-testid="write-changes-offer">
          <span className="muted small">
            {plan.input.plan_only ? "You asked for the plan only." : "This plan has no file changes."} If you approve the steps, the model writes the changes for
            them.
          </span>
          <span className="spacer" />
          <button className="primary" data-testid="write-changes" onClick={p.onWriteChanges} disabled={p.planning || p.busy || p.verifying}>
            Write the changes
          </button>
        </div>
      )}
      <ChangeList
        changes={plan.changes}
        selected={p.selected}
        layout={layout}
        readOnly={readOnly}
        onToggle={p.onToggle}
        onAll={p.onAll}
        onLayout={setLayout}
        review={p.review}
        reviewActions={p.reviewActions}
        recorded={plan.review}
        onOpen={p.onOpenFile}
        state={plan.state}
      />
      {plan.memory.length > 0 && (
        <>
          <h3>Memory</h3>
          <ul className="memory">
            {plan.memory.map((m) => (
              <li key={m.key}>
                <label>
                  <input type="checkbox" data-testid="memory-check" checked={!!p.memorySelected[m.key]} disabled={readOnly} onChange={() => p.onToggleMemory(m.key)} />{" "}
                  <code>{m.key}</code> = <code>{memValue(m.value)}</code>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="row actions">
        {applicable && (
          <button
            className="primary"
            data-testid="apply"
            onClick={p.onApply}
            disabled={p.busy || p.verifying || readOnly || nSelected === 0}
            aria-describedby={foreign ? FOREIGN_NOTE : undefined}
            title={foreign ? "Not made by you: never applied" : undefined}
          >
            {nSelected > 0 && !foreign ? `Apply ${applyCount(nFiles, nMemory)}` : "Apply"}
          </button>
        )}
        {applyOff && (
          <span className="muted small" data-testid="apply-disabled-reason">
            {applyOff}
          </span>
        )}
        {(undoable || p.result?.kind === "undone") && (
          <button data-testid="undo" onClick={p.onUndo} disabled={p.busy || !undoable} title={undoable ? "Puts the files back as they were before this apply" : "Already undone"}>
            Undo last apply
          </button>
        )}
        {undoElsewhere && (
          <span className="muted small" data-testid="undo-latest-only">
            {undoLatestOnly}
          </span>
        )}
      </div>
      {p.actionError}
      {plan.state === "draft" && !foreign && p.onReplanReviewed && reviewed(plan, p.selected, p.review) && (
        <div className="row" data-testid="replan-reviewed-offer">
          <span className="muted small">
            Fix (plan) above starts a new plan and does not send your choices. Re-plan tells the model which hunks you rejected, which files you unticked
            and what you changed by hand, so it does not propose them again.
          </span>
          <span className="spacer" />
          <button data-testid="replan-draft-reviewed" onClick={p.onReplanReviewed} disabled={p.planning || p.busy || p.verifying}>
            Re-plan with my choices
          </button>
        </div>
      )}
      {p.result && (
        <div className="result" data-testid="apply-result" role="status">
          <strong>{p.result.kind === "applied" ? "Applied" : "Undone"}</strong> transaction <code>{p.result.result.transaction}</code>
          {p.result.result.recovered && " (recovered)"}
          {p.result.kind === "undone" && (p.result.result.applied.length > 0 || p.result.result.memory.length > 0) && (
            <p className="small" data-testid="undone-note">
              These are back as they were before the apply:
            </p>
          )}
          <ul>
            {p.result.result.applied.map((c) => (
              <li key={c.path}>
                {p.result?.kind === "undone" ? <span className="badge state-undone">restored</span> : <span className={`badge op-${c.op}`}>{c.op}</span>}{" "}
                <code>{c.path}</code>
              </li>
            ))}
            {p.result.result.memory.map((k) => (
              <li key={k}>
                memory <code>{k}</code>
              </li>
            ))}
          </ul>
          {p.result.kind === "applied" && p.review && (Object.keys(p.review.rejected).length > 0 || Object.keys(p.review.edits).length > 0) && (
            <div className="row">
              <span className="muted small">Fix again tells the model which hunks you rejected and what you changed by hand, so it does not propose them again.</span>
              <span className="spacer" />
              <button data-testid="replan-reviewed" onClick={p.onFixAgain} disabled={p.planning}>
                Fix again
              </button>
            </div>
          )}
        </div>
      )}
      {commands.length > 0 && (
        <>
          <h3>Run in the project</h3>
          {commands.map((c) => {
            const st = p.commands[c];
            return (
              <div className="command" key={c}>
                <div className="row">
                  <code className="cmd">{c}</code>
                  <span className="spacer" />
                  {st?.running ? (
                    <button onClick={p.onStop}>Stop</button>
                  ) : (
                    <button
                      data-testid="run-command"
                      onClick={() => p.onRun(c)}
                      disabled={foreign}
                      aria-describedby={foreign ? FOREIGN_NOTE : undefined}
                      title={foreign ? "Not made by you: its checks are never run" : "Runs in the project root"}
                    >
                      Run
                    </button>
                  )}
                </div>
                {st && (
                  <pre className="output" data-testid="command-output">
                    {st.output}
                    {st.result && `\n[${st.result.stopped ? "stopped" : st.result.timed_out ? "timed out" : `exit ${st.result.exit_code}`} in ${st.result.duration_ms} ms]`}
                  </pre>
                )}
              </div>
            );
          })}
          {ranAny && (
            <button onClick={p.onFixAgain} disabled={p.planning}>
              Fix again with this output
            </button>
          )}
        </>
      )}
      <details className="context" data-testid="context-sent">
        <summary>
          Context sent: {plan.base.sections.length} section{plan.base.sections.length === 1 ? "" : "s"}, {plan.rounds.length} round{plan.rounds.length === 1 ? "" : "s"}, {plan.base.redactions} redaction
          {plan.base.redactions === 1 ? "" : "s"}
          {plan.usage && ` — the sections are ${tokenText(plan.base.sections.reduce((n, s) => n + (s.tokens ?? 0), 0), plan.usage)}`}
          {rulesUsed(plan) && <span data-testid="rules-used"> · project rules from {rulesUsed(plan)}</span>}
        </summary>
        {plan.base.sections.map((s, i) => {
          const at = p.onOpenFile ? sectionRef(s.title) : null;
          return (
            <details key={i} data-testid="context-section" data-title={s.title}>
              <summary>
                {s.title}
                {at && p.onOpenFile && <OpenFile at={at} onOpen={p.onOpenFile} className="small" />}
                {s.tokens ? <span className="muted small" data-testid="section-tokens"> — {tokenText(s.tokens, plan.usage)}</span> : null}
              </summary>
              {s.title === "Stack frames" && p.onOpenFile ? <FramesBody body={s.body} onOpen={p.onOpenFile} /> : <pre>{s.body}</pre>}
            </details>
          );
        })}
        {plan.rounds.map((r, i) => (
          <div key={i}>
            <h4>Round {i + 1}</h4>
            {r.results.map((res, j) => (
              <details key={j}>
                <summary>
                  {describeRequest(res.request)}
                  {res.ok && res.request.type === "read_file" && res.request.path && p.onOpenFile && (
                    <OpenFile at={{ path: res.request.path, line: res.request.start_line || 1 }} onOpen={p.onOpenFile} className="small" />
                  )}{" "}
                  — {res.ok ? "sent" : `not fulfilled: ${res.error}`}
                  {res.tokens ? <span className="muted small"> ({tokenText(res.tokens, plan.usage)})</span> : null}
                </summary>
                {res.ok && <pre>{res.text}</pre>}
              </details>
            ))}
          </div>
        ))}
        {(plan.calls ?? []).length > 0 && (
          <p className="muted small" data-testid="calls">
            {(plan.calls ?? []).length} model request{(plan.calls ?? []).length === 1 ? "" : "s"} to {(plan.calls ?? [])[0].model} (
            {(plan.calls ?? []).map((c) => c.format).filter((f, i, a) => a.indexOf(f) === i).join(", ")}):{" "}
            {(plan.calls ?? []).reduce((n, c) => n + c.prompt_tokens, 0).toLocaleString("en")} tokens in,{" "}
            {(plan.calls ?? []).reduce((n, c) => n + c.completion_tokens, 0).toLocaleString("en")} out
            {plan.usage?.counted && " (counted by fixplan: the provider reported none)"}
            {plan.usage?.cost != null && <span data-testid="plan-cost">, cost {formatCost(plan.usage.cost)}</span>}
            <span data-testid="calls-why">
              . Tokens in count every request: each one sends the instructions and the conversation so far again, so they are more than the sections above.
            </span>
          </p>
        )}
        {plan.usage && (plan.usage.window || plan.usage.repeats_avoided) ? (
          <p className="muted small" data-testid="window">
            {plan.usage.window ? `Fitted to a ${plan.usage.window.toLocaleString("en")}-token window (${plan.usage.window_source})${plan.usage.compact ? ", compact prompt" : ""}. ` : ""}
            {plan.usage.repeats_avoided ? `${plan.usage.repeats_avoided.toLocaleString("en")} tokens the model already had were not sent again.` : ""}
          </p>
        ) : null}
        {(plan.unfulfilled ?? []).length > 0 && <p className="muted">Not fulfilled (round limit): {(plan.unfulfilled ?? []).map(describeRequest).join(", ")}</p>}
      </details>
    </section>
  );
}

/** FramesBody is the "Stack frames" section with each frame found in the project a
 * link to its line. */
function FramesBody({ body, onOpen }: { body: string; onOpen: (at: FileRef) => void }) {
  const lines = body.replace(/\n$/, "").split("\n");
  return (
    <pre data-testid="frames">
      {lines.map((l, i) => {
        const at = frameRef(l);
        return (
          <span key={i}>
            {at ? (
              <OpenFile at={at} onOpen={onOpen} className="frame">
                {l}
              </OpenFile>
            ) : (
              l
            )}
            {"\n"}
          </span>
        );
      })}
    </pre>
  );
}

/** tokenText words a token count, saying when it is an estimate (no tokenizer for the model). */
export function tokenText(n: number, u?: Usage | null): string {
  const est = !u || u.tokenizer === "estimate";
  return `${est ? "~" : ""}${n.toLocaleString("en")} token${n === 1 ? "" : "s"}${est ? " (estimated)" : ""}`;
}

export { formatCost };
