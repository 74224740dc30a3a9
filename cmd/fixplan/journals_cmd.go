package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"fixplan/apply"
)

const journalsUsage = `usage: fixplan journals [list] [--json]
       fixplan journals show ID [--json]
       fixplan journals discard ID

Lists this project's transactions (the undo history, and any a recovery set aside
because it could not finish) and the folders set aside in .fixplan/quarantine/
(state that was not written by your fixplan, e.g. shipped with a clone). show
prints one with its files and where their originals are; discard deletes a held,
finished or set-aside one.
`

// runJournals implements `fixplan journals`.
func runJournals(_ context.Context, e *env, args []string) int {
	verb := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		verb, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("journals", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprint(e.Stderr, journalsUsage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print JSON")
	// Flags may come before or after the id.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if id == "" && fs.NArg() > 0 {
		id = fs.Arg(0)
	}
	if (verb == "show" || verb == "discard") && id == "" || verb != "list" && verb != "show" && verb != "discard" {
		fmt.Fprint(e.Stderr, journalsUsage)
		return 2
	}
	s, err := localSession(e)
	if err != nil {
		return fail(e, "journals", err, *asJSON)
	}
	defer s.Close()
	if verb == "discard" {
		if err := s.DiscardJournal(id); err != nil {
			return fail(e, "journals", err, *asJSON)
		}
		fmt.Fprintf(e.Stdout, "discarded %s\n", id)
		return 0
	}
	all, err := s.Journals()
	if err != nil {
		return fail(e, "journals", err, *asJSON)
	}
	if verb == "show" {
		for _, j := range all {
			if j.ID == id {
				if *asJSON {
					writeJSON(e.Stdout, j)
				} else {
					printJournal(e, j, true)
				}
				return 0
			}
		}
		return fail(e, "journals", fmt.Errorf("there is no journal %q in this project (fixplan journals lists them)", id), *asJSON)
	}
	if *asJSON {
		writeJSON(e.Stdout, all)
		return 0
	}
	if len(all) == 0 {
		fmt.Fprintln(e.Stdout, "no transactions yet")
		return 0
	}
	for _, j := range all {
		printJournal(e, j, false)
	}
	return 0
}

func printJournal(e *env, j apply.JournalInfo, full bool) {
	line := fmt.Sprintf("%s  %-11s", j.ID, j.State)
	if j.PlanID != "" {
		line += "  plan " + j.PlanID
	}
	if len(j.Entries) > 0 {
		line += fmt.Sprintf("  %d file(s)", len(j.Entries))
	}
	fmt.Fprintln(e.Stdout, line)
	if j.Reason != "" {
		fmt.Fprintf(e.Stdout, "    why: %s\n", oneLine(j.Reason))
	}
	if len(j.Kept) > 0 {
		fmt.Fprintf(e.Stdout, "    kept (edited after a crash): %s\n", strings.Join(j.Kept, ", "))
	}
	if !full {
		return
	}
	fmt.Fprintf(e.Stdout, "    folder: %s\n", j.Where)
	for _, en := range j.Entries {
		if en.Original != "" {
			fmt.Fprintf(e.Stdout, "    %-6s %s  (original: %s)\n", en.Op, en.Path, en.Original)
		} else {
			fmt.Fprintf(e.Stdout, "    %-6s %s\n", en.Op, en.Path)
		}
	}
}
