// Command fakeprovider serves scripted OpenAI-compatible replies (llmtest) on a
// local port for the desktop end-to-end test: `fakeprovider -replies FILE -addr
// 127.0.0.1:PORT`. It prints "ready URL" once listening and exits non-zero at
// shutdown (SIGTERM) if a scripted reply was never requested.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

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
	flag.Parse()
	t := &tb{}
	srv := llmtest.NewServer(t, llmtest.LoadReplies(t, *replies)...)
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
