package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"time"

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

func planName(id string) string { return stateName("plans", id+".json") }

// SavePlan seals r with the per-user key and writes it to .fixplan/plans/<id>.json
// atomically. A foreign record is refused: sealing it would make it trusted.
func (e *Engine) SavePlan(r *plan.Record) error {
	if !validID(r.ID) {
		return plan.Errorf(plan.ErrInvalidInput, "invalid plan id %q", r.ID)
	}
	if r.Foreign {
		return foreignPlan(r.ID)
	}
	// Compact, like the journals: nothing reads the record by eye, and the seal is
	// over these exact bytes (an older indented record keeps its own and loads).
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode plan: %w", err)
	}
	if err := e.ensureStateDir("plans"); err != nil {
		return err
	}
	return fsutil.WriteFileAtomicIn(e.r, planName(r.ID), e.seal("plan", r.ID, b), 0o644)
}

// peekPlanState returns the state a stored plan's file names near its start
// (read unverified from its first bytes), or "" when it cannot tell. It may only
// be used to skip work: a plan is loaded and checked whole before it is obeyed.
func (e *Engine) peekPlanState(id string) plan.State {
	if !validID(id) || !e.stateReal(stateName("plans")) {
		return ""
	}
	if fi, err := e.r.Lstat(planName(id)); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	f, err := e.r.Open(planName(id))
	if err != nil {
		return ""
	}
	defer f.Close()
	var buf [1024]byte
	n, _ := io.ReadFull(f, buf[:])
	_, body, ok := bytes.Cut(buf[:n], []byte(`"body":`))
	if !ok {
		return ""
	}
	for _, key := range []string{`"state": "`, `"state":"`} {
		if _, rest, ok := bytes.Cut(body, []byte(key)); ok {
			if v, _, ok := bytes.Cut(rest, []byte(`"`)); ok {
				return plan.State(v)
			}
		}
	}
	return ""
}

// maxPlanFile bounds a plan file fixplan will read.
const maxPlanFile = 16 << 20

// maxPlanValues bounds the JSON values (json.Decoder tokens: brackets, keys,
// strings, numbers…) of a foreign plan file fixplan decodes to show it. A record
// fixplan writes holds a few thousand; a file under maxPlanFile of empty objects
// holds millions, and each becomes a struct of up to 152 bytes (2–3.8 GB).
// Decoded, a record within the bound takes at most ~25 MB beyond its strings.
// This user's sealed records are fixplan's own writing and are not counted.
const maxPlanValues = 100_000

