package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fixplan/llm"
	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
)

const apiKey = "sk-live-TOPSECRET-4242424242"

const pytestFailure = `============================= FAILURES =============================
____________________ test_divide_by_zero ____________________

    def test_divide_by_zero():
>       assert divide(1, 0) is None

test_calc.py:4:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

a = 1, b = 0

    def divide(a, b):
>       return a / b
E       ZeroDivisionError: division by zero

calc.py:2: ZeroDivisionError
FAILED test_calc.py::test_divide_by_zero - ZeroDivisionError: division by zero
`

func project(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"calc.py":               "def divide(a, b):\n    return a / b\n",
		"test_calc.py":          "from calc import divide\n\n\ndef test_divide_by_zero():\n    assert divide(1, 0) is None\n",
		"util.py":               "def helper():\n    return 42\n",
		"other.py":              "VALUE = 1\n",
		".fixplan/project.json": `{"project.default_test_command": "pytest -q"}`,
	}
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(abs), 0o755)
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

type events struct {
	mu sync.Mutex
	ev []Event
}

func (e *events) Emit(ev Event) { e.mu.Lock(); e.ev = append(e.ev, ev); e.mu.Unlock() }

func (e *events) stages() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.ev {
		if ev.Stage != StageStream && (len(out) == 0 || out[len(out)-1] != ev.Stage) {
			out = append(out, ev.Stage)
		}
	}
	return strings.Join(out, ",")
}

type fixture struct {
	root string
	srv  *llmtest.Server
	s    *Session
	ev   *events
	user string
}

func newFixture(t *testing.T, mod func(*openai.Config), replies ...llmtest.Reply) *fixture {
	t.Helper()
	return newFixtureWith(t, mod, nil, replies...)
}

