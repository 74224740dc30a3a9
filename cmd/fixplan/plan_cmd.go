package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"fixplan/edit"
	"fixplan/plan"
	"fixplan/session"
)

const planUsage = `usage: fixplan [--root DIR] plan (--problem TEXT | --problem-file FILE|-) [--log SOURCE=FILE]... [--json] [--quiet]
                  [--estimate] [--max-tokens N] [--max-cost AMOUNT]
       fixplan [--root DIR] plan --replan ID --answer TEXT [--answer TEXT] [--reject PATH[:N,N]]...
       fixplan [--root DIR] plan --write-changes ID [--verify]

Asks the model for one fix plan and saves it as .fixplan/plans/<id>.json for 'fixplan apply'.
Two phases: --plan-only asks for the approach without file changes; once you approve it,
--write-changes ID asks the model (mode "apply") for the changes that carry out plan ID,
with the context that plan gathered, and saves them as a new plan to review and apply.
Changed Go, JSON, YAML, TOML, JavaScript and TypeScript files are syntax-checked; an error the edit introduces
goes back to the model once, and any that remains is shown with the file.
Provider: FIXPLAN_BASE_URL, FIXPLAN_MODEL, FIXPLAN_API_KEY (or OPENAI_API_KEY), FIXPLAN_TIMEOUT,
FIXPLAN_MAX_TOKENS, or the settings file (FIXPLAN_SETTINGS). Nothing in the project changes.
--edit-format asks for whole files, search/replace pairs (EDIT_FILE) or a unified diff;
auto (the default) asks for whole files up to 200 lines and pairs beyond, unless this
model's pairs kept failing in this project's earlier plans.

Cost: before it sends anything, plan prints on stderr what the plan will cost — the first
request's tokens in and its reply cap, the worst case with both context rounds and of every
request the loop can make, and the cost at your prices (price_input_per_mtok and
price_output_per_mtok in the settings file). --estimate prints that and sends nothing.
--max-tokens N and --max-cost AMOUNT set a ceiling for this plan (over max_tokens_per_plan
and max_cost_per_plan of the settings file; 0 = none): no request is sent that would take
the plan's tokens in and out, or their cost, past it — the first ends the run with
ERR_CEILING, a later one ends the plan with what it has (docs/CONTRACT.md §4.7).
`

// planFlags are the flags of `fixplan plan`.
type planFlags struct {
	problem, problemFile, replan, writeChanges, baseURL, model, editFormat string
	timeout, maxTokens                                                     int
	maxCost                                                                float64
	asJSON, quiet, planOnly, verify, noRules, yes, estimate                bool
	logs, answers, checks, rejects                                         multiFlag
	// given names the flags given on the command line.
	given map[string]bool
}

func parsePlanFlags(e *env, args []string) (planFlags, int, bool) {
	var f planFlags
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, planUsage); fs.PrintDefaults() }
	fs.StringVar(&f.problem, "problem", "", "the problem `TEXT` (error, trace, description)")
	fs.StringVar(&f.problemFile, "problem-file", "", "read the problem from `FILE` (- = stdin)")
	fs.BoolVar(&f.asJSON, "json", false, "print exactly one JSON object")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	fs.StringVar(&f.replan, "replan", "", "re-plan plan `ID` with answers to its questions")
	fs.StringVar(&f.baseURL, "base-url", "", "provider base `URL` (overrides FIXPLAN_BASE_URL and the settings file)")
	fs.StringVar(&f.model, "model", "", "model `NAME` (overrides FIXPLAN_MODEL and the settings file)")
	fs.IntVar(&f.timeout, "timeout", 0, "per-request timeout in `SECONDS`")
	fs.StringVar(&f.editFormat, "edit-format", "", "how the model writes changes to existing files: `FORMAT` auto, whole, search_replace or diff (overrides the settings file)")
	fs.BoolVar(&f.planOnly, "plan-only", false, "ask for the approach only, without file changes (write them later with --write-changes ID)")
	fs.StringVar(&f.writeChanges, "write-changes", "", "ask the model for the file changes of the approved plan `ID` (one that has no changes)")
	fs.BoolVar(&f.verify, "verify", false, "verify the plan in a scratch copy with approved checks before showing it")
	fs.BoolVar(&f.noRules, "no-rules", false, "leave the project's instructions for AI tools (AGENTS.md, CLAUDE.md, .cursorrules, …) out of the context (settings: no_project_rules)")
	fs.BoolVar(&f.yes, "yes", false, "with --verify: approve the derived failing-test command and your own remembered test command without asking (never a command from the project or the model)")
	fs.Var(&f.checks, "check", "with --verify: also run `CMD` as a check (approved and remembered for this project; repeatable)")
	fs.Var(&f.logs, "log", "attach a log file as `SOURCE=FILE` (repeatable)")
	fs.Var(&f.answers, "answer", "answer to the plan's next question (repeatable, with --replan)")
	fs.Var(&f.rejects, "reject", "with --replan of a draft: tell the model you reject hunks N,N of `PATH:N,N` (numbered as apply --show-hunks shows them), or PATH's whole change (repeatable)")
	fs.BoolVar(&f.estimate, "estimate", false, "print what the plan would cost (tokens, worst case, cost at your prices) and send nothing")
	fs.IntVar(&f.maxTokens, "max-tokens", 0, "stop the plan before a request would take its tokens in and out past `N` (0 = no ceiling; overrides max_tokens_per_plan; the cap on each reply is FIXPLAN_MAX_TOKENS)")
	fs.Float64Var(&f.maxCost, "max-cost", 0, "stop the plan before a request would take its cost past `AMOUNT`, in the currency of your prices (0 = no ceiling; overrides max_cost_per_plan; needs prices in the settings file)")
	if code, ok := parseFlags(fs, args); !ok {
		return f, code, false
	}
	f.given = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.given[fl.Name] = true })
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "fixplan plan: unexpected argument %q; pass the problem with --problem or --problem-file\n", fs.Arg(0))
		return f, 2, false
	}
	return f, 0, true
}

