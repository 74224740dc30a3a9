package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"fixplan/apply"
	"fixplan/plan"
)

// Output shared by several verbs: JSON, one-line text, transactions and verdicts.

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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

// printVerification shows what checking the plan in a scratch copy found.
func printVerification(w io.Writer, v *plan.Verification) {
	if v == nil {
		return
	}
	label := map[string]string{plan.VerifyVerified: "VERIFIED", plan.VerifyPartly: "PARTLY VERIFIED",
		plan.VerifyFailed: "FAILED VERIFICATION", plan.VerifyNotVerified: "NOT VERIFIED"}[v.State]
	where := "checked in a scratch copy; your files were not touched"
	if len(v.Commands) == 0 {
		where = "no check ran; your files were not touched"
	}
	fmt.Fprintf(w, "\n%s: %s (%s)\n", label, v.Reason, where)
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
