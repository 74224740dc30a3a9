package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// WailsRuntime is the real Runtime: the Wails runtime bound to the window's context.
type WailsRuntime struct{ Ctx context.Context }

var _ Runtime = WailsRuntime{}

// Emit sends an event to the window.
func (w WailsRuntime) Emit(name string, data any) { runtime.EventsEmit(w.Ctx, name, data) }

// ChooseDirectory shows the native folder dialog ("" when cancelled).
func (w WailsRuntime) ChooseDirectory(title string) (string, error) {
	return runtime.OpenDirectoryDialog(w.Ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: false})
}

// ChooseFiles shows the native multi-file dialog.
func (w WailsRuntime) ChooseFiles(title string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(w.Ctx, runtime.OpenDialogOptions{Title: title,
		Filters: []runtime.FileFilter{{DisplayName: "Logs and text", Pattern: "*.log;*.txt;*.out;*.json;*"}}})
}
