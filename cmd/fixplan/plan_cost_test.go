package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/llm/llmtest"
)

// `fixplan plan` says what the plan will cost on stderr before it sends anything.
func TestPlanPrintsTheEstimateBeforeSending(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: goodPlan})
	code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	est, ask := strings.Index(errOut, "fixplan: estimate: the first request takes "), strings.Index(errOut, "fixplan: asking the model")
	if est < 0 || ask < est {
		t.Fatalf("the estimate is not printed before the request:\n%s", errOut)
	}
	line, _, _ := strings.Cut(errOut[est:], "\n")
	for _, want := range []string{"with both context rounds up to ", "every request the loop can make (12) up to ", "set prices in Settings to see a cost"} {
		if !strings.Contains(line, want) {
			t.Errorf("estimate line lacks %q: %s", want, line)
		}
	}
}

// --estimate prints the estimate and sends nothing (the fake server has no reply
// to give and fails the test on any request); --json prints it as one object.
func TestPlanEstimateSendsNothing(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t)
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--estimate", "--problem", traceback)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Estimate for fake-model (estimated at 3.2 bytes a token); nothing was sent.\n", "  first request: ", " of the plan's JSON schema) and up to 8,192 out: ",
		"  with both context rounds (3 requests): up to ", "  every request the loop can make (12: ", "  a context round adds at most 30,720 tokens of results (context_budget 98,304 bytes)\n",
		"Note: set prices in Settings to see a cost\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--estimate", "--max-tokens", "100", "--json", "--problem", traceback)
	var est map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &est) != nil {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	if est["over_ceiling"] != true || est["ceiling_tokens"] != 100.0 || est["prompt_tokens"].(float64) <= 0 || est["reply_tokens"] != 8192.0 {
		t.Errorf("estimate = %v", est)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("--estimate sent %d request(s)", n)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, ".fixplan", "plans")); len(entries) != 0 {
		t.Errorf("--estimate saved a plan: %v", entries)
	}
}

// --max-tokens stops a plan whose first request would cross it: nothing is sent,
// and the one line says what, the ceiling, and what to do. It overrides the
// settings file's ceiling either way, also for --write-changes.
func TestPlanMaxTokensStopsBeforeSending(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t, llmtest.Reply{Content: approachOnly})
	code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--max-tokens", "100", "--problem", traceback)
	if code != 1 || !strings.Contains(errOut, "\nfixplan: estimate: ") ||
		!strings.Contains(errOut, "\nfixplan plan: ERR_CEILING: the first request of this plan would take up to ") ||
		!strings.Contains(errOut, "over your ceiling of 100 tokens per plan; nothing was sent; raise max tokens per plan in Settings (or fixplan plan --max-tokens N)") {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d request(s) sent", n)
	}
	// the settings file's ceiling stops it too; --max-tokens 0 lifts it for this run
	settings := filepath.Join(userConfig(t), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"max_tokens_per_plan": 100}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--problem", traceback, "--json"); code != 1 || !strings.Contains(errOut, "ERR_CEILING") {
		t.Fatalf("with the settings' ceiling: exit %d: %s", code, errOut)
	}
	code, out, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--max-tokens", "0", "--plan-only", "--problem", traceback, "--json")
	var rec map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rec) != nil {
		t.Fatalf("--max-tokens 0: exit %d: %s", code, errOut)
	}
	code, _, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--write-changes", rec["id"].(string))
	if code != 1 || !strings.Contains(errOut, "ERR_CEILING: the first request of this plan would take") {
		t.Fatalf("--write-changes under the settings' ceiling: exit %d: %s", code, errOut)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d request(s) sent, want 1", n)
	}
}

// --max-cost needs prices; with them it stops the plan in cost.
func TestPlanMaxCost(t *testing.T) {
	root := cliProject(t)
	srv := llmtest.NewServer(t)
	code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--max-cost", "0.01", "--problem", traceback)
	if code != 1 || !strings.Contains(errOut, "ERR_INVALID_INPUT: max cost per plan 0.01 cannot apply: no price per 1M tokens is set") {
		t.Fatalf("without prices: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--max-tokens", "-5", "--problem", traceback); code != 1 ||
		!strings.Contains(errOut, "max tokens per plan -5 is out of range") {
		t.Fatalf("negative: exit %d: %s", code, errOut)
	}
	settings := filepath.Join(userConfig(t), "settings.json")
	if err := os.WriteFile(settings, []byte(`{"price_input_per_mtok": 2.5, "price_output_per_mtok": 10}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runEnv(t, providerEnv(srv), "", "--root", root, "plan", "--max-cost", "0.0001", "--problem", traceback)
	if code != 1 || !strings.Contains(errOut, "ERR_CEILING: the first request of this plan would take up to 0.0") ||
		!strings.Contains(errOut, "over your ceiling of 0.0001 per plan (at your Settings prices); nothing was sent; raise max cost per plan") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
