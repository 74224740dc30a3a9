package app

import (
	"sync"
	"time"

	"fixplan/session"
)

// batcher collects progress events and sends them to the window at most once per
// interval, coalescing streaming events (only the latest count matters), so a fast
// stream never floods the UI.
type batcher struct {
	rt    Runtime
	every time.Duration
	mu    sync.Mutex
	queue []session.Event
	timer *time.Timer
	done  bool
}

func newBatcher(rt Runtime, every time.Duration) *batcher {
	return &batcher{rt: rt, every: every}
}

// Emit queues ev and schedules a flush.
func (b *batcher) Emit(ev session.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return
	}
	if n := len(b.queue); ev.Stage == session.StageStream && n > 0 && b.queue[n-1].Stage == session.StageStream {
		b.queue[n-1] = ev
	} else {
		b.queue = append(b.queue, ev)
	}
	if b.timer == nil {
		b.timer = time.AfterFunc(b.every, b.flush)
	}
}

// flush sends the queued events now.
func (b *batcher) flush() {
	b.mu.Lock()
	q := b.queue
	b.queue = nil
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.mu.Unlock()
	if len(q) > 0 {
		b.rt.Emit(EventPlanProgress, q)
	}
}

func (b *batcher) stop() {
	b.flush()
	b.mu.Lock()
	b.done = true
	b.mu.Unlock()
}
