package codectx

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestProjectLogPathsAreConfined: a project's own .fixplan/project.json may name
// log files only inside the project; an absolute or climbing path it ships is
// never read into the model's context (a user-attached log may be anywhere).
func TestProjectLogPathsAreConfined(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim.txt")
	os.WriteFile(outside, []byte("OUTSIDE_CANARY\n"), 0o644)
	os.MkdirAll(filepath.Join(root, ".fixplan"), 0o755)
	os.MkdirAll(filepath.Join(root, "logs"), 0o755)
	os.WriteFile(filepath.Join(root, "logs", "app.log"), []byte("inside log line\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".fixplan", "project.json"), []byte(`{"project.log_paths": {"b": "`+outside+`", "up": "../victim.txt", "ok": "logs/app.log"}}`), 0o644)
	g := newGatherer(t, root, Options{})
	for _, src := range []string{"b", "up"} {
		res := g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqLogs, Source: ptr(src)})
		if strings.Contains(res.Text, "OUTSIDE_CANARY") {
			t.Fatalf("log %q read a file outside the project", src)
		}
	}
	res := g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqLogs, Source: ptr("ok")})
	if !res.OK || !strings.Contains(res.Text, "inside log line") {
		t.Fatalf("the inside log was not read: %+v", res)
	}
	base, _ := g.Base(context.Background(), plan.ProblemInput{Problem: "crash"})
	for _, sec := range base.Sections {
		if strings.Contains(sec.Body, "OUTSIDE_CANARY") {
			t.Fatal("the base context holds a file outside the project")
		}
	}
}
