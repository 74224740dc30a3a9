package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
)

// runHistory implements `fixplan history`: this project's plans, newest first.
func runHistory(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	asJSON := fs.Bool("json", false, "print [{id, created_at, state, summary, files}]")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "history", err, *asJSON)
	}
	defer s.Close()
	recs, err := s.History()
	if err != nil {
		return fail(e, "history", err, *asJSON)
	}
	if *asJSON {
		out := make([]map[string]any, 0, len(recs))
		for _, r := range recs {
			out = append(out, map[string]any{"id": r.ID, "created_at": r.CreatedAt, "state": r.State, "summary": r.Summary, "files": r.Files, "foreign": r.Foreign})
		}
		writeJSON(e.Stdout, out)
		return 0
	}
	if len(recs) == 0 {
		fmt.Fprintln(e.Stdout, "no plans yet (fixplan plan makes one)")
		return 0
	}
	for _, r := range recs {
		summary := r.Summary
		if summary == "" {
			summary = oneLine(strings.TrimSpace(r.Problem))
		}
		if len(summary) > 90 {
			summary = summary[:89] + "…"
		}
		state := string(r.State)
		if r.Foreign {
			state, summary = "foreign", "(not made by your fixplan; never applied) "+summary
		}
		fmt.Fprintf(e.Stdout, "%s  %-7s  %2d file(s)  %s\n", r.ID, state, r.Files, summary)
	}
	return 0
}
