package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
	"fixplan/session"
)

type fakeRuntime struct {
	mu     sync.Mutex
	events map[string][]any
	dir    string
	files  []string
}

func (f *fakeRuntime) Emit(name string, data any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.events == nil {
		f.events = map[string][]any{}
	}
	f.events[name] = append(f.events[name], data)
}
func (f *fakeRuntime) ChooseDirectory(string) (string, error) { return f.dir, nil }
func (f *fakeRuntime) ChooseFiles(string) ([]string, error)   { return f.files, nil }

func (f *fakeRuntime) count(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.events[name])
}

type fakeKeys struct {
	key       string
	available bool
}

func (k *fakeKeys) Get() (string, error) { return k.key, nil }
func (k *fakeKeys) Set(s string) error   { k.key = s; return nil }
func (k *fakeKeys) Available() (bool, string) {
	if k.available {
		return true, ""
	}
	return false, "no keychain in tests"
}

const planReply = `{"mode":"fix-plan","summary":"guard b","questions":["Keep Python 3.8?"],"context_requests":[],"plan":[{"step":"change","details":"x"}],
"proposed_changes":{"patch":null,"actions":[{"kind":"UPDATE_FILE","path":"calc.py","content":"def divide(a, b):\n    return a / b if b else None\n"},{"kind":"CREATE_FILE","path":"notes.txt","content":"n\n"}],"commands_to_run":["echo ok"]},
"patch":null,"commands_to_run":["echo ok"],"verification":[],"risks":[],"rollback":[],"memory_patch":[{"key":"project.notes","value":"uses pytest"}]}`

func newApp(t *testing.T, replies ...llmtest.Reply) (*App, *fakeRuntime, string, *llmtest.Server) {
	t.Helper()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "calc.py"), []byte("def divide(a, b):\n    return a / b\n"), 0o644)
	srv := llmtest.NewServer(t, replies...)
	cfg := t.TempDir()
	st := session.DefaultSettings()
	st.BaseURL, st.Model, st.Stream = srv.URL(), "fake-model", true
	if err := session.SaveSettings(filepath.Join(cfg, "settings.json"), st); err != nil {
		t.Fatal(err)
	}
	rt := &fakeRuntime{dir: root}
	a := New(Deps{Keys: &fakeKeys{key: "sk-test-keyvalue-9876", available: true}, ConfigDir: cfg, UserPrefs: filepath.Join(cfg, "prefs.json"),
		Getenv: func(string) string { return "" }, BatchEvery: 20 * time.Millisecond,
		NewModel: func(st session.Settings, key string) (session.Model, error) {
			return openai.New(openai.Config{BaseURL: st.BaseURL, Model: st.Model, APIKey: key, Timeout: 5 * time.Second, Stream: st.Stream})
		}})
	Start(a, rt)
	t.Cleanup(func() { Stop(a) })
	return a, rt, root, srv
}

func appErr(t *testing.T, err error) appError {
	t.Helper()
	var ae appError
	if err == nil || json.Unmarshal([]byte(err.Error()), &ae) != nil {
		t.Fatalf("error is not the JSON the window parses: %v", err)
	}
	return ae
}