// newFixtureWith is newFixture with settings changed by set (nil: the defaults).
func newFixtureWith(t *testing.T, mod func(*openai.Config), set func(*Settings), replies ...llmtest.Reply) *fixture {
	t.Helper()
	f := &fixture{root: project(t), ev: &events{}}
	f.srv = llmtest.NewServer(t, replies...)
	cfg := openai.Config{BaseURL: f.srv.URL(), Model: "fake-model", APIKey: apiKey, Timeout: 5 * time.Second, MaxRetries: 2,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
	if mod != nil {
		mod(&cfg)
	}
	m, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.user = filepath.Join(t.TempDir(), "preferences.json")
	st := DefaultSettings()
	st.BaseURL = f.srv.URL()
	if set != nil {
		set(&st)
	}
	f.s, err = Open(f.root, st, m, f.ev, Options{UserPrefsPath: f.user, ConfigDir: filepath.Dir(f.user)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.s.Close() })
	return f
}

func (f *fixture) plan(t *testing.T) (*plan.Record, error) {
	t.Helper()
	return f.s.Plan(context.Background(), plan.ProblemInput{Problem: "test_divide_by_zero fails:\n" + pytestFailure})
}

// reply builds a strict plan reply.
func reply(t *testing.T, mutate func(m map[string]any)) llmtest.Reply {
	t.Helper()
	m := map[string]any{
		"mode": "fix-plan", "summary": "divide() does not guard against b == 0", "questions": []any{},
		"context_requests": []any{}, "plan": []any{map[string]any{"step": "change", "details": "return None when b is 0"}},
		"proposed_changes": map[string]any{"patch": nil, "commands_to_run": []any{"pytest -q"}, "actions": []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "calc.py", "content": "def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n"},
		}},
		"patch": nil, "commands_to_run": []any{"pytest -q"}, "verification": []any{"1 passed"}, "risks": []any{}, "rollback": []any{},
		"memory_patch": []any{},
	}
	if mutate != nil {
		mutate(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return llmtest.Reply{Content: string(b)}
}

func requests(reqs ...map[string]any) func(m map[string]any) {
	return func(m map[string]any) {
		list := []any{}
		for _, r := range reqs {
			full := map[string]any{"type": nil, "path": nil, "start_line": nil, "end_line": nil, "query": nil, "glob": nil, "source": nil, "last_n": nil}
			for k, v := range r {
				full[k] = v
			}
			list = append(list, full)
		}
		m["context_requests"] = list
		m["proposed_changes"] = nil
	}
}

// noKeyInMessages asserts the API key never appears in any message or body.
func noKeyInMessages(t *testing.T, srv *llmtest.Server) {
	t.Helper()
	for i, r := range srv.Requests() {
		if strings.Contains(string(r.Body), apiKey) {
			t.Errorf("request %d body contains the API key", i+1)
		}
		if r.Header.Get("Authorization") != "Bearer "+apiKey {
			t.Errorf("request %d not authorised with the key", i+1)
		}
	}
}

func TestPlanWithoutContextRounds(t *testing.T) {
	f := newFixture(t, nil, reply(t, func(m map[string]any) {
		m["memory_patch"] = []any{map[string]any{"key": "project.default_lint_command", "value": "ruff check ."}}
	}))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if rec.State != plan.StateDraft || len(rec.Rounds) != 0 || len(rec.Changes) != 1 || rec.Changes[0].Op != plan.OpUpdate {
		t.Fatalf("record = %+v", rec)
	}
	if !strings.Contains(rec.Changes[0].Diff, "+    if b == 0:") {
		t.Errorf("diff = %q", rec.Changes[0].Diff)
	}
	if len(rec.Memory) != 1 || rec.Memory[0].Key != plan.KeyDefaultLintCommand {
		t.Errorf("memory = %+v", rec.Memory)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	rf := r.JSON["response_format"].(map[string]any)
	js := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["strict"] != true || js["name"] != plan.SchemaName {
		t.Errorf("response_format = %v", rf)
	}
	wire, _ := json.Marshal(js["schema"])
	var want any
	json.Unmarshal(plan.Schema(), &want)
	wantB, _ := json.Marshal(want)
	if string(wire) != string(wantB) {
		t.Error("the schema on the wire is not the embedded schema")
	}
	sys := r.SystemPrompt()
	if !strings.Contains(sys, `ENGINEERING_MEMORY: {"project.default_test_command":"pytest -q"}`) || !strings.Contains(sys, "ONE valid JSON object") {
		t.Errorf("system prompt = %q", sys)
	}
	user := r.LastUser()
	if !strings.Contains(user, "ZeroDivisionError") || !strings.Contains(user, "return a / b") {
		t.Errorf("first user message lacks the problem or the code window:\n%s", user)
	}
	noKeyInMessages(t, f.srv)
	if len(rec.Calls) != 1 || rec.Calls[0].Format != "json_schema" || rec.Calls[0].PromptTokens == 0 || rec.Calls[0].Model != "fake-model" {
		t.Errorf("calls = %+v", rec.Calls)
	}
	if st := f.ev.stages(); st != "gather,estimate,ask,preview,done" {
		t.Errorf("stages = %s", st)
	}
	saved, err := f.s.Load(rec.ID)
	if err != nil || saved.Plan.Summary != rec.Plan.Summary {
		t.Fatalf("saved plan: %v", err)
	}
}

func TestPlanWithContextRounds(t *testing.T) {
	read := requests(map[string]any{"type": "read_file", "path": "util.py"}, map[string]any{"type": "search", "query": "def helper"})
	logs := requests(map[string]any{"type": "read_file", "path": "missing.py"})
	t.Run("one round", func(t *testing.T) {
		f := newFixture(t, nil, reply(t, read), reply(t, nil))
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Rounds) != 1 || len(rec.Rounds[0].Results) != 2 || !rec.Rounds[0].Results[0].OK {
			t.Fatalf("rounds = %+v", rec.Rounds)
		}
		second := f.srv.Requests()[1]
		last := second.LastUser()
		if !strings.Contains(last, "CONTEXT RESULTS (round 1)") || !strings.Contains(last, "return 42") || !strings.Contains(last, `"query":"def helper"`) {
			t.Errorf("round-1 results missing from request 2:\n%s", last)
		}
		if n := len(second.Messages); n != 4 || second.Messages[2].Role != llm.RoleAssistant {
			t.Errorf("request 2 has %d messages", n)
		}
		noKeyInMessages(t, f.srv)
	})
	t.Run("two rounds, refused path answered with the reason", func(t *testing.T) {
		f := newFixture(t, nil, reply(t, read), reply(t, logs), reply(t, nil))
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Rounds) != 2 || rec.Rounds[1].Results[0].OK || rec.Rounds[1].Results[0].Error == "" {
			t.Fatalf("rounds = %+v", rec.Rounds)
		}
		third := f.srv.Requests()[2].LastUser()
		if !strings.Contains(third, "CONTEXT RESULTS (round 2)") || !strings.Contains(third, "NOT FULFILLED") || !strings.Contains(third, "last context round") {
			t.Errorf("request 3:\n%s", third)
		}
		if len(rec.Changes) != 1 {
			t.Errorf("changes = %+v", rec.Changes)
		}
	})
	t.Run("a third batch is reported unfulfilled", func(t *testing.T) {
		f := newFixture(t, nil, reply(t, read), reply(t, read), reply(t, logs))
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Rounds) != 2 || len(rec.Unfulfilled) != 1 || len(f.srv.Requests()) != 3 {
			t.Fatalf("rounds %d unfulfilled %d requests %d", len(rec.Rounds), len(rec.Unfulfilled), len(f.srv.Requests()))
		}
		if !strings.Contains(strings.Join(rec.Warnings, "\n"), "not fulfilled") {
			t.Errorf("warnings = %q", rec.Warnings)
		}
	})
	t.Run("a third batch keeps no change to a file the model never saw", func(t *testing.T) {
		blind := reply(t, func(m map[string]any) {
			logs(m)
			m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
				map[string]any{"kind": "UPDATE_FILE", "path": "other.py", "content": "VALUE = 2\n"},
				map[string]any{"kind": "UPDATE_FILE", "path": "calc.py", "content": "def divide(a, b):\n    return a / b if b else None\n"},
			}}
		})
		f := newFixture(t, nil, reply(t, read), reply(t, read), blind)
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Changes) != 1 || rec.Changes[0].Path != "calc.py" || len(rec.Unfulfilled) != 1 {
			t.Fatalf("changes %+v, unfulfilled %d", rec.Changes, len(rec.Unfulfilled))
		}
		if !strings.Contains(strings.Join(rec.Warnings, "\n"), "ERR_UNSEEN_FILE: changes to other.py dropped") {
			t.Errorf("warnings = %q", rec.Warnings)
		}
	})
}

