import { useEffect, useMemo, useRef, useState } from "react";
import { Diff2HtmlUI } from "diff2html/lib/ui/js/diff2html-ui-base";
import hljs from "highlight.js/lib/common";

/** Diffs longer than this many lines start collapsed. */
export const LARGE_DIFF = 400;

type Props = { diff: string; layout: "side-by-side" | "line-by-line" };

/** DiffView renders one unified diff with diff2html and highlight.js syntax
 * colouring; large diffs start collapsed. */
export function DiffView({ diff, layout }: Props) {
  const lines = useMemo(() => diff.split("\n").length, [diff]);
  const [open, setOpen] = useState(lines <= LARGE_DIFF);
  const ref = useRef<HTMLDivElement>(null);
  const isDiff = diff.includes("@@");
  useEffect(() => {
    if (!open || !isDiff || !ref.current) return;
    const ui = new Diff2HtmlUI(
      ref.current,
      diff,
      { outputFormat: layout, drawFileList: false, matching: "lines", highlight: true, fileContentToggle: false, colorScheme: "auto" as never },
      hljs,
    );
    ui.draw();
  }, [diff, layout, open, isDiff]);
  if (!isDiff) {
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
  return <div className="diff" data-testid="diff" ref={ref} />;
}
