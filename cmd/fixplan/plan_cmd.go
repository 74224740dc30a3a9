package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"fixplan/internal/config"
	"fixplan/plan"
	"fixplan/session"
)

// userFiles are the user's config folder and files (internal/config's CLI rule:
// FIXPLAN_CONFIG_DIR, FIXPLAN_SETTINGS, FIXPLAN_USER_PREFS). Without a folder,
// err says why and only what the environment named is set.
func userFiles(e *env) (config.Paths, error) { return config.ForCLI(e.Getenv) }

// loadSettings reads the settings file (FIXPLAN_SETTINGS or the default path) and
// applies the FIXPLAN_* environment overrides; without a config folder, the
// defaults.
func loadSettings(e *env) (session.Settings, error) {
	paths, _ := userFiles(e)
	if paths.Settings == "" {
		return session.DefaultSettings().WithEnv(e.Getenv), nil
	}
	st, err := session.LoadSettings(paths.Settings)
	if err != nil {
		return st, err
	}
	return st.WithEnv(e.Getenv), nil
}

// newModel builds the provider client (session.NewModel) with the key from the
// environment. A provider that needs a key (OpenAI's API) without one is refused
// before any request; settings the client refuses are ERR_CONFIG naming the flags.
func newModel(e *env, st session.Settings) (session.Model, error) {
	m, err := session.NewModel(st, session.APIKeyFromEnv(e.Getenv))
	if err != nil && plan.CodeOf(err) == "" {
		return nil, &plan.Error{Code: plan.ErrConfig, Msg: "the provider settings are not usable", Err: err,
			Hint: "check FIXPLAN_BASE_URL and FIXPLAN_MODEL (or the settings file)"}
	}
	return m, err
}

// openSession opens the project at e.Root and rolls back any transaction a crash
// left half-applied, telling the user on stderr.
func openSession(e *env, st session.Settings, m session.Model, em session.Emitter) (*session.Session, error) {
	paths, _ := userFiles(e) // without a folder, session.Open says why
	s, rv, err := session.OpenAndRecover(e.Root, st, m, em, session.Options{UserPrefsPath: paths.UserPrefs, ConfigDir: paths.Dir, Version: version})
	if err != nil {
		return nil, err
	}
	for _, n := range rv.Notices {
		fmt.Fprintf(e.Stderr, "fixplan: %s\n", n)
	}
	if rv.Skipped != nil {
		fmt.Fprintf(e.Stderr, "fixplan: recovery skipped: %s\n", oneLine(rv.Skipped.Error()))
	}
	return s, nil
}

// fail prints a one-line reason (with what to do) on stderr and returns 1. With
// jsonOut it also prints {"error": {...}} on stdout.
func fail(e *env, cmd string, err error, jsonOut bool) int {
	code, msg, hint := describe(err)
	first, details, _ := strings.Cut(msg, "\n")
	line := fmt.Sprintf("fixplan %s: %s: %s", cmd, code, first)
	if code == "" {
		line = fmt.Sprintf("fixplan %s: %s", cmd, first)
	}
	if hint != "" {
		line += "; " + hint
	}
	fmt.Fprintln(e.Stderr, oneLine(line))
	// Details (a hunk that did not apply, with the closest lines) follow, indented.
	if details != "" && !jsonOut {
		for _, l := range strings.Split(strings.TrimRight(details, "\n"), "\n") {
			fmt.Fprintf(e.Stderr, "    %s\n", l)
		}
	}
	if jsonOut {
		out := map[string]any{"code": code, "message": msg, "hint": hint}
		var pe *plan.Error
		if errors.As(err, &pe) && len(pe.Paths) > 0 {
			out["paths"] = pe.Paths
		}
		writeJSON(e.Stdout, map[string]any{"error": out})
	}
	return 1
}

