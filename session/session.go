package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"fixplan/apply"
	codectx "fixplan/context"
	"fixplan/internal/config"
	"fixplan/memory"
	"fixplan/plan"
	"fixplan/syntax"
	"fixplan/tokens"
	"fixplan/verify"
)

// Session is one open project: the fix loop plus apply, undo, history and checks.
// Its methods are safe for concurrent use; planning and applying are serialised.
type Session struct {
	root      string
	st        Settings
	model     Model
	em        Emitter
	gath      *codectx.Gatherer
	mem       *memory.Store
	eng       *apply.Engine
	opts      Options
	approvals *Approvals
	baselines verify.BaselineCache
	secrets   scrubber   // known secrets, removed from what is written (scrub.go)
	mu        sync.Mutex // serialises Plan/Apply/Undo
	cmdMu     sync.Mutex
	results   []CommandResult
}

// Options tune Open.
type Options struct {
	// UserPrefsPath is the user memory file ("" → preferences.json in the config folder).
	UserPrefsPath string
	// AllowSecrets lets the model read secret files (their values are still redacted).
	AllowSecrets bool
	// Secrets are values never sent to the model nor saved (the API key the app
	// took from the keychain, say).
	Secrets []string
	// ConfigDir is the user's fixplan config folder, as the edge resolved it
	// (internal/config; "" → config.Default()); it holds the per-user key that
	// seals this user's plans and journals.
	ConfigDir string
	// Version is fixplan's own version (stamped at build time), recorded in plans.
	Version string
}

func (o Options) configDir() (string, error) {
	if o.ConfigDir != "" {
		return o.ConfigDir, nil
	}
	return config.Default()
}

// Open opens the project at root. model may be nil for sessions that only apply,
// undo or browse history. It does not recover interrupted transactions: call
// Recover, or open with OpenAndRecover.
func Open(root string, st Settings, model Model, em Emitter, opt Options) (*Session, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open project: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, plan.Errorf(plan.ErrInvalidInput, "the project folder %s does not exist or is not a folder", abs).
			WithHint("open an existing project folder")
	}
	if em == nil {
		em = discard{}
	}
	co := codectx.DefaultOptions()
	if st.ResultBudget > 0 {
		co.MaxResultBytes = st.ResultBudget
	}
	if st.ContextBudget > 0 {
		co.MaxTotalBytes = st.ContextBudget
	}
	co.AllowSecrets = opt.AllowSecrets
	co.NoProjectRules = st.NoProjectRules
	cfg, err := opt.configDir()
	if err != nil {
		return nil, err
	}
	co.EnvCachePath = config.EnvCacheFile(cfg)
	if opt.UserPrefsPath == "" {
		opt.UserPrefsPath = config.PreferencesFile(cfg) // user memory lives beside the key
	}
	gath, err := codectx.New(abs, co)
	if err != nil {
		return nil, fmt.Errorf("open project: %w", err)
	}
	mem, err := memory.Open(abs, opt.UserPrefsPath)
	if err != nil {
		gath.Close()
		return nil, err
	}
	key, err := apply.LoadKey(config.StateKeyFile(cfg))
	if err != nil {
		gath.Close()
		return nil, &plan.Error{Code: plan.ErrConfig, Msg: "the per-user state key cannot be read or created", Err: err,
			Hint: "check that " + cfg + " is writable by you"}
	}
	eng, err := apply.Open(abs, apply.Options{Key: key, Redact: shownRedactor(opt.Secrets), Hidden: hiddenFrom(gath)})
	if err != nil {
		gath.Close()
		return nil, fmt.Errorf("open project: %w", err)
	}
	var baselines verify.BaselineCache = verify.NewMemoryCache(32)
	if fc, err := verify.NewFileCache(cfg); err == nil {
		baselines = fc
	}
	return &Session{root: abs, st: st, model: model, em: em, gath: gath, mem: mem, eng: eng, opts: opt,
		approvals: NewApprovals(cfg), baselines: baselines, secrets: knownSecrets(opt.Secrets)}, nil
}

