package main

import (
	"context"
	"fmt"
)

const checksUsage = `usage: fixplan checks [list]
       fixplan checks approve CMD
       fixplan checks revoke CMD

The check commands approved for verifying this project's plans (fixplan plan
--verify). Approvals live in your config folder, never in the project.
`

// runChecks implements `fixplan checks`.
func runChecks(_ context.Context, e *env, args []string) int {
	verb := "list"
	if len(args) > 0 {
		verb, args = args[0], args[1:]
	}
	if verb == "-h" || verb == "--help" || (verb == "list") != (len(args) == 0) || verb != "list" && verb != "approve" && verb != "revoke" {
		fmt.Fprint(e.Stderr, checksUsage)
		return 2
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "checks", err, false)
	}
	defer s.Close()
	switch verb {
	case "approve":
		err = s.ApproveCheck(args[0])
	case "revoke":
		err = s.RevokeCheck(args[0])
	}
	if err != nil {
		return fail(e, "checks", err, false)
	}
	list := s.ApprovedChecks()
	if len(list) == 0 {
		fmt.Fprintln(e.Stdout, "no check is approved for this project")
	}
	for _, c := range list {
		fmt.Fprintln(e.Stdout, c)
	}
	return 0
}
