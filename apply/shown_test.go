package apply

import (
	"strings"
	"testing"

	"fixplan/edit"
	"fixplan/plan"
)

// blockRedactor stands in for redact.File: every line between a BEGIN
// and an END line (a key block) becomes [REDACTED], whole file at a time, lines kept.
func blockRedactor(path, text string) string {
	lines := strings.SplitAfter(text, "\n")
	in := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "BEGIN"):
			in = true
		case strings.HasPrefix(l, "END"):
			in = false
		case in && l != "":
			nl := ""
			if strings.HasSuffix(l, "\n") {
				nl = "\n"
			}
			lines[i] = "[REDACTED]" + nl
		}
	}
	return strings.Join(lines, "")
}

// A change in the middle of a key block, far from its BEGIN line: the preview
// shows no key line (redacted with the whole file), the model's own line as
// written, hunk headers and counts as before; the plan still applies.
func TestPreviewRedactsTheProjectsTextWhole(t *testing.T) {
	var key strings.Builder
	key.WriteString("notes\nBEGIN KEY\n")
	for i := 0; i < 20; i++ {
		key.WriteString("keyline" + strings.Repeat("x", i) + "\n")
	}
	key.WriteString("END KEY\nlast line without newline")
	before := key.String()
	root := tree(t, map[string]string{"deploy.txt": before, "old.txt": before})
	e, err := Open(root, Options{Key: testKey, Redact: blockRedactor})
	if err != nil {
		t.Fatal(err)
	}
	plain := open(t, root, nil)
	after := strings.Replace(before, "keylinexxxxxxxxxx\n", "model line\n", 1)
	after = strings.Replace(after, "last line without newline", "last line changed", 1)
	patch := "*** Begin Patch\n*** Update File: old.txt\n*** Move to: moved.txt\n@@\n-notes\n+notes!\n*** End Patch\n"
	p := plan.Plan{Patch: &patch, ProposedChanges: &plan.ProposedChanges{Actions: []plan.Action{{Kind: plan.UpdateFile, Path: "deploy.txt", Content: &after}}}}
	cs, err := e.Changes(&p)
	if err != nil {
		t.Fatal(err)
	}
	pcs, err := plain.Changes(&p)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		d, raw := c.Preview().Diff, pcs[i].Preview().Diff
		if strings.Contains(d, "keyline") {
			t.Errorf("%s: the preview shows key lines:\n%s", c.Path, d)
		}
		if strings.Count(d, "\n") != strings.Count(raw, "\n") {
			t.Errorf("%s: %d lines shown, %d in the diff", c.Path, strings.Count(d, "\n"), strings.Count(raw, "\n"))
		}
		hs, err := edit.ParseHunks(d)
		rhs, _ := edit.ParseHunks(raw)
		if err != nil || len(hs) != len(rhs) {
			t.Errorf("%s: %d hunks (%v), want %d", c.Path, len(hs), err, len(rhs))
		}
	}
	d := cs[0].Preview().Diff
	for _, w := range []string{"+model line\n", "-[REDACTED]\n", "-last line without newline\n\\ No newline at end of file\n", "+last line changed\n\\ No newline"} {
		if !strings.Contains(d, w) {
			t.Errorf("deploy.txt preview lacks %q:\n%s", w, d)
		}
	}
	rec := &plan.Record{ID: NewID(), State: plan.StateDraft, Plan: p}
	for _, c := range cs {
		rec.Changes = append(rec.Changes, c.Preview())
	}
	if err := e.SavePlan(rec); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ApplyPlan(bg, rec.ID, Selection{}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if got := read(t, root, "deploy.txt"); got != after {
		t.Errorf("deploy.txt = %q, want %q", got, after)
	}
	if got := read(t, root, "moved.txt"); got != strings.Replace(before, "notes\n", "notes!\n", 1) {
		t.Errorf("moved.txt = %q", got)
	}
}
