package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
)

func editRecord(model string, kind plan.ActionKind, patch bool, failed bool) plan.Record {
	r := plan.Record{Calls: []plan.Call{{Model: model}}}
	if patch {
		s := "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
		r.Plan.Patch = &s
	} else {
		r.Plan.ProposedChanges = &plan.ProposedChanges{Actions: []plan.Action{{Kind: kind, Path: "x"}}}
	}
	if failed {
		r.Warnings = []string{noteChangesRepaired + ": ERR_PATCH_APPLY_FAILED: …"}
	}
	return r
}

// TestResolveEditFormat: a fixed setting is used as is; auto asks for whole files
// when small and search/replace when large, and stops asking a model for a format
// its earlier plans in this project kept failing in.
func TestResolveEditFormat(t *testing.T) {
	sr := func(failed bool) plan.Record { return editRecord("m", plan.EditFile, false, failed) }
	diff := func(failed bool) plan.Record { return editRecord("m", "", true, failed) }
	tests := []struct {
		name         string
		setting      string
		history      []plan.Record
		small, large string
	}{
		{"fixed whole", EditWhole, []plan.Record{sr(true), sr(true)}, EditWhole, EditWhole},
		{"fixed diff", EditDiff, nil, EditDiff, EditDiff},
		{"auto without history", EditAuto, nil, EditWhole, EditSearchReplace},
		{"auto, one failure is not a pattern", EditAuto, []plan.Record{sr(true), sr(false)}, EditWhole, EditSearchReplace},
		{"auto, mostly successes", EditAuto, []plan.Record{sr(true), sr(false), sr(true), sr(false), sr(false)}, EditWhole, EditSearchReplace},
		{"auto, search/replace keeps failing → diff", EditAuto, []plan.Record{sr(true), sr(false), sr(true)}, EditWhole, EditDiff},
		{"auto, diffs fail too → whole", EditAuto, []plan.Record{sr(true), diff(true), sr(true), diff(true)}, EditWhole, EditWhole},
		{"auto, another model's failures do not count", EditAuto, []plan.Record{editRecord("other", plan.EditFile, false, true), editRecord("other", plan.EditFile, false, true)}, EditWhole, EditSearchReplace},
		{"auto, foreign records do not count", EditAuto, func() []plan.Record {
			a, b := sr(true), sr(true)
			a.Foreign, b.Foreign = true, true
			return []plan.Record{a, b}
		}(), EditWhole, EditSearchReplace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := resolveEditFormat(tt.setting, "m", tt.history)
			if c.small != tt.small || c.large != tt.large {
				t.Fatalf("got %s/%s, want %s/%s", c.small, c.large, tt.small, tt.large)
			}
		})
	}
}

