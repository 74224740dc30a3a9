// Everything only a shown plan needs, loaded by App when a plan is on its way: the
// plan view with its diff viewer (diff2html with highlight.js), their CSS and the
// syntax colours. Kept out of the main chunk so the first paint does not wait for them.
import "diff2html/bundles/css/diff2html.min.css";
import "./lazyPlan.css";

export { PlanView } from "./components/PlanView";
