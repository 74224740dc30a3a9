package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestParseForms checks what a user would notice for each kind of reply: which
// form was accepted, or which error code and issue the model is told about.
func TestParseForms(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		form     Form
		code     Code
		contains string // in an issue (error) or a warning (success)
		check    func(t *testing.T, p *Plan)
	}{
		{name: "strict object", file: "strict.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if len(p.Actions()) != 1 || p.Actions()[0].Kind != UpdateFile || !strings.Contains(*p.Actions()[0].Content, "ValueError") {
				t.Errorf("actions = %+v", p.Actions())
			}
			if len(p.MemoryPatch) != 1 || string(p.MemoryPatch[0].Value) != `"pytest -q"` {
				t.Errorf("memory_patch = %+v", p.MemoryPatch)
			}
		}},
		{name: "code fence with prose", file: "fenced.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Summary != "missing import" {
				t.Errorf("summary = %q", p.Summary)
			}
		}},
		{name: "object inside prose with braces", file: "prose_around.txt", form: FormPartial, check: func(t *testing.T, p *Plan) {
			if p.Summary != "nil map write" || len(p.Plan) != 1 {
				t.Errorf("plan = %+v", p)
			}
		}},
		{name: "legacy bare array of actions", file: "legacy_actions.txt", form: FormLegacyActions, check: func(t *testing.T, p *Plan) {
			if len(p.Actions()) != 2 || p.Actions()[1].Kind != CreateDir || p.Mode != ModeFixPlan {
				t.Errorf("actions = %+v mode %q", p.Actions(), p.Mode)
			}
		}},
		{name: "legacy actions + memory object", file: "legacy_object.txt", form: FormLegacyObject, contains: "project.favourite_color", check: func(t *testing.T, p *Plan) {
			if len(p.Actions()) != 1 || len(p.MemoryPatch) != 2 {
				t.Fatalf("actions %d memory %+v", len(p.Actions()), p.MemoryPatch)
			}
			if p.MemoryPatch[0].Key != KeyDefaultTestCommand || p.MemoryPatch[1].Key != KeyLogPaths {
				t.Errorf("memory keys = %+v", p.MemoryPatch)
			}
			if !strings.Contains(string(p.MemoryPatch[1].Value), `"source":"runtime"`) {
				t.Errorf("log_paths value = %s", p.MemoryPatch[1].Value)
			}
		}},
		{name: "apply mode with root patch", file: "apply_patch.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Mode != ModeApply || !strings.HasPrefix(p.EffectivePatch(), "--- a/calc.py") {
				t.Errorf("mode %q patch %q", p.Mode, p.EffectivePatch())
			}
		}},
		{name: "fields missing, context requests", file: "partial.txt", form: FormPartial, check: func(t *testing.T, p *Plan) {
			if len(p.ContextRequests) != 3 || p.ContextRequests[1].Glob == nil || *p.ContextRequests[1].Glob != "**/*.go" {
				t.Errorf("requests = %+v", p.ContextRequests)
			}
			if p.Risks == nil || p.MemoryPatch == nil {
				t.Errorf("nil slices after parse")
			}
		}},
		{name: "trailing commas", file: "trailing_commas.txt", form: FormPartial},
		{name: "double-encoded JSON string", file: "double_encoded.txt", form: FormPartial, check: func(t *testing.T, p *Plan) {
			if p.Summary != "double-encoded reply" {
				t.Errorf("summary = %q", p.Summary)
			}
		}},
		{name: "reasoning block before the answer", file: "think.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Summary != "guard b == 0 in divide()" {
				t.Errorf("summary = %q", p.Summary)
			}
		}},
		{name: "comments", file: "comments.txt", form: FormPartial, check: func(t *testing.T, p *Plan) {
			if p.Summary != "a // inside a string stays" || len(p.Plan) != 1 {
				t.Errorf("plan = %+v", p)
			}
		}},
		{name: "# comments after values", file: "hash_comments.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Summary != "Mean of an empty slice is 0 (issue #18, see # notes)" || len(p.Plan) != 1 || len(p.Actions()) != 1 ||
				!strings.Contains(*p.Actions()[0].Content, "// Mean # of xs\n") || len(p.CommandsToRun) != 1 {
				t.Errorf("plan = %+v", p)
			}
		}},
		{name: "Python-literal dict", file: "python_dict.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Summary != `Mean divides by len-1; it's "off by one" (True when None is passed)` {
				t.Errorf("summary = %q", p.Summary)
			}
			if len(p.Plan) != 1 || p.Plan[0].Step != "don't divide by len-1" || p.Plan[0].Details != "divide by len(xs)\tand return 0 for an empty slice" {
				t.Errorf("plan = %+v", p.Plan)
			}
			if p.ProposedChanges == nil || p.ProposedChanges.Patch != nil || len(p.Actions()) != 1 ||
				!strings.HasPrefix(*p.Actions()[0].Content, "package stats\n\n// Mean is 0 for \"no values\" \\o/\nfunc Mean(") {
				t.Errorf("changes = %+v", p.ProposedChanges)
			}
			if len(p.Verification) != 1 || p.Verification[0] != "TestMean passes: True" || len(p.MemoryPatch) != 1 {
				t.Errorf("verification %q memory %+v", p.Verification, p.MemoryPatch)
			}
		}},
		{name: "reasoning tags in another case, with braces and a stray quote", file: "think_braces.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Summary != "divide by len(xs), not len(xs)-1" {
				t.Errorf("summary = %q", p.Summary)
			}
		}},
		{name: "reasoning opened by the chat template, only its end in the reply", file: "think_orphan.txt", form: FormStrict, check: func(t *testing.T, p *Plan) {
			if p.Summary != "divide by len(xs), not len(xs)-1" {
				t.Errorf("summary = %q", p.Summary)
			}
		}},
		{name: "unknown fields dropped, questions capped", file: "unknown_fields.txt", form: FormPartial, contains: `unknown field "confidence"`, check: func(t *testing.T, p *Plan) {
			if len(p.Questions) != 2 {
				t.Errorf("questions = %v", p.Questions)
			}
		}},
		{name: "truncated JSON", file: "truncated.txt", code: ErrJSONExtract, contains: "truncated"},
		{name: "two different objects", file: "two_objects.txt", code: ErrJSONExtract, contains: "2 different JSON values"},
		{name: "phantom plan in prose", file: "phantom.txt", code: ErrJSONExtract, contains: "in prose"},
		{name: "bad action kind", file: "bad_kind.txt", code: ErrSchemaValidation, contains: "/proposed_changes/actions/0/kind"},
		{name: "paths leaving the root", file: "dotdot_path.txt", code: ErrSchemaValidation, contains: `"../other/config.yaml" leaves the project root`},
		{name: "local rules", file: "rules.txt", code: ErrSchemaValidation, contains: "CREATE_FILE needs the whole new file content"},
		{name: "wrong types", file: "wrong_types.txt", code: ErrSchemaValidation, contains: "/summary: expected string, but got number"},
		{name: "empty plan object", file: "empty_object.txt", code: ErrSchemaValidation, contains: "the plan is empty"},
		{name: "empty reply", file: "empty.txt", code: ErrJSONExtract, contains: "empty"},
		{name: "refusal without JSON", file: "no_json.txt", code: ErrJSONExtract, contains: "no JSON object"},
		{name: "a JSON string", file: "string_value.txt", code: ErrJSONExtract, contains: "JSON string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "parse", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(raw)
			golden(t, tc.file, got, err)
			if tc.code != "" {
				if err == nil {
					t.Fatalf("Parse succeeded with %+v, want %s", got.Plan, tc.code)
				}
				if CodeOf(err) != tc.code {
					t.Fatalf("code = %q, want %q (%v)", CodeOf(err), tc.code, err)
				}
				if !anyContains(Issues(err), tc.contains) {
					t.Fatalf("issues %q do not mention %q", Issues(err), tc.contains)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v (issues %q)", err, Issues(err))
			}
			if got.Form != tc.form {
				t.Errorf("form = %q, want %q", got.Form, tc.form)
			}
			if tc.contains != "" && !anyContains(got.Warnings, tc.contains) {
				t.Errorf("warnings %q do not mention %q", got.Warnings, tc.contains)
			}
			if tc.check != nil {
				tc.check(t, &got.Plan)
			}
		})
	}
}