func TestParseEditFormat(t *testing.T) {
	for in, want := range map[string]string{"": EditAuto, "auto": EditAuto, "whole-file": EditWhole, "search-replace": EditSearchReplace, "Unified-Diff": EditDiff, "diff": EditDiff} {
		if got, err := ParseEditFormat(in); err != nil || got != want {
			t.Errorf("ParseEditFormat(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseEditFormat("xml")
	if plan.CodeOf(err) != plan.ErrConfig {
		t.Fatalf("err = %v, want ERR_CONFIG", err)
	}
	if pe := err.(*plan.Error); !strings.Contains(pe.Hint, "search_replace") {
		t.Errorf("hint %q does not list the formats", pe.Hint)
	}
	s, _ := LoadSettings(filepath.Join(t.TempDir(), "none.json"))
	if s.EditFormat != EditAuto {
		t.Errorf("default edit format = %q", s.EditFormat)
	}
	if s2 := (Settings{EditFormat: "bogus"}).normalised(); s2.EditFormat != EditAuto {
		t.Errorf("a bad edit format normalises to %q, want auto", s2.EditFormat)
	}
}

func editFixture(t *testing.T, format string, replies ...llmtest.Reply) *fixture {
	t.Helper()
	f := &fixture{root: project(t), ev: &events{}}
	f.srv = llmtest.NewServer(t, replies...)
	m, err := openai.New(openai.Config{BaseURL: f.srv.URL(), Model: "fake-model", APIKey: apiKey, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f.user = filepath.Join(t.TempDir(), "preferences.json")
	st := DefaultSettings()
	st.BaseURL, st.Model, st.EditFormat = f.srv.URL(), "fake-model", format
	if f.s, err = Open(f.root, st, m, f.ev, Options{UserPrefsPath: f.user, ConfigDir: filepath.Dir(f.user)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.s.Close() })
	return f
}

func systemMessage(t *testing.T, r llmtest.Recorded) string {
	t.Helper()
	msgs, _ := r.JSON["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatal("request without messages")
	}
	return fmt.Sprint(msgs[0].(map[string]any)["content"])
}

func editReply(t *testing.T, search, replace string) llmtest.Reply {
	return reply(t, func(m map[string]any) {
		m["proposed_changes"].(map[string]any)["actions"] = []any{map[string]any{
			"kind": "EDIT_FILE", "path": "calc.py", "content": nil,
			"edits": []any{map[string]any{"search": search, "replace": replace}},
		}}
	})
}

// TestEditFormatPromptAndRepair: the prompt asks for the configured format; a
// search/replace pair that is not in the file goes back to the model once with
// the closest real lines, and the corrected pair previews.
func TestEditFormatPromptAndRepair(t *testing.T) {
	f := editFixture(t, EditSearchReplace,
		editReply(t, "def divide(a, b):\n    return a // b\n", "x\n"),
		editReply(t, "    return a / b\n", "    if b == 0:\n        return None\n    return a / b\n"))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the plan and one repair", len(reqs))
	}
	if sys := systemMessage(t, reqs[0]); !strings.Contains(sys, "EDIT FORMAT: change an existing file with EDIT_FILE") {
		t.Errorf("the system message does not ask for search/replace:\n%s", sys)
	}
	repair := string(reqs[1].Body)
	for _, want := range []string{"edit 1: its search lines are not in the file", "closest lines in the file (from line 1)", "return a / b"} {
		if !strings.Contains(repair, want) {
			t.Errorf("the repair request lacks %q", want)
		}
	}
	if len(rec.Changes) != 1 || !strings.Contains(rec.Changes[0].Diff, "+    if b == 0:") || len(rec.Changes[0].Placement) != 1 {
		t.Fatalf("changes = %+v", rec.Changes)
	}
	if !anyHasPrefix(rec.Warnings, noteChangesRepaired) {
		t.Errorf("the record does not note the failed first edit (auto learns from it): %q", rec.Warnings)
	}
}

// TestEditFormatAutoLearns: in auto, a model whose search/replace edits kept
// failing in this project is asked for a unified diff on large files instead.
func TestEditFormatAutoLearns(t *testing.T) {
	f := editFixture(t, EditAuto, reply(t, nil), reply(t, nil))
	if _, err := f.plan(t); err != nil {
		t.Fatal(err)
	}
	if sys := systemMessage(t, f.srv.Requests()[0]); !strings.Contains(sys, fmt.Sprintf("up to %d lines with UPDATE_FILE", AutoLargeFile)) || !strings.Contains(sys, "a longer one with EDIT_FILE") {
		t.Fatalf("auto without history should ask for whole small files and search/replace on large ones:\n%s", sys)
	}
	for i := 0; i < 2; i++ {
		r := editRecord("fake-model", plan.EditFile, false, true)
		r.ID, r.CreatedAt, r.State = NewID()+fmt.Sprint(i), time.Now().UTC(), plan.StateDraft
		if err := f.s.eng.SavePlan(&r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: "again:\n" + pytestFailure}); err != nil {
		t.Fatal(err)
	}
	if sys := systemMessage(t, f.srv.Requests()[1]); !strings.Contains(sys, "a longer one with a unified diff") {
		t.Fatalf("after two failed search/replace plans auto should ask for a diff on large files:\n%s", sys)
	}
}

func anyHasPrefix(ss []string, p string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// TestDropPatchFilesFromTheEnvelope: when changes to files the model never saw
// are dropped (no blind rewrites), a *** Begin Patch envelope loses exactly
// those sections.
func TestDropPatchFilesFromTheEnvelope(t *testing.T) {
	env := "*** Begin Patch\n*** Update File: other.py\n@@\n-VALUE = 1\n+VALUE = 2\n*** Add File: new.py\n+NEW = 1\n*** Update File: ./pkg/a.py\n@@\n-a\n+b\n*** End Patch\n"
	got := dropPatchFiles(env, map[string]bool{"other.py": true, "pkg/a.py": true})
	if got != "*** Begin Patch\n*** Add File: new.py\n+NEW = 1\n*** End Patch\n" {
		t.Fatalf("got %q", got)
	}
	if got := dropPatchFiles(env, map[string]bool{"other.py": true, "pkg/a.py": true, "new.py": true}); got != "" {
		t.Fatalf("with every section dropped: %q", got)
	}
}