// runPlan implements `fixplan plan`: flags → the problem → settings, model and
// project → the plan it starts from (--replan) → ask the model → print.
func runPlan(ctx context.Context, e *env, args []string) int {
	f, code, ok := parsePlanFlags(e, args)
	if !ok {
		return code
	}
	in, err := f.input(e)
	if err != nil {
		return f.fail(e, err)
	}
	st, err := f.settings(e)
	if err != nil {
		return f.fail(e, err)
	}
	if f.estimate {
		return f.estimateOnly(ctx, e, st, in)
	}
	m, err := newModel(e, st)
	if err != nil {
		return f.fail(e, err)
	}
	var em session.Emitter
	if !f.quiet && !f.asJSON {
		em = &stderrProgress{w: e.Stderr}
	}
	s, err := f.open(e, st, m, em, &in)
	if err != nil {
		return f.fail(e, err)
	}
	defer s.Close()
	var rec *plan.Record
	switch {
	case f.writeChanges != "":
		rec, err = writeApproved(ctx, e, s, f.writeChanges, f.verify, f.checks, f.yes)
	case f.verify:
		approveChecks(e, s, in, f.checks, f.yes)
		rec, err = s.PlanVerified(ctx, in, st.VerifyAttempts, f.checks)
	default:
		rec, err = s.Plan(ctx, in)
	}
	if err != nil {
		var re *session.ReplyError
		if errors.As(err, &re) && !f.asJSON {
			fmt.Fprintf(e.Stderr, "---- raw reply ----\n%s\n---- issues ----\n%s\n", clipText(re.Raw, 4000), strings.Join(re.Issues, "\n"))
		}
		return f.fail(e, err)
	}
	if f.asJSON {
		writeJSON(e.Stdout, planJSON(rec))
		return 0
	}
	printPlan(e.Stdout, rec)
	return 0
}

// usageError is a mistake in the command line: told on stderr as it is, exit 2.
type usageError string

func (u usageError) Error() string { return string(u) }

// fail ends `fixplan plan` with err: a usageError exits 2, anything else 1 (fail).
func (f planFlags) fail(e *env, err error) int {
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintf(e.Stderr, "fixplan plan: %s\n", u)
		return 2
	}
	return fail(e, "plan", err, f.asJSON)
}

