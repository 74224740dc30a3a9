package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"fixplan/internal/config"
	"fixplan/plan"
	"fixplan/session"
)

// Helpers every verb shares: the user's files and settings, the model, opening
// the project, flags, confirmations, the approval of checks and failing.

// userFiles are the user's config folder and files (internal/config's CLI rule:
// FIXPLAN_CONFIG_DIR, FIXPLAN_SETTINGS, FIXPLAN_USER_PREFS). Without a folder,
// err says why and only what the environment named is set.
func userFiles(e *env) (config.Paths, error) { return config.ForCLI(e.Getenv) }

// loadSettings reads the settings file (FIXPLAN_SETTINGS or the default path) and
// applies the FIXPLAN_* environment overrides; without a config folder, the
// defaults.
func loadSettings(e *env) (session.Settings, error) {
	paths, _ := userFiles(e)
	if paths.Settings == "" {
		return session.DefaultSettings().WithEnv(e.Getenv), nil
	}
	st, err := session.LoadSettings(paths.Settings)
	if err != nil {
		return st, err
	}
	return st.WithEnv(e.Getenv), nil
}

// newModel builds the provider client (session.NewModel) with the key from the
// environment. A provider that needs a key (OpenAI's API) without one is refused
// before any request; settings the client refuses are ERR_CONFIG naming the flags.
func newModel(e *env, st session.Settings) (session.Model, error) {
	m, err := session.NewModel(st, session.APIKeyFromEnv(e.Getenv))
	if err != nil && plan.CodeOf(err) == "" {
		return nil, &plan.Error{Code: plan.ErrConfig, Msg: "the provider settings are not usable", Err: err,
			Hint: "check FIXPLAN_BASE_URL and FIXPLAN_MODEL (or the settings file)"}
	}
	return m, err
}

// openSession opens the project at e.Root and rolls back any transaction a crash
// left half-applied, telling the user on stderr.
func openSession(e *env, st session.Settings, m session.Model, em session.Emitter) (*session.Session, error) {
	paths, _ := userFiles(e) // without a folder, session.Open says why
	s, rv, err := session.OpenAndRecover(e.Root, st, m, em, session.Options{UserPrefsPath: paths.UserPrefs, ConfigDir: paths.Dir, Version: version,
		Secrets: []string{e.Getenv("FIXPLAN_API_KEY"), e.Getenv("OPENAI_API_KEY")}})
	if err != nil {
		return nil, err
	}
	for _, n := range rv.Notices {
		fmt.Fprintf(e.Stderr, "fixplan: %s\n", n)
	}
	if rv.Skipped != nil {
		fmt.Fprintf(e.Stderr, "fixplan: recovery skipped: %s\n", oneLine(rv.Skipped.Error()))
	}
	return s, nil
}

// localSession opens the project for commands that need no model.
func localSession(e *env) (*session.Session, error) {
	st, err := loadSettings(e)
	if err != nil {
		return nil, err
	}
	return openSession(e, st, nil, nil)
}

// parseFlags parses a subcommand's flags: ok is false with the exit code to
// return (0 for -h, 2 for a usage error).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// logSources turns SOURCE=FILE values into attached logs with absolute paths
// (attached files may be outside the root: the user chose them).
func logSources(vals []string) ([]plan.LogSource, error) {
	var out []plan.LogSource
	for _, v := range vals {
		src, file, ok := strings.Cut(v, "=")
		if !ok || src == "" || file == "" {
			return nil, fmt.Errorf("--log %q: want SOURCE=FILE, e.g. --log test=out.txt", v)
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, fmt.Errorf("--log %q: %w", v, err)
		}
		out = append(out, plan.LogSource{Source: src, Path: abs})
	}
	return out, nil
}

