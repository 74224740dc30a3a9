import { reportStartMark } from "./api/startMark";

/** traceStart reports the page's start-up moments to the Go side (which logs them only
 * when FIXPLAN_TRACE_START is set, for bench/overhead/app.sh): "script" now, when the
 * bundle runs, and "fix-painted" once the Fix (plan) button is in the page and enabled
 * (a project is open) and the frame showing it has been painted. */
export function traceStart(root: HTMLElement): void {
  reportStartMark("script");
  const enabled = () => {
    const b = root.querySelector<HTMLButtonElement>('[data-testid="fix"]');
    return !!b && !b.disabled;
  };
  const painted = () => requestAnimationFrame(() => setTimeout(() => reportStartMark("fix-painted"), 0));
  const watch = new MutationObserver(() => {
    if (!enabled()) return;
    watch.disconnect();
    painted();
  });
  watch.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
}
