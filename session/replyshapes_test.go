package session

import (
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// Issue 18: three reply shapes real models send are read in one call, with no
// repair round: JSON with # comments after values, a Python-literal dict, and
// a reasoning block holding braces before the JSON.
func TestReplyShapesNeedNoRepair(t *testing.T) {
	strict := reply(t, nil).Content
	shapes := map[string]string{
		"# comments": strings.Replace(strict, `"mode":"fix-plan",`, "\"mode\":\"fix-plan\",  # it's the \"fix-plan\" mode {\n", 1),
		"Python-literal dict": `{'mode': 'fix-plan', 'summary': 'divide() does not guard against b == 0', 'questions': [],
 'context_requests': [], 'plan': [{'step': 'change', 'details': "return None when b is 0 (it's True)"}],
 'proposed_changes': {'patch': None, 'commands_to_run': ['pytest -q'], 'actions': [
   {'kind': 'UPDATE_FILE', 'path': 'calc.py', 'content': 'def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n'}]},
 'patch': None, 'commands_to_run': ['pytest -q'], 'verification': ['1 passed'], 'risks': [], 'rollback': [], 'memory_patch': []}`,
		"reasoning with braces": "<think>\nThe test wants divide(1, 0) is None. A dict like {\"summary\": \"draft\"} or {b: 0}; code: def f() {\n</think>\n\n" + strict,
	}
	for name, content := range shapes {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, nil, llmtest.Reply{Content: content})
			rec, err := f.plan(t)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(f.srv.Requests()); n != 1 {
				t.Errorf("%d model requests, want 1 (no repair round)", n)
			}
			if rec.Plan.Summary != "divide() does not guard against b == 0" || len(rec.Changes) != 1 || rec.Changes[0].Path != "calc.py" {
				t.Errorf("plan %q with %d change(s); warnings %q", rec.Plan.Summary, len(rec.Changes), rec.Warnings)
			}
			for _, w := range rec.Warnings {
				if strings.Contains(w, "repair") || strings.Contains(w, "not a valid plan") {
					t.Errorf("warning %q", w)
				}
			}
		})
	}
}
