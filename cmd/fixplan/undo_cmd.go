package main

import (
	"context"
	"flag"
)

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