// describe splits an error into its code, sentence and hint.
func describe(err error) (code plan.Code, msg, hint string) {
	var pe *plan.Error
	if errors.As(err, &pe) {
		msg = pe.Msg
		if len(pe.Paths) > 0 && !strings.Contains(msg, pe.Paths[0]) {
			msg += ": " + strings.Join(pe.Paths, ", ")
		}
		return pe.Code, msg, pe.Hint
	}
	var re *session.ReplyError
	if errors.As(err, &re) {
		return plan.CodeOf(err), re.Error(), fmt.Sprintf("raw reply saved in .fixplan/plans/%s.json", re.RecordID)
	}
	return plan.CodeOf(err), err.Error(), ""
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
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

const planUsage = `usage: fixplan [--root DIR] plan (--problem TEXT | --problem-file FILE|-) [--log SOURCE=FILE]... [--json] [--quiet]
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
`

// runPlan implements `fixplan plan`.
func runPlan(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, planUsage); fs.PrintDefaults() }
	problem := fs.String("problem", "", "the problem `TEXT` (error, trace, description)")
	problemFile := fs.String("problem-file", "", "read the problem from `FILE` (- = stdin)")
	asJSON := fs.Bool("json", false, "print exactly one JSON object")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	replan := fs.String("replan", "", "re-plan plan `ID` with answers to its questions")
	baseURL := fs.String("base-url", "", "provider base `URL` (overrides FIXPLAN_BASE_URL and the settings file)")
	model := fs.String("model", "", "model `NAME` (overrides FIXPLAN_MODEL and the settings file)")
	timeout := fs.Int("timeout", 0, "per-request timeout in `SECONDS`")
	editFormat := fs.String("edit-format", "", "how the model writes changes to existing files: `FORMAT` auto, whole, search_replace or diff (overrides the settings file)")
	planOnly := fs.Bool("plan-only", false, "ask for the approach only, without file changes (write them later with --write-changes ID)")
	writeChanges := fs.String("write-changes", "", "ask the model for the file changes of the approved plan `ID` (one that has no changes)")
	verifyIt := fs.Bool("verify", false, "verify the plan in a scratch copy with approved checks before showing it")
	noRules := fs.Bool("no-rules", false, "leave the project's instructions for AI tools (AGENTS.md, CLAUDE.md, .cursorrules, …) out of the context (settings: no_project_rules)")
	yes := fs.Bool("yes", false, "with --verify: approve the derived failing-test command and your own remembered test command without asking (never a command from the project or the model)")
	var logs, answers, checks ctxMulti
	fs.Var(&checks, "check", "with --verify: also run `CMD` as a check (approved and remembered for this project; repeatable)")
	fs.Var(&logs, "log", "attach a log file as `SOURCE=FILE` (repeatable)")
	fs.Var(&answers, "answer", "answer to the plan's next question (repeatable, with --replan)")
	var rejects ctxMulti
	fs.Var(&rejects, "reject", "with --replan of a draft: tell the model you reject hunks N,N of `PATH:N,N` (numbered as apply --show-hunks shows them), or PATH's whole change (repeatable)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "fixplan plan: unexpected argument %q; pass the problem with --problem or --problem-file\n", fs.Arg(0))
		return 2
	}
	ls, err := ctxLogSources(logs)
	if err != nil {
		fmt.Fprintf(e.Stderr, "fixplan plan: %v\n", err)
		return 2
	}
	// The output of `fixplan verify`, when there is any, goes along as the "verification" log.
	ls = append(ls, plan.LogSource{Source: "verification"})
	in := plan.ProblemInput{Logs: ls, Answers: answers, Previous: *replan, PlanOnly: *planOnly}
	if *writeChanges != "" && (*problem != "" || *problemFile != "" || *replan != "" || *planOnly || len(logs) > 0) {
		fmt.Fprintln(e.Stderr, "fixplan plan: --write-changes ID uses the problem, logs and context of plan ID; leave out --problem, --problem-file, --log, --replan and --plan-only")
		return 2
	}
	switch {
	case *writeChanges != "":
	case *problem != "" && *problemFile != "":
		fmt.Fprintln(e.Stderr, "fixplan plan: give either --problem or --problem-file, not both")
		return 2
	case *problem != "":
		in.Problem = *problem
	case *problemFile == "-":
		b, err := io.ReadAll(e.Stdin)
		if err != nil {
			return fail(e, "plan", fmt.Errorf("read stdin: %w", err), *asJSON)
		}
		in.Problem = string(b)
	case *problemFile != "":
		b, err := os.ReadFile(*problemFile)
		if err != nil {
			return fail(e, "plan", plan.Errorf(plan.ErrInvalidInput, "cannot read the problem file %s", *problemFile).WithHint("check the path"), *asJSON)
		}
		in.Problem = string(b)
	case *replan == "":
		fmt.Fprintln(e.Stderr, "fixplan plan: say what is wrong: --problem TEXT or --problem-file FILE (- reads stdin)")
		return 2
	}
	if len(answers) > 0 && *replan == "" {
		fmt.Fprintln(e.Stderr, "fixplan plan: --answer needs --replan ID (the plan whose questions you answer)")
		return 2
	}
	st, err := loadSettings(e)
	if err != nil {
		return fail(e, "plan", err, *asJSON)
	}
	if *baseURL != "" {
		st.BaseURL, st.Provider = *baseURL, "custom"
	}
	if *model != "" {
		st.Model = *model
	}
	if *timeout > 0 {
		st.TimeoutSeconds = *timeout
	}
	if *noRules {
		st.NoProjectRules = true
	}
	if *editFormat != "" {
		if st.EditFormat, err = session.ParseEditFormat(*editFormat); err != nil {
			return fail(e, "plan", err, *asJSON)
		}
	}
	m, err := newModel(e, st)
	if err != nil {
		return fail(e, "plan", err, *asJSON)
	}
	var em session.Emitter
	if !*quiet && !*asJSON {
		em = &stderrProgress{w: e.Stderr}
	}
	s, err := openSession(e, st, m, em)
	if err != nil {
		return fail(e, "plan", err, *asJSON)
	}
	defer s.Close()
	if *replan != "" {
		prev, err := s.Load(*replan)
		if err == nil && prev.Foreign {
			err = foreignErr(prev.ID)
		}
		if err != nil {
			return fail(e, "plan", err, *asJSON)
		}
		if len(rejects) > 0 {
			if in.Review, err = rejectReview(prev, rejects); err != nil {
				return fail(e, "plan", err, *asJSON)
			}
		}
		if in.Problem == "" {
			in.Problem = prev.Input.Problem
			if len(logs) == 0 {
				in.Logs = []plan.LogSource{{Source: "verification"}}
				for _, l := range prev.Input.Logs {
					if l.Source != "verification" {
						in.Logs = append(in.Logs, l)
					}
				}
			}
		}
	}
	var rec *plan.Record
	if *writeChanges != "" {
		rec, err = writeApproved(ctx, e, s, *writeChanges, *verifyIt, checks, *yes)
	} else if *verifyIt {
		approveChecks(e, s, in, checks, *yes)
		rec, err = s.PlanVerified(ctx, in, st.VerifyAttempts, checks)
	} else {
		rec, err = s.Plan(ctx, in)
	}
	if err != nil {
		var re *session.ReplyError
		if errors.As(err, &re) && !*asJSON {
			fmt.Fprintf(e.Stderr, "---- raw reply ----\n%s\n---- issues ----\n%s\n", clipText(re.Raw, 4000), strings.Join(re.Issues, "\n"))
		}
		return fail(e, "plan", err, *asJSON)
	}
	if *asJSON {
		writeJSON(e.Stdout, planJSON(rec))
		return 0
	}
	printPlan(e.Stdout, rec)
	return 0
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

