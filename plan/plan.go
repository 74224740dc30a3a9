// Package plan holds fixplan's pure domain types: the model's fix plan
// (docs/CONTRACT.md §2), its context requests (§5), the previewed file changes (§7),
// the stored plan record (§4.6), and the stable error codes every layer reports (§10).
// It does no I/O and imports no other fixplan package; besides the standard library
// it uses only the JSON schema validator (santhosh-tekuri/jsonschema).
package plan

import (
	"encoding/json"
	"time"
)

// Mode is the plan's mode: ModeFixPlan proposes, ModeApply carries final changes.
type Mode string

// The two modes of a model response.
const (
	ModeFixPlan Mode = "fix-plan"
	ModeApply   Mode = "apply"
)

// Plan is one model response, after parsing and normalisation. Slices are never nil
// after Parse so that JSON output always carries arrays.
type Plan struct {
	Mode            Mode             `json:"mode"`
	Summary         string           `json:"summary"`
	Questions       []string         `json:"questions"`
	ContextRequests []ContextRequest `json:"context_requests"`
	Plan            []Step           `json:"plan"`
	ProposedChanges *ProposedChanges `json:"proposed_changes"`
	Patch           *string          `json:"patch"`
	CommandsToRun   []string         `json:"commands_to_run"`
	Verification    []string         `json:"verification"`
	Risks           []string         `json:"risks"`
	Rollback        []string         `json:"rollback"`
	MemoryPatch     []MemoryEntry    `json:"memory_patch"`
}

// Step is one step of the plan: diagnosis, change or verification.
type Step struct {
	Step    string `json:"step"`
	Details string `json:"details"`
}

// ProposedChanges groups the file changes and commands the model proposes.
type ProposedChanges struct {
	Patch         *string  `json:"patch"`
	Actions       []Action `json:"actions"`
	CommandsToRun []string `json:"commands_to_run"`
}

// ActionKind is the kind of a whole-file action.
type ActionKind string

// The action kinds of docs/CONTRACT.md §2.2.
const (
	CreateFile ActionKind = "CREATE_FILE"
	CreateDir  ActionKind = "CREATE_DIR"
	UpdateFile ActionKind = "UPDATE_FILE"
	DeleteFile ActionKind = "DELETE_FILE"
	DeleteDir  ActionKind = "DELETE_DIR"
	// EditFile changes an existing text file by search/replace pairs (Edits).
	EditFile ActionKind = "EDIT_FILE"
)

// ActionKinds lists every valid kind, in schema order.
var ActionKinds = []ActionKind{CreateFile, CreateDir, UpdateFile, DeleteFile, DeleteDir, EditFile}

// Action is one file change. Path is relative to the project root; Content is the
// whole new content for CREATE_FILE and UPDATE_FILE and nil otherwise; Edits are the
// search/replace pairs of an EDIT_FILE and nil otherwise.
type Action struct {
	Kind    ActionKind `json:"kind"`
	Path    string     `json:"path"`
	Content *string    `json:"content"`
	Edits   []Edit     `json:"edits"`
}

// Edit is one search/replace pair of an EDIT_FILE action: Search must match exactly
// one place of the file as it is (docs/CONTRACT.md §7.2); Replace takes its place.
type Edit struct {
	Search  string `json:"search"`
	Replace string `json:"replace"`
}

// Request types of context requests (docs/CONTRACT.md §5).
const (
	ReqReadFile = "read_file"
	ReqSearch   = "search"
	ReqLogs     = "logs"
	ReqEnv      = "env"
)

// ContextRequest is one request of the model for more context. Which fields are
// used depends on Type; unused fields are nil.
type ContextRequest struct {
	Type      string  `json:"type"`
	Path      *string `json:"path"`
	StartLine *int    `json:"start_line"`
	EndLine   *int    `json:"end_line"`
	Query     *string `json:"query"`
	Glob      *string `json:"glob"`
	Source    *string `json:"source"`
	LastN     *int    `json:"last_n"`
}

// MemoryEntry is one memory_patch entry. A JSON null Value removes the key.
type MemoryEntry struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// Memory keys of the whitelist (docs/CONTRACT.md §8).
const (
	KeyDefaultTestCommand   = "project.default_test_command"
	KeyDefaultLintCommand   = "project.default_lint_command"
	KeyDefaultFormatCommand = "project.default_format_command"
	KeyDefaultBuildCommand  = "project.default_build_command"
	KeyLogPaths             = "project.log_paths"
	KeyNotes                = "project.notes"
	KeyLanguage             = "user.language"
	KeyVerbosity            = "user.verbosity"
)