func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// golden compares the full parse outcome with testdata/parse/<file>.golden.json.
func golden(t *testing.T, file string, got *Parsed, err error) {
	t.Helper()
	var out any
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error is not a *ParseError: %v", err)
		}
		out = map[string]any{"error": pe}
	} else {
		out = got
	}
	b, mErr := json.MarshalIndent(out, "", "  ")
	if mErr != nil {
		t.Fatal(mErr)
	}
	b = append(b, '\n')
	path := filepath.Join("testdata", "parse", strings.TrimSuffix(file, ".txt")+".golden.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, rErr := os.ReadFile(path)
	if rErr != nil {
		t.Fatalf("%v (run go test ./plan -update)", rErr)
	}
	if !bytes.Equal(want, b) {
		t.Errorf("golden %s differs:\n--- got\n%s\n--- want\n%s", path, b, want)
	}
}

func TestParseErrorMessage(t *testing.T) {
	_, err := Parse([]byte(`{"mode":"fix-plan","summary":1,"questions":2}`))
	if err == nil {
		t.Fatal("want error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "ERR_SCHEMA_VALIDATION: invalid plan: /") || !strings.Contains(msg, "(and 1 more)") {
		t.Errorf("message = %q", msg)
	}
}

func TestIssuesAreCapped(t *testing.T) {
	var acts []string
	for i := 0; i < 40; i++ {
		acts = append(acts, `{"kind":"CREATE_FILE","path":"f.go","content":null}`)
	}
	raw := `{"summary":"x","proposed_changes":{"patch":null,"commands_to_run":[],"actions":[` + strings.Join(acts, ",") + `]}}`
	_, err := Parse([]byte(raw))
	is := Issues(err)
	if len(is) != maxIssues+1 || !strings.HasPrefix(is[maxIssues], "… and ") {
		t.Fatalf("issues (%d) = %q", len(is), is)
	}
}

func TestPathProblem(t *testing.T) {
	tests := []struct {
		path string
		bad  bool
	}{
		{"src/main.go", false}, {"./a.txt", false}, {"a..b/c", false},
		{"../x", true}, {"a/../../x", true}, {`a\..\..\x`, true}, {"/etc/passwd", true},
		{`C:\Windows\x`, true}, {"c:/x", true}, {`\\server\share\x`, true}, {"~/.ssh/id_rsa", true},
		{"a\x00b", true},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			if got := PathProblem(tc.path) != ""; got != tc.bad {
				t.Errorf("PathProblem(%q) bad = %v, want %v", tc.path, got, tc.bad)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "parse", "*.txt"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("```json\n{\"summary\":\"x\",\"plan\":[]\n```"))
	f.Add([]byte(`[{"kind":"UPDATE_FILE"}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := Parse(raw)
		if err == nil {
			if got == nil {
				t.Fatal("nil result without error")
			}
			p := got.Plan
			if p.Summary == "" && len(p.Plan) == 0 && len(p.Actions()) == 0 && p.EffectivePatch() == "" &&
				len(p.Questions) == 0 && len(p.ContextRequests) == 0 {
				t.Fatalf("empty plan accepted from %q", raw)
			}
			if _, mErr := json.Marshal(p); mErr != nil {
				t.Fatalf("plan does not re-encode: %v", mErr)
			}
			return
		}
		if len(Issues(err)) == 0 {
			t.Fatalf("error without issues: %v", err)
		}
	})
}

// Near misses: text that looks like a slip but sits inside a string is never
// changed, and a reply that is JSON is never read as Python.
func TestParseNearMisses(t *testing.T) {
	const base = `"questions":[],"context_requests":[],"plan":[{"step":"s","details":"d"}],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]`
	tests := []struct {
		name, raw, summary, extracted string
	}{
		{"strict JSON with #, ' and True in strings", `{"mode":"fix-plan","summary":"issue #4: it's True that None # fails",` + base + `}`,
			"issue #4: it's True that None # fails", ExtractedWhole},
		{"# comment beside a # and a ' in strings", "{\"mode\":\"fix-plan\", # it's a comment\n\"summary\":\"issue #4 isn't True\",\n" + base + "}",
			"issue #4 isn't True", ExtractedRepaired},
		{"trailing comma with True and None in a string", `{"mode":"fix-plan","summary":"True, None, 'x'",` + base + `,}`,
			"True, None, 'x'", ExtractedRepaired},
		{"Python dict with ' in a double-quoted string", `{'mode': 'fix-plan', 'summary': "don't # stop", 'plan': [{'step': 's', 'details': 'True'}]}`,
			"don't # stop", ExtractedPython},
		{"Python dict in a fence after prose", "Here's the plan, it's short:\n```python\n{'summary': 'fenced', 'plan': [{'step': 's', 'details': 'd'}], 'patch': None}\n```\nDon't forget.",
			"fenced", ExtractedFromText + "; " + ExtractedPython},
		{"# comments in a fence after prose", "Plan:\n```json\n{\"summary\": \"a # b\", # note\n\"plan\": []}\n```",
			"a # b", ExtractedFromText + "; " + ExtractedRepaired},
		{"reasoning tags inside a JSON reply's strings", `{"mode":"fix-plan","summary":"drop <think>{x}</think> blocks; a lone </think> too",` + base + `}`,
			"drop <think>{x}</think> blocks; a lone </think> too", ExtractedWhole},
		{"a closing tag inside a plan in prose", "Here it is:\n" + `{"mode":"fix-plan","summary":"a lone </think> {stays}",` + base + `}`,
			"a lone </think> {stays}", ExtractedFromText},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.raw))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got.Plan.Summary != tc.summary || got.Extracted != tc.extracted {
				t.Errorf("summary %q extracted %q, want %q %q", got.Plan.Summary, got.Extracted, tc.summary, tc.extracted)
			}
			if strings.Contains(tc.name, "Python dict with") && got.Plan.Plan[0].Details != "True" {
				t.Errorf("details = %q", got.Plan.Plan[0].Details)
			}
		})
	}
}