func TestPlanApplyUndoThroughTheApp(t *testing.T) {
	const traceback = "Traceback (most recent call last):\n  File \"calc.py\", line 2, in divide\n    return a / b\nZeroDivisionError: division by zero\n"
	a, rt, root, _ := newApp(t, llmtest.Reply{Content: planReply})
	if _, err := a.Plan(PlanRequest{Problem: "x"}); appErr(t, err).Code != plan.ErrInvalidInput {
		t.Fatalf("plan without a project: %v", err)
	}
	info, err := a.ChooseProject()
	if err != nil || info.Root == "" || info.Recent[0] != info.Root {
		t.Fatalf("project = %+v %v", info, err)
	}
	rec, err := a.Plan(PlanRequest{Problem: traceback})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Changes) != 2 || rec.Plan.Questions[0] != "Keep Python 3.8?" || len(rec.Memory) != 1 {
		t.Fatalf("record = %+v", rec)
	}
	if n := rt.count(EventPlanProgress); n == 0 {
		t.Fatal("no progress events")
	}
	for _, batch := range rt.events[EventPlanProgress] {
		evs := batch.([]session.Event)
		for i := 1; i < len(evs); i++ {
			if evs[i].Stage == session.StageStream && evs[i-1].Stage == session.StageStream {
				t.Fatal("stream events were not coalesced")
			}
		}
	}
	// Apply only calc.py and the memory entry.
	res, err := a.Apply(ApplyRequest{PlanID: rec.ID, Paths: []string{"calc.py"}, MemoryKeys: []string{plan.KeyNotes}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 1 || res.Memory[0] != plan.KeyNotes {
		t.Fatalf("result = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "notes.txt")); !os.IsNotExist(err) {
		t.Error("an unticked file was written")
	}
	if _, err := a.Apply(ApplyRequest{PlanID: rec.ID, Paths: []string{"calc.py"}}); appErr(t, err).Code != plan.ErrAlreadyApplied {
		t.Errorf("second apply: %v", err)
	}
	hist, err := a.History()
	if err != nil || len(hist) != 1 || hist[0].State != "applied" {
		t.Fatalf("history = %+v %v", hist, err)
	}
	if _, err := a.RunCommand(rec.ID, "rm -rf /"); appErr(t, err).Code != plan.ErrInvalidInput {
		t.Errorf("a command outside the plan was not refused: %v", err)
	}
	cr, err := a.RunCommand(rec.ID, "echo ok")
	if err != nil || cr.ExitCode != 0 || cr.Output != "ok\n" || rt.count(EventCommandOutput) == 0 || rt.count(EventCommandDone) != 1 {
		t.Fatalf("command = %+v %v", cr, err)
	}
	if _, err := a.Undo(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "calc.py")); string(b) != "def divide(a, b):\n    return a / b\n" {
		t.Errorf("undo: %q", b)
	}
}

func TestStalePreviewErrorForTheWindow(t *testing.T) {
	const traceback = "  File \"calc.py\", line 2, in divide\n"
	a, _, root, _ := newApp(t, llmtest.Reply{Content: planReply})
	if _, err := a.OpenProject(root); err != nil {
		t.Fatal(err)
	}
	rec, err := a.Plan(PlanRequest{Problem: traceback})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "calc.py"), []byte("# edited\n"), 0o644)
	_, err = a.Apply(ApplyRequest{PlanID: rec.ID, Paths: []string{"calc.py", "notes.txt"}})
	ae := appErr(t, err)
	if ae.Code != plan.ErrBaseMismatch || ae.Hint == "" || len(ae.Paths) != 1 || ae.Paths[0] != "calc.py" {
		t.Fatalf("error = %+v", ae)
	}
}

func TestSettingsNeverShowTheKey(t *testing.T) {
	a, _, _, _ := newApp(t)
	v, err := a.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), "sk-test-keyvalue-9876") || v.KeyHint != "sk-…9876" || v.KeySource != "keychain" || !v.KeySet {
		t.Fatalf("settings view = %s", b)
	}
	v.Model = "other-model"
	v2, err := a.SaveSettings(v, "sk-new-key-abcdefgh")
	if err != nil || v2.Model != "other-model" || v2.KeyHint != "sk-…efgh" {
		t.Fatalf("saved = %+v %v", v2, err)
	}
	raw, _ := os.ReadFile(filepath.Join(a.d.ConfigDir, "settings.json"))
	if strings.Contains(string(raw), "sk-new") {
		t.Fatal("the key was written to the settings file")
	}
	if _, err := a.OpenProject(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	before := a.sess
	v2.ContextBudget = 4096
	if _, err := a.SaveSettings(v2, ""); err != nil {
		t.Fatal(err)
	}
	if a.sess == before {
		t.Error("saving settings did not reopen the project with the new budgets")
	}
	a.d.Keys = &fakeKeys{available: false}
	if _, err := a.SaveSettings(v, "sk-another-key-1234"); !strings.Contains(appErr(t, err).Hint, "FIXPLAN_API_KEY") {
		t.Errorf("no-keychain error = %v", err)
	}
}

func TestTestConnection(t *testing.T) {
	a, _, _, srv := newApp(t, llmtest.Reply{Content: `{"ok": true}`}, llmtest.Reply{Status: 401, Error: "bad key"})
	msg, err := a.TestConnection()
	if err != nil || !strings.HasPrefix(msg, "OK: fake-model at "+srv.URL()) {
		t.Fatalf("msg = %q err = %v", msg, err)
	}
	_, err = a.TestConnection()
	if ae := appErr(t, err); ae.Code != plan.ErrProviderAuth || !strings.Contains(ae.Hint, "FIXPLAN_API_KEY") {
		t.Fatalf("error = %+v", ae)
	}
}

func TestFailIsJSON(t *testing.T) {
	err := fail(errors.New("plain"))
	if ae := appErr(t, err); ae.Code != plan.ErrIO || ae.Message != "plain" {
		t.Errorf("%+v", ae)
	}
}

func TestOnePlanAtATimeAndCancel(t *testing.T) {
	a, _, root, srv := newApp(t, llmtest.Reply{Delay: 20 * time.Second, Content: planReply})
	if _, err := a.OpenProject(root); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := a.Plan(PlanRequest{Problem: "  File \"calc.py\", line 2, in divide\n"})
		done <- err
	}()
	for len(srv.Requests()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := a.Plan(PlanRequest{Problem: "again"}); !strings.Contains(appErr(t, err).Message, "already being made") {
		t.Fatalf("second plan: %v", err)
	}
	if err := a.CancelPlan(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if appErr(t, err).Code != plan.ErrCancelled {
			t.Fatalf("cancelled plan: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("CancelPlan did not stop the running plan")
	}
}
