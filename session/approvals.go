package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"fixplan/internal/config"
	"fixplan/internal/fsutil"
	"fixplan/plan"
)

// Approvals remembers, per project, the check commands the user approved for
// verification. It lives in the user's config folder (approvals.json), never in
// the project: a project cannot approve its own commands.
type Approvals struct {
	path string
	mu   sync.Mutex
}

type approvalsFile struct {
	Projects map[string][]string `json:"projects"`
	// Focused are the approved commands fixplan derived for one failing test:
	// they verify plans for that test only, not every plan of the project.
	Focused map[string][]string `json:"focused,omitempty"`
}

// NewApprovals uses <configDir>/approvals.json.
func NewApprovals(configDir string) *Approvals {
	return &Approvals{path: config.ApprovalsFile(configDir)}
}

func (a *Approvals) load() (approvalsFile, error) {
	f := approvalsFile{Projects: map[string][]string{}}
	b, err := os.ReadFile(a.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read approvals: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return approvalsFile{Projects: map[string][]string{}}, fmt.Errorf("approvals file %s is damaged (delete it to start over; approvals are asked again): %w", a.path, err)
	}
	if f.Projects == nil {
		f.Projects = map[string][]string{}
	}
	return f, nil
}

func (a *Approvals) save(f approvalsFile) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(a.path), 0o700); err != nil {
		return fmt.Errorf("save approvals: %w", err)
	}
	return fsutil.WriteFileAtomic(a.path, append(b, '\n'), 0o600)
}

// List returns the commands approved for the project at root, sorted.
func (a *Approvals) List(root string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := a.load()
	if err != nil {
		return nil
	}
	out := append([]string{}, f.Projects[root]...)
	sort.Strings(out)
	return out
}

// Approved reports whether command is approved for root (exactly as written).
func (a *Approvals) Approved(root, command string) bool {
	for _, c := range a.List(root) {
		if c == command {
			return true
		}
	}
	return false
}

// Snapshot reads root's approvals once: every approved command, and those that
// check the whole project (not one derived for a single failing test), sorted.
func (a *Approvals) Snapshot(root string) (approved map[string]bool, suite []string) {
	approved = map[string]bool{}
	for _, c := range a.List(root) {
		approved[c] = true
	}
	return approved, a.Suite(root)
}

// Suite returns the approved commands of root that check the whole project (not
// one derived for a single failing test), sorted.
func (a *Approvals) Suite(root string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := a.load()
	if err != nil {
		return nil
	}
	focused := map[string]bool{}
	for _, c := range f.Focused[root] {
		focused[c] = true
	}
	var out []string
	for _, c := range f.Projects[root] {
		if !focused[c] {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// ApproveFocused remembers a derived failing-test command for root.
func (a *Approvals) ApproveFocused(root, command string) error {
	if err := a.Approve(root, command); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := a.load()
	if err != nil {
		return err
	}
	if f.Focused == nil {
		f.Focused = map[string][]string{}
	}
	for _, c := range f.Focused[root] {
		if c == command {
			return nil
		}
	}
	f.Focused[root] = append(f.Focused[root], command)
	return a.save(f)
}

// Approve remembers command for root.
func (a *Approvals) Approve(root, command string) error {
	command = strings.TrimSpace(command)
	if command == "" {
		return errors.New("approve: empty command")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := a.load()
	if err != nil {
		return err
	}
	for _, c := range f.Projects[root] {
		if c == command {
			return nil
		}
	}
	f.Projects[root] = append(f.Projects[root], command)
	return a.save(f)
}

// Revoke forgets command for root (missing is fine).
func (a *Approvals) Revoke(root, command string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := a.load()
	if err != nil {
		return err
	}
	var kept []string
	for _, c := range f.Projects[root] {
		if c != command {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		delete(f.Projects, root)
	} else {
		f.Projects[root] = kept
	}
	var kf []string
	for _, c := range f.Focused[root] {
		if c != command {
			kf = append(kf, c)
		}
	}
	if len(kf) == 0 {
		delete(f.Focused, root)
	} else {
		f.Focused[root] = kf
	}
	return a.save(f)
}

// Consent is what the user said before a command runs.
type Consent struct {
	// Yes is a blanket yes (the CLI's --yes): it approves what fixplan derived or
	// the user set, never a command the model proposed or the project chose.
	Yes bool
	// Confirmed: the user was shown this exact command, labelled with where it
	// came from, and approved it (a terminal answer, the window's Run button).
	Confirmed bool
}

// MayRun is fixplan's one rule for running a command, in the project or in a
// scratch copy: it runs when it is approved for this project (approvals.json in
// the config folder: `fixplan checks approve`, an earlier answer), when the user
// confirmed this exact command, or under a blanket yes when neither the model
// nor the project chose it. Every route that runs a command decides here.
func MayRun(c Check, by Consent) bool {
	return c.Approved || by.Confirmed || (by.Yes && !c.FromProject)
}

// NotApproved is the refusal of a command MayRun does not let run: why, and how
// to approve it.
func NotApproved(c Check) error {
	return plan.Errorf(plan.ErrInvalidInput, "`%s` is not approved: it was %s, and --yes never approves such a command", c.Command, c.Source).
		WithHint("answer yes to it on a terminal, or approve it with fixplan checks approve CMD")
}

// modelSource labels a command the model proposed wherever it is listed.
const modelSource = "proposed by the model"

// PlanCommand is command, one of a plan's commands_to_run, as a check: proposed
// by the model, approved only when this project's approvals hold it.
func (s *Session) PlanCommand(command string) Check {
	return Check{Command: command, Source: modelSource, FromProject: true, Approved: s.approvals.Approved(s.root, command)}
}
