import { useId, type ReactNode } from "react";
import type { Estimate } from "../api/types";
import { formatCost, formatCount } from "./format";

type Props = {
  /** estimate is the Go side's estimate of the problem typed (App.Estimate); null: none yet. */
  estimate: Estimate | null;
  /** estimating: a newer estimate is on its way (the one shown is for earlier text). */
  estimating: boolean;
  /** error says why no estimate could be made. */
  error: string;
};

/** ceilingText words a per-plan ceiling: "10,000 tokens per plan", "0.05 per plan". */
export function ceilingText(tokens: number, cost: number): string {
  const parts = [tokens > 0 ? `${formatCount(tokens)} tokens` : "", cost > 0 ? formatCost(cost) : ""].filter(Boolean);
  return `${parts.join(" or ")} per plan`;
}

/** estimateWarning is what stops or cuts the plan, if anything: the ceiling or the window. */
export function estimateWarning(e: Estimate): string {
  const ceiling = ceilingText(e.ceiling_tokens, e.ceiling_cost);
  if (e.over_ceiling) return `Over your ceiling of ${ceiling}: Fix would stop before sending anything.`;
  if (e.over_window) return `Too large for the model's window of ${formatCount(e.window)} tokens: Fix would stop before sending anything.`;
  if (e.rounds_over_ceiling) return `The context rounds may cross your ceiling of ${ceiling}: a round that would is not sent.`;
  return "";
}

/** estimateDetails is the whole estimate, one line a figure (the tooltip). */
export function estimateDetails(e: Estimate): string {
  const cost = (c?: number | null) => (c != null ? `, cost ${formatCost(c)}` : "");
  const reply = e.reply_tokens > 0 ? `up to ${formatCount(e.reply_tokens)} out` : "a reply of no set size";
  return [
    `First request: ${formatCount(e.prompt_tokens + e.schema_tokens)} tokens in (${formatCount(e.prompt_tokens)} of messages, ${formatCount(e.schema_tokens)} of the plan's JSON schema) and ${reply}: ${formatCount(e.first_tokens)}${cost(e.first_cost)}`,
    `With both context rounds (3 requests): up to ${formatCount(e.rounds_tokens)}${cost(e.rounds_cost)}`,
    `Every request the loop can make (${e.worst_requests}: repairs, the read of unseen files, corrections): up to ${formatCount(e.worst_tokens)}${cost(e.worst_cost)}`,
    `A context round adds at most ${formatCount(e.round_context_tokens)} tokens of results.`,
    e.window > 0 ? `Window: ${formatCount(e.window)} tokens (${e.window_source}).` : "",
    e.ceiling_tokens > 0 || e.ceiling_cost > 0 ? `Ceiling: ${ceilingText(e.ceiling_tokens, e.ceiling_cost)}.` : "",
    e.tokenizer === "estimate" ? "Tokens estimated at 3.2 bytes a token (no tokenizer for this model)." : `Tokens counted with ${e.tokenizer}.`,
    ...(e.notes ?? []),
  ]
    .filter(Boolean)
    .join("\n");
}

/** Described is the estimate's short line, focusable, with its full text (details) in a
 * visually hidden element it is described by: screen readers read it, and it shows under
 * the line while the line has the keyboard focus; the mouse gets it as the tooltip. */
function Described({ className, state, details, children }: { className: string; state: string; details: string; children: ReactNode }) {
  const id = useId();
  return (
    <span className="estimate-wrap">
      <span className={className} data-testid="estimate" data-state={state} title={details} tabIndex={0} aria-describedby={id}>
        {children}
      </span>
      <span className="estimate-details visually-hidden" id={id} data-testid="estimate-details">
        {details}
      </span>
    </span>
  );
}

/** EstimateLine shows next to Fix what the plan would cost: the Go side's numbers, never
 * counted here; a warning when the ceiling or the window would stop it. */
export function EstimateLine({ estimate: e, estimating, error }: Props) {
  if (!e) {
    if (estimating)
      return (
        <span className="estimate muted small" data-testid="estimate" data-state="pending">
          Working out the cost…
        </span>
      );
    if (error)
      return (
        <Described className="estimate muted small" state="unknown" details={error}>
          Cost not known
        </Described>
      );
    return null;
  }
  const approx = e.tokenizer === "estimate" ? "~" : "";
  const warning = estimateWarning(e);
  const state = e.over_ceiling ? "over-ceiling" : e.over_window ? "over-window" : e.rounds_over_ceiling ? "rounds-over-ceiling" : "ok";
  // The figures include the reply cap, so they are what the plan can reach ("up to"); with
  // no cap the first figure is what is sent, and the reply comes on top.
  const capped = e.reply_tokens > 0;
  const cost = e.first_cost != null && e.rounds_cost != null ? `cost ${capped ? "up to " : ""}${formatCost(e.first_cost)}, ${formatCost(e.rounds_cost)} with rounds` : "set prices in Settings to see a cost";
  return (
    <Described className={`estimate small${warning ? " warn" : " muted"}${estimating ? " pending" : ""}`} state={state} details={estimateDetails(e)}>
      {warning && (
        <>
          <strong data-testid="estimate-warning">{warning}</strong>{" "}
        </>
      )}
      <span data-testid="estimate-tokens">
        {capped ? "up to " : ""}
        {approx}
        {formatCount(e.first_tokens)} tokens{capped ? "" : " and the reply"}
      </span>
      , {approx}
      {formatCount(e.rounds_tokens)} with 2 context rounds · <span data-testid="estimate-cost">{cost}</span>
    </Described>
  );
}
