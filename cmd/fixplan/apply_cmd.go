package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"fixplan/apply"
	"fixplan/plan"
	"fixplan/session"
)

// confirm asks a yes/no question on a TTY. Without a TTY it refuses (exit 2 by the caller).
func confirm(e *env, question string) (bool, error) {
	if !e.StdinIsTTY {
		return false, errors.New("no terminal to confirm on")
	}
	fmt.Fprintf(e.Stderr, "%s [y/N] ", question)
	line, err := bufio.NewReader(e.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", nil
}

// parseFlags parses a subcommand's flags: ok is false with the exit code to
// return (0 for -h, 2 for a usage error).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// localSession opens the project for commands that need no model.
func localSession(e *env) (*session.Session, error) {
	st, err := loadSettings(e)
	if err != nil {
		return nil, err
	}
	return openSession(e, st, nil, nil)
}

func resultJSON(r apply.Result) map[string]any {
	applied := make([]string, 0, len(r.Applied))
	for _, c := range r.Applied {
		applied = append(applied, c.Path)
	}
	mem := r.Memory
	if mem == nil {
		mem = []string{}
	}
	return map[string]any{"transaction": r.Transaction, "applied": applied, "memory": mem}
}

// foreignErr refuses a plan that this user's fixplan did not make: its changes and
// commands were chosen by whoever put it in the project.
func foreignErr(id string) error {
	return (&plan.Error{Code: plan.ErrForeignState, Msg: fmt.Sprintf("plan %s was not made by your fixplan (it may have come with the project)", id)}).
		WithHint("fixplan never applies or runs such a plan; make your own with fixplan plan")
}

func printResult(w io.Writer, verb string, r apply.Result) {
	fmt.Fprintf(w, "%s transaction %s:\n", verb, r.Transaction)
	for _, c := range r.Applied {
		fmt.Fprintf(w, "  %s %s\n", c.Op, c.Path)
	}
	for _, k := range r.Memory {
		fmt.Fprintf(w, "  memory %s\n", k)
	}
	if len(r.Kept) > 0 {
		fmt.Fprintf(w, "  kept folders that hold other files: %s\n", strings.Join(r.Kept, ", "))
	}
}

const applyUsage = `usage: fixplan [--root DIR] apply [--plan ID] [--only PATH]... [--yes] [--json]

Applies a saved plan (default: the latest one not yet applied) as one transaction:
all files or none. Without --yes it asks on a terminal and refuses without one.
`

// runApply implements `fixplan apply`.
func runApply(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, applyUsage); fs.PrintDefaults() }
	id := fs.String("plan", "", "plan `ID` (default: the latest unapplied plan)")
	yes := fs.Bool("yes", false, "apply without asking")
	asJSON := fs.Bool("json", false, `print {"transaction","applied","memory"}`)
	noMemory := fs.Bool("no-memory", false, "do not merge the plan's memory patch")
	var only ctxMulti
	fs.Var(&only, "only", "apply only this `PATH` (repeatable)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "apply", err, *asJSON)
	}
	defer s.Close()
	var rec *plan.Record
	if *id == "" {
		rec, err = s.LatestDraft()
	} else {
		rec, err = s.Load(*id)
	}
	if err == nil && rec.Foreign {
		err = foreignErr(rec.ID)
	}
	if err != nil {
		return fail(e, "apply", err, *asJSON)
	}
	var paths []string
	if len(only) > 0 {
		paths = only
		known := map[string]bool{}
		for _, c := range rec.Changes {
			known[c.Path] = true
		}
		for _, p := range only {
			if !known[p] {
				return fail(e, "apply", plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", rec.ID, p).
					WithHint("pass one of the plan's paths to --only"), *asJSON)
			}
		}
	}
	var keys []string
	if *noMemory {
		keys = []string{}
	}
	if !*yes {
		n := len(rec.Changes)
		if paths != nil {
			n = len(paths)
		}
		ok, err := confirm(e, fmt.Sprintf("Apply %d change(s) of plan %s (%s)?", n, rec.ID, oneLine(rec.Plan.Summary)))
		if err != nil {
			fmt.Fprintln(e.Stderr, "fixplan apply: refusing to apply without confirmation — run on a terminal or pass --yes")
			return 2
		}
		if !ok {
			fmt.Fprintln(e.Stderr, "fixplan apply: not applied")
			return 2
		}
	}
	res, err := s.Apply(ctx, rec.ID, paths, keys)
	if err != nil {
		return fail(e, "apply", err, *asJSON)
	}
	if *asJSON {
		writeJSON(e.Stdout, resultJSON(res))
		return 0
	}
	printResult(e.Stdout, "applied", res)
	return 0
}

