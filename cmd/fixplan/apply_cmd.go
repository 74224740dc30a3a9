package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"fixplan/apply"
	"fixplan/edit"
	"fixplan/plan"
	"fixplan/session"
)

const applyUsage = `usage: fixplan [--root DIR] apply [--plan ID] [--only PATH]... [--hunks PATH:N,N...]...
                                  [--edit PATH=FILE]... [--show-hunks | --dry-run]
                                  [--verify [--check CMD]...] [--yes] [--json]

Applies a saved plan (default: the latest one not yet applied) as one transaction:
all files or none. Without --yes it asks on a terminal and refuses without one.

Review before applying:
  --show-hunks          list every change's hunks, numbered from 1 as the preview
                        diff shows them; writes nothing
  --hunks PATH:1,3-5    apply only hunks 1, 3, 4 and 5 of PATH's change (the others
                        are rejected); repeat for other files
  --edit PATH=FILE      apply the content of FILE (your own version) instead of the
                        proposal for PATH; checked like the model's content
  --dry-run             print the diffs that would be written with these choices;
                        writes nothing
  --verify              first verify exactly these choices (--only, --hunks, --edit)
                        in a scratch copy, like plan --verify: the approved checks
                        run there and VERIFIED / PARTLY VERIFIED / FAILED
                        VERIFICATION / NOT VERIFIED is printed with each check's
                        outcome; your files are not touched. Then it asks to apply
                        (with --yes a FAILED selection is not applied; exit 1).
                        With --dry-run it only verifies (exit 1 when FAILED).
  --check CMD           with --verify: also run CMD as a check (approved and
                        remembered for this project; repeatable)
  --yes                 also approves, for --verify, the derived failing-test
                        command and your own test command — never a command from
                        the project or the model (see fixplan checks)
What you rejected or edited is kept with the plan, and re-planning it
(fixplan plan --replan ID) tells the model, so it does not propose it again.
`

// applyFlags are the flags of `fixplan apply`.
type applyFlags struct {
	id                                       string
	yes, asJSON, noMemory, show, dry, verify bool
	only, hunks, edits, checks               multiFlag
}

func parseApplyFlags(e *env, args []string) (applyFlags, int, bool) {
	var f applyFlags
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, applyUsage); fs.PrintDefaults() }
	fs.StringVar(&f.id, "plan", "", "plan `ID` (default: the latest unapplied plan)")
	fs.BoolVar(&f.yes, "yes", false, "apply without asking")
	fs.BoolVar(&f.asJSON, "json", false, `print {"transaction","applied","memory"}`)
	fs.BoolVar(&f.noMemory, "no-memory", false, "do not merge the plan's memory patch")
	fs.BoolVar(&f.show, "show-hunks", false, "list the numbered hunks of every change; write nothing")
	fs.BoolVar(&f.dry, "dry-run", false, "print the diffs that would be written; write nothing")
	fs.BoolVar(&f.verify, "verify", false, "verify exactly what would be applied in a scratch copy first (with --dry-run: only verify)")
	fs.Var(&f.checks, "check", "with --verify: also run `CMD` as a check (approved and remembered for this project; repeatable)")
	fs.Var(&f.only, "only", "apply only this `PATH` (repeatable)")
	fs.Var(&f.hunks, "hunks", "apply only these hunks of a change: `PATH:N,N-M` (repeatable)")
	fs.Var(&f.edits, "edit", "apply your own content for a change: `PATH=FILE` (repeatable)")
	code, ok := parseFlags(fs, args)
	return f, code, ok
}

