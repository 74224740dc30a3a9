import { reportStartMark } from "./api/startMark";

/** traceStart reports the page's start-up moments to the Go side (which logs them only
 * when FIXPLAN_TRACE_START is set, for bench/overhead/app.sh): "script" now, when the
 * bundle runs; "fix-rendered" when the first render has put the Fix (plan) button in
 * the page and "fix-shown" after the frame showing it (disabled until the project is
 * known) has been painted; and "fix-painted" once the button is
 * enabled (a project is open) and the frame showing it has been painted. */
export function traceStart(root: HTMLElement): void {
  reportStartMark("script");
  let shown = false;
  // A callback of requestAnimationFrame runs just before a frame is painted; a task
  // queued from it runs after that paint.
  const afterPaint = (mark: string) => requestAnimationFrame(() => setTimeout(() => reportStartMark(mark), 0));
  const watch = new MutationObserver(() => {
    const b = root.querySelector<HTMLButtonElement>('[data-testid="fix"]');
    if (!b) return;
    if (!shown) {
      shown = true;
      reportStartMark("fix-rendered");
      afterPaint("fix-shown");
    }
    if (b.disabled) return;
    watch.disconnect();
    afterPaint("fix-painted");
  });
  watch.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
}
