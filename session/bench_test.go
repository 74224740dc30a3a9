package session

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"fixplan/llm/llmtest"
	"fixplan/llm/openai"
	"fixplan/plan"
)

// BenchmarkPlanOverhead is fixplan's own time around the model for a plan with
// two context rounds, on a copy of a real mid-size Go package (net/http from
// GOROOT, ~115 files): base context, two rounds of requests (a read_file and a
// search), parse, preview and save, against an instant scripted model. The
// environment facts come from the warm per-machine cache, as on every plan but
// the first.
func BenchmarkPlanOverhead(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	root := b.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	problem := "--- FAIL: TestServeFile (0.00s)\n    fs_test.go:80: wrong body\n" +
		"goroutine 7 [running]:\nnet/http.serveFile(...)\n\t" + filepath.Join(root, "fs.go") + ":700 +0x1a\nFAIL\n"
	read := `{"mode":"fix-plan","summary":"need more","questions":[],"context_requests":[{"type":"read_file","path":"server.go","start_line":100,"end_line":260,"query":null,"glob":null,"source":null,"last_n":null}],"plan":[],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	search := `{"mode":"fix-plan","summary":"need more","questions":[],"context_requests":[{"type":"search","path":null,"start_line":null,"end_line":null,"query":"func serveContent","glob":"*.go","source":null,"last_n":null}],"plan":[],"proposed_changes":null,"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	final := `{"mode":"fix-plan","summary":"fix","questions":[],"context_requests":[],"plan":[{"step":"s","details":"d"}],"proposed_changes":{"patch":"--- a/fs.go\n+++ b/fs.go\n@@ -1,1 +1,1 @@\n-// Copyright 2009 The Go Authors. All rights reserved.\n+// Copyright 2009 The Go Authors. All rights reserved!\n","actions":[],"commands_to_run":[]},"patch":null,"commands_to_run":[],"verification":[],"risks":[],"rollback":[],"memory_patch":[]}`
	srv := llmtest.NewServer(b)
	m, err := openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake", APIKey: "k", Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	cfg := b.TempDir()
	st := DefaultSettings()
	st.BaseURL = srv.URL()
	s, err := Open(root, st, m, nil, Options{ConfigDir: cfg})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	in := plan.ProblemInput{Problem: problem}
	run := func() {
		srv.Add(llmtest.Reply{Content: read}, llmtest.Reply{Content: search}, llmtest.Reply{Content: final})
		rec, err := s.Plan(context.Background(), in)
		if err != nil || len(rec.Rounds) != 2 || len(rec.Changes) != 1 {
			b.Fatalf("plan: %v %+v", err, rec)
		}
	}
	run() // fills the per-machine environment cache (probes run once)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
}