// MemoryKeys is the whitelist, in a stable order.
var MemoryKeys = []string{
	KeyDefaultTestCommand, KeyDefaultLintCommand, KeyDefaultFormatCommand, KeyDefaultBuildCommand,
	KeyLogPaths, KeyNotes, KeyLanguage, KeyVerbosity,
}

// Actions returns the actions used for preview and apply: proposed_changes.actions
// when present, else none (legacy root actions are normalised into ProposedChanges by Parse).
func (p *Plan) Actions() []Action {
	if p.ProposedChanges == nil {
		return nil
	}
	return p.ProposedChanges.Actions
}

// EffectivePatch returns the unified diff to apply, if any: proposed_changes.patch
// first, else the root patch. An empty string counts as no patch.
func (p *Plan) EffectivePatch() string {
	if p.ProposedChanges != nil && p.ProposedChanges.Patch != nil && *p.ProposedChanges.Patch != "" {
		return *p.ProposedChanges.Patch
	}
	if p.Patch != nil {
		return *p.Patch
	}
	return ""
}

// Commands returns the commands to run: the root list, then any from proposed_changes
// not already in it.
func (p *Plan) Commands() []string {
	out := append([]string{}, p.CommandsToRun...)
	if p.ProposedChanges != nil {
		for _, c := range p.ProposedChanges.CommandsToRun {
			dup := false
			for _, o := range out {
				if o == c {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, c)
			}
		}
	}
	return out
}

// Op is the operation of one previewed file change.
type Op string

// The operations a FileChange can carry.
const (
	OpCreate Op = "create"
	OpUpdate Op = "update"
	OpDelete Op = "delete"
	OpMkdir  Op = "mkdir"
	OpRmdir  Op = "rmdir"
)

// FileChange is the preview of one change: what the user sees and ticks.
// BaseSHA256 is the hex sha256 of the file's bytes when the preview was made
// ("" when the file did not exist); Apply refuses when the disk no longer matches.
type FileChange struct {
	Path       string `json:"path"`
	Op         Op     `json:"op"`
	Diff       string `json:"diff"`
	BaseSHA256 string `json:"base_sha256"`
	// Placement describes how patch hunks were placed ("exact", "offset +5", ...); empty for actions.
	Placement []string `json:"placement,omitempty"`
	// Flags are risk notes for this file (lock file, large change).
	Flags []string `json:"flags,omitempty"`
	// SyntaxIssues are syntax errors the change introduces in a language fixplan
	// checks (Go, JSON, YAML, TOML, JavaScript, TypeScript), as "line L, column C:
	// message"; the model was
	// asked once to correct them (docs/CONTRACT.md §4.3).
	SyntaxIssues []string `json:"syntax_issues,omitempty"`
}

// LogSource is a log the user attached or the app captured. Exactly one of Path
// (a file on disk the user chose; it may be outside the root) or Text is set.
type LogSource struct {
	Source string `json:"source"`
	Path   string `json:"path,omitempty"`
	Text   string `json:"text,omitempty"`
}

// ProblemInput is what the user gives for one Fix (plan).
type ProblemInput struct {
	Problem string      `json:"problem"`
	Logs    []LogSource `json:"logs"`
	// Answers to the previous plan's questions, in order (re-plan).
	Answers []string `json:"answers,omitempty"`
	// Previous is the id of the plan being re-planned, if any.
	Previous string `json:"previous,omitempty"`
	// Review is what the user rejected or edited in Previous before re-planning
	// it without applying (an applied plan keeps its own Record.Review).
	Review *Review `json:"review,omitempty"`
	// PlanOnly asks the model for the approach without file changes; the user
	// approves it and then asks for the changes (apply mode, docs/CONTRACT.md §3).
	PlanOnly bool `json:"plan_only,omitempty"`
}

// SeenFile records that (part of) a file's content was sent to the model.
type SeenFile struct {
	Path  string `json:"path"`
	Whole bool   `json:"whole"`
}

// Section is one titled part of the base context.
type Section struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	// Tokens is what title and body cost in the model's tokens (Usage.Tokenizer
	// says whether counted or estimated); 0 in older records.
	Tokens int `json:"tokens,omitempty"`
}

// Gathered is the base context sent before the first call.
type Gathered struct {
	Sections   []Section  `json:"sections"`
	Redactions int        `json:"redactions"`
	Seen       []SeenFile `json:"seen"`
	Warnings   []string   `json:"warnings"`
}

