package main

import (
	"context"
	"flag"
	"fmt"

	"fixplan/apply"
	"fixplan/plan"
)

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
		var all []apply.PlanInfo
		all, err = s.History()
		for _, in := range all {
			if !in.Foreign {
				rec, err = s.Load(in.ID)
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
		res, err := s.RunPlanCommand(ctx, rec.ID, c, func(chunk string) { fmt.Fprint(e.Stdout, chunk) })
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
