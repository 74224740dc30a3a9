package apply

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fixplan/plan"
)

// TestPlanRecordsAreCompactAndOldIndentedOnesStillLoad: a saved plan record is
// compact JSON like the journals (its seal over exactly what is written, so it
// loads as this user's), and a record an earlier fixplan wrote indented — sealed
// over its indented bytes — is still this user's: loaded, listed, peeked and
// picked as the latest draft.
func TestPlanRecordsAreCompactAndOldIndentedOnesStillLoad(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n"})
	e := open(t, root, nil)
	defer e.Close()
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

	fresh := &plan.Record{ID: "20260101-120000.000000-aaaaaa", CreatedAt: at, State: plan.StateApplied, Plan: planOf()}
	if err := e.SavePlan(fresh); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(root, ".fixplan", "plans", fresh.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var env envelope
	if err := json.Unmarshal(file, &env); err != nil {
		t.Fatalf("the saved record is not an envelope: %v\n%s", err, file)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, env.Body); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(env.Body, compact.Bytes()) {
		t.Errorf("the saved record's body is not compact JSON:\n%s", env.Body)
	}
	if !bytes.Contains(env.Body, []byte(`"state":"applied"`)) {
		t.Errorf("the saved record does not say \"state\":\"applied\":\n%s", env.Body)
	}
	if r, err := e.LoadPlan(fresh.ID); err != nil || r.Foreign || r.State != plan.StateApplied {
		t.Fatalf("LoadPlan(compact) = %+v, %v; want this user's applied plan", r, err)
	}

	old := &plan.Record{ID: "20260101-130000.000000-bbbbbb", CreatedAt: at.Add(time.Hour), State: plan.StateDraft, Plan: planOf()}
	indented, err := json.MarshalIndent(old, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".fixplan", "plans", old.ID+".json"), e.seal("plan", old.ID, indented), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := e.LoadPlan(old.ID)
	if err != nil || r.Foreign || r.State != plan.StateDraft {
		t.Fatalf("LoadPlan(indented) = %+v, %v; want this user's draft", r, err)
	}
	if st := e.peekPlanState(old.ID); st != plan.StateDraft {
		t.Errorf("peeked state of the indented record = %q, want draft", st)
	}
	if st := e.peekPlanState(fresh.ID); st != plan.StateApplied {
		t.Errorf("peeked state of the compact record = %q, want applied", st)
	}
	all, err := e.Plans()
	if err != nil || len(all) != 2 || all[0].ID != old.ID || all[1].ID != fresh.ID || all[0].Foreign || all[1].Foreign {
		t.Errorf("Plans = %+v, %v; want both, the indented one first, neither foreign", all, err)
	}
	if got, err := e.LatestDraft(); err != nil || got.ID != old.ID {
		t.Errorf("LatestDraft = %v, %v; want the indented draft %s", got, err, old.ID)
	}
}