// runApply implements `fixplan apply`: flags → pick the plan → what of it to
// apply → show, verify or dry-run it, or apply it once confirmed → print.
func runApply(ctx context.Context, e *env, args []string) int {
	f, code, ok := parseApplyFlags(e, args)
	if !ok {
		return code
	}
	failed := func(err error) int { return fail(e, "apply", err, f.asJSON) }
	if len(f.checks) > 0 && !f.verify {
		return failed(plan.Errorf(plan.ErrInvalidInput, "--check needs --verify").WithHint("add --verify to run the check in a scratch copy before applying"))
	}
	s, err := localSession(e)
	if err != nil {
		return failed(err)
	}
	defer s.Close()
	rec, err := planToApply(s, f.id)
	if err != nil {
		return failed(err)
	}
	if f.show {
		if err := showHunks(e.Stdout, rec, f.asJSON); err != nil {
			return failed(err)
		}
		return 0
	}
	paths, files, err := selected(rec, f.only, f.hunks, f.edits)
	if err != nil {
		return failed(err)
	}
	var verdict *plan.Verification
	if f.verify {
		var code int
		var done bool
		if verdict, code, done = verifyChoices(ctx, e, s, rec, f, paths, files); done {
			return code
		}
	}
	if f.dry {
		return dryRun(e, s, rec, paths, files, f.asJSON)
	}
	if !f.yes {
		if code, ok := confirmApply(e, rec, paths, files, verdict); !ok {
			return code
		}
	}
	var keys []string // nil: the plan's whole memory patch
	if f.noMemory {
		keys = []string{}
	}
	res, err := s.ApplySelection(ctx, rec.ID, paths, keys, files)
	if err != nil {
		return failed(err)
	}
	if f.asJSON {
		out := resultJSON(res)
		if verdict != nil {
			out["verification"] = verdict
		}
		writeJSON(e.Stdout, out)
		return 0
	}
	printResult(e.Stdout, "applied", res)
	return 0
}