func TestRepair(t *testing.T) {
	phantom := llmtest.Reply{Content: "Here is my plan:\nStep 1: check b.\nStep 2: return None.\n"}
	t.Run("repair succeeds", func(t *testing.T) {
		f := newFixture(t, nil, phantom, reply(t, nil))
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Changes) != 1 {
			t.Fatalf("record = %+v", rec)
		}
		rep := f.srv.Requests()[1]
		if !strings.Contains(rep.LastUser(), "describes a plan in prose") || rep.Messages[len(rep.Messages)-2].Content != phantom.Content {
			t.Errorf("repair request:\n%s", rep.LastUser())
		}
		if !strings.Contains(f.ev.stages(), "repair") {
			t.Errorf("stages = %s", f.ev.stages())
		}
	})
	t.Run("repair fails: raw reply kept", func(t *testing.T) {
		bad := llmtest.Reply{Content: `{"mode":"fix-plan","summary":42}`}
		f := newFixture(t, nil, phantom, bad)
		rec, err := f.plan(t)
		var re *ReplyError
		if !errors.As(err, &re) || !strings.Contains(re.Error(), "/summary: expected string") {
			t.Fatalf("err = %v", err)
		}
		saved, lerr := f.s.Load(re.RecordID)
		if lerr != nil || saved.State != plan.StateFailed || saved.Raw != bad.Content || rec == nil {
			t.Fatalf("saved = %+v, %v", saved, lerr)
		}
		if len(f.srv.Requests()) != 2 {
			t.Errorf("%d requests; one repair only", len(f.srv.Requests()))
		}
	})
	t.Run("truncated reply is repaired", func(t *testing.T) {
		f := newFixture(t, nil, llmtest.Reply{Content: `{"mode":"fix-plan","summary":"cut`, FinishReason: "length"}, reply(t, nil))
		if _, err := f.plan(t); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.srv.Requests()[1].LastUser(), "cut off") {
			t.Errorf("repair does not mention the cut: %s", f.srv.Requests()[1].LastUser())
		}
	})
}