// input is the problem the flags describe: its text (--problem, --problem-file,
// stdin), the attached logs plus the output of `fixplan verify` (the
// "verification" log), the answers and the plan it re-plans. With --replan and no
// problem, the problem comes from that plan (fromPrevious).
func (f planFlags) input(e *env) (plan.ProblemInput, error) {
	ls, err := logSources(f.logs)
	if err != nil {
		return plan.ProblemInput{}, usageError(err.Error())
	}
	// The output of `fixplan verify`, when there is any, goes along as the "verification" log.
	ls = append(ls, plan.LogSource{Source: "verification"})
	in := plan.ProblemInput{Logs: ls, Answers: f.answers, Previous: f.replan, PlanOnly: f.planOnly}
	if f.writeChanges != "" && (f.problem != "" || f.problemFile != "" || f.replan != "" || f.planOnly || len(f.logs) > 0) {
		return in, usageError("--write-changes ID uses the problem, logs and context of plan ID; leave out --problem, --problem-file, --log, --replan and --plan-only")
	}
	switch {
	case f.writeChanges != "":
	case f.problem != "" && f.problemFile != "":
		return in, usageError("give either --problem or --problem-file, not both")
	case f.problem != "":
		in.Problem = f.problem
	case f.problemFile == "-":
		b, err := io.ReadAll(e.Stdin)
		if err != nil {
			return in, fmt.Errorf("read stdin: %w", err)
		}
		in.Problem = string(b)
	case f.problemFile != "":
		b, err := os.ReadFile(f.problemFile)
		if err != nil {
			return in, plan.Errorf(plan.ErrInvalidInput, "cannot read the problem file %s", f.problemFile).WithHint("check the path")
		}
		in.Problem = string(b)
	case f.replan == "":
		return in, usageError("say what is wrong: --problem TEXT or --problem-file FILE (- reads stdin)")
	}
	if len(f.answers) > 0 && f.replan == "" {
		return in, usageError("--answer needs --replan ID (the plan whose questions you answer)")
	}
	return in, nil
}

// settings are the settings file and environment with the flags over them.
func (f planFlags) settings(e *env) (session.Settings, error) {
	st, err := loadSettings(e)
	if err != nil {
		return st, err
	}
	if f.baseURL != "" {
		st.BaseURL, st.Provider = f.baseURL, "custom"
	}
	if f.model != "" {
		st.Model = f.model
	}
	if f.timeout > 0 {
		st.TimeoutSeconds = f.timeout
	}
	if f.noRules {
		st.NoProjectRules = true
	}
	if f.editFormat != "" {
		if st.EditFormat, err = session.ParseEditFormat(f.editFormat); err != nil {
			return st, err
		}
	}
	if f.given["max-tokens"] {
		st.MaxTokensPerPlan = f.maxTokens
	}
	if f.given["max-cost"] {
		st.MaxCostPerPlan = f.maxCost
	}
	if err := st.CheckCeiling(); err != nil {
		return st, err
	}
	return st, nil
}

// estimateOnly implements `fixplan plan --estimate`: the plan's estimate
// (session.Estimate), and nothing sent. Without a usable model (no key for
// OpenAI's API, say) the server is not asked for its window.
func (f planFlags) estimateOnly(ctx context.Context, e *env, st session.Settings, in plan.ProblemInput) int {
	if f.writeChanges != "" {
		return f.fail(e, usageError("--estimate works out what a new plan would cost; Write the changes prints its estimate on stderr before it sends anything"))
	}
	m, _ := newModel(e, st)
	s, err := f.open(e, st, m, nil, &in)
	if err != nil {
		return f.fail(e, err)
	}
	defer s.Close()
	est, err := s.Estimate(ctx, in)
	if err != nil {
		return f.fail(e, err)
	}
	if f.asJSON {
		writeJSON(e.Stdout, est)
		return 0
	}
	printEstimate(e.Stdout, est, st)
	return 0
}

