// Package app is the desktop facade: the methods of App are the JavaScript API the
// Wails window calls (each returns (T, error); an error rejects the promise with a
// JSON {code, message, hint, paths}). It holds no logic of its own beyond wiring the
// session to the window: progress batching, dialogs, settings and the key store.
// It is the only package besides main that imports Wails.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fixplan/plan"
	"fixplan/session"
)

// Event names sent to the window.
const (
	EventPlanProgress  = "plan:progress"
	EventCommandOutput = "command:output"
	EventCommandDone   = "command:done"
)

// Runtime is the part of the Wails runtime App uses; tests fake it.
type Runtime interface {
	Emit(name string, data any)
	ChooseDirectory(title string) (string, error)
	ChooseFiles(title string) ([]string, error)
}

// KeyStore keeps the API key (the OS keychain in the app, a fake in tests).
type KeyStore interface {
	Get() (string, error)
	Set(key string) error
	// Available reports whether a keychain can be used, and why not.
	Available() (bool, string)
}

// ModelFactory builds the model client for settings and a key.
type ModelFactory func(st session.Settings, key string) (session.Model, error)

// Deps are App's dependencies, built in main.
type Deps struct {
	Runtime      Runtime
	Keys         KeyStore
	NewModel     ModelFactory
	Getenv       func(string) string
	ConfigDir    string // the user's config folder (internal/config): settings.json, recent.json, state.key, …
	UserPrefs    string // user memory file ("" = preferences.json in ConfigDir)
	BatchEvery   time.Duration
	StartProject string      // a project to open at start-up (command line), else the last one
	Version      string      // fixplan's version (stamped at build time), shown in About and saved in plans
	Trace        *StartTrace // start-up marks (FIXPLAN_TRACE_START); nil traces nothing
}

// App is bound to the window.
type App struct {
	d       Deps
	mu      sync.Mutex
	sess    *session.Session
	recov   []string
	cancel  context.CancelFunc // of the running plan
	cmdStop context.CancelFunc // of the running command
	estStop context.CancelFunc // of the running estimate
	em      *batcher
	started chan struct{} // closed when Start has opened the start-up project
	once    sync.Once
}

// New builds an App. Call Start once the window's runtime is ready.
func New(d Deps) *App {
	if d.Getenv == nil {
		d.Getenv = os.Getenv
	}
	if d.BatchEvery <= 0 {
		d.BatchEvery = 100 * time.Millisecond
	}
	return &App{d: d, started: make(chan struct{})}
}

// Start attaches the runtime and opens the start-up project (recovering any
// half-applied transaction). It is a package function so it is not bound to JS.
// Wails runs it beside the window's start (the page loads meanwhile); Project waits
// for it, so the page sees the start-up project and its recovery notices however
// the two race.
func Start(a *App, rt Runtime) {
	defer a.once.Do(func() { close(a.started) })
	a.d.Trace.Mark("startup")
	a.mu.Lock()
	a.d.Runtime = rt
	a.em = newBatcher(rt, a.d.BatchEvery)
	a.mu.Unlock()
	root := a.d.StartProject
	if root == "" {
		if rec := a.recent(); len(rec) > 0 {
			root = rec[0]
		}
	}
	if root != "" {
		_, _ = a.OpenProject(root)
		a.d.Trace.Mark("project-open")
	}
}

// Stop closes the project and stops running work.
func Stop(a *App) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel != nil {
		a.cancel()
	}
	if a.cmdStop != nil {
		a.cmdStop()
	}
	if a.estStop != nil {
		a.estStop()
	}
	if a.sess != nil {
		a.sess.Close()
	}
	if a.em != nil {
		a.em.stop()
	}
}

// appError is the JSON an error rejects a promise with.
type appError struct {
	Code    plan.Code `json:"code"`
	Message string    `json:"message"`
	Hint    string    `json:"hint"`
	Paths   []string  `json:"paths,omitempty"`
}

func (e *appError) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// fail turns any error into the JSON the window parses.
func fail(err error) error {
	if err == nil {
		return nil
	}
	out := &appError{Code: plan.CodeOf(err), Message: err.Error()}
	var pe *plan.Error
	var re *session.ReplyError
	switch {
	case errors.As(err, &pe):
		out.Message, out.Hint, out.Paths = pe.Msg, pe.Hint, pe.Paths
	case errors.As(err, &re):
		out.Message = re.Error()
		out.Hint = "see the raw reply in History (plan " + re.RecordID + "), or try again or another model"
	}
	if out.Code == "" {
		out.Code = plan.ErrIO
	}
	return out
}

