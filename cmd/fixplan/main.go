// Command fixplan is the headless CLI over fixplan's core: it plans fixes with a model,
// shows exactly what context the model gets, applies approved changes as one
// transaction, undoes them and runs verification commands.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"

	"fixplan/editor"
)

// version is stamped at build time (-ldflags "-X main.version=…"; make cli does it).
var version = "dev"

// env is everything a command needs from the process; tests build their own.
type env struct {
	Root   string // absolute project root (from --root, default ".")
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (tests inject a map).
	Getenv func(string) string
	// StdinIsTTY reports whether stdin is an interactive terminal (apply's confirmation).
	StdinIsTTY bool
	// OneShot: the process ends with the command (main, not tests), so patch,
	// apply and undo may let the heap grow more between collections.
	OneShot bool
	// Term is the terminal the CLI runs in, when stdin and stdout are one: a
	// terminal editor opened by `fixplan open` runs there (nil in tests).
	Term *editor.Terminal
}

// command runs one subcommand with its own arguments and returns the exit code:
// 0 success, 1 failure (one-line reason on stderr), 2 usage error or refused confirmation.
type command func(ctx context.Context, e *env, args []string) int

func commands() map[string]command {
	return map[string]command{
		// Each subcommand registers here, one line each.
		"context":  runContext,
		"plan":     runPlan,
		"apply":    runApply,
		"undo":     runUndo,
		"patch":    runPatch,
		"verify":   runVerify,
		"history":  runHistory,
		"journals": runJournals,
		"checks":   runChecks,
		"open":     runOpen,
	}
}

const usage = `usage: fixplan [--root DIR] COMMAND [ARGS]
       fixplan --version

commands:
  plan      ask the model for a fix plan (--problem TEXT | --problem-file FILE|-)
  apply     apply a saved plan as one transaction
  undo      undo the last applied transaction
  patch     apply a unified diff as one undoable transaction
  verify    run the plan's commands_to_run, each after approval
  history   list this project's plans (draft, applied, undone, failed, foreign)
  journals  list, show or discard transactions (and state set aside as not yours)
  checks    list, approve or revoke the check commands that verify plans (plan --verify)
  context   show exactly what context the model would get (trace|read|search|logs|env|base)
  open      open FILE[:LINE] of the project in your editor (settings' open_with, $VISUAL, $EDITOR, code)

Run 'fixplan COMMAND -h' for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// A real terminal, not just a character device (</dev/null is one).
	tty := isatty.IsTerminal(os.Stdin.Fd()) || isatty.IsCygwinTerminal(os.Stdin.Fd())
	e := &env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, StdinIsTTY: tty, OneShot: true}
	if tty && isatty.IsTerminal(os.Stdout.Fd()) {
		e.Term = &editor.Terminal{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	}
	stopProfiles := startProfiles(os.Getenv, os.Stderr)
	code := run(ctx, e, os.Args[1:])
	stopProfiles()
	os.Exit(code)
}

// run parses the global flags, resolves the root and dispatches to a subcommand.
func run(ctx context.Context, e *env, args []string) int {
	e.Stdout, e.Stderr = newTermSafe(e.Stdout), newTermSafe(e.Stderr)
	fs := flag.NewFlagSet("fixplan", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	root := fs.String("root", ".", "project root `DIR`")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() { fmt.Fprint(e.Stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *showVersion {
		fmt.Fprintln(e.Stdout, "fixplan "+version)
		return 0
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fmt.Fprint(e.Stderr, usage)
		return 2
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		fmt.Fprintf(e.Stderr, "fixplan: bad --root %q: %v\n", *root, err)
		return 1
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		fmt.Fprintf(e.Stderr, "fixplan: --root %s is not a directory: pass the project folder with --root DIR\n", abs)
		return 1
	}
	e.Root = abs
	cmd, ok := commands()[rest[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "fixplan: unknown command %q (known: %s)\n", rest[0], strings.Join(known(), ", "))
		return 2
	}
	if e.OneShot && e.Getenv("GOGC") == "" && slices.Contains([]string{"patch", "apply", "undo", "plan", "context"}, rest[0]) {
		// A transaction's garbage is a few times its files' size, a plan's or a
		// base context's the files read, parsed and type-checked, and the
		// process ends right after: collecting at 5× the live heap instead of
		// 2× spares most collections (fixplan patch of 47 files: ~3 ms of CPU;
		// the base context of a net/http failure in Go's src: ~0.2 s of 0.75 s,
		// for ~35 MB more), while the heap still stays proportional to the work.
		debug.SetGCPercent(400)
	}
	return cmd(ctx, e, rest[1:])
}

func known() []string {
	var out []string
	for _, n := range []string{"plan", "apply", "undo", "patch", "verify", "history", "journals", "checks", "context", "open"} {
		if _, ok := commands()[n]; ok {
			out = append(out, n)
		}
	}
	return out
}
