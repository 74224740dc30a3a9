package plan

import (
	"strings"
	"testing"
)

// TestParseEditFile checks the targeted edit action: accepted with its pairs, the
// UPDATE_FILE-with-edits form normalised to EDIT_FILE, and the local rules that
// tell the model what to fix.
func TestParseEditFile(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		issue string // "" = accepted
		check func(t *testing.T, a Action)
	}{
		{
			name:  "strict edit action",
			reply: `{"mode":"fix-plan","summary":"s","proposed_changes":{"patch":null,"commands_to_run":[],"actions":[{"kind":"EDIT_FILE","path":"a.go","content":null,"edits":[{"search":"x := 1\n","replace":"x := 2\n"},{"search":"y","replace":"z"}]}]}}`,
			check: func(t *testing.T, a Action) {
				if a.Kind != EditFile || len(a.Edits) != 2 || a.Edits[0].Search != "x := 1\n" || a.Edits[1].Replace != "z" {
					t.Errorf("action = %+v", a)
				}
			},
		},
		{
			name:  "update with only edits becomes an edit",
			reply: `{"summary":"s","actions":[{"kind":"update_file","path":"a.go","edits":[{"search":"a","replace":"b"}]}]}`,
			check: func(t *testing.T, a Action) {
				if a.Kind != EditFile || len(a.Edits) != 1 {
					t.Errorf("action = %+v", a)
				}
			},
		},
		{
			name:  "whole-file actions get null edits",
			reply: `{"summary":"s","actions":[{"kind":"CREATE_FILE","path":"n.txt","content":"hi\n"}]}`,
			check: func(t *testing.T, a Action) {
				if a.Edits != nil {
					t.Errorf("edits = %+v, want nil", a.Edits)
				}
			},
		},
		{
			name:  "pairs named as other tools name them",
			reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go","edits":[{"old_str":"a","new_str":"b"},{"find":"c","replacement":"d"}]}]}`,
			check: func(t *testing.T, a Action) {
				if len(a.Edits) != 2 || a.Edits[0] != (Edit{Search: "a", Replace: "b"}) || a.Edits[1] != (Edit{Search: "c", Replace: "d"}) {
					t.Errorf("edits = %+v", a.Edits)
				}
			},
		},
		{name: "edit without pairs", reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go","edits":[]}]}`, issue: "/proposed_changes/actions/0/edits: EDIT_FILE needs at least one"},
		{name: "edit with null pairs", reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go"}]}`, issue: "/proposed_changes/actions/0/edits: EDIT_FILE needs at least one"},
		{name: "blank search", reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go","edits":[{"search":"  \n","replace":"x"}]}]}`, issue: "/proposed_changes/actions/0/edits/0/search: needs the exact current lines"},
		{name: "edit with content", reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go","content":"x","edits":[{"search":"a","replace":"b"}]}]}`, issue: "EDIT_FILE takes no content"},
		{name: "edits on a create", reply: `{"summary":"s","actions":[{"kind":"CREATE_FILE","path":"a.go","content":"x","edits":[{"search":"a","replace":"b"}]}]}`, issue: "CREATE_FILE takes no edits"},
		{name: "pair missing replace", reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go","edits":[{"search":"a"}]}]}`, issue: "/proposed_changes/actions/0/edits/0"},
		{name: "two actions on one path", reply: `{"summary":"s","actions":[{"kind":"EDIT_FILE","path":"a.go","edits":[{"search":"a","replace":"b"}]},{"kind":"EDIT_FILE","path":"./a.go","edits":[{"search":"c","replace":"d"}]}]}`, issue: "use one action per path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.reply))
			if tt.issue != "" {
				if err == nil {
					t.Fatalf("accepted, want an issue containing %q", tt.issue)
				}
				if !anyContains(Issues(err), tt.issue) {
					t.Fatalf("issues %q do not mention %q", Issues(err), tt.issue)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(got.Plan.Actions()) != 1 {
				t.Fatalf("actions = %+v", got.Plan.Actions())
			}
			tt.check(t, got.Plan.Actions()[0])
		})
	}
}

// TestSchemaDescribesEdits keeps the model's view of the edit action: the schema
// sent to the provider names EDIT_FILE and its pairs.
func TestSchemaDescribesEdits(t *testing.T) {
	s := string(Schema())
	for _, want := range []string{`"EDIT_FILE"`, `"edits"`, `"search"`, `"replace"`} {
		if !strings.Contains(s, want) {
			t.Errorf("schema lacks %s", want)
		}
	}
}