func errNoProject() error {
	return fail(plan.Errorf(plan.ErrInvalidInput, "no project is open").WithHint("open a project folder first"))
}

func (a *App) session() (*session.Session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sess == nil {
		return nil, errNoProject()
	}
	return a.sess, nil
}

// ProjectInfo describes the open project.
type ProjectInfo struct {
	Root      string   `json:"root"`
	Name      string   `json:"name"`
	Recovered []string `json:"recovered"`
	Recent    []string `json:"recent"`
}

// ChooseProject shows the folder dialog and opens the chosen folder.
func (a *App) ChooseProject() (ProjectInfo, error) {
	dir, err := a.d.Runtime.ChooseDirectory("Open project folder")
	if err != nil {
		return ProjectInfo{}, fail(fmt.Errorf("folder dialog: %w", err))
	}
	if dir == "" {
		return ProjectInfo{}, fail(plan.Errorf(plan.ErrCancelled, "no folder was chosen"))
	}
	return a.OpenProject(dir)
}

// OpenProject opens root, rolls back any transaction a crash left half-applied
// (reported in Recovered) and remembers it in the recent list.
func (a *App) OpenProject(root string) (ProjectInfo, error) {
	st, key := a.settings()
	var m session.Model
	if a.d.NewModel != nil {
		m, _ = a.d.NewModel(st, key) // a missing key is reported when planning
	}
	s, rv, err := session.OpenAndRecover(root, st, m, a.emitter(), session.Options{UserPrefsPath: a.d.UserPrefs, ConfigDir: a.d.ConfigDir, Secrets: []string{key}, Version: a.d.Version})
	if err != nil {
		return ProjectInfo{}, fail(err)
	}
	rec := rv.Notices
	if rv.Skipped != nil {
		rec = append(rec, "recovery was skipped: "+rv.Skipped.Error())
	}
	a.stopEstimate() // it runs on the session closed below
	a.mu.Lock()
	if a.sess != nil {
		a.sess.Close()
	}
	a.sess, a.recov = s, rec
	a.mu.Unlock()
	a.remember(s.Root())
	return a.info(), nil
}

func (a *App) emitter() session.Emitter {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.em == nil {
		return nil
	}
	return a.em
}

func (a *App) info() ProjectInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	rec := a.recov
	if rec == nil {
		rec = []string{}
	}
	return ProjectInfo{Root: a.sess.Root(), Name: filepath.Base(a.sess.Root()), Recovered: rec, Recent: a.recent()}
}

// Project returns the open project, or nil when none is open. It first waits for
// Start to open the start-up project.
func (a *App) Project() (*ProjectInfo, error) {
	<-a.started
	a.mu.Lock()
	open := a.sess != nil
	a.mu.Unlock()
	if !open {
		return nil, nil
	}
	pi := a.info()
	return &pi, nil
}

// LogFile is an attached log: a source name and a file path.
type LogFile struct {
	Source string `json:"source"`
	Path   string `json:"path"`
}

// ChooseLogFiles shows the file dialog for logs to attach.
func (a *App) ChooseLogFiles() ([]LogFile, error) {
	files, err := a.d.Runtime.ChooseFiles("Attach log files")
	if err != nil {
		return nil, fail(fmt.Errorf("file dialog: %w", err))
	}
	out := []LogFile{}
	for _, f := range files {
		base := filepath.Base(f)
		out = append(out, LogFile{Source: strings.TrimSuffix(base, filepath.Ext(base)), Path: f})
	}
	return out, nil
}

// PlanRequest is one Fix (plan).
type PlanRequest struct {
	Problem  string    `json:"problem"`
	Logs     []LogFile `json:"logs"`
	Answers  []string  `json:"answers"`
	Previous string    `json:"previous"`
	// Verify checks the plan in a scratch copy before it is shown, whatever the
	// setting; NoVerify skips it for this run.
	Verify   bool `json:"verify"`
	NoVerify bool `json:"no_verify"`
	// PlanOnly asks for the approach without file changes (WriteChanges later).
	PlanOnly bool `json:"plan_only"`
	// Review is what the user ticked, rejected or edited in the Previous draft
	// before re-planning it; the model is told (app/review.go).
	Review *ReviewRequest `json:"review,omitempty"`
}

