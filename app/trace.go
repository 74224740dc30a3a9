package app

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// EventStartMark is the event the page sends at moments of its start-up
// ({mark, unix_ms}): "script" when the bundle runs, "fix-painted" one frame after
// the Fix (plan) button is shown enabled.
const EventStartMark = "app:mark"

// StartTrace writes the moments of the app's start-up, one line each:
// "fixplan-trace: <mark> +<ms since main> unix_ns=<wall clock>". main makes one only
// when FIXPLAN_TRACE_START is set (bench/overhead/app.sh reads the lines); a nil
// *StartTrace does nothing, so the calls can stay in place.
type StartTrace struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	seen  map[string]bool
}

// NewStartTrace traces to w, timing from start (the moment main began).
func NewStartTrace(w io.Writer, start time.Time) *StartTrace {
	return &StartTrace{w: w, start: start, seen: map[string]bool{}}
}

// Mark records that the start-up reached mark now.
func (t *StartTrace) Mark(mark string) { t.at(mark, time.Now()) }

// at records mark at when; only the first time of each mark counts.
func (t *StartTrace) at(mark string, when time.Time) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seen[mark] {
		return
	}
	t.seen[mark] = true
	fmt.Fprintf(t.w, "fixplan-trace: %s +%dms unix_ns=%d\n", mark, when.Sub(t.start).Milliseconds(), when.UnixNano())
}

// FromPage records a mark the page sent: its name must be a short lower-case word
// (letters and '-'), its time a wall-clock instant in milliseconds not far from now;
// anything else is ignored, so a page cannot write arbitrary text to the log.
func (t *StartTrace) FromPage(data any) {
	m, ok := data.(map[string]any)
	if !ok {
		return
	}
	name, _ := m["mark"].(string)
	ms, _ := m["unix_ms"].(float64)
	if !validMark(name) || math.IsNaN(ms) || math.IsInf(ms, 0) {
		return
	}
	when := time.UnixMicro(int64(ms * 1000))
	if d := time.Since(when); d < -time.Minute || d > time.Hour {
		return
	}
	t.at("page-"+name, when)
}

func validMark(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '-' {
			return false
		}
	}
	return true
}

// Listen subscribes to the page's marks on the window's runtime.
func (t *StartTrace) Listen(ctx context.Context) {
	if t == nil {
		return
	}
	runtime.EventsOn(ctx, EventStartMark, func(data ...any) {
		if len(data) > 0 {
			t.FromPage(data[0])
		}
	})
}
