// Jump to the code: the places of the project a plan shows (a change's file, a hunk,
// a stack frame, a file section of the context sent) as {path, line} for the
// editor. Only finding them is here; the Go side confines the path and starts the
// user's editor (App.OpenInEditor).
import type { FileChange, PlanRecord } from "../api/types";

/** FileRef is a place in the project: a root-relative path and a line (from 1). */
export type FileRef = { path: string; line: number };

/** Side is a side of a diff: the file before the change or after it. */
export type Side = "old" | "new";

/** sideOnDisk is the side of a plan's diffs the files on disk hold: after an apply the
 * new one; before it (a draft, a foreign plan) and after an undo, the old one. */
export function sideOnDisk(state: PlanRecord["state"]): Side {
  return state === "applied" ? "new" : "old";
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** hunkLine is the line of a hunk's first changed line on side: its header's start plus
 * the context lines before the first + or - line (1 at least: an empty side starts at 0). */
export function hunkLine(hunk: string, side: Side): number {
  const lines = hunk.split("\n");
  const m = HUNK.exec(lines[0] ?? "");
  if (!m) return 1;
  let n = Number(side === "old" ? m[1] : m[2]);
  for (const l of lines.slice(1)) {
    if (l.startsWith("+") || l.startsWith("-")) break;
    if (l.startsWith(" ")) n++;
  }
  return Math.max(n, 1);
}

/** firstChangedLine is the line of a diff's first change on side (1 without a hunk). */
export function firstChangedLine(diff: string, side: Side): number {
  const at = diff.search(/^@@ /m);
  return at < 0 ? 1 : hunkLine(diff.slice(at), side);
}

/** changeRef is where a change's file header opens: its first change, on the side on
 * disk; null when that side has no file (a file the draft creates, one an applied plan
 * deleted, a folder). */
export function changeRef(c: FileChange, state: PlanRecord["state"]): FileRef | null {
  const side = sideOnDisk(state);
  if (c.op === "mkdir" || c.op === "rmdir" || (c.op === "create" && side === "old") || (c.op === "delete" && side === "new")) return null;
  return { path: c.path, line: firstChangedLine(c.diff, side) };
}

/** frameRef reads one line of the "Stack frames" section ("calc.py:2 → calc.py",
 * "src/x.ts:3:7 → src/x.ts"): the project file the frame resolved to, at its line;
 * null for a frame not found in the project or in a library. */
export function frameRef(line: string): FileRef | null {
  const m = /^(.*?):(\d+)(?::\d+)? → (.+)$/.exec(line);
  return m ? { path: m[3], line: Number(m[2]) } : null;
}

/** sectionRef reads a file section's title ("File calc.py lines 1-12 of 40 (…)"): the
 * file at the first line shown. */
export function sectionRef(title: string): FileRef | null {
  const m = /^File (.+?) lines (\d+)-\d+/.exec(title);
  return m ? { path: m[1], line: Number(m[2]) } : null;
}