// Recovery is what opening a project did about an earlier crash (OpenAndRecover).
type Recovery struct {
	// Notices has one sentence per thing recovery did or found.
	Notices []string
	// Skipped says why recovery did not run (another fixplan holds the project).
	// It never blocks the project: the edge tells the user, the next open retries.
	Skipped error
}

// OpenAndRecover opens the project at root (Open) and then finishes what a crash
// interrupted (Recover), the way both edges open a project: only failing to open
// is an error; recovery's findings and a skipped recovery come back in Recovery.
func OpenAndRecover(root string, st Settings, model Model, em Emitter, opt Options) (*Session, Recovery, error) {
	s, err := Open(root, st, model, em, opt)
	if err != nil {
		return nil, Recovery{}, err
	}
	notices, err := s.Recover()
	return s, Recovery{Notices: notices, Skipped: err}, nil
}

// Root is the project root (absolute).
func (s *Session) Root() string { return s.root }

// Close releases the project's file handles.
func (s *Session) Close() error { return errors.Join(s.gath.Close(), s.eng.Close()) }

// SetModel replaces the model (after the settings changed).
func (s *Session) SetModel(m Model, st Settings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.model, s.st = m, st
}

// Recover finishes what a crash interrupted (this user's journals only, never
// overwriting a file edited since) and sets aside what it must not obey; it
// returns one sentence per thing done or found. Its error (another fixplan holds
// the project) never needs to stop the caller: nothing is blocked by recovery.
func (s *Session) Recover() ([]string, error) {
	ns, err := s.eng.Recover()
	var out []string
	for _, n := range ns {
		out = append(out, n.Message)
		s.em.Emit(Event{Stage: StageRecovery, Message: n.Message})
	}
	return out, err
}

// Journals lists this user's transactions and the folders set aside.
func (s *Session) Journals() ([]apply.JournalInfo, error) { return s.eng.Journals() }

// DiscardJournal deletes a held, finished or set-aside journal.
func (s *Session) DiscardJournal(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.DiscardJournal(id)
}

// Plan runs the fix loop for in (see Planner.Plan). A log with source
// "verification" and no path or text is filled with the output of the commands
// this session ran.
func (s *Session) Plan(ctx context.Context, in plan.ProblemInput) (*plan.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.model == nil {
		return nil, plan.Errorf(plan.ErrConfig, "no model is configured").WithHint("set the provider in Settings or FIXPLAN_BASE_URL / FIXPLAN_MODEL")
	}
	in.Logs = s.withVerification(in.Logs)
	// Memory is re-read for every plan: project.json may have changed (git pull).
	if mem, err := memory.Open(s.root, s.opts.UserPrefsPath); err == nil {
		s.mem = mem
	}
	pl, err := s.planner()
	if err != nil {
		return nil, err
	}
	return pl.Plan(ctx, in)
}

// planner is the fix loop wired to this project (s.mu held, s.model set).
func (s *Session) planner() (*Planner, error) { return s.plannerWith(s.em) }

// plannerWith is the fix loop wired to this project reporting progress to em
// (s.mu held); without a model it can only estimate.
func (s *Session) plannerWith(em Emitter) (*Planner, error) {
	return newPlanner(Config{
		Model: s.model, Gatherer: s.gath, Memory: s.mem, Previewer: engineAdapter{s.eng}, Store: s.eng,
		Emitter: em, Provider: s.st.BaseURL, MaxTokens: s.st.MaxTokens, NewID: apply.NewID, Ceiling: s.st.Ceiling(),
		Secrets: s.opts.Secrets, Warnings: s.mem.Warnings(), Version: s.opts.Version,
		Counter: tokens.For(s.st.Model), Window: windowOf(s.model), ContextWindow: s.st.ContextWindow,
		PriceInput: s.st.PriceInput, PriceOutput: s.st.PriceOutput, RoundBudget: s.st.ContextBudget,
		EditFormatNote: s.editFormatNote(),
	})
}

