// Command fakeprovider serves scripted OpenAI-compatible replies (llmtest) on a
// local port for the desktop end-to-end test: `fakeprovider -replies FILE -addr
// 127.0.0.1:PORT`. It prints "ready URL" once listening and exits non-zero at
// shutdown (SIGTERM) if a scripted reply was never requested.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fixplan/llm/llmtest"
)

// tb adapts llmtest to a process: failures are collected and reported at exit.
type tb struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (t *tb) Helper()                         {}
func (t *tb) Cleanup(f func())                { t.cleanups = append(t.cleanups, f) }
func (t *tb) Errorf(format string, a ...any)  { t.errs = append(t.errs, fmt.Sprintf(format, a...)) }
func (t *tb) Fatalf(format string, a ...any)  { fmt.Fprintf(os.Stderr, format+"\n", a...); os.Exit(2) }
func (t *tb) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func main() {
	replies := flag.String("replies", "", "JSON file of scripted replies")
	record := flag.String("record", "", "write each request's messages to `DIR`/NNNN.json as it arrives (for the e2e to inspect)")
	flag.Parse()
	t := &tb{}
	srv := llmtest.NewServer(t, llmtest.LoadReplies(t, *replies)...)
	if *record != "" {
		if err := os.MkdirAll(*record, 0o700); err != nil {
			t.Fatalf("fakeprovider: %v", err)
		}
		go recordRequests(srv, *record)
	}
	fmt.Printf("ready %s\n", srv.URL())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	<-sig
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	fmt.Fprintf(os.Stderr, "fakeprovider: served %d requests\n", len(srv.Requests()))
	if len(t.errs) > 0 {
		fmt.Fprintln(os.Stderr, "fakeprovider: "+strings.Join(t.errs, "; "))
		os.Exit(1)
	}
}

// recordRequests writes every request the server received, in order, as
// dir/0001.json ({"messages": [...]}), checking for new ones every 50 ms.
func recordRequests(srv *llmtest.Server, dir string) {
	done := 0
	for range time.Tick(50 * time.Millisecond) {
		reqs := srv.Requests()
		for ; done < len(reqs); done++ {
			b, _ := json.Marshal(map[string]any{"messages": reqs[done].Messages})
			tmp := filepath.Join(dir, fmt.Sprintf(".%04d.json", done+1))
			if os.WriteFile(tmp, b, 0o600) == nil {
				_ = os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("%04d.json", done+1)))
			}
		}
	}
}