// approveChecks approves, before planning or verifying (plan --verify, apply
// --verify), the checks --verify may run: every
// --check, and the derived failing-test command and the remembered test command
// when --yes is given or the user says yes on a terminal. Without either they
// stay unapproved and the plan says so.
func approveChecks(e *env, s *session.Session, in plan.ProblemInput, checks []string, yes bool) {
	for _, c := range checks {
		if err := s.ApproveCheck(c); err != nil {
			fmt.Fprintf(e.Stderr, "fixplan: cannot remember the approval of %q: %v\n", c, err)
		}
	}
	for _, c := range s.Checks(&plan.Record{Input: in}) {
		if c.Approved {
			continue
		}
		// --yes covers what fixplan derived or the user set; a command the
		// project or the model chose is only approved when asked and answered.
		ok := yes && !c.FromProject
		if !ok && e.StdinIsTTY {
			ok, _ = confirm(e, fmt.Sprintf("Verify plans of this project with `%s` (%s)? It runs the plan's code and this command in a scratch copy of %s, as you, with network access.", c.Command, c.Source, e.Root))
		}
		if ok {
			approve := s.ApproveCheck
			if c.Focused {
				approve = s.ApproveFocused
			}
			if err := approve(c.Command); err != nil {
				fmt.Fprintf(e.Stderr, "fixplan: cannot remember the approval of %q: %v\n", c.Command, err)
			}
		}
	}
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

// printVerification shows what checking the plan in a scratch copy found.
func printVerification(w io.Writer, v *plan.Verification) {
	if v == nil {
		return
	}
	label := map[string]string{plan.VerifyVerified: "VERIFIED", plan.VerifyPartly: "PARTLY VERIFIED",
		plan.VerifyFailed: "FAILED VERIFICATION", plan.VerifyNotVerified: "NOT VERIFIED"}[v.State]
	fmt.Fprintf(w, "\n%s: %s (checked in a scratch copy; your files were not touched)\n", label, v.Reason)
	for _, c := range v.Commands {
		fmt.Fprintf(w, "  $ %s  → %s, exit %d, %d ms", c.Command, c.Outcome, c.ExitCode, c.DurationMS)
		if len(c.NewFailures) > 0 {
			fmt.Fprintf(w, "; new failures: %s", strings.Join(c.NewFailures, ", "))
		}
		fmt.Fprintln(w)
		if c.Outcome != "passed" && c.Outcome != "not_run" && c.Output != "" {
			for _, l := range strings.Split(strings.TrimRight(tailLines(c.Output, 15), "\n"), "\n") {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
	for i, a := range v.Attempts {
		fmt.Fprintf(w, "  attempt %d (plan %s): %s — %s\n", i+1, a.PlanID, a.State, a.Reason)
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// indentMore indents the continuation lines of a model-written text, so a
// summary or a risk cannot print lines that look like fixplan's own output (a
// forged "VERIFIED:" block, say).
func indentMore(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      | ")
}
