package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// quitOnTerminate closes the window cleanly on SIGTERM (a logout, `kill`, a service
// manager) and says so. Wails hooks SIGTERM together with Ctrl+C and prints
// "Ctrl+C detected" for both; signal.Ignore takes SIGTERM away from Wails' listener
// (Ctrl+C at a terminal stays Wails'), and fixplan listens for it itself. It runs in
// OnStartup, after Wails has started its listener.
func quitOnTerminate(ctx context.Context) {
	signal.Ignore(syscall.SIGTERM)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM)
	go func() {
		<-ch
		fmt.Fprintln(os.Stderr, "fixplan: terminated (SIGTERM); closing the window")
		runtime.Quit(ctx)
	}()
}