func TestProviderFailures(t *testing.T) {
	tests := []struct {
		name    string
		mod     func(*openai.Config)
		replies []llmtest.Reply
		code    plan.Code
		msg     string
		hint    string
	}{
		{name: "429 then success", replies: []llmtest.Reply{{Status: 429, Error: "slow down"}}},
		{name: "500 forever", replies: []llmtest.Reply{{Status: 500, Error: "x"}, {Status: 500, Error: "x"}, {Status: 500, Error: "x"}},
			code: plan.ErrProviderUnavailable, msg: "after 3 attempts"},
		{name: "timeout", mod: func(c *openai.Config) { c.Timeout = 150 * time.Millisecond; c.MaxRetries = 0 },
			replies: []llmtest.Reply{{Delay: 3 * time.Second}}, code: plan.ErrProviderUnavailable, msg: "did not answer in time"},
		{name: "bad key", replies: []llmtest.Reply{{Status: 401, Error: "Incorrect API key provided: " + apiKey}},
			code: plan.ErrProviderAuth, msg: "refused the API key"},
		{name: "context overflow", replies: []llmtest.Reply{{Status: 400, Code: "context_length_exceeded", Error: "This model's maximum context length is 8192 tokens."}},
			code: plan.ErrProviderRequest, msg: "maximum context length", hint: "lower the context budget"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			replies := tc.replies
			if tc.code == "" {
				replies = append(replies, reply(t, nil))
			}
			f := newFixture(t, tc.mod, replies...)
			rec, err := f.plan(t)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(strings.Join(rec.Warnings, "\n"), "needed 2 attempts") {
					t.Errorf("warnings = %q", rec.Warnings)
				}
				return
			}
			var pe *plan.Error
			if !errors.As(err, &pe) || pe.Code != tc.code || !strings.Contains(pe.Msg, tc.msg) || pe.Hint == "" || !strings.Contains(pe.Hint, tc.hint) {
				t.Fatalf("err = %v", err)
			}
			if strings.Contains(pe.Error(), apiKey) {
				t.Errorf("key in error: %v", pe)
			}
		})
	}
}

func TestFallbackToJSONObject(t *testing.T) {
	first := reply(t, nil)
	first.RejectFormat = "json_schema"
	first.Content = ""
	f := newFixture(t, nil, first, reply(t, nil))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rec.Warnings, "\n"), "asked for json_object output") {
		t.Errorf("warnings = %q", rec.Warnings)
	}
	reqs := f.srv.Requests()
	if reqs[0].ResponseFormat != "json_schema" || reqs[1].ResponseFormat != "json_object" {
		t.Fatalf("formats %s, %s", reqs[0].ResponseFormat, reqs[1].ResponseFormat)
	}
}

func TestNoBlindRewrites(t *testing.T) {
	rewrite := func(m map[string]any) {
		m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
			map[string]any{"kind": "UPDATE_FILE", "path": "util.py", "content": "def helper():\n    return 43\n"},
		}}
	}
	t.Run("unseen file is read for the model, then accepted", func(t *testing.T) {
		f := newFixture(t, nil, reply(t, rewrite), reply(t, rewrite))
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Rounds) != 1 || *rec.Rounds[0].Requests[0].Path != "util.py" || len(rec.Changes) != 1 {
			t.Fatalf("rounds = %+v changes = %+v", rec.Rounds, rec.Changes)
		}
		if !strings.Contains(f.srv.Requests()[1].LastUser(), "have not seen") {
			t.Errorf("request 2 does not say why: %s", f.srv.Requests()[1].LastUser())
		}
	})
	t.Run("no rounds left: the unseen change is dropped", func(t *testing.T) {
		other := requests(map[string]any{"type": "env"})
		rewriteOther := func(m map[string]any) {
			m["proposed_changes"] = map[string]any{"patch": nil, "commands_to_run": []any{}, "actions": []any{
				map[string]any{"kind": "UPDATE_FILE", "path": "other.py", "content": "VALUE = 2\n"},
				map[string]any{"kind": "CREATE_FILE", "path": "new.py", "content": "NEW = 1\n"},
			}}
		}
		f := newFixture(t, nil, reply(t, other), reply(t, other), reply(t, rewrite), reply(t, rewriteOther))
		rec, err := f.plan(t)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Changes) != 1 || rec.Changes[0].Path != "new.py" {
			t.Fatalf("changes = %+v", rec.Changes)
		}
		if !strings.Contains(strings.Join(rec.Warnings, "\n"), "ERR_UNSEEN_FILE: changes to other.py dropped") {
			t.Errorf("warnings = %q", rec.Warnings)
		}
		if len(rec.Plan.Actions()) != 1 {
			t.Errorf("the stored plan still carries the dropped action: %+v", rec.Plan.Actions())
		}
	})
}