// confirm asks a yes/no question on a TTY. Without a TTY it refuses (exit 2 by the caller).
func confirm(e *env, question string) (bool, error) {
	if !e.StdinIsTTY {
		return false, errors.New("no terminal to confirm on")
	}
	fmt.Fprintf(e.Stderr, "%s [y/N] ", question)
	line, err := bufio.NewReader(e.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", nil
}

// approveChecks approves, before planning or verifying (plan --verify, apply
// --verify), the checks --verify may run: every
// --check, and the derived failing-test command and the remembered test command
// when --yes is given or the user says yes on a terminal. Without either they
// stay unapproved and the plan says so.
func approveChecks(e *env, s *session.Session, in plan.ProblemInput, checks []string, yes bool) {
	for _, c := range checks {
		if err := s.ApproveCheck(c); err != nil {
			fmt.Fprintf(e.Stderr, "fixplan: cannot remember the approval of %q: %v\n", c, err)
		}
	}
	for _, c := range s.Checks(&plan.Record{Input: in}) {
		if c.Approved {
			continue
		}
		// --yes covers what fixplan derived or the user set; a command the
		// project or the model chose is only approved when asked and answered.
		ok := session.MayRun(c, session.Consent{Yes: yes})
		if !ok && e.StdinIsTTY {
			ok, _ = confirm(e, fmt.Sprintf("Verify plans of this project with `%s` (%s)? It runs the plan's code and this command in a scratch copy of %s, as you, with network access.", c.Command, c.Source, e.Root))
		}
		if ok {
			approve := s.ApproveCheck
			if c.Focused {
				approve = s.ApproveFocused
			}
			if err := approve(c.Command); err != nil {
				fmt.Fprintf(e.Stderr, "fixplan: cannot remember the approval of %q: %v\n", c.Command, err)
			}
		}
	}
}

// foreignErr refuses a plan that this user's fixplan did not make: its changes and
// commands were chosen by whoever put it in the project.
func foreignErr(id string) error {
	return plan.ForeignPlan(id, " (it may have come with the project)", "fixplan never applies or runs such a plan; make your own with fixplan plan")
}

// fail prints a one-line reason (with what to do) on stderr and returns 1. With
// jsonOut it also prints {"error": {...}} on stdout.
func fail(e *env, cmd string, err error, jsonOut bool) int {
	code, msg, hint := describe(err)
	first, details, _ := strings.Cut(msg, "\n")
	line := fmt.Sprintf("fixplan %s: %s: %s", cmd, code, first)
	if code == "" {
		line = fmt.Sprintf("fixplan %s: %s", cmd, first)
	}
	if hint != "" {
		line += "; " + hint
	}
	fmt.Fprintln(e.Stderr, oneLine(line))
	// Details (a hunk that did not apply, with the closest lines) follow, indented.
	if details != "" && !jsonOut {
		for _, l := range strings.Split(strings.TrimRight(details, "\n"), "\n") {
			fmt.Fprintf(e.Stderr, "    %s\n", l)
		}
	}
	if jsonOut {
		out := map[string]any{"code": code, "message": msg, "hint": hint}
		var pe *plan.Error
		if errors.As(err, &pe) && len(pe.Paths) > 0 {
			out["paths"] = pe.Paths
		}
		writeJSON(e.Stdout, map[string]any{"error": out})
	}
	return 1
}

// describe splits an error into its code, sentence and hint.
func describe(err error) (code plan.Code, msg, hint string) {
	var pe *plan.Error
	if errors.As(err, &pe) {
		msg = pe.Msg
		if len(pe.Paths) > 0 && !strings.Contains(msg, pe.Paths[0]) {
			msg += ": " + strings.Join(pe.Paths, ", ")
		}
		return pe.Code, msg, pe.Hint
	}
	var re *session.ReplyError
	if errors.As(err, &re) {
		return plan.CodeOf(err), re.Error(), fmt.Sprintf("raw reply saved in .fixplan/plans/%s.json", re.RecordID)
	}
	return plan.CodeOf(err), err.Error(), ""
}
