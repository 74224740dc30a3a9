package apply

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fixplan/internal/fsutil"
	"fixplan/plan"
)

// validID accepts the ids fixplan makes (no separators, no dots at the start).
func validID(id string) bool {
	if id == "" || len(id) > 100 || strings.HasPrefix(id, ".") {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return true
}

func (e *Engine) planPath(id string) string { return e.stateDir("plans", id+".json") }

// SavePlan writes r to .fixplan/plans/<id>.json atomically.
func (e *Engine) SavePlan(r *plan.Record) error {
	if !validID(r.ID) {
		return plan.Errorf(plan.ErrInvalidInput, "invalid plan id %q", r.ID)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode plan: %w", err)
	}
	if err := e.ensureStateDir(); err != nil {
		return err
	}
	dir := e.stateDir("plans")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save plan: %w", err)
	}
	return fsutil.WriteFileAtomic(e.planPath(r.ID), append(b, '\n'), 0o644)
}

// LoadPlan reads a stored plan; ERR_NOT_FOUND when there is none with that id.
func (e *Engine) LoadPlan(id string) (*plan.Record, error) {
	if !validID(id) {
		return nil, plan.Errorf(plan.ErrNotFound, "there is no plan %q", id).WithHint("list plans in History or .fixplan/plans")
	}
	b, err := os.ReadFile(e.planPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, plan.Errorf(plan.ErrNotFound, "there is no plan %q in this project", id).WithHint("list plans in History or .fixplan/plans")
	}
	if err != nil {
		return nil, fmt.Errorf("load plan %s: %w", id, err)
	}
	var r plan.Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, plan.Errorf(plan.ErrIO, "plan file %s is damaged: %v", e.planPath(id), err)
	}
	return &r, nil
}

// Plans returns every stored plan, newest first. Damaged files are skipped.
func (e *Engine) Plans() ([]plan.Record, error) {
	ents, err := os.ReadDir(e.stateDir("plans"))
	if errors.Is(err, fs.ErrNotExist) {
		return []plan.Record{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	var ids []string
	for _, d := range ents {
		if n := d.Name(); strings.HasSuffix(n, ".json") && !d.IsDir() {
			ids = append(ids, strings.TrimSuffix(n, ".json"))
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	out := []plan.Record{}
	for _, id := range ids {
		if r, err := e.LoadPlan(id); err == nil {
			out = append(out, *r)
		}
	}
	return out, nil
}

// LatestDraft returns the newest plan not yet applied; ERR_NO_PLAN when none.
func (e *Engine) LatestDraft() (*plan.Record, error) {
	all, err := e.Plans()
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].State == plan.StateDraft {
			return &all[i], nil
		}
	}
	return nil, plan.Errorf(plan.ErrNoPlan, "there is no unapplied plan in this project").WithHint("make one with fixplan plan")
}

func (e *Engine) txDir(id string) string { return filepath.Join(e.stateDir("tx"), id) }