// open opens the project for the run and, with --replan, fills in from the
// plan it re-plans (fromPrevious).
func (f planFlags) open(e *env, st session.Settings, m session.Model, em session.Emitter, in *plan.ProblemInput) (*session.Session, error) {
	s, err := openSession(e, st, m, em)
	if err != nil {
		return nil, err
	}
	if f.replan != "" {
		if err := f.fromPrevious(s, in); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// fromPrevious fills in from the plan --replan names: what the user rejected of
// it (--reject), and without a new problem its problem and logs. A plan this
// user's fixplan did not make is refused.
func (f planFlags) fromPrevious(s *session.Session, in *plan.ProblemInput) error {
	prev, err := s.Load(f.replan)
	if err == nil && prev.Foreign {
		err = foreignErr(prev.ID)
	}
	if err != nil {
		return err
	}
	if len(f.rejects) > 0 {
		if in.Review, err = rejectReview(prev, f.rejects); err != nil {
			return err
		}
	}
	if in.Problem == "" {
		in.Problem = prev.Input.Problem
		if len(f.logs) == 0 {
			in.Logs = []plan.LogSource{{Source: "verification"}}
			for _, l := range prev.Input.Logs {
				if l.Source != "verification" {
					in.Logs = append(in.Logs, l)
				}
			}
		}
	}
	return nil
}

// stderrProgress prints progress events as lines on stderr (streaming is coalesced).
type stderrProgress struct {
	w         io.Writer
	lastChars int
}

func (p *stderrProgress) Emit(ev session.Event) {
	switch ev.Stage {
	case session.StageStream:
		if ev.Chars-p.lastChars >= 2000 {
			p.lastChars = ev.Chars
			fmt.Fprintf(p.w, "fixplan: receiving reply… %d chars\n", ev.Chars)
		}
	case session.StageDone:
	default:
		p.lastChars = 0
		if ev.Message != "" && ev.Stage != session.StageError {
			fmt.Fprintf(p.w, "fixplan: %s\n", ev.Message)
		}
	}
}

// writeApproved writes the changes of the approved plan id (apply mode) and,
// with --verify, verifies them like a new plan.
func writeApproved(ctx context.Context, e *env, s *session.Session, id string, verifyIt bool, checks []string, yes bool) (*plan.Record, error) {
	approved, err := s.Load(id)
	if err == nil && approved.Foreign {
		err = foreignErr(approved.ID)
	}
	if err != nil {
		return nil, err
	}
	if verifyIt {
		approveChecks(e, s, approved.Input, checks, yes)
	}
	return s.WriteChangesVerified(ctx, id, verifyIt, checks)
}

// rejectReview turns `plan --replan ID --reject PATH[:N,N]` values into the
// review of draft rec the model is told about: the rejected hunks, or the whole
// change of PATH. Errors: not a draft, an unknown path or hunk.
func rejectReview(rec *plan.Record, rejects []string) (*plan.Review, error) {
	if rec.State != plan.StateDraft {
		return nil, plan.Errorf(plan.ErrInvalidInput, "plan %s is %s: --reject describes a draft you did not apply", rec.ID, rec.State).
			WithHint("an applied plan's rejected hunks were recorded when it was applied (apply --hunks) and are told to the model without --reject")
	}
	hunks := map[string]int{}
	for _, c := range rec.Changes {
		hs, err := edit.ParseHunks(c.Diff)
		if err != nil {
			return nil, err
		}
		hunks[c.Path] = len(hs)
	}
	whole := map[string]bool{}
	rejected := map[string][]int{}
	for _, v := range rejects {
		p, list, hasList := v, "", false
		if i := strings.LastIndexByte(v, ':'); i > 0 {
			if _, known := hunks[v]; !known {
				p, list, hasList = v[:i], v[i+1:], true
			}
		}
		n, known := hunks[p]
		if !known {
			return nil, plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", rec.ID, p).WithHint("pass one of the plan's paths to --reject")
		}
		if !hasList {
			whole[p] = true
			continue
		}
		fc, err := parseHunkSel(p + ":" + list)
		if err != nil {
			return nil, err
		}
		for _, h := range fc.Hunks {
			if h > n {
				return nil, plan.Errorf(plan.ErrInvalidInput, "%s has %d hunk(s); hunk %d does not exist", p, n, h).WithHint("see fixplan apply --plan " + rec.ID + " --show-hunks")
			}
		}
		rejected[p] = append(rejected[p], fc.Hunks...)
	}
	// Built from the plan's own diffs: the disk is not needed (a re-plan is also
	// the remedy for a draft whose files changed since).
	rv := &plan.Review{Files: []plan.FileReview{}}
	for _, c := range rec.Changes {
		fr := plan.FileReview{Path: c.Path, Hunks: hunks[c.Path], Unticked: whole[c.Path]}
		if !fr.Unticked {
			r := slices.Clone(rejected[c.Path])
			slices.Sort(r)
			fr.Rejected = slices.Compact(r)
		}
		rv.Files = append(rv.Files, fr)
	}
	if rv.Empty() {
		return nil, nil
	}
	return rv, nil
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n…[truncated]"
}

// planJSON is the documented `plan --json` shape.
func planJSON(r *plan.Record) map[string]any {
	changes := make([]map[string]any, 0, len(r.Changes))
	for _, c := range r.Changes {
		ch := map[string]any{"path": c.Path, "op": c.Op, "diff": c.Diff, "base_sha256": c.BaseSHA256}
		if len(c.SyntaxIssues) > 0 {
			ch["syntax_issues"] = c.SyntaxIssues
		}
		changes = append(changes, ch)
	}
	rounds := make([]map[string]any, 0, len(r.Rounds))
	for _, rd := range r.Rounds {
		results := make([]map[string]any, 0, len(rd.Results))
		for _, res := range rd.Results {
			m := map[string]any{"ok": res.OK}
			if res.OK {
				m["text"] = res.Text
			} else {
				m["error"] = res.Error
			}
			results = append(results, m)
		}
		rounds = append(rounds, map[string]any{"requests": rd.Requests, "results": results})
	}
	memory := make([]map[string]any, 0, len(r.Memory))
	for _, m := range r.Memory {
		memory = append(memory, map[string]any{"key": m.Key, "value": m.Value})
	}
	out := map[string]any{
		"id": r.ID, "mode": r.Plan.Mode, "summary": r.Plan.Summary, "questions": r.Plan.Questions,
		"plan": r.Plan.Plan, "risks": r.Plan.Risks, "commands_to_run": r.Plan.Commands(),
		"memory_patch": memory, "changes": changes, "rounds": rounds, "warnings": r.Warnings,
	}
	if r.Verification != nil {
		out["verification"] = r.Verification
	}
	if r.ApprovedPlan != "" {
		out["approved_plan"] = r.ApprovedPlan
	}
	if r.Input.PlanOnly {
		out["plan_only"] = true
	}
	return out
}

// printPlan prints a plan for people.
func printPlan(w io.Writer, r *plan.Record) {
	p := r.Plan
	fmt.Fprintf(w, "Plan %s (%s)\n", r.ID, p.Mode)
	if r.ApprovedPlan != "" {
		fmt.Fprintf(w, "Changes written for the approved plan %s\n", r.ApprovedPlan)
	}
	fmt.Fprintf(w, "\nSummary: %s\n", indentMore(p.Summary))
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, it := range items {
			fmt.Fprintf(w, "  - %s\n", indentMore(it))
		}
	}
	list("Questions (answer with: fixplan plan --replan "+r.ID+" --answer TEXT)", p.Questions)
	if len(p.Plan) > 0 {
		fmt.Fprintln(w, "\nSteps:")
		for i, s := range p.Plan {
			fmt.Fprintf(w, "  %d. %s: %s\n", i+1, indentMore(s.Step), indentMore(s.Details))
		}
	}
	list("Risks", p.Risks)
	list("Commands to run (fixplan verify)", p.Commands())
	list("Verification", p.Verification)
	list("Rollback by hand (fixplan undo does not depend on it)", p.Rollback)
	if len(r.Memory) > 0 {
		fmt.Fprintln(w, "\nMemory patch (merged on apply):")
		for _, m := range r.Memory {
			fmt.Fprintf(w, "  %s = %s\n", m.Key, m.Value)
		}
	}
	for i, rd := range r.Rounds {
		fmt.Fprintf(w, "\nContext round %d: %d request(s)\n", i+1, len(rd.Requests))
		for _, res := range rd.Results {
			status := "ok"
			if !res.OK {
				status = "not fulfilled: " + res.Error
			}
			fmt.Fprintf(w, "  - %s: %s\n", res.Request.Type, status)
		}
	}
	list("Warnings", r.Warnings)
	printVerification(w, r.Verification)
	printUsage(w, r)
	if len(r.Changes) == 0 {
		fmt.Fprintln(w, "\nNo file changes.")
		if r.State == plan.StateDraft && !r.Foreign && r.ApprovedPlan == "" && len(p.Plan) > 0 {
			fmt.Fprintf(w, "Approve the steps, then have the model write the changes with: fixplan plan --write-changes %s\n", r.ID)
		}
	} else {
		fmt.Fprintf(w, "\nChanges (%d file(s); apply with: fixplan apply --plan %s):\n", len(r.Changes), r.ID)
		for _, c := range r.Changes {
			fmt.Fprintf(w, "\n%s %s", c.Op, c.Path)
			if len(c.Flags) > 0 {
				fmt.Fprintf(w, " [%s]", strings.Join(c.Flags, ", "))
			}
			fmt.Fprintln(w)
			for _, is := range c.SyntaxIssues {
				fmt.Fprintf(w, "SYNTAX ERROR introduced: %s\n", indentMore(is))
			}
			fmt.Fprint(w, c.Diff)
			if !strings.HasSuffix(c.Diff, "\n") && c.Diff != "" {
				fmt.Fprintln(w)
			}
		}
	}
}

// indentMore indents the continuation lines of a model-written text, so a
// summary or a risk cannot print lines that look like fixplan's own output (a
// forged "VERIFIED:" block, say).
func indentMore(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      | ")
}
