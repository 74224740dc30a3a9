//go:build linux && cgo

package main

/*
#include <signal.h>
#include <stddef.h>

// fixplan_default_gc_signal gives SIGUSR1 back its default disposition. The Go runtime
// installs a handler for every signal at start; WebKitGTK's JavaScriptCore then finds
// that handler on SIGUSR1, the signal it suspends threads with for garbage collection,
// and prints "Overriding existing handler for signal 10" at every start. Go itself
// does not use SIGUSR1 (and nothing in fixplan asks for it), and JavaScriptCore
// installs its own handler moments later, so the default is never what runs.
static void fixplan_default_gc_signal(void) {
	struct sigaction sa;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR1, &sa, NULL);
}
*/
import "C"

// prepareWebKitSignals runs before the window (and so JavaScriptCore) starts.
func prepareWebKitSignals() { C.fixplan_default_gc_signal() }
