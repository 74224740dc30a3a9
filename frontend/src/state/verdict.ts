// What a verification verdict is about, and whether it still holds for the choices
// shown: the Go side records what it verified (Verification.covers — the plan as
// proposed, or the ticked files, accepted hunks and the SHA-256 of the user's own
// text); the window compares that with what the user has ticked, rejected and
// edited now.
import type { PlanRecord, VerifiedSelection, Verification } from "../api/types";
import { fileChoices, type ReviewState } from "./review";
import { sha256Hex } from "./sha256";

/** Coverage is what a verification checks: every change as proposed, or a selection. */
export type Coverage = { scope: "proposed" } | { scope: "selection"; paths: string[]; files: { path: string; hunks: number[] | null; sha256: string }[] };

/** VerdictAbout says what a verdict covered and whether the choices shown since differ
 * (stale: verify again). null when the verdict does not say (saved before it was recorded). */
export type VerdictAbout = { about: "proposed" | "selection"; stale: boolean } | null;

// The hashes of the last texts seen: a render compares the same edits again and again.
const digests = new Map<string, string>();
function digest(text: string): string {
  let d = digests.get(text);
  if (d === undefined) {
    d = sha256Hex(text);
    if (digests.size >= 16) digests.delete(digests.keys().next().value as string);
    digests.set(text, d);
  }
  return d;
}

/** currentCoverage is what verifying plan now would check, as the Go side records it:
 * the ticked files in the plan's order, those narrowed with their accepted hunks or
 * own text; everything ticked and nothing narrowed is the plan as proposed. */
export function currentCoverage(plan: PlanRecord, selected: Record<string, boolean>, review: ReviewState): Coverage {
  const paths = plan.changes.filter((c) => selected[c.path]).map((c) => c.path);
  const files = fileChoices(plan, selected, review).map((f) => ({ path: f.path, hunks: f.content != null ? null : f.hunks, sha256: f.content != null ? digest(f.content) : "" }));
  if (paths.length === plan.changes.length && files.length === 0) return { scope: "proposed" };
  return { scope: "selection", paths, files };
}

function sameHunks(a: number[] | null | undefined, b: number[] | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  const x = [...a].sort((m, n) => m - n);
  const y = [...b].sort((m, n) => m - n);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** sameCoverage compares what a verdict recorded with a coverage computed now. */
export function sameCoverage(rec: VerifiedSelection, cur: Coverage): boolean {
  if (rec.scope !== cur.scope) return false;
  if (cur.scope === "proposed") return true;
  const paths = rec.paths ?? [];
  if (paths.length !== cur.paths.length || [...paths].sort().join("\n") !== [...cur.paths].sort().join("\n")) return false;
  const files = rec.files ?? [];
  if (files.length !== cur.files.length) return false;
  return cur.files.every((f) => {
    const r = files.find((x) => x.path === f.path);
    return !!r && (r.content_sha256 ?? "") === f.sha256 && sameHunks(r.content_sha256 ? null : r.hunks, f.hunks);
  });
}

/** verdictAbout says what v is about and, for a draft under review (reviewing), whether
 * the choices shown now differ from those it verified. */
export function verdictAbout(v: Verification, plan: PlanRecord, selected: Record<string, boolean>, review: ReviewState, reviewing: boolean): VerdictAbout {
  const covers = v.covers;
  if (!covers || (covers.scope !== "proposed" && covers.scope !== "selection")) return null;
  const stale = reviewing && !sameCoverage(covers, currentCoverage(plan, selected, review));
  return { about: covers.scope, stale };
}

/** aboutText words what a verdict is about for the badge. */
export function aboutText(a: NonNullable<VerdictAbout>): string {
  return a.about === "proposed" ? "about the plan as proposed" : "about your selection";
}