// ContextResult is the answer to one context request: the exact text the model
// receives (OK) or the reason it could not be fulfilled.
type ContextResult struct {
	Request    ContextRequest `json:"request"`
	OK         bool           `json:"ok"`
	Text       string         `json:"text,omitempty"`
	Error      string         `json:"error,omitempty"`
	Redactions int            `json:"redactions,omitempty"`
	Seen       []SeenFile     `json:"seen,omitempty"`
	// Tokens is what Text (or the refusal) cost in the model's tokens.
	Tokens int `json:"tokens,omitempty"`
}

// Round is one round of context requests and their results.
type Round struct {
	Requests []ContextRequest `json:"requests"`
	Results  []ContextResult  `json:"results"`
}

// Call is one request to the model: what it cost and how it went.
type Call struct {
	Turn             int    `json:"turn"`
	Repair           bool   `json:"repair,omitempty"`
	Model            string `json:"model"`
	Format           string `json:"format"` // json_schema, json_object or text
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	Attempts         int    `json:"attempts"`
	DurationMS       int64  `json:"duration_ms"`
}

// Usage is what one plan cost and how its prompt was fitted (docs/CONTRACT.md §4.6).
type Usage struct {
	// Tokenizer counted the sections and results: o200k_base, cl100k_base, or
	// "estimate" (bytes / 3.2) for model families without a known tokenizer.
	Tokenizer string `json:"tokenizer"`
	// PromptTokens and CompletionTokens sum every model request: as the provider
	// reported them, or counted by fixplan when it reported none (Counted).
	PromptTokens     int  `json:"prompt_tokens"`
	CompletionTokens int  `json:"completion_tokens"`
	Counted          bool `json:"counted,omitempty"`
	// Window is the context window the server serves (0: it did not say), and
	// WindowSource where that number came from.
	Window       int    `json:"window,omitempty"`
	WindowSource string `json:"window_source,omitempty"`
	// BaseBudget is the tokens the base context was fitted to (0: bytes only).
	BaseBudget int `json:"base_budget,omitempty"`
	// Compact is set when the short prompt for small windows was used.
	Compact bool `json:"compact,omitempty"`
	// RepeatsAvoided is the tokens of lines the model already had that were not
	// sent again (replaced by a reference to where they were sent).
	RepeatsAvoided int `json:"repeats_avoided,omitempty"`
	// Cost is PromptTokens and CompletionTokens at the prices set in Settings
	// (per million tokens); absent when no price is set.
	Cost *float64 `json:"cost,omitempty"`
	// CeilingTokens and CeilingCost are the per-plan ceiling in force (0: none),
	// and Stopped says which request the ceiling kept from being sent ("": none).
	CeilingTokens int     `json:"ceiling_tokens,omitempty"`
	CeilingCost   float64 `json:"ceiling_cost,omitempty"`
	Stopped       string  `json:"stopped,omitempty"`
}

// State is the lifecycle state of a stored plan.
type State string

// Plan states: a plan goes draft → applied once, and applied → undone by Undo.
const (
	StateDraft   State = "draft"
	StateApplied State = "applied"
	StateUndone  State = "undone"
	// StateFailed is a planning attempt whose reply stayed invalid; it keeps the raw reply.
	StateFailed State = "failed"
)

// Record is a plan as stored under .fixplan/plans/<id>.json.
type Record struct {
	ID          string        `json:"id"`
	CreatedAt   time.Time     `json:"created_at"`
	State       State         `json:"state"`
	Input       ProblemInput  `json:"input"`
	Plan        Plan          `json:"plan"`
	Changes     []FileChange  `json:"changes"`
	Base        Gathered      `json:"base"`
	Rounds      []Round       `json:"rounds"`
	Warnings    []string      `json:"warnings"`
	Memory      []MemoryEntry `json:"memory"` // validated memory_patch entries offered on Apply
	Transaction string        `json:"transaction,omitempty"`
	AppliedAt   *time.Time    `json:"applied_at,omitempty"`
	// Raw is the model's last raw reply, kept when parsing failed.
	Raw string `json:"raw,omitempty"`
	// Issues are the validation issues of Raw (failed records only).
	Issues []string `json:"issues,omitempty"`
	// Unfulfilled are context requests the model made after the last allowed round.
	Unfulfilled []ContextRequest `json:"unfulfilled,omitempty"`
	// Calls are the model requests this plan took, in order.
	Calls []Call `json:"calls,omitempty"`
	// Usage sums what the plan cost in tokens (and money, when prices are set)
	// and how its prompt was fitted to the model's window; absent in older records.
	Usage *Usage `json:"usage,omitempty"`
	// Verification is what checking the plan in a scratch copy found, when it was
	// verified before review (docs/CONTRACT.md §7).
	Verification *Verification `json:"verification,omitempty"`
	// Review is what the operator accepted, rejected or edited when applying
	// (hunks, unticked files, hand edits); a re-plan tells the model about it.
	Review *Review `json:"review,omitempty"`
	// ApprovedPlan is, for the changes written in apply mode, the id of the plan
	// whose approach the user approved (docs/CONTRACT.md §3).
	ApprovedPlan string `json:"approved_plan,omitempty"`
	// Foreign is set when the stored file is not sealed by this user's fixplan
	// (it came with the project, or was edited): shown, never applied.
	Foreign bool `json:"foreign,omitempty"`

	// FixplanVersion is the version of the fixplan that made the plan (stamped at
	// build time; "dev" for an unstamped build).
	FixplanVersion string `json:"fixplan_version,omitempty"`
}

