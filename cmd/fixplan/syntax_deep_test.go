package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// TestPlanDeeplyNestedContentIsNotParsed: the review's repro of a crash — a
// hostile project file app/deep.js of 300,000 '(' that the model edits
// harmlessly made `fixplan plan` die of a stack overflow in esbuild (the model's
// own deep content is tested in package syntax: a 300 KB reply is over the fake
// provider's streamed-reply cap). Now the plan is made, the change carries the
// note that its syntax was not checked, and a new file nested a little too deep
// carries it too.
func TestPlanDeeplyNestedContentIsNotParsed(t *testing.T) {
	root := cliProject(t)
	deep := "x = " + strings.Repeat("(", 300_000)
	if err := os.MkdirAll(filepath.Join(root, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "app", "deep.js"), []byte("// header\n"+deep), 0o644); err != nil {
		t.Fatal(err)
	}
	m := map[string]any{"mode": "fix-plan", "summary": "s", "questions": []any{}, "context_requests": []any{},
		"plan": []any{map[string]any{"step": "fix", "details": "d"}},
		"proposed_changes": map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
			map[string]any{"kind": "CREATE_FILE", "path": "app/x.js", "content": "x = " + strings.Repeat("[", 2000)},
			map[string]any{"kind": "EDIT_FILE", "path": "app/deep.js", "edits": []any{map[string]any{"search": "// header", "replace": "// header, edited"}}},
		}},
		"patch": nil, "commands_to_run": []any{}, "verification": []any{}, "risks": []any{}, "rollback": []any{}, "memory_patch": []any{}}
	reply, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	// The model has not read app/deep.js: it is shown the file, then sends the same edit.
	srv := llmtest.NewServer(t, llmtest.Reply{Content: string(reply)}, llmtest.Reply{Content: string(reply)})
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback)
	if code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	for _, want := range []string{"create app/x.js [syntax not checked: too deeply nested to check (depth ", "update app/deep.js [syntax not checked: too deeply nested to check (depth "} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q", want)
		}
	}
}
