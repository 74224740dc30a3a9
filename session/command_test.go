//go:build !windows

package session

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fixplan/plan"
)

func TestRunCommand(t *testing.T) {
	tests := []struct {
		name     string
		cmd      string
		timeout  time.Duration
		exit     int
		output   string
		timedOut bool
	}{
		{name: "success in the root", cmd: "echo hi; pwd", timeout: time.Minute, exit: 0, output: "hi\n"},
		{name: "failure exit code and stderr", cmd: "echo boom >&2; exit 3", timeout: time.Minute, exit: 3, output: "boom"},
		{name: "timeout kills the process group", cmd: "sleep 30 & sleep 30; echo never", timeout: 300 * time.Millisecond, exit: -1, timedOut: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			var mu sync.Mutex
			var chunks []string
			res, err := RunCommand(context.Background(), root, tc.cmd, tc.timeout, func(s string) {
				mu.Lock()
				chunks = append(chunks, s)
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != tc.exit || res.TimedOut != tc.timedOut {
				t.Fatalf("result = %+v", res)
			}
			if !strings.Contains(res.Output, tc.output) || strings.Contains(res.Output, "never") {
				t.Fatalf("output = %q", res.Output)
			}
			if tc.name == "success in the root" && !strings.Contains(res.Output, root) {
				t.Errorf("did not run in the root: %q", res.Output)
			}
			mu.Lock()
			if got := strings.Join(chunks, ""); got != res.Output {
				t.Errorf("streamed %q, kept %q", got, res.Output)
			}
			mu.Unlock()
		})
	}
}

func TestRunCommandStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 1)
	go func() {
		<-started
		cancel()
	}()
	res, err := RunCommand(ctx, t.TempDir(), "echo started; sleep 30", time.Minute, func(string) {
		select {
		case started <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("result = %+v", res)
	}
	if !strings.Contains(VerificationLog([]CommandResult{res}), "$ echo started; sleep 30\nstarted\n[stopped after") {
		t.Errorf("log = %q", VerificationLog([]CommandResult{res}))
	}
}

func TestRunCommandKeepsTail(t *testing.T) {
	res, err := RunCommand(context.Background(), t.TempDir(), "head -c 1500000 /dev/zero | tr '\\0' x; echo END", time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Output) > maxCommandOutput+100 || !strings.HasSuffix(res.Output, "END\n") || !strings.HasPrefix(res.Output, "…[earlier output truncated]") {
		t.Fatalf("len %d, head %q", len(res.Output), res.Output[:40])
	}
}

func TestRunCommandDropsProviderKeys(t *testing.T) {
	for _, k := range providerKeyVars {
		t.Setenv(k, "sk-secret-"+k)
	}
	t.Setenv("FIXPLAN_TEST_KEEP", "kept")
	root := t.TempDir()
	res, err := RunCommand(context.Background(), root, "env; echo \"pwd=$(pwd -P)\"", time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("result = %+v", res)
	}
	got := map[string]string{}
	for _, l := range strings.Split(res.Output, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			got[k] = v
		}
	}
	for _, k := range providerKeyVars {
		if v, ok := got[k]; ok {
			t.Errorf("%s reached the command (%q)", k, v)
		}
	}
	if strings.Contains(res.Output, "sk-secret-") {
		t.Errorf("a key reached the command:\n%s", res.Output)
	}
	for _, k := range []string{"PATH", "HOME"} {
		if got[k] != os.Getenv(k) {
			t.Errorf("%s = %q, want %q", k, got[k], os.Getenv(k))
		}
	}
	if got["FIXPLAN_TEST_KEEP"] != "kept" {
		t.Errorf("an ordinary variable was dropped: FIXPLAN_TEST_KEEP = %q", got["FIXPLAN_TEST_KEEP"])
	}
	real, _ := filepath.EvalSymlinks(root)
	if got["pwd"] != real {
		t.Errorf("ran in %q, want %q", got["pwd"], real)
	}
	if pwd, _ := filepath.EvalSymlinks(got["PWD"]); pwd != real {
		t.Errorf("PWD = %q, want the root %q", got["PWD"], root)
	}
}

