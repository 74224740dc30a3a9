package projfstest

import (
	"testing"
	"time"
)

// NoHang runs f and fails the test when it has not returned after a generous
// wait (HangWait): a hang test, not a speed test.
func NoHang(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(HangWait):
		t.Fatalf("%s has not returned after %s: it hangs", what, HangWait)
	}
}

// HangWait is how long NoHang waits.
const HangWait = 10 * time.Second