// beginRun starts the one cancellable run (a plan or a verification) the window
// allows at a time; busy words the refusal when one is already running. done
// ends it and flushes the batched progress events.
func (a *App) beginRun(busy string) (context.Context, func(), error) {
	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	if a.cancel != nil {
		a.mu.Unlock()
		cancel()
		return nil, nil, fail(plan.Errorf(plan.ErrInvalidInput, "%s", busy).WithHint("wait for it or press Cancel"))
	}
	a.cancel = cancel
	a.mu.Unlock()
	return ctx, func() {
		cancel()
		a.mu.Lock()
		a.cancel = nil
		a.mu.Unlock()
		if a.em != nil {
			a.em.flush()
		}
	}, nil
}

// beginModelRun starts a run that asks the model (Plan, WriteChanges): the open
// session, the run's context and done (see beginRun), and the settings, with the
// session's model rebuilt from them so a change in Settings applies to this run.
func (a *App) beginModelRun() (*session.Session, context.Context, func(), session.Settings, error) {
	s, err := a.session()
	if err != nil {
		return nil, nil, nil, session.Settings{}, err
	}
	ctx, done, err := a.beginRun("a plan is already being made")
	if err != nil {
		return nil, nil, nil, session.Settings{}, err
	}
	a.stopEstimate() // the plan need not wait for it
	st, key := a.settings()
	if a.d.NewModel != nil {
		m, err := a.d.NewModel(st, key)
		if err != nil {
			done()
			return nil, nil, nil, session.Settings{}, fail(err)
		}
		s.SetModel(m, st)
	}
	return s, ctx, done, st, nil
}

// Plan runs the fix loop; progress arrives as plan:progress events. CancelPlan
// stops it (the promise rejects with ERR_CANCELLED).
func (a *App) Plan(req PlanRequest) (*plan.Record, error) {
	s, ctx, done, st, err := a.beginModelRun()
	if err != nil {
		return nil, err
	}
	defer done()
	in := inputOf(s, req)
	var rec *plan.Record
	if req.Verify || (st.VerifyBeforeReview && !req.NoVerify) {
		// Only checks the user already approved run; the plan says which could.
		rec, err = s.PlanVerified(ctx, in, st.VerifyAttempts, nil)
	} else {
		rec, err = s.Plan(ctx, in)
	}
	if err != nil {
		return nil, fail(err)
	}
	return rec, nil
}

// inputOf is the problem a Fix (plan) request describes.
func inputOf(s *session.Session, req PlanRequest) plan.ProblemInput {
	in := plan.ProblemInput{Problem: req.Problem, Answers: req.Answers, Previous: req.Previous, PlanOnly: req.PlanOnly}
	for _, l := range req.Logs {
		in.Logs = append(in.Logs, plan.LogSource{Source: l.Source, Path: l.Path})
	}
	in.Review = reviewOf(s, req)
	return in
}

// Estimate works out what Fix (plan) would cost for req — the first request's
// tokens, the worst cases, their cost at the Settings prices, and whether the
// window or the per-plan ceiling stops it — sending nothing (session.Estimate).
// The window asks as the problem is typed: a newer call, a plan or a reopened
// project cancels the one still running (ERR_CANCELLED).
func (a *App) Estimate(req PlanRequest) (session.Estimate, error) {
	s, err := a.session()
	if err != nil {
		return session.Estimate{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.mu.Lock()
	if a.estStop != nil {
		a.estStop()
	}
	a.estStop = cancel
	a.mu.Unlock()
	est, err := s.Estimate(ctx, inputOf(s, req))
	if err != nil {
		return session.Estimate{}, fail(err)
	}
	return est, nil
}

// stopEstimate cancels the running estimate, if any.
func (a *App) stopEstimate() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.estStop != nil {
		a.estStop()
		a.estStop = nil
	}
}

// CancelPlan cancels the running plan, if any.
func (a *App) CancelPlan() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancel != nil {
		a.cancel()
	}
	return nil
}