// Verification states.
const (
	VerifyVerified    = "verified"     // the focused test and the suite pass
	VerifyPartly      = "partly"       // the focused test passes; the suite has new failures
	VerifyFailed      = "failed"       // the focused test (or a command) still fails
	VerifyNotVerified = "not_verified" // nothing could be concluded (Reason says why)
)

// Verification is the outcome of applying a plan to a throwaway copy of the
// project and running the approved checks there, compared with the same checks
// on the unchanged copy. The user's project is never touched by it.
type Verification struct {
	State string `json:"state"`
	// Reason says, for people, why the state is what it is.
	Reason      string        `json:"reason,omitempty"`
	Commands    []CheckResult `json:"commands"`
	NewFailures []string      `json:"new_failures,omitempty"`
	// OverheadMS is what copying, applying and cleaning up cost, beyond the commands.
	OverheadMS int64 `json:"overhead_ms"`
	// Attempts are the earlier plans of this fix that failed verification and
	// whose output went back to the model, oldest first.
	Attempts []VerifyAttempt `json:"attempts,omitempty"`
	// Covers is what the verdict is about: the plan as proposed, or the user's
	// choices in it. nil on verdicts saved before fixplan recorded it.
	Covers *VerifiedSelection `json:"covers,omitempty"`
}

// What a verdict covers (VerifiedSelection.Scope).
const (
	CoversProposed  = "proposed"  // every change as the model proposed it
	CoversSelection = "selection" // the ticked files, accepted hunks and the user's own text
)

// VerifiedSelection is what a verification checked, so that a window can tell
// whether the verdict still holds for the choices it shows now.
type VerifiedSelection struct {
	Scope string `json:"scope"`
	// Paths are the ticked files, in the plan's order (Scope "selection").
	Paths []string `json:"paths"`
	// Files are the ticked files that were narrowed (Scope "selection").
	Files []VerifiedFile `json:"files"`
}

// VerifiedFile is one narrowed file of a verified selection: the accepted hunks
// (nil: every hunk), or the user's own text, known by its SHA-256 (hex).
type VerifiedFile struct {
	Path          string `json:"path"`
	Hunks         []int  `json:"hunks"`
	ContentSHA256 string `json:"content_sha256,omitempty"`
}

// CheckResult is one check command run on the changed copy.
type CheckResult struct {
	Command     string   `json:"command"`
	Focused     bool     `json:"focused,omitempty"`
	Outcome     string   `json:"outcome"` // passed, failed, new_failures, preexisting, not_run
	ExitCode    int      `json:"exit_code"`
	TimedOut    bool     `json:"timed_out,omitempty"`
	DurationMS  int64    `json:"duration_ms"`
	Output      string   `json:"output"` // the end of the output, redacted
	Failures    []string `json:"failures,omitempty"`
	NewFailures []string `json:"new_failures,omitempty"`
	// BaselineExitCode is the same command on the unchanged project (-1: not run).
	BaselineExitCode int `json:"baseline_exit_code"`
}

// VerifyAttempt is one earlier plan of a fix and what its verification found.
type VerifyAttempt struct {
	PlanID      string   `json:"plan_id"`
	Summary     string   `json:"summary"`
	State       string   `json:"state"`
	Reason      string   `json:"reason,omitempty"`
	NewFailures []string `json:"new_failures,omitempty"`
	Output      string   `json:"output,omitempty"`
}