// readPlan reads the file of stored plan id and returns the record's JSON and
// whether it is foreign (not sealed with this user's key; an unsealed file's
// whole content is returned as the record). With own, a foreign file is only
// reported (no body), its JSON not even scanned. It refuses with ERR_NOT_FOUND,
// and with ERR_FOREIGN_STATE a file that is not regular or over maxPlanFile, or
// a foreign one over maxPlanValues, before anything of it is decoded.
func (e *Engine) readPlan(id string, own bool) (body []byte, foreign bool, err error) {
	notFound := plan.Errorf(plan.ErrNotFound, "there is no plan %q in this project", id).WithHint("list plans in History or with fixplan history")
	if !validID(id) || !e.stateReal(stateName("plans")) {
		return nil, false, notFound
	}
	fi, err := e.r.Lstat(planName(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, notFound
	}
	if err != nil {
		return nil, false, fmt.Errorf("load plan %s: %w", id, err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxPlanFile {
		return nil, false, plan.Errorf(plan.ErrForeignState, "plan file .fixplan/plans/%s.json is not a regular file of a sane size", id).WithHint("delete it")
	}
	b, err := e.r.ReadFile(planName(id))
	if err != nil {
		return nil, false, fmt.Errorf("load plan %s: %w", id, err)
	}
	if own {
		var ok bool
		if body, ok = e.ownBody("plan", id, b); !ok {
			return nil, true, nil
		}
	}
	var serr error
	if !own {
		body, serr = e.unseal("plan", id, b)
		if errors.Is(serr, errMalformed) {
			body = b // an unsealed record: shown as foreign at most
		}
	}
	if serr != nil && tooManyValues(body, maxPlanValues) {
		return nil, false, plan.Errorf(plan.ErrForeignState, "plan file .fixplan/plans/%s.json holds more than %d JSON values and is not sealed by your fixplan; it is not read", id, maxPlanValues).WithHint("delete it")
	}
	return body, serr != nil, nil
}

// tooManyValues reports whether the JSON text b holds more than max values.
// Each object or array is two tokens, and every key or value but the first
// follows a {, [, comma or colon: 1 + 3 × the brackets opened + the commas and
// colons, counted as bytes (in strings too), is a cheap upper bound. Only a
// text above it is counted exactly, token by token, stopping past max.
func tooManyValues(b []byte, max int) bool {
	opens := bytes.Count(b, []byte("{")) + bytes.Count(b, []byte("["))
	if 1+3*opens+bytes.Count(b, []byte(","))+bytes.Count(b, []byte(":")) <= max {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for n := 0; n <= max; n++ {
		if _, err := dec.Token(); err != nil {
			return false // the end, or a damaged text: Unmarshal says which
		}
	}
	return true
}

// LoadPlan reads a stored plan; ERR_NOT_FOUND when there is none with that id. A
// plan not sealed with this user's key (shipped with the project, or edited) is
// returned with Foreign set: it may be shown, never applied. A file that is not
// a record fixplan could have written is refused (readPlan).
func (e *Engine) LoadPlan(id string) (*plan.Record, error) {
	body, foreign, err := e.readPlan(id, false)
	if err != nil {
		return nil, err
	}
	var r plan.Record
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, plan.Errorf(plan.ErrIO, "plan file .fixplan/plans/%s.json is damaged: %v", id, err).WithHint("delete it")
	}
	r.Foreign = foreign
	if r.ID != id {
		r.Foreign = true
		r.ID = id
	}
	if r.Foreign {
		r.Verification = nil // a shipped plan's claim to be verified is never shown
	}
	return &r, nil
}

// loadOwnPlan is LoadPlan for this user's plans only: a foreign file is not
// decoded (nil, nil).
func (e *Engine) loadOwnPlan(id string) (*plan.Record, error) {
	body, foreign, err := e.readPlan(id, true)
	if err != nil || foreign {
		return nil, err
	}
	var r plan.Record
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, plan.Errorf(plan.ErrIO, "plan file .fixplan/plans/%s.json is damaged: %v", id, err).WithHint("delete it")
	}
	if r.ID != id {
		return nil, nil // sealed for this id but naming another: foreign
	}
	return &r, nil
}

// PlanInfo is what a list of plans shows of one stored plan.
type PlanInfo struct {
	ID        string     `json:"id"`
	CreatedAt time.Time  `json:"created_at"`
	State     plan.State `json:"state"`
	Summary   string     `json:"summary"` // the plan's summary
	Problem   string     `json:"problem"` // the problem text it was made for
	// Files is how many files the plan changes.
	Files int `json:"files"`
	// Foreign: not sealed by this user's fixplan (shipped, or edited); shown,
	// never applied.
	Foreign bool `json:"foreign,omitempty"`
	// PlanOnly: the approach was asked for without changes; ApprovedPlan: these
	// changes were written for that approved plan (docs/CONTRACT.md §3).
	PlanOnly     bool   `json:"plan_only,omitempty"`
	ApprovedPlan string `json:"approved_plan,omitempty"`
}

// recordHead is the part of a stored record PlanInfo shows. Decoding a record
// into it skips the rest of the body without building it, and the changes are
// counted as empty structs, which take no memory.
type recordHead struct {
	ID        string     `json:"id"`
	CreatedAt time.Time  `json:"created_at"`
	State     plan.State `json:"state"`
	Input     struct {
		Problem  string `json:"problem"`
		PlanOnly bool   `json:"plan_only"`
	} `json:"input"`
	Plan struct {
		Summary string `json:"summary"`
	} `json:"plan"`
	Changes      []struct{} `json:"changes"`
	ApprovedPlan string     `json:"approved_plan"`
}

// planInfo reads what a list shows of stored plan id.
func (e *Engine) planInfo(id string) (PlanInfo, error) {
	body, foreign, err := e.readPlan(id, false)
	if err != nil {
		return PlanInfo{}, err
	}
	var h recordHead
	if err := json.Unmarshal(body, &h); err != nil {
		return PlanInfo{}, plan.Errorf(plan.ErrIO, "plan file .fixplan/plans/%s.json is damaged: %v", id, err).WithHint("delete it")
	}
	return PlanInfo{ID: id, CreatedAt: h.CreatedAt, State: h.State, Summary: h.Plan.Summary, Problem: h.Input.Problem,
		Files: len(h.Changes), Foreign: foreign || h.ID != id, PlanOnly: h.Input.PlanOnly, ApprovedPlan: h.ApprovedPlan}, nil
}

// Plans lists every stored plan, newest first (by the sealed creation time;
// foreign plans, marked, after). Only what a list shows is decoded of each
// (PlanInfo); files that are not plan records are skipped.
func (e *Engine) Plans() ([]PlanInfo, error) {
	out := []PlanInfo{}
	if !e.stateReal(stateName("plans")) {
		return out, nil
	}
	ents, err := fs.ReadDir(e.r.FS(), ".fixplan/plans")
	if err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	for _, d := range ents {
		if n := d.Name(); strings.HasSuffix(n, ".json") && d.Type().IsRegular() {
			if in, err := e.planInfo(strings.TrimSuffix(n, ".json")); err == nil {
				out = append(out, in)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Foreign != out[j].Foreign {
			return !out[i].Foreign
		}
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// RecentPlans returns this user's plans among the n stored plans whose file
// names sort last — plan ids begin with their UTC creation time, so these are
// the newest — newest first. Foreign plans count among the n but are not
// decoded. Unlike Plans its cost does not grow with the project's history (the
// edit-format choice reads it on every plan).
func (e *Engine) RecentPlans(n int) ([]plan.Record, error) {
	out := []plan.Record{}
	if n <= 0 || !e.stateReal(stateName("plans")) {
		return out, nil
	}
	ents, err := fs.ReadDir(e.r.FS(), ".fixplan/plans") // sorted by name
	if err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	for i, seen := len(ents)-1, 0; i >= 0 && seen < n; i-- {
		d := ents[i]
		if name := d.Name(); strings.HasSuffix(name, ".json") && d.Type().IsRegular() {
			seen++
			if r, err := e.loadOwnPlan(strings.TrimSuffix(name, ".json")); err == nil && r != nil {
				out = append(out, *r)
			}
		}
	}
	return out, nil
}

// LatestDraft returns this user's newest plan not yet applied; ERR_NO_PLAN when
// none. Foreign plans are never picked.
// Plans whose file says they are past draft are not loaded.
func (e *Engine) LatestDraft() (*plan.Record, error) {
	var best *plan.Record
	if e.stateReal(stateName("plans")) {
		ents, err := fs.ReadDir(e.r.FS(), ".fixplan/plans")
		if err != nil {
			return nil, fmt.Errorf("list plans: %w", err)
		}
		for _, d := range ents {
			n := d.Name()
			if !strings.HasSuffix(n, ".json") || !d.Type().IsRegular() {
				continue
			}
			id := strings.TrimSuffix(n, ".json")
			if st := e.peekPlanState(id); st != "" && st != plan.StateDraft {
				continue
			}
			r, err := e.loadOwnPlan(id)
			if err != nil || r == nil || r.State != plan.StateDraft {
				continue
			}
			if best == nil || r.CreatedAt.After(best.CreatedAt) || r.CreatedAt.Equal(best.CreatedAt) && r.ID > best.ID {
				best = r
			}
		}
	}
	if best == nil {
		return nil, plan.Errorf(plan.ErrNoPlan, "there is no unapplied plan of yours in this project").WithHint("make one with fixplan plan")
	}
	return best, nil
}

// SaveNote keeps a small piece of this user's state (e.g. the last check output)
// as .fixplan/logs/<name>, sealed like plans and written through the root.
func (e *Engine) SaveNote(name, text string) error {
	if !validID(name) {
		return plan.Errorf(plan.ErrInvalidInput, "invalid note name %q", name)
	}
	b, err := json.Marshal(text)
	if err != nil {
		return err
	}
	if err := e.ensureStateDir("logs"); err != nil {
		return err
	}
	// 0600: a note holds command output, which may hold secrets.
	return fsutil.WriteFileAtomicIn(e.r, stateName("logs", name), e.seal("note", name, b), 0o600)
}

// LoadNote returns a note saved by SaveNote; "" when there is none, or when the
// file was not written by this user's fixplan (a shipped one is never used).
func (e *Engine) LoadNote(name string) string {
	if !validID(name) || !e.stateReal(stateName("logs")) {
		return ""
	}
	fi, err := e.r.Lstat(stateName("logs", name))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPlanFile {
		return ""
	}
	b, err := e.r.ReadFile(stateName("logs", name))
	if err != nil {
		return ""
	}
	body, err := e.unseal("note", name, b)
	if err != nil {
		return ""
	}
	var s string
	if json.Unmarshal(body, &s) != nil {
		return ""
	}
	return s
}

// RemoveNote deletes a note (missing is fine).
func (e *Engine) RemoveNote(name string) {
	if validID(name) && e.stateReal(stateName("logs")) {
		_ = e.r.Remove(stateName("logs", name))
	}
}
