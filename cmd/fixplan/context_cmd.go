package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	codectx "fixplan/context"
	"fixplan/internal/config"
	"fixplan/plan"
	"fixplan/projfs"
	"fixplan/redact"
)

const contextUsage = `usage: fixplan [--root DIR] context SUBCOMMAND [ARGS]

Shows exactly what context the model would get.

  trace [--json]                          frames of the error text on stdin, resolved to project files
  read PATH [--lines A:B]                 numbered lines of a file (what read_file returns)
  search QUERY [--glob G] [--max N] [--json]
                                          literal, case-sensitive search (--max 0 = every match)
  logs SOURCE [--last N] [--log SOURCE=FILE]...
                                          last lines of a log source
  env                                     OS, tool versions, package managers, virtualenv
  base (--problem TEXT | --problem-file FILE|-) [--log SOURCE=FILE]... [--no-rules] [--json]
                                          the whole base context of a problem (the project's
                                          rules for AI tools too, unless --no-rules or
                                          no_project_rules in the settings)
`

// runContext implements `fixplan context`.
func runContext(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(e.Stderr, contextUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	subs := map[string]func(context.Context, *env, *codectx.Gatherer, []string) int{
		"trace": ctxTrace, "read": ctxRead, "search": ctxSearch, "logs": ctxLogs, "env": ctxEnv, "base": ctxBase,
	}
	sub, ok := subs[args[0]]
	if !ok {
		fmt.Fprintf(e.Stderr, "fixplan context: unknown subcommand %q (trace, read, search, logs, env, base)\n", args[0])
		return 2
	}
	co := codectx.DefaultOptions()
	if paths, err := userFiles(e); err == nil {
		co.EnvCachePath = config.EnvCacheFile(paths.Dir)
	}
	if st, err := loadSettings(e); err == nil {
		co.NoProjectRules = st.NoProjectRules // show what a plan would send
	}
	g, err := codectx.New(e.Root, co)
	if err != nil {
		return ctxFail(e, args[0], err)
	}
	defer g.Close()
	return sub(ctx, e, g, args[1:])
}

// ctxFlags parses flags that may come before or after the positional arguments.
func ctxFlags(e *env, fs *flag.FlagSet, args []string) ([]string, bool) {
	fs.SetOutput(e.Stderr)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// ctxFail prints a failure on one line (code, sentence, hint) and returns 1.
func ctxFail(e *env, sub string, err error) int {
	var pe *plan.Error
	if errors.As(err, &pe) {
		fmt.Fprintf(e.Stderr, "fixplan context %s: %s: %s", sub, pe.Code, pe.Msg)
		if pe.Hint != "" {
			fmt.Fprintf(e.Stderr, " (%s)", pe.Hint)
		}
		fmt.Fprintln(e.Stderr)
		return 1
	}
	fmt.Fprintf(e.Stderr, "fixplan context %s: %v\n", sub, err)
	return 1
}

func ctxUsageErr(e *env, sub, msg string) int {
	fmt.Fprintf(e.Stderr, "fixplan context %s: %s\n", sub, msg)
	return 2
}

type traceJSON struct {
	Path   string  `json:"path"`
	Line   int     `json:"line"`
	Column *int    `json:"column"`
	File   *string `json:"file"`
}

func ctxTrace(ctx context.Context, e *env, g *codectx.Gatherer, args []string) int {
	fs := flag.NewFlagSet("context trace", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print [{path,line,column,file}]")
	pos, ok := ctxFlags(e, fs, args)
	if !ok {
		return 2
	}
	if len(pos) > 0 {
		return ctxUsageErr(e, "trace", "reads the error text from stdin and takes no arguments")
	}
	in, err := io.ReadAll(e.Stdin)
	if err != nil {
		return ctxFail(e, "trace", fmt.Errorf("read stdin: %w", err))
	}
	rs := g.ResolveTrace(ctx, string(in))
	if *asJSON {
		out := make([]traceJSON, 0, len(rs))
		for _, r := range rs {
			t := traceJSON{Path: r.Path, Line: r.Line}
			if r.Column > 0 {
				c := r.Column
				t.Column = &c
			}
			if r.File != "" {
				f := r.File
				t.File = &f
			}
			out = append(out, t)
		}
		return ctxJSON(e, "trace", out)
	}
	for _, r := range rs {
		loc := r.Path + ":" + strconv.Itoa(r.Line)
		if r.Column > 0 {
			loc += ":" + strconv.Itoa(r.Column)
		}
		switch {
		case r.File != "":
			fmt.Fprintf(e.Stdout, "%s\t%s\n", loc, r.File)
		case r.Library:
			fmt.Fprintf(e.Stdout, "%s\t(library)\n", loc)
		default:
			fmt.Fprintf(e.Stdout, "%s\t(not in project)\n", loc)
		}
	}
	return 0
}

func ctxRead(_ context.Context, e *env, g *codectx.Gatherer, args []string) int {
	fs := flag.NewFlagSet("context read", flag.ContinueOnError)
	lines := fs.String("lines", "", "line range `A:B` (either side may be empty)")
	pos, ok := ctxFlags(e, fs, args)
	if !ok {
		return 2
	}
	if len(pos) != 1 {
		return ctxUsageErr(e, "read", "want exactly one PATH relative to the root")
	}
	a, b := 0, 0
	if *lines != "" {
		as, bs, found := strings.Cut(*lines, ":")
		var err1, err2 error
		if as != "" {
			a, err1 = strconv.Atoi(as)
		}
		if found && bs != "" {
			b, err2 = strconv.Atoi(bs)
		} else if !found {
			b = a
		}
		if err1 != nil || err2 != nil || a < 0 || b < 0 {
			return ctxUsageErr(e, "read", fmt.Sprintf("--lines %q: want A:B, e.g. --lines 10:40", *lines))
		}
	}
	text, _, err := g.ReadRange(pos[0], a, b)
	if err != nil {
		return ctxFail(e, "read", err)
	}
	text, _ = redact.Text(text)
	fmt.Fprint(e.Stdout, text)
	return 0
}

func ctxSearch(ctx context.Context, e *env, g *codectx.Gatherer, args []string) int {
	fs := flag.NewFlagSet("context search", flag.ContinueOnError)
	glob := fs.String("glob", "", "doublestar `GLOB` restricting the files (e.g. '**/*.py')")
	maxN := fs.Int("max", g.Options().MaxSearchResults, "maximum matches shown (`N`; 0 = every match)")
	asJSON := fs.Bool("json", false, "print [{path,line,text}]")
	pos, ok := ctxFlags(e, fs, args)
	if !ok {
		return 2
	}
	if len(pos) != 1 {
		return ctxUsageErr(e, "search", "want exactly one QUERY (quote it if it has spaces)")
	}
	if *maxN < 0 {
		return ctxUsageErr(e, "search", "--max must be 0 (every match) or more")
	}
	res, err := g.Search(ctx, pos[0], projfs.SearchOptions{Glob: *glob, Max: *maxN})
	if err != nil {
		return ctxFail(e, "search", err)
	}
	w := bufio.NewWriterSize(e.Stdout, 256<<10)
	if *asJSON {
		writeMatchesJSON(w, res.Matches)
	} else {
		text, _ := redact.Text(g.FormatSearch(pos[0], *glob, res))
		w.WriteString(text)
	}
	if err := w.Flush(); err != nil {
		return ctxFail(e, "search", fmt.Errorf("write output: %w", err))
	}
	return 0
}

// writeMatchesJSON writes [{"path","line","text"}] (texts redacted). Chunks of
// matches are encoded on all cores, then written in order.
func writeMatchesJSON(w *bufio.Writer, ms []projfs.Match) {
	const chunk = 2048
	bufs := make([][]byte, (len(ms)+chunk-1)/chunk)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for c := range bufs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			var buf []byte
			for i := c * chunk; i < min(len(ms), (c+1)*chunk); i++ {
				m := ms[i]
				if i > 0 {
					buf = append(buf, ',')
				}
				text, _ := redact.Text(m.Text)
				buf = append(buf, "\n{\"path\":"...)
				buf = appendJSONString(buf, m.Path)
				buf = append(buf, `,"line":`...)
				buf = strconv.AppendInt(buf, int64(m.Line), 10)
				buf = append(buf, `,"text":`...)
				buf = appendJSONString(buf, text)
				buf = append(buf, '}')
			}
			bufs[c] = buf
		})
	}
	wg.Wait()
	w.WriteString("[")
	for _, b := range bufs {
		w.Write(b)
	}
	w.WriteString("\n]\n")
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD like
// encoding/json does.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

func ctxLogs(_ context.Context, e *env, g *codectx.Gatherer, args []string) int {
	fs := flag.NewFlagSet("context logs", flag.ContinueOnError)
	last := fs.Int("last", g.Options().LogLastN, "number of last lines `N`")
	var logs multiFlag
	fs.Var(&logs, "log", "attach a log file as `SOURCE=FILE` (repeatable)")
	pos, ok := ctxFlags(e, fs, args)
	if !ok {
		return 2
	}
	if len(pos) != 1 {
		return ctxUsageErr(e, "logs", "want exactly one SOURCE (runtime, build, test, verification or a configured name)")
	}
	if *last <= 0 {
		return ctxUsageErr(e, "logs", "--last must be at least 1")
	}
	ls, err := logSources(logs)
	if err != nil {
		return ctxUsageErr(e, "logs", err.Error())
	}
	text, err := g.Logs(plan.ProblemInput{Logs: ls}, pos[0], *last)
	if err != nil {
		return ctxFail(e, "logs", err)
	}
	text, _ = redact.Text(text)
	fmt.Fprint(e.Stdout, text)
	return 0
}

func ctxEnv(ctx context.Context, e *env, g *codectx.Gatherer, args []string) int {
	if len(args) > 0 {
		return ctxUsageErr(e, "env", "takes no arguments")
	}
	text, _ := redact.Text(g.Env(ctx))
	fmt.Fprint(e.Stdout, text)
	return 0
}

func ctxBase(ctx context.Context, e *env, g *codectx.Gatherer, args []string) int {
	fs := flag.NewFlagSet("context base", flag.ContinueOnError)
	problem := fs.String("problem", "", "the problem `TEXT` (error, trace, description)")
	problemFile := fs.String("problem-file", "", "read the problem from `FILE` (- = stdin)")
	asJSON := fs.Bool("json", false, "print the gathered context as JSON")
	noRules := fs.Bool("no-rules", false, "leave the project's instructions for AI tools (AGENTS.md, …) out")
	model := fs.String("model", "", "count tokens for model `NAME` (default: the model in the settings)")
	var logs multiFlag
	fs.Var(&logs, "log", "attach a log file as `SOURCE=FILE` (repeatable)")
	pos, ok := ctxFlags(e, fs, args)
	if !ok {
		return 2
	}
	if *model == "" {
		if st, err := loadSettings(e); err == nil {
			*model = st.Model
		}
	}
	if len(pos) > 0 {
		return ctxUsageErr(e, "base", "unexpected arguments; pass the problem with --problem or --problem-file")
	}
	if *noRules && !g.Options().NoProjectRules {
		o := g.Options()
		o.NoProjectRules = true
		ng, err := codectx.New(g.Root(), o)
		if err != nil {
			return ctxFail(e, "base", err)
		}
		defer ng.Close()
		g = ng
	}
	var text string
	switch {
	case *problem != "" && *problemFile != "":
		return ctxUsageErr(e, "base", "give either --problem or --problem-file, not both")
	case *problem != "":
		text = *problem
	case *problemFile == "-":
		b, err := io.ReadAll(e.Stdin)
		if err != nil {
			return ctxFail(e, "base", fmt.Errorf("read stdin: %w", err))
		}
		text = string(b)
	case *problemFile != "":
		b, err := os.ReadFile(*problemFile)
		if err != nil {
			return ctxFail(e, "base", fmt.Errorf("read problem file: %w", err))
		}
		text = string(b)
	default:
		return ctxUsageErr(e, "base", "say what is wrong: --problem TEXT or --problem-file FILE (- reads stdin)")
	}
	ls, err := logSources(logs)
	if err != nil {
		return ctxUsageErr(e, "base", err.Error())
	}
	got, err := g.Base(ctx, plan.ProblemInput{Problem: text, Logs: ls})
	if err != nil {
		return ctxFail(e, "base", err)
	}
	var counts strings.Builder
	printContextTokens(&counts, &got, *model) // also fills each section's token count
	if *asJSON {
		return ctxJSON(e, "base", got)
	}
	for _, s := range got.Sections {
		fmt.Fprintf(e.Stdout, "=== %s ===\n%s", s.Title, s.Body)
		if !strings.HasSuffix(s.Body, "\n") {
			fmt.Fprintln(e.Stdout)
		}
	}
	fmt.Fprintf(e.Stdout, "=== summary ===\nsections: %d, redactions: %d\n", len(got.Sections), got.Redactions)
	fmt.Fprint(e.Stdout, counts.String())
	for _, s := range got.Seen {
		part := "window"
		if s.Whole {
			part = "whole"
		}
		fmt.Fprintf(e.Stdout, "seen: %s (%s)\n", s.Path, part)
	}
	for _, w := range got.Warnings {
		fmt.Fprintf(e.Stdout, "warning: %s\n", w)
	}
	return 0
}

func ctxJSON(e *env, sub string, v any) int {
	enc := json.NewEncoder(e.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return ctxFail(e, sub, fmt.Errorf("write JSON: %w", err))
	}
	return 0
}
