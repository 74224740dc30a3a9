// The plan record as the views meet it.
import type { PlanRecord } from "../api/types";

/** normalizePlan fills the lists a stored record may lack (a foreign or older
 * plan file can be bare), so the views never meet a null where they expect a list. */
export function normalizePlan(rec: PlanRecord): PlanRecord {
  const list = <T,>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);
  const p = rec.plan ?? ({} as Partial<PlanRecord["plan"]>);
  const base = rec.base ?? ({} as Partial<PlanRecord["base"]>);
  const input = rec.input ?? ({} as Partial<PlanRecord["input"]>);
  return {
    ...rec,
    input: { ...input, problem: typeof input.problem === "string" ? input.problem : "", logs: input.logs ?? null },
    plan: {
      ...p,
      mode: p.mode ?? "fix-plan",
      summary: typeof p.summary === "string" ? p.summary : "",
      questions: list(p.questions),
      context_requests: list(p.context_requests),
      plan: list(p.plan),
      proposed_changes: p.proposed_changes ? { ...p.proposed_changes, actions: list(p.proposed_changes.actions), commands_to_run: list(p.proposed_changes.commands_to_run) } : null,
      patch: p.patch ?? null,
      commands_to_run: list(p.commands_to_run),
      verification: list(p.verification),
      risks: list(p.risks),
      rollback: list(p.rollback),
      memory_patch: list(p.memory_patch),
    },
    changes: list(rec.changes),
    base: { ...base, sections: list(base.sections), redactions: base.redactions ?? 0, seen: list(base.seen), warnings: list(base.warnings) },
    rounds: list(rec.rounds).map((r) => ({ requests: list(r?.requests), results: list(r?.results) })),
    warnings: list(rec.warnings),
    memory: list(rec.memory),
    ...(rec.verification
      ? {
          verification: {
            ...rec.verification,
            commands: list(rec.verification.commands),
            ...(rec.verification.attempts ? { attempts: list(rec.verification.attempts) } : {}),
          },
        }
      : {}),
  };
}
