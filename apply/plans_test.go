package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// bomb is a plan file under the 16 MiB cap whose body decodes to millions of
// empty values in one of the record's lists (issue 22: 2–3.8 GB for fixplan
// plan, history and apply).
func bomb(id, field, item string, size int) []byte {
	head := fmt.Sprintf(`{"id":%q,"created_at":"2999-01-01T00:00:00Z","state":"draft","plan":{"summary":"shipped"},%q:[`, id, field)
	n := (size - len(head)) / (len(item) + 1)
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(head)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// TestShippedPlanBombsAreBounded: plan files a clone ships that decode to
// millions of values are refused when opened, and listing, picking the latest
// draft or the recent plans reads them within a bound instead of building them.
func TestShippedPlanBombsAreBounded(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "old\n"})
	e := open(t, root, nil)
	defer e.Close()
	own := draft(t, e, planOf(act(plan.UpdateFile, "a.txt", str("mine\n"))))
	other := &Engine{opt: Options{Key: []byte("someone-else's-key-0123456789abcd")}}
	const size = maxPlanFile - 1<<20
	for _, tc := range []struct{ name, field, item string }{
		{"changes of empty objects", "changes", "{}"},
		{"warnings of empty strings", "warnings", `""`},
		{"rounds of empty objects", "rounds", "{}"},
	} {
		for _, sealed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s sealed=%v", tc.name, sealed), func(t *testing.T) {
				id := "29990101-000000.000000-bbbbbb"
				body := bomb(id, tc.field, tc.item, size)
				if sealed {
					body = other.seal("plan", id, body)
				}
				p := filepath.Join(root, ".fixplan", "plans", id+".json")
				if err := os.WriteFile(p, body, 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(p)
				const bound = 40 << 20 // the file is read once or twice; nothing of the bomb is built (was 3.7 GB)
				var err error
				var r *plan.Record
				if n := allocated(func() { r, err = e.LoadPlan(id) }); n > bound {
					t.Errorf("LoadPlan allocated %d MB", n>>20)
				}
				if plan.CodeOf(err) != plan.ErrForeignState || !strings.Contains(err.Error(), "JSON values") {
					t.Errorf("LoadPlan = %v (a record: %v); want ERR_FOREIGN_STATE (too many JSON values)", err, r != nil)
				}
				var all []PlanInfo
				if n := allocated(func() { all, err = e.Plans() }); n > bound {
					t.Errorf("Plans allocated %d MB", n>>20)
				}
				if err != nil || len(all) != 1 || all[0].ID != own.ID {
					t.Errorf("Plans = %d plans, %v; want only the user's own plan", len(all), err)
				}
				var latest *plan.Record
				if n := allocated(func() { latest, err = e.LatestDraft() }); n > bound {
					t.Errorf("LatestDraft allocated %d MB", n>>20)
				}
				if err != nil || latest.ID != own.ID {
					t.Errorf("LatestDraft = %v; want %s", err, own.ID)
				}
				var recent []plan.Record
				if n := allocated(func() { recent, err = e.RecentPlans(60) }); n > bound {
					t.Errorf("RecentPlans allocated %d MB", n>>20)
				}
				if err != nil || len(recent) != 1 || recent[0].ID != own.ID {
					t.Errorf("RecentPlans = %d records, %v; want the user's own plan", len(recent), err)
				}
			})
		}
	}
}

// A foreign record within maxPlanValues is shown: decoded, it takes what the
// bound promises.
func TestForeignPlanWithinTheBoundIsShown(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "old\n"})
	e := open(t, root, nil)
	defer e.Close()
	draft(t, e, planOf(act(plan.UpdateFile, "a.txt", str("mine\n"))))
	id := "29990101-000000.000000-cccccc"
	body := bomb(id, "changes", "{}", 3*(maxPlanValues/2-100)) // ~49,900 changes: 99,800 values and the head
	if err := os.WriteFile(filepath.Join(root, ".fixplan", "plans", id+".json"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	var r *plan.Record
	var err error
	if n := allocated(func() { r, err = e.LoadPlan(id) }); n > 32<<20 {
		t.Errorf("LoadPlan allocated %d MB", n>>20)
	}
	if err != nil || !r.Foreign || len(r.Changes) < 49000 {
		t.Fatalf("LoadPlan = %v; want the foreign record with its ~50,000 changes", err)
	}
	all, err := e.Plans()
	if err != nil || len(all) != 2 || all[1].ID != id || !all[1].Foreign || all[1].Files != len(r.Changes) || all[1].Summary != "shipped" {
		t.Errorf("Plans = %+v, %v", all, err)
	}
}

// tooManyValues counts json.Decoder tokens exactly: brackets and commas inside
// strings do not count, and the bound is inclusive.
func TestTooManyValues(t *testing.T) {
	for _, tc := range []struct {
		text string
		max  int
		want bool
	}{
		{`{"a":[1,2]}`, 7, false}, // { a [ 1 2 ] }
		{`{"a":[1,2]}`, 6, true},
		{`{"a":"{[,:{[,:{[,:"}`, 4, false}, // { a "…" }
		{`{"a":"{[,:{[,:{[,:"}`, 3, true},
		{`[{},{},{}]`, 8, false},
		{`[{},{},{}]`, 7, true},
		{`[{},{},`, 5, false}, // damaged after 5 values: Unmarshal reports it
	} {
		if got := tooManyValues([]byte(tc.text), tc.max); got != tc.want {
			t.Errorf("tooManyValues(%s, %d) = %v, want %v", tc.text, tc.max, got, tc.want)
		}
	}
}