func TestPatchThatDoesNotApplyIsRepaired(t *testing.T) {
	badPatch := func(m map[string]any) {
		m["proposed_changes"] = map[string]any{"actions": []any{}, "commands_to_run": []any{},
			"patch": "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,3 @@\n def divide(x, y):\n+    pass\n     return x / y\n"}
	}
	goodPatch := func(m map[string]any) {
		m["proposed_changes"] = map[string]any{"actions": []any{}, "commands_to_run": []any{},
			"patch": "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,4 @@\n def divide(a, b):\n+    if b == 0:\n+        return None\n     return a / b\n"}
	}
	f := newFixture(t, nil, reply(t, badPatch), reply(t, goodPatch))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Changes) != 1 || rec.Changes[0].Placement[0] != "exact" {
		t.Fatalf("changes = %+v", rec.Changes)
	}
	if !strings.Contains(f.srv.Requests()[1].LastUser(), "ERR_PATCH_APPLY_FAILED") {
		t.Errorf("repair does not quote the failure: %s", f.srv.Requests()[1].LastUser())
	}
}

func TestCancel(t *testing.T) {
	f := newFixture(t, func(c *openai.Config) { c.Timeout = 10 * time.Second }, llmtest.Reply{Delay: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(f.srv.Requests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	_, err := f.s.Plan(ctx, plan.ProblemInput{Problem: "x fails"})
	if plan.CodeOf(err) != plan.ErrCancelled {
		t.Fatalf("err = %v", err)
	}
}

func TestApplyMergesMemory(t *testing.T) {
	f := newFixture(t, nil, reply(t, func(m map[string]any) {
		m["memory_patch"] = []any{
			map[string]any{"key": "project.default_lint_command", "value": "ruff check ."},
			map[string]any{"key": "user.verbosity", "value": "brief"},
			map[string]any{"key": "project.secret_sauce", "value": "x"},
		}
	}))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rec.Warnings, "\n"), "project.secret_sauce") || len(rec.Memory) != 2 {
		t.Fatalf("warnings %q memory %+v", rec.Warnings, rec.Memory)
	}
	res, err := f.s.Apply(context.Background(), rec.ID, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 1 || len(res.Memory) != 2 {
		t.Fatalf("result = %+v", res)
	}
	proj, _ := os.ReadFile(filepath.Join(f.root, ".fixplan", "project.json"))
	user, _ := os.ReadFile(f.user)
	if !strings.Contains(string(proj), `"project.default_lint_command": "ruff check ."`) || !strings.Contains(string(proj), "pytest -q") {
		t.Errorf("project memory = %s", proj)
	}
	if !strings.Contains(string(user), `"user.verbosity": "brief"`) || strings.Contains(string(user), "project.") {
		t.Errorf("user memory = %s", user)
	}
}

func TestApplyOnlyUserMemory(t *testing.T) {
	f := newFixture(t, nil, reply(t, func(m map[string]any) {
		m["memory_patch"] = []any{map[string]any{"key": "user.language", "value": "Español"}}
	}))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(f.root, "calc.py"))
	res, err := f.s.Apply(context.Background(), rec.ID, []string{}, []string{plan.KeyLanguage})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 0 || len(res.Memory) != 1 {
		t.Fatalf("result = %+v", res)
	}
	if after, _ := os.ReadFile(filepath.Join(f.root, "calc.py")); string(after) != string(before) {
		t.Error("a file changed although none was ticked")
	}
	if user, _ := os.ReadFile(f.user); !strings.Contains(string(user), "Español") {
		t.Errorf("user memory = %s", user)
	}
	if gi, err := os.ReadFile(filepath.Join(f.root, ".fixplan", ".gitignore")); err != nil || !strings.Contains(string(gi), "!project.json") {
		t.Errorf(".fixplan/.gitignore = %q %v", gi, err)
	}
}