// shipPlan writes an unsealed plan record into the project, as one that came
// with it would be, and returns its id.
func shipPlan(t *testing.T, root, commands string) string {
	t.Helper()
	id := "20260101-000000.000000-abcdef"
	shipped := `{"id":"` + id + `","created_at":"2026-01-01T00:00:00Z","state":"draft","input":{"problem":"x"},` +
		`"plan":{"mode":"fix-plan","summary":"s","plan":[{"step":"run","details":"d"}],"commands_to_run":` + commands + `},"changes":[]}`
	p := filepath.Join(root, ".fixplan", "plans", id+".json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(shipped), 0o644); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestRunPlanCommand(t *testing.T) {
	f := newFixture(t, nil, reply(t, func(m map[string]any) {
		m["commands_to_run"] = []any{"echo ran"}
		m["proposed_changes"].(map[string]any)["commands_to_run"] = []any{"echo ran"}
	}))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pwned := filepath.Join(f.root, "pwned")
	t.Run("the plan's own command runs and is kept", func(t *testing.T) {
		res, err := f.s.RunPlanCommand(ctx, rec.ID, "echo ran", Consent{Confirmed: true}, nil)
		if err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "ran") {
			t.Fatalf("res = %+v, err = %v", res, err)
		}
		if got := f.s.withVerification([]plan.LogSource{{Source: "verification"}}); len(got) != 1 || !strings.Contains(got[0].Text, "echo ran") {
			t.Errorf("verification log = %+v", got)
		}
	})
	t.Run("a command that is not the plan's is refused", func(t *testing.T) {
		_, err := f.s.RunPlanCommand(ctx, rec.ID, "touch pwned", Consent{Confirmed: true}, nil)
		if plan.CodeOf(err) != plan.ErrInvalidInput || !strings.Contains(err.Error(), `"touch pwned" is not one of plan `+rec.ID+"'s commands") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a plan that came with the project runs nothing", func(t *testing.T) {
		id := shipPlan(t, f.root, `["touch pwned"]`)
		_, err := f.s.RunPlanCommand(ctx, id, "touch pwned", Consent{Confirmed: true}, nil)
		if plan.CodeOf(err) != plan.ErrForeignState || !strings.Contains(err.Error(), "plan "+id+" was not made by your fixplan; its commands are never run") {
			t.Fatalf("err = %v", err)
		}
		if _, err := f.s.PlanChecks(id); plan.CodeOf(err) != plan.ErrForeignState || !strings.Contains(err.Error(), "its commands are never offered") {
			t.Fatalf("PlanChecks: err = %v", err)
		}
	})
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("a refused command ran")
	}
	checks, err := f.s.PlanChecks(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	var offered []string
	for _, c := range checks {
		offered = append(offered, c.Command)
	}
	if !slices.Contains(offered, "echo ran") {
		t.Errorf("PlanChecks offered %q, want the plan's command", offered)
	}
}

// TestModelCommandsNeedTheirOwnApproval: a command the model proposed never runs
// under a blanket yes — only confirmed one by one or approved for the project —
// and is labelled as the model's wherever it is listed.
func TestModelCommandsNeedTheirOwnApproval(t *testing.T) {
	f := newFixture(t, nil, reply(t, func(m map[string]any) {
		m["commands_to_run"] = []any{"touch marker"}
	}))
	rec, err := f.plan(t)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	marker := filepath.Join(f.root, "marker")
	for _, by := range []Consent{{}, {Yes: true}} {
		_, err := f.s.RunPlanCommand(ctx, rec.ID, "touch marker", by, nil)
		if plan.CodeOf(err) != plan.ErrInvalidInput || !strings.Contains(err.Error(), "`touch marker` is not approved: it was proposed by the model, and --yes never approves") {
			t.Fatalf("%+v: err = %v", by, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%+v ran the model's command", by)
		}
	}
	if c := f.s.PlanCommand("touch marker"); c.Source != "proposed by the model" || !c.FromProject || c.Approved {
		t.Fatalf("PlanCommand = %+v", c)
	}
	// Not approved, so a verification lists it, labelled, as waiting, with the
	// command that approves it; nothing runs.
	v, err := f.s.VerifyPlan(ctx, rec.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Verification.Reason, "touch marker (proposed by the model): fixplan checks approve 'touch marker'") {
		t.Errorf("reason = %q", v.Verification.Reason)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("verification ran the model's unapproved command")
	}
	if err := f.s.ApproveCheck("touch marker"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.RunPlanCommand(ctx, rec.ID, "touch marker", Consent{Yes: true}, nil); err != nil {
		t.Fatalf("approved for the project: %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the approved command did not run")
	}
}

func TestMayRun(t *testing.T) {
	for _, tc := range []struct {
		c    Check
		by   Consent
		want bool
	}{
		{Check{FromProject: true}, Consent{Yes: true}, false},
		{Check{FromProject: true}, Consent{}, false},
		{Check{FromProject: true}, Consent{Confirmed: true}, true},
		{Check{FromProject: true, Approved: true}, Consent{}, true},
		{Check{}, Consent{Yes: true}, true},
		{Check{}, Consent{}, false},
	} {
		if got := MayRun(tc.c, tc.by); got != tc.want {
			t.Errorf("MayRun(%+v, %+v) = %v", tc.c, tc.by, got)
		}
	}
}