func (s *Session) withVerification(logs []plan.LogSource) []plan.LogSource {
	s.cmdMu.Lock()
	text := VerificationLog(s.results)
	s.cmdMu.Unlock()
	if text == "" {
		text = s.savedVerification()
	}
	out := make([]plan.LogSource, 0, len(logs))
	for _, l := range logs {
		if l.Source == "verification" && l.Path == "" && l.Text == "" {
			if text == "" {
				continue
			}
			l.Text = text
		}
		out = append(out, l)
	}
	return out
}

// ApplySelection applies the selected files and memory keys of a draft plan as
// one transaction; paths nil means every change, and files narrow ticked changes
// to their accepted hunks or the user's own content (review.go). Project memory
// is written inside the transaction, user memory right after it.
func (s *Session) ApplySelection(ctx context.Context, id string, paths []string, memoryKeys []string, files []apply.FileChoice) (apply.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, err := s.eng.LoadPlan(id)
	if err != nil {
		return apply.Result{}, err
	}
	// Project memory is re-read now: project.json may have been edited by hand or
	// by a git pull since the session opened, and must not be overwritten from a cache.
	mem, err := memory.Open(s.root, s.opts.UserPrefsPath)
	if err != nil {
		return apply.Result{}, err
	}
	s.mem = mem
	var entries []plan.MemoryEntry
	want := map[string]bool{}
	for _, k := range memoryKeys {
		want[k] = true
	}
	for _, e := range rec.Memory {
		if memoryKeys == nil || want[e.Key] {
			entries = append(entries, e)
		}
	}
	sel := apply.Selection{Paths: paths, Files: files}
	from := memory.Proposal{Plan: id, Accepted: time.Now()}
	if len(entries) > 0 {
		b, changed, err := s.mem.ProjectBytesAfter(entries, from)
		if err != nil {
			return apply.Result{}, err
		}
		if changed {
			sel.ProjectMemory = b
		}
		sel.MemoryKeys = memory.Keys(entries)
	}
	if paths != nil && len(paths) == 0 && sel.ProjectMemory == nil {
		// Only user preferences were ticked: nothing in the project changes.
		saved, err := s.mem.SaveUser(entries)
		if err != nil {
			return apply.Result{}, fmt.Errorf("save user preferences: %w", err)
		}
		if !saved {
			return apply.Result{}, plan.Errorf(plan.ErrInvalidInput, "nothing to apply: the ticked memory entries are already set").
				WithHint("tick a file change, or leave it")
		}
		return apply.Result{PlanID: id, Applied: []plan.FileChange{}, Memory: sel.MemoryKeys}, nil
	}
	res, err := s.eng.ApplyPlan(ctx, id, sel)
	if err != nil {
		return res, err
	}
	s.mem.CommitProject(entries, from)
	if _, err := s.mem.SaveUser(entries); err != nil {
		return res, fmt.Errorf("files applied, but saving user preferences failed: %w", err)
	}
	return res, nil
}

// Undo restores the last applied transaction.
func (s *Session) Undo(ctx context.Context) (apply.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.eng.Undo(ctx)
	if err == nil {
		if m, merr := memory.Open(s.root, s.opts.UserPrefsPath); merr == nil {
			s.mem = m
		}
	}
	return res, err
}

// ApplyPatch applies a unified diff as one undoable transaction; check computes the
// placement of every hunk and writes nothing.
func (s *Session) ApplyPatch(ctx context.Context, patch string, check bool) (apply.Result, []apply.Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.eng.ApplyPatch(ctx, patch, check)
}

// History lists this project's plans, newest first (what a list shows of each;
// Load reads one whole).
func (s *Session) History() ([]apply.PlanInfo, error) { return s.eng.Plans() }

// Load returns one stored plan.
func (s *Session) Load(id string) (*plan.Record, error) { return s.eng.LoadPlan(id) }

// LatestDraft returns the newest plan not yet applied.
func (s *Session) LatestDraft() (*plan.Record, error) { return s.eng.LatestDraft() }

