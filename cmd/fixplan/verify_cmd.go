package main

import (
	"context"
	"flag"
	"fmt"

	"fixplan/apply"
	"fixplan/plan"
	"fixplan/session"
)

const verifyUsage = `usage: fixplan [--root DIR] verify [--plan ID] [--yes]

Runs the plan's commands_to_run in the project root. They were proposed by the
model, so each runs only when it is approved for this project (fixplan checks
approve CMD) or you answer yes to it on a terminal; --yes never approves one (it
is accepted for scripts and changes nothing). Their output becomes the
"verification" log for the next plan.
`

// runVerify implements `fixplan verify`.
func runVerify(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, verifyUsage); fs.PrintDefaults() }
	id := fs.String("plan", "", "plan `ID` (default: the newest plan)")
	yes := fs.Bool("yes", false, "accepted, but never approves a command the model proposed (see fixplan checks approve)")
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
	failed, refused, ran := false, false, 0
	for _, c := range cmds {
		ch := s.PlanCommand(c)
		by := session.Consent{Yes: *yes}
		if !session.MayRun(ch, by) {
			ok, err := confirm(e, fmt.Sprintf("Run `%s` (%s) in %s?", c, ch.Source, e.Root))
			if err != nil {
				_, msg, hint := describe(session.NotApproved(ch))
				fmt.Fprintln(e.Stderr, oneLine("fixplan verify: not run: "+msg+"; "+hint))
				refused = true
				continue
			}
			if !ok {
				fmt.Fprintf(e.Stderr, "fixplan verify: skipped %s\n", c)
				continue
			}
			by.Confirmed = true
		}
		fmt.Fprintf(e.Stdout, "$ %s\n", c)
		res, err := s.RunPlanCommand(ctx, rec.ID, c, by, func(chunk string) { fmt.Fprint(e.Stdout, chunk) })
		if err != nil {
			return fail(e, "verify", err, false)
		}
		ran++
		fmt.Fprintf(e.Stdout, "[%s]\n", res.Summary())
		if res.ExitCode != 0 {
			failed = true
		}
	}
	if ran == 0 && refused {
		return 2
	}
	fmt.Fprintln(e.Stdout, "output saved as the \"verification\" log; the next fixplan plan sends it to the model")
	if failed {
		return 1
	}
	return 0
}
