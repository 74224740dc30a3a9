package session

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixplan/llm"
	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
	"fixplan/tokens"
)

func TestFittingPicksTheCompactPromptUnderTheThreshold(t *testing.T) {
	for _, tc := range []struct {
		window, maxTokens, reply int
		compact                  bool
	}{
		{0, 8192, 8192, false},      // unknown: the setting, full prompt
		{2048, 8192, 1024, true},    // a quarter, at least 1024, at most half
		{4096, 8192, 1024, true},    //
		{8191, 8192, 2047, true},    // just under the threshold
		{8192, 8192, 2048, false},   // at the threshold: full prompt
		{131072, 8192, 8192, false}, // capped by the setting
		{131072, 0, 32768, false},   // no setting: a quarter
		{16384, 2000, 2000, false},  // the setting is smaller
		{4096, 0, 1024, true},       //
		{1024, 8192, 512, true},     // never more than half the window
		{CompactBelow - 1, 0, 2047, true},
	} {
		f := newFitting(tokens.For("llama3"), llm.Window{Tokens: tc.window}, tc.maxTokens)
		if f.reply != tc.reply || f.compact != tc.compact {
			t.Errorf("window %d, max_tokens %d: reply %d compact %v, want %d %v", tc.window, tc.maxTokens, f.reply, f.compact, tc.reply, tc.compact)
		}
	}
}

func TestShrinkKeepsTheFrameLine(t *testing.T) {
	f := newFitting(tokens.For("gpt-4o"), llm.Window{Tokens: 4096}, 0)
	var b strings.Builder
	for i := 70; i <= 230; i++ {
		if i == 150 {
			b.WriteString("150 | raise ValueError('boom')\n")
			continue
		}
		b.WriteString(strconv.Itoa(i) + " | x = some filler text here\n")
	}
	out := f.shrink(b.String(), 200, true)
	if f.count.Count(out) > 200 || !strings.Contains(out, "150 | raise ValueError") || !strings.Contains(out, "lines before]") || !strings.Contains(out, "lines after]") {
		t.Fatalf("shrunk window (%d tokens):\n%s", f.count.Count(out), out)
	}
	if got := retitle("File app.py lines 70-230 of 300 (around the stack frames)", out); !strings.HasPrefix(got, "File app.py lines 1") || strings.Contains(got, "70-230") {
		t.Fatalf("retitle = %q", got)
	}
}