// RunPlanCommand runs command, one of the commands_to_run of plan planID, in the
// project root and keeps its output as the "verification" log for the next plan.
// The command was proposed by the model, so it runs only under MayRun: approved
// for this project, or confirmed by the user (the window's Run button, the CLI's
// question) — a blanket --yes is refused. A command that is not one of the plan's
// is refused, and so is every command of a plan this user's fixplan did not make
// (chosen by whoever put the plan in the project). The window and the CLI run
// commands through it alone.
func (s *Session) RunPlanCommand(ctx context.Context, planID, command string, by Consent, onOutput func(string)) (CommandResult, error) {
	rec, err := s.eng.LoadPlan(planID)
	if err != nil {
		return CommandResult{}, err
	}
	if rec.Foreign {
		return CommandResult{}, plan.ForeignPlan(planID, "; its commands are never run", "make your own plan with Fix (plan)")
	}
	if !slices.Contains(rec.Plan.Commands(), command) {
		return CommandResult{}, plan.Errorf(plan.ErrInvalidInput, "%q is not one of plan %s's commands", command, planID).
			WithHint("only the plan's own commands can be run from here")
	}
	if c := s.PlanCommand(command); !MayRun(c, by) {
		return CommandResult{}, NotApproved(c)
	}
	return s.runCommand(ctx, command, onOutput)
}

// runCommand runs an approved command and keeps its output (RunPlanCommand),
// the known secrets removed from what is streamed, returned and saved.
func (s *Session) runCommand(ctx context.Context, command string, onOutput func(string)) (CommandResult, error) {
	timeout := time.Duration(s.st.CommandTimeoutSeconds) * time.Second
	write, flush := s.secrets.stream(onOutput)
	res, err := RunCommand(ctx, s.root, command, timeout, write)
	flush()
	res.Output = s.secrets.text(res.Output)
	if err != nil {
		return res, err
	}
	s.cmdMu.Lock()
	s.results = append(s.results, res)
	text := VerificationLog(s.results)
	s.cmdMu.Unlock()
	s.saveVerification(text)
	return res, nil
}

// ResetVerification forgets earlier command output (a new plan was made).
func (s *Session) ResetVerification() {
	s.cmdMu.Lock()
	s.results = nil
	s.cmdMu.Unlock()
	s.eng.RemoveNote(verificationNote)
}

// verificationNote is the sealed note (.fixplan/logs/) holding the last check output.
const verificationNote = "verification.log"

// saveVerification keeps the output for a later `fixplan plan` run (this user's
// sealed state under .fixplan/, never a project file; a shipped one is ignored).
func (s *Session) saveVerification(text string) { _ = s.eng.SaveNote(verificationNote, text) }

func (s *Session) savedVerification() string { return s.eng.LoadNote(verificationNote) }

// engineAdapter turns apply's changes into previews for the loop.
type engineAdapter struct{ e *apply.Engine }

func (a engineAdapter) Preview(p *plan.Plan) ([]plan.FileChange, error) {
	cs, err := a.e.Changes(p)
	if err != nil {
		return nil, err
	}
	out := make([]plan.FileChange, len(cs))
	for i, c := range cs {
		out[i] = c.Preview()
		if c.Op == plan.OpCreate || c.Op == plan.OpUpdate {
			var before []byte
			if c.Op == plan.OpUpdate {
				before = c.Before
			}
			issues, note := syntax.CheckNote(c.Path, before, c.After)
			for _, is := range issues {
				out[i].SyntaxIssues = append(out[i].SyntaxIssues, is.String())
			}
			if note != "" {
				out[i].Flags = append(out[i].Flags, "syntax not checked: "+note)
			}
		}
	}
	return out, nil
}

// IsCancelled reports whether err means the user cancelled.
func IsCancelled(err error) bool {
	return plan.CodeOf(err) == plan.ErrCancelled || errors.Is(err, context.Canceled)
}
