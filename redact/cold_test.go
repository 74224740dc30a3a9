package redact

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// coldChildEnv marks the child process of TestRedactConcurrentColdStart.
const coldChildEnv = "REDACT_COLD_START_CHILD"

// Sixteen goroutines redacting at once from a cold start (nothing of the
// engine built or compiled: a fresh process running this test alone, with
// Prepare's goroutine warming up beside them, as the gatherer does) redact
// every text of the corpus as one goroutine does afterwards. Run under
// go test -race, the lazy compiles (the engine, each gitleaks rule and its
// allowlists, the global allowlists, the hand-written expressions) are
// checked for races.
func TestRedactConcurrentColdStart(t *testing.T) {
	if os.Getenv(coldChildEnv) == "1" {
		coldStartChild(t)
		return
	}
	if testing.Short() {
		t.Skip("runs the corpus in a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRedactConcurrentColdStart$", "-test.count=1", "-test.v", "-test.timeout=20m")
	cmd.Env = append(os.Environ(), coldChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "cold start: ") {
		t.Fatalf("the child did not run the test:\n%s", out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "cold start: ") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

func coldStartChild(t *testing.T) {
	spanMemo.mu.Lock()
	cold := spanMemo.m == nil
	spanMemo.mu.Unlock()
	if !cold {
		t.Fatal("the child has redacted before the test")
	}
	var texts []corpusEntry
	for _, e := range loadCorpus(t, "testdata/corpus.json") {
		vs := corpusVariants(e)
		texts = append(texts, vs[0]) // alone
		if strings.HasPrefix(e.Name, "hand/") {
			texts = append(texts, vs[15], vs[19]) // CRLF, invalid UTF-8
		}
	}
	type result struct {
		text, file, whole string
		n                 int
	}
	redactOne := func(v corpusEntry) result {
		var r result
		r.text, r.n = Text(v.Text)
		r.file, _ = File(v.Path, v.Text)
		w, lines := Whole(v.Path, v.Text)
		r.whole = fmt.Sprint(lines) + "\x00" + w
		return r
	}
	const workers = 16
	got := make([][]result, workers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs := make([]result, len(texts))
			<-start
			// each goroutine begins at another text (first uses of many rules
			// at once) and redacts a quarter of them: each text by 4 at once
			for j := range len(texts) / 4 {
				i := (j + g*len(texts)/workers) % len(texts)
				rs[i] = redactOne(texts[i])
			}
			got[g] = rs
		}()
	}
	close(start)
	Prepare()
	wg.Wait()

	spanMemo.mu.Lock()
	spanMemo.m, spanMemo.bytes = nil, 0 // the sequential pass scans again
	spanMemo.mu.Unlock()
	redacted := 0
	for i, v := range texts {
		want := redactOne(v)
		if want.n > 0 {
			redacted++
		}
		for g := range workers {
			if got[g][i] != (result{}) && got[g][i] != want {
				t.Fatalf("goroutine %d redacted %s otherwise than a sequential pass:\n got %q\nwant %q", g, v.Name, got[g][i].text, want.text)
			}
		}
	}
	if redacted < len(texts)/2 {
		t.Fatalf("only %d of %d texts redacted", redacted, len(texts))
	}
	t.Logf("cold start: %d texts (%d redacted) by %d goroutines at once, each as a sequential pass", len(texts), redacted, workers)
}