func writeProjectFile(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A local server with a 4096-token window: the plan is asked with the compact
// prompt, the prompt and the reply cap fit the window, the failing line and the
// project's rules still go, every section says what it cost, and the user is told
// how to raise the window on that server.
func TestPlanFitsASmallWindow(t *testing.T) {
	for _, server := range []string{llm.ServerOllama, llm.ServerLMStudio, llm.ServerLlamaCpp, llm.ServerVLLM} {
		t.Run(server, func(t *testing.T) {
			root, problem := bigProject(t)
			writeProjectFile(t, root, "AGENTS.md", "Always keep functions pure. Use tabs.\n")
			srv := llmtest.NewServer(t, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
			srv.ServeWindow(server, "fake-model", 4096)
			s := openWith(t, root, srv, nil)
			rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
			if err != nil {
				t.Fatal(err)
			}
			req := srv.Requests()[0]
			if sys := req.SystemPrompt(); !strings.HasPrefix(sys, "You are fixplan's engineering assistant. Reply with ONE JSON object only") {
				t.Fatalf("not the compact prompt:\n%s", sys)
			}
			if mt, _ := req.JSON["max_tokens"].(float64); mt != 1024 {
				t.Fatalf("max_tokens = %v, want 1024 (a quarter of the window)", req.JSON["max_tokens"])
			}
			c := tokens.For("fake-model")
			var contents []string
			for _, m := range req.Messages {
				contents = append(contents, m.Content)
			}
			if n := c.Messages(contents...); n+1024 > 4096 {
				t.Fatalf("prompt %d tokens + reply 1024 > the 4096-token window", n)
			}
			user := req.LastUser()
			if !strings.Contains(user, "raise ValueError('boom')  # line 150") {
				t.Fatalf("the failing line did not fit:\n%s", user)
			}
			if strings.Contains(user, "=== Environment ===") || strings.Contains(user, "=== Recent files ===") {
				t.Fatalf("the compact prompt kept the environment or recent files:\n%s", user)
			}
			if !strings.Contains(user, "Always keep functions pure") {
				t.Errorf("the project's rules were not sent")
			}
			for _, s := range rec.Base.Sections {
				if s.Tokens <= 0 {
					t.Errorf("section %q has no token count", s.Title)
				}
			}
			warned := false
			for _, w := range rec.Warnings {
				if strings.Contains(w, "context window is only 4,096 tokens") && strings.Contains(w, RaiseWindowHint(server, 16384)) {
					warned = true
				}
			}
			if !warned {
				t.Errorf("no warning with the fix for %s: %q", server, rec.Warnings)
			}
			u := rec.Usage
			if u == nil || u.Window != 4096 || !u.Compact || u.BaseBudget <= 0 || u.Tokenizer != tokens.Estimate || u.PromptTokens == 0 {
				t.Fatalf("usage = %+v", u)
			}
		})
	}
}

// A big window (or none known): the full prompt, and the sections as gathered.
func TestPlanWithALargeWindowUsesTheFullPrompt(t *testing.T) {
	root, problem := bigProject(t)
	srv := llmtest.NewServer(t, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	srv.ServeWindow(llm.ServerVLLM, "fake-model", 32768)
	s := openWith(t, root, srv, nil)
	rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	if !strings.Contains(req.SystemPrompt(), "ONE valid JSON object") || !strings.Contains(req.LastUser(), "=== Environment ===") {
		t.Fatal("a 32k window did not get the full prompt and sections")
	}
	if mt, _ := req.JSON["max_tokens"].(float64); mt != 8192 {
		t.Fatalf("max_tokens = %v", req.JSON["max_tokens"])
	}
	for _, w := range rec.Warnings {
		if strings.Contains(w, "context window") {
			t.Fatalf("unexpected warning %q", w)
		}
	}
}

// Prices set in Settings give each plan its cost; without prices there is none.
func TestPlanCost(t *testing.T) {
	root, problem := bigProject(t)
	noChanges := func(m map[string]any) { m["proposed_changes"] = nil }
	srv := llmtest.NewServer(t, reply(t, noChanges), reply(t, noChanges))
	priced := openWith(t, root, srv, func(st *Settings) { st.PriceInput, st.PriceOutput = 2.5, 10 })
	rec, err := priced.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	u := rec.Usage
	if u == nil || u.Cost == nil || u.PromptTokens != rec.Calls[0].PromptTokens || u.CompletionTokens != rec.Calls[0].CompletionTokens {
		t.Fatalf("usage = %+v, calls = %+v", u, rec.Calls)
	}
	if want := float64(u.PromptTokens)*2.5/1e6 + float64(u.CompletionTokens)*10/1e6; math.Abs(*u.Cost-want) > 1e-12 {
		t.Fatalf("cost = %v, want %v", *u.Cost, want)
	}
	free := openWith(t, root, srv, nil)
	rec, err = free.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Usage == nil || rec.Usage.Cost != nil {
		t.Fatalf("usage without prices = %+v", rec.Usage)
	}
}

// In a small window the context rounds are cut to the room left too: every
// request, the last included, fits with the reply; a cut file counts as seen in part.
func TestPlanRoundsFitASmallWindow(t *testing.T) {
	root, problem := bigProject(t)
	var b strings.Builder
	for i := 1; i <= 400; i++ {
		b.WriteString("def helper_" + strconv.Itoa(i) + "(x):\n    return x * " + strconv.Itoa(i) + "\n")
	}
	writeProjectFile(t, root, "helpers.py", b.String())
	srv := llmtest.NewServer(t,
		reply(t, requests(map[string]any{"type": "read_file", "path": "helpers.py"}, map[string]any{"type": "read_file", "path": "app.py"})),
		reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
	srv.ServeWindow(llm.ServerLlamaCpp, "fake-model", 4096)
	s := openWith(t, root, srv, nil)
	rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	if err != nil {
		t.Fatal(err)
	}
	c := tokens.For("fake-model")
	for i, req := range srv.Requests() {
		var contents []string
		for _, m := range req.Messages {
			contents = append(contents, m.Content)
		}
		if n := c.Messages(contents...); n+1024 > 4096 {
			t.Fatalf("request %d: prompt %d tokens + reply 1024 > the 4096-token window", i+1, n)
		}
	}
	res := rec.Rounds[0].Results[0]
	if !res.OK || !strings.Contains(res.Text, "cut to fit the model's window") || len(res.Seen) != 1 || res.Seen[0].Whole {
		t.Fatalf("helpers.py result = ok %v seen %+v:\n%.500s", res.OK, res.Seen, res.Text)
	}
	if !strings.Contains(srv.Requests()[1].LastUser(), "def helper_1(x):") {
		t.Fatal("the start of helpers.py was not sent")
	}
}

// A server that reports a tiny window gets no request it cannot serve: below
// 2×MinReply tokens, or when the instructions and the problem leave no room for
// the reply, planning stops before anything is sent, with the server's fix; a
// small window that can hold a plan gets max_tokens at most half of it and a
// prompt that fits beside it.
func TestPlanTinyWindows(t *testing.T) {
	for _, tc := range []struct {
		server string
		window int
		fits   bool
	}{
		{llm.ServerOllama, 1, false},
		{llm.ServerLlamaCpp, 100, false},
		{llm.ServerLMStudio, 2*MinReply - 1, false},
		{llm.ServerVLLM, 1200, false}, // the compact instructions alone take more than the 600 left
		{llm.ServerOllama, 2000, true},
		{llm.ServerLlamaCpp, 2048, true},
	} {
		t.Run(tc.server+"/"+strconv.Itoa(tc.window), func(t *testing.T) {
			root, problem := bigProject(t)
			var replies []llmtest.Reply
			if tc.fits {
				replies = append(replies, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
			}
			srv := llmtest.NewServer(t, replies...)
			srv.ServeWindow(tc.server, "fake-model", tc.window)
			s := openWith(t, root, srv, nil)
			rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
			if !tc.fits {
				var pe *plan.Error
				if !errors.As(err, &pe) || pe.Code != plan.ErrProviderRequest {
					t.Fatalf("err = %v, want %s", err, plan.ErrProviderRequest)
				}
				if !strings.Contains(pe.Msg, "context window is only "+TokensText(tc.window)+" tokens") || !strings.Contains(pe.Msg, "nothing was sent") ||
					!strings.Contains(pe.Hint, RaiseWindowHint(tc.server, 16384)) {
					t.Errorf("message %q / hint %q: want the window, that nothing was sent and the server's fix", pe.Msg, pe.Hint)
				}
				if n := len(srv.Requests()); n != 0 {
					t.Errorf("%d request(s) sent to a %d-token window", n, tc.window)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			req := srv.Requests()[0]
			mt, _ := req.JSON["max_tokens"].(float64)
			if mt <= 0 || int(mt) > tc.window/2 {
				t.Fatalf("max_tokens = %v, want at most half of the %d-token window", req.JSON["max_tokens"], tc.window)
			}
			var contents []string
			for _, m := range req.Messages {
				contents = append(contents, m.Content)
			}
			if n := tokens.For("fake-model").Messages(contents...); n+int(mt) > tc.window {
				t.Fatalf("prompt %d tokens + reply %v > the %d-token window", n, mt, tc.window)
			}
			if !strings.Contains(strings.Join(rec.Warnings, "\n"), RaiseWindowHint(tc.server, 16384)) {
				t.Errorf("no warning with the server's fix: %q", rec.Warnings)
			}
		})
	}
}

// A window reported as 2^63-1 (or set so) overflows nothing: it is not believed,
// the plan goes with the max_tokens setting and byte budgets, and says why.
func TestPlanAbsurdWindowIsIgnored(t *testing.T) {
	for _, setting := range []int{0, math.MaxInt} {
		root, problem := bigProject(t)
		srv := llmtest.NewServer(t, reply(t, func(m map[string]any) { m["proposed_changes"] = nil }))
		srv.ServeWindow(llm.ServerVLLM, "fake-model", math.MaxInt64)
		s := openWith(t, root, srv, func(st *Settings) { st.ContextWindow = setting })
		rec, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
		if err != nil {
			t.Fatal(err)
		}
		if mt, _ := srv.Requests()[0].JSON["max_tokens"].(float64); mt != 8192 {
			t.Errorf("setting %d: max_tokens = %v, want the setting's 8192", setting, srv.Requests()[0].JSON["max_tokens"])
		}
		if rec.Usage == nil || rec.Usage.Window != 0 || !strings.Contains(strings.Join(rec.Warnings, "\n"), "more than any model serves") {
			t.Errorf("setting %d: usage %+v, warnings %q", setting, rec.Usage, rec.Warnings)
		}
	}
}

// Writing an approved plan's changes into a window too small for them stops
// before anything is sent, like a plan does.
func TestWriteChangesTinyWindow(t *testing.T) {
	f := newFixture(t, nil, planOnlyReply(t))
	approved, err := f.s.Plan(context.Background(), plan.ProblemInput{Problem: "test_divide_by_zero fails:\n" + pytestFailure, PlanOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := openai.New(openai.Config{BaseURL: f.srv.URL(), Model: "fake-model", APIKey: apiKey, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	st := DefaultSettings()
	st.BaseURL, st.ContextWindow = f.srv.URL(), 1500
	s, err := Open(f.root, st, m, nil, Options{UserPrefsPath: f.user, ConfigDir: filepath.Dir(f.user)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.WriteChanges(context.Background(), approved.ID)
	var pe *plan.Error
	if !errors.As(err, &pe) || pe.Code != plan.ErrProviderRequest || !strings.Contains(pe.Msg, "context window is only 1,500 tokens") || !strings.Contains(pe.Msg, "nothing was sent") {
		t.Fatalf("err = %v, want %s saying the 1500-token window cannot hold the request", err, plan.ErrProviderRequest)
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Errorf("%d requests, want only the plan's", n)
	}
}

// A window already larger than 16384 that the problem does not fit gets a hint
// naming a larger window (the next power of two the request needs), never the
// 16384 the server already exceeds.
func TestRaiseWindowHintSuggestsLargerWindow(t *testing.T) {
	root, _ := bigProject(t)
	srv := llmtest.NewServer(t)
	srv.ServeWindow(llm.ServerLlamaCpp, "fake-model", 32768)
	s := openWith(t, root, srv, nil)
	problem := strings.Repeat("ValueError: boom in the frobnicator module line\n", 4000) // more than 32768 tokens
	_, err := s.Plan(context.Background(), plan.ProblemInput{Problem: problem})
	var pe *plan.Error
	if !errors.As(err, &pe) || pe.Code != plan.ErrProviderRequest {
		t.Fatalf("err = %v, want %s", err, plan.ErrProviderRequest)
	}
	m := regexp.MustCompile(`-c (\d+) `).FindStringSubmatch(pe.Hint)
	if m == nil {
		t.Fatalf("hint %q names no window size", pe.Hint)
	}
	if n, _ := strconv.Atoi(m[1]); n <= 32768 || n&(n-1) != 0 {
		t.Errorf("hint %q: want a power of two larger than the current 32768-token window", pe.Hint)
	}
	for _, tc := range []struct{ cur, need, want int }{{0, 0, 16384}, {4096, 0, 16384}, {16384, 0, 32768}, {32768, 40000, 65536}, {32768, 70000, 131072}} {
		if got := SuggestWindow(tc.cur, tc.need); got != tc.want {
			t.Errorf("SuggestWindow(%d, %d) = %d, want %d", tc.cur, tc.need, got, tc.want)
		}
	}
}