// planToApply is plan id, or the latest draft without one. A plan this user's
// fixplan did not make is refused, and so is a draft with nothing to apply.
func planToApply(s *session.Session, id string) (*plan.Record, error) {
	var rec *plan.Record
	var err error
	if id == "" {
		rec, err = s.LatestDraft()
	} else {
		rec, err = s.Load(id)
	}
	if err == nil && rec.Foreign {
		err = foreignErr(rec.ID)
	}
	if err == nil && rec.State == plan.StateDraft && len(rec.Changes) == 0 && len(rec.Memory) == 0 {
		// A plan made with --plan-only (or whose changes were dropped): its steps wait for approval.
		err = plan.Errorf(plan.ErrNoPlan, "plan %s has no changes to apply", rec.ID).
			WithHint("if you approve its steps, have the model write them: fixplan plan --write-changes " + rec.ID)
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// selected is what of rec --only, --hunks and --edit choose: the paths (nil:
// every change) and the file choices.
func selected(rec *plan.Record, only, hunks, edits []string) ([]string, []apply.FileChoice, error) {
	var paths []string
	if len(only) > 0 {
		paths = only
		known := map[string]bool{}
		for _, c := range rec.Changes {
			known[c.Path] = true
		}
		for _, p := range only {
			if !known[p] {
				return nil, nil, plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", rec.ID, p).
					WithHint("pass one of the plan's paths to --only")
			}
		}
	}
	files, err := choices(rec, hunks, edits)
	if err != nil {
		return nil, nil, err
	}
	return paths, files, nil
}

// verifyChoices verifies exactly the chosen changes in a scratch copy (--verify)
// and prints the verdict. done says the command ends here with code: with
// --dry-run after the verdict (1 when it failed), with --yes when it failed.
func verifyChoices(ctx context.Context, e *env, s *session.Session, rec *plan.Record, f applyFlags, paths []string, files []apply.FileChoice) (verdict *plan.Verification, code int, done bool) {
	// The same approvals as plan --verify: --yes never covers a command the
	// project or the model chose.
	approveChecks(e, s, rec.Input, f.checks, f.yes)
	vrec, err := s.VerifySelection(ctx, rec.ID, f.checks, paths, files)
	if err != nil {
		return nil, fail(e, "apply", err, f.asJSON), true
	}
	verdict = vrec.Verification
	if !f.asJSON {
		printVerification(e.Stdout, verdict)
	}
	failed := verdict != nil && verdict.State == plan.VerifyFailed
	if f.dry {
		if f.asJSON {
			writeJSON(e.Stdout, map[string]any{"plan": rec.ID, "dry_run": true, "verification": verdict})
		} else {
			fmt.Fprintln(e.Stdout, "verify only (--dry-run): nothing written")
		}
		if failed {
			return verdict, 1, true
		}
		return verdict, 0, true
	}
	if failed && f.yes {
		fmt.Fprintln(e.Stderr, "fixplan apply: not applied: these choices failed verification — review them (--show-hunks), or apply without --verify to apply anyway")
		if f.asJSON {
			writeJSON(e.Stdout, map[string]any{"plan": rec.ID, "applied": []string{}, "verification": verdict})
		}
		return verdict, 1, true
	}
	return verdict, 0, false
}

// dryRun prints the diffs the chosen changes would write (--dry-run).
func dryRun(e *env, s *session.Session, rec *plan.Record, paths []string, files []apply.FileChoice, asJSON bool) int {
	pv, err := s.DryRun(rec.ID, paths, files)
	if err != nil {
		return fail(e, "apply", err, asJSON)
	}
	if asJSON {
		out := make([]map[string]any, 0, len(pv))
		for _, c := range pv {
			out = append(out, map[string]any{"path": c.Path, "op": c.Op, "diff": c.Diff, "flags": nonNil(c.Flags)})
		}
		writeJSON(e.Stdout, map[string]any{"plan": rec.ID, "dry_run": true, "files": out})
		return 0
	}
	for _, c := range pv {
		fmt.Fprintf(e.Stdout, "%s %s\n", c.Op, c.Path)
		for _, f := range c.Flags {
			fmt.Fprintf(e.Stdout, "  ! %s\n", f)
		}
		fmt.Fprint(e.Stdout, c.Diff)
		if !strings.HasSuffix(c.Diff, "\n") && c.Diff != "" {
			fmt.Fprintln(e.Stdout)
		}
	}
	fmt.Fprintln(e.Stdout, "dry run: nothing written")
	return 0
}

// confirmApply asks on the terminal before applying; ok is false with the exit
// code (2) when the user says no or there is no terminal to ask on.
func confirmApply(e *env, rec *plan.Record, paths []string, files []apply.FileChoice, verdict *plan.Verification) (int, bool) {
	n := len(rec.Changes)
	if paths != nil {
		n = len(paths)
	}
	what := ""
	if len(files) > 0 {
		what = fmt.Sprintf(", %d of them narrowed to some hunks or edited by you", len(files))
	}
	if verdict != nil {
		what += fmt.Sprintf(", verification: %s", verdict.State)
	}
	ok, err := confirm(e, fmt.Sprintf("Apply %d change(s)%s of plan %s (%s)?", n, what, rec.ID, oneLine(rec.Plan.Summary)))
	if err != nil {
		fmt.Fprintln(e.Stderr, "fixplan apply: refusing to apply without confirmation — run on a terminal or pass --yes")
		return 2, false
	}
	if !ok {
		fmt.Fprintln(e.Stderr, "fixplan apply: not applied")
		return 2, false
	}
	return 0, true
}

// choices turns --hunks and --edit values into file choices for the plan rec.
func choices(rec *plan.Record, hunks, edits []string) ([]apply.FileChoice, error) {
	known := map[string]bool{}
	for _, c := range rec.Changes {
		known[c.Path] = true
	}
	var out []apply.FileChoice
	seen := map[string]bool{}
	add := func(fc apply.FileChoice, flag string) error {
		if !known[fc.Path] {
			return plan.Errorf(plan.ErrInvalidInput, "plan %s does not change %s", rec.ID, fc.Path).WithHint("pass one of the plan's paths to " + flag)
		}
		if seen[fc.Path] {
			return plan.Errorf(plan.ErrInvalidInput, "%s is given twice to --hunks/--edit", fc.Path).WithHint("choose hunks or an edit once per file")
		}
		seen[fc.Path] = true
		out = append(out, fc)
		return nil
	}
	for _, v := range hunks {
		fc, err := parseHunkSel(v)
		if err != nil {
			return nil, err
		}
		if err := add(fc, "--hunks"); err != nil {
			return nil, err
		}
	}
	for _, v := range edits {
		p, file, ok := strings.Cut(v, "=")
		if !ok || p == "" || file == "" {
			return nil, plan.Errorf(plan.ErrInvalidInput, "--edit %q: expected PATH=FILE", v).WithHint("e.g. --edit src/app.py=/tmp/app.py")
		}
		b, err := readEditFile(file)
		if err != nil {
			return nil, plan.Errorf(plan.ErrInvalidInput, "--edit %s: cannot read %s: %v", p, file, err).WithHint("pass a readable file with your version of " + p)
		}
		content := string(b)
		if err := add(apply.FileChoice{Path: p, Content: &content}, "--edit"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readEditFile reads an --edit FILE: a regular file only (a FIFO would block,
// /dev/zero never ends, a folder has no content), and at most one byte more than
// apply accepts, so a huge file is refused by apply's size check without being
// read whole.
func readEditFile(file string) ([]byte, error) {
	notRegular := func(fi os.FileInfo) error {
		if fi.Mode().IsRegular() {
			return nil
		}
		what := "not a regular file"
		switch {
		case fi.IsDir():
			what = "a folder"
		case fi.Mode()&os.ModeNamedPipe != 0:
			what = "a named pipe (FIFO)"
		case fi.Mode()&(os.ModeDevice|os.ModeCharDevice) != 0:
			what = "a device"
		case fi.Mode()&os.ModeSocket != 0:
			what = "a socket"
		}
		return fmt.Errorf("it is %s, not a regular file", what)
	}
	fi, err := os.Stat(file) // before opening: opening a FIFO blocks
	if err != nil {
		return nil, err
	}
	if err := notRegular(fi); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil { // what was opened, if the name changed meanwhile
		return nil, err
	}
	if err := notRegular(fi); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, apply.MaxUserContent+1))
}

// showHunks prints every change of rec with its numbered hunks.
func showHunks(w io.Writer, rec *plan.Record, asJSON bool) error {
	type hunkJSON struct {
		N      int    `json:"n"`
		Header string `json:"header"`
		Text   string `json:"text"`
	}
	type fileJSON struct {
		Path  string     `json:"path"`
		Op    plan.Op    `json:"op"`
		Hunks []hunkJSON `json:"hunks"`
	}
	files := []fileJSON{}
	for _, c := range rec.Changes {
		hs, err := edit.ParseHunks(c.Diff)
		if err != nil {
			return err
		}
		f := fileJSON{Path: c.Path, Op: c.Op, Hunks: []hunkJSON{}}
		for _, h := range hs {
			f.Hunks = append(f.Hunks, hunkJSON{N: h.N, Header: h.Header, Text: h.Text})
		}
		files = append(files, f)
	}
	if asJSON {
		writeJSON(w, map[string]any{"plan": rec.ID, "files": files})
		return nil
	}
	fmt.Fprintf(w, "plan %s: %d change(s); apply some hunks with --hunks PATH:N,N\n", rec.ID, len(files))
	for _, f := range files {
		fmt.Fprintf(w, "\n%s %s: %d hunk(s)\n", f.Op, f.Path, len(f.Hunks))
		for _, h := range f.Hunks {
			fmt.Fprintf(w, "[hunk %d of %s]\n", h.N, f.Path)
			fmt.Fprint(w, h.Text)
			if !strings.HasSuffix(h.Text, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
	return nil
}
