import { useMemo, useState } from "react";
import { html } from "diff2html";

/** Diffs longer than this many lines start collapsed. */
export const LARGE_DIFF = 400;

type Props = { diff: string; layout: "side-by-side" | "line-by-line" };

/** DiffView renders one unified diff with diff2html; large diffs are collapsed. */
export function DiffView({ diff, layout }: Props) {
  const lines = useMemo(() => diff.split("\n").length, [diff]);
  const [open, setOpen] = useState(lines <= LARGE_DIFF);
  const rendered = useMemo(
    () => (open && diff.includes("@@") ? html(diff, { outputFormat: layout, drawFileList: false, matching: "lines", colorScheme: "auto" as never }) : ""),
    [diff, layout, open],
  );
  if (!diff.includes("@@")) {
    return (
      <pre className="diff-plain" data-testid="diff">
        {diff}
      </pre>
    );
  }
  if (!open) {
    return (
      <div className="diff-collapsed" data-testid="diff">
        Large diff ({lines} lines).{" "}
        <button className="link" onClick={() => setOpen(true)}>
          Show it
        </button>
      </div>
    );
  }
  return <div className="diff" data-testid="diff" dangerouslySetInnerHTML={{ __html: rendered }} />;
}