// runUndo implements `fixplan undo`.
func runUndo(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("undo", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	asJSON := fs.Bool("json", false, "print the restored transaction as JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "undo", err, *asJSON)
	}
	defer s.Close()
	res, err := s.Undo(ctx)
	if err != nil {
		return fail(e, "undo", err, *asJSON)
	}
	if *asJSON {
		writeJSON(e.Stdout, resultJSON(res))
		return 0
	}
	printResult(e.Stdout, "undid", res)
	return 0
}

// runPatch implements `fixplan patch`.
func runPatch(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("patch", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	check := fs.Bool("check", false, "show how each hunk would be placed; write nothing")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	file := fs.String("file", "", "read the diff from `FILE` (default stdin)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	var b []byte
	var err error
	if *file != "" && *file != "-" {
		b, err = os.ReadFile(*file)
	} else {
		b, err = io.ReadAll(e.Stdin)
	}
	if err != nil {
		return fail(e, "patch", plan.Errorf(plan.ErrInvalidInput, "cannot read the diff: %v", err), *asJSON)
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "patch", err, *asJSON)
	}
	defer s.Close()
	res, changes, err := s.ApplyPatch(ctx, string(b), *check)
	if err != nil {
		return fail(e, "patch", err, *asJSON)
	}
	if *asJSON {
		files := make([]map[string]any, 0, len(changes))
		for _, c := range changes {
			files = append(files, map[string]any{"path": c.Path, "op": c.Op, "placement": nonNil(c.Placement), "flags": nonNil(c.Flags)})
		}
		out := map[string]any{"check": *check, "files": files}
		if !*check {
			out["transaction"] = res.Transaction
		}
		writeJSON(e.Stdout, out)
		return 0
	}
	for _, c := range changes {
		fmt.Fprintf(e.Stdout, "%s %s", c.Op, c.Path)
		if len(c.Placement) > 0 {
			fmt.Fprintf(e.Stdout, " (hunks: %s)", strings.Join(c.Placement, "; "))
		}
		fmt.Fprintln(e.Stdout)
		for _, f := range c.Flags {
			fmt.Fprintf(e.Stdout, "  ! %s\n", f)
		}
	}
	if *check {
		fmt.Fprintln(e.Stdout, "check only: nothing written")
	} else {
		fmt.Fprintf(e.Stdout, "applied as transaction %s (undo with: fixplan undo)\n", res.Transaction)
	}
	return 0
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

const verifyUsage = `usage: fixplan [--root DIR] verify [--plan ID] [--yes]

Runs the plan's commands_to_run in the project root, each only after you approve it
(--yes approves all). Their output becomes the "verification" log for the next plan.
`

// runVerify implements `fixplan verify`.
func runVerify(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, verifyUsage); fs.PrintDefaults() }
	id := fs.String("plan", "", "plan `ID` (default: the newest plan)")
	yes := fs.Bool("yes", false, "run every command without asking")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "verify", err, false)
	}
	defer s.Close()
	var rec *plan.Record
	if *id != "" {
		rec, err = s.Load(*id)
	} else {
		var all []plan.Record
		all, err = s.History()
		for i := range all {
			if !all[i].Foreign {
				rec = &all[i]
				break
			}
		}
		if err == nil && rec == nil {
			err = plan.Errorf(plan.ErrNoPlan, "this project has no plan of yours yet").WithHint("run fixplan plan first")
		}
	}
	if err == nil && rec.Foreign {
		err = foreignErr(rec.ID)
	}
	if err != nil {
		return fail(e, "verify", err, false)
	}
	cmds := rec.Plan.Commands()
	if len(cmds) == 0 {
		fmt.Fprintf(e.Stdout, "plan %s has no commands to run\n", rec.ID)
		return 0
	}
	s.ResetVerification()
	failed := false
	for _, c := range cmds {
		if !*yes {
			ok, err := confirm(e, fmt.Sprintf("Run `%s` in %s?", c, e.Root))
			if err != nil {
				fmt.Fprintln(e.Stderr, "fixplan verify: refusing to run commands without confirmation — run on a terminal or pass --yes")
				return 2
			}
			if !ok {
				fmt.Fprintf(e.Stderr, "fixplan verify: skipped %s\n", c)
				continue
			}
		}
		fmt.Fprintf(e.Stdout, "$ %s\n", c)
		res, err := s.RunCommand(ctx, c, func(chunk string) { fmt.Fprint(e.Stdout, chunk) })
		if err != nil {
			return fail(e, "verify", err, false)
		}
		fmt.Fprintf(e.Stdout, "[%s]\n", res.Summary())
		if res.ExitCode != 0 {
			failed = true
		}
	}
	fmt.Fprintln(e.Stdout, "output saved as the \"verification\" log; the next fixplan plan sends it to the model")
	if failed {
		return 1
	}
	return 0
}
