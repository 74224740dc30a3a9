// Command fixplan (the desktop app) wires the core into a Wails window. Only wiring
// lives here; the JavaScript API is app.App.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"fixplan/app"
	"fixplan/internal/config"
	"fixplan/session"
)

//go:embed all:frontend/dist
var assets embed.FS

// icon is the window's icon: build/appicon.png scaled to 256×256 (convert
// build/appicon.png -resize 256x256 -strip build/appicon-256.png). GTK decodes it on
// the UI thread before the window is shown, and decoding the 1024×1024 original cost
// 30-40 ms of that (bench/overhead/app.sh); window managers show icons at 256 px or less.
//
//go:embed build/appicon-256.png
var icon []byte

// version is stamped at build time (-ldflags "-X main.version=…"; make build does it).
var version = "dev"

func main() {
	begun := time.Now()
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println("fixplan " + version)
		return
	}
	paths, err := config.ForApp(os.Getenv)
	if err != nil {
		log.Fatalf("fixplan: no user config dir: %v", errors.Unwrap(err))
	}
	// FIXPLAN_TRACE_START=1 writes the start-up's moments to stderr (bench/overhead/app.sh).
	var trace *app.StartTrace
	if os.Getenv("FIXPLAN_TRACE_START") != "" {
		trace = app.NewStartTrace(os.Stderr, begun)
		trace.Mark("main")
	}
	a := app.New(app.Deps{
		Keys:         app.OSKeyring{},
		NewModel:     session.NewModel,
		ConfigDir:    paths.Dir,
		UserPrefs:    paths.UserPrefs,
		StartProject: os.Getenv("FIXPLAN_PROJECT"),
		Version:      version,
		Trace:        trace,
	})
	prepareWebKitSignals()
	err = wails.Run(&options.App{
		Title:            "fixplan",
		Width:            1280,
		Height:           800,
		MinWidth:         900,
		MinHeight:        600,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 248, G: 249, B: 251, A: 1},
		OnStartup: func(ctx context.Context) {
			trace.Listen(ctx)
			quitOnTerminate(ctx)
			app.Start(a, app.WailsRuntime{Ctx: ctx})
		},
		OnDomReady:  func(context.Context) { trace.Mark("dom-ready") },
		OnShutdown:  func(context.Context) { app.Stop(a) },
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		Linux:       &linux.Options{Icon: icon, ProgramName: "fixplan", WebviewGpuPolicy: gpuPolicy()},
		Bind:        []any{a},
	})
	if err != nil {
		log.Fatalf("fixplan: %v", err)
	}
}

// gpuPolicy is WebKitGTK's hardware acceleration: off unless FIXPLAN_GPU=1. The window
// is text and diffs, which WebKit's CPU renderer draws well; with acceleration on, its
// web process keeps a GL context and compositing buffers, 80-90 MB more when idle
// (bench/overhead/app.sh), and it is what Wails itself turns off on Linux by default
// because some drivers show a blank window. FIXPLAN_GPU=1 asks for the zero policy,
// which Wails passes to WebKit as "always" (fixplan's behaviour before).
func gpuPolicy() linux.WebviewGpuPolicy {
	if os.Getenv("FIXPLAN_GPU") == "1" {
		return linux.WebviewGpuPolicyOnDemand
	}
	return linux.WebviewGpuPolicyNever
}
