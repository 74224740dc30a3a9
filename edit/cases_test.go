package edit

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fixplan/internal/editcase"
	"fixplan/plan"
)

// TestCases runs every edit-placement case under testdata/cases: a txtar file
// per case holding the files before, the model's edit, and the files after or
// the refusal. The format is described in testdata/cases/README.md; the tests
// of package apply run the same cases through the engine, on disk.
func TestCases(t *testing.T) {
	cases, err := editcase.Load(filepath.Join("testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			files := maps.Clone(c.Files)
			var placed []string
			var err error
			if c.Patch != "" {
				placed, err = applyPatch(files, c.Patch)
			} else {
				placed, err = applyPairs(files, c.Pairs)
			}
			for _, p := range c.Check(files, placed, err) {
				t.Error(p)
			}
		})
	}
}

// applyPairs applies the search/replace pairs of each EDIT_FILE action to files.
func applyPairs(files map[string][]byte, pairs []editcase.FilePairs) ([]string, error) {
	var placed []string
	for _, p := range pairs {
		before, ok := files[p.Path]
		if !ok {
			return nil, notFound(p.Path)
		}
		after, notes, err := SearchReplace(p.Path, before, p.Edits)
		if err != nil {
			return nil, err
		}
		files[p.Path] = after
		placed = append(placed, prefixed(p.Path, notes)...)
	}
	return placed, nil
}

// applyPatch applies a unified diff or a *** Begin Patch envelope to files as a
// change to a tree: created, updated, moved and deleted files, each file's
// hunks or chunks placed by this package. It returns the placements ("path:
// note") or the first refusal. It keeps the engine's rules for the tree (a
// file created over another, changed or deleted when it is not there, moved
// onto another, changed by two sections), and like the engine it places every
// section on the files as they were before the patch; path rules are the
// engine's alone (package apply runs every case through it).
func applyPatch(files map[string][]byte, patch string) ([]string, error) {
	var placed []string
	orig := maps.Clone(files)
	seen := map[string]bool{}
	once := func(paths ...string) error {
		for _, p := range paths {
			if p != "" && seen[p] {
				return plan.Errorf(plan.ErrActionConflict, "the patch changes %s in two separate sections", p)
			}
		}
		for _, p := range paths {
			seen[p] = true
		}
		return nil
	}
	if IsBeginPatch(patch) {
		sections, err := ParseBeginPatch(patch)
		if err != nil {
			return nil, err
		}
		for _, s := range sections {
			if err := once(s.Path); err != nil {
				return nil, err
			}
			switch s.Op {
			case AddFile:
				if err := create(files, s.Path, []byte(s.Content())); err != nil {
					return nil, err
				}
			case DeleteFile:
				if _, ok := orig[s.Path]; !ok {
					return nil, notFound(s.Path)
				}
				delete(files, s.Path)
			case UpdateFile:
				before, ok := orig[s.Path]
				if !ok {
					return nil, notFound(s.Path)
				}
				after, notes, err := s.Place(s.Path, before)
				if err != nil {
					return nil, err
				}
				if err := move(files, s.Path, s.MoveTo, after); err != nil {
					return nil, err
				}
				placed = append(placed, prefixed(s.Path, notes)...)
			}
		}
		return placed, nil
	}
	diffs, err := ParseDiff(patch)
	if err != nil {
		return nil, err
	}
	for _, f := range diffs {
		var before []byte
		from, to := f.OldName, f.NewName
		if f.IsNew {
			from = to
		}
		if !f.IsNew {
			var ok bool
			if before, ok = orig[from]; !ok {
				return nil, notFound(from)
			}
		}
		after, notes, err := Place(from, before, f.TextFragments)
		if err != nil {
			return nil, err
		}
		if err := once(from, to); err != nil {
			return nil, err
		}
		switch {
		case f.IsNew:
			err = create(files, to, after)
		case f.IsDelete:
			if strings.TrimSpace(string(after)) != "" {
				err = plan.Errorf(plan.ErrPatchApplyFailed, "the patch deletes %s but does not remove all of its lines", from)
			}
			delete(files, from)
		default:
			err = move(files, from, to, after)
		}
		if err != nil {
			return nil, err
		}
		placed = append(placed, prefixed(from, notes)...)
	}
	return placed, nil
}

// create adds a file, as the engine does: refused over a file with other content.
func create(files map[string][]byte, p string, b []byte) error {
	if old, ok := files[p]; ok && string(ToLF(old)) != string(ToLF(b)) {
		return plan.Errorf(plan.ErrAlreadyExists, "%s already exists", p)
	}
	files[p] = b
	return nil
}

// move writes after as the file from's new content, at to when it moves (a
// move onto another file is refused, as the engine refuses it).
func move(files map[string][]byte, from, to string, after []byte) error {
	if to == "" || to == from {
		files[from] = after
		return nil
	}
	if _, ok := files[to]; ok {
		return plan.Errorf(plan.ErrAlreadyExists, "cannot move %s to %s: it already exists", from, to)
	}
	delete(files, from)
	files[to] = after
	return nil
}

func notFound(p string) error {
	return plan.Errorf(plan.ErrNotFound, "%s does not exist as a file", p)
}

func prefixed(path string, notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = path + ": " + n
	}
	return out
}

// TestPeerCasesAreListed checks docs/EDIT-COMPAT.md against the ported cases:
// its table of differences lists exactly the cases whose verdict is not
// "same", each with its verdict, and its counts are the cases' counts.
func TestPeerCasesAreListed(t *testing.T) {
	cases, err := editcase.Load(filepath.Join("testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "EDIT-COMPAT.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{} // case → verdict, from the table of differences
	counted := map[string][]string{}
	for _, l := range strings.Split(string(doc), "\n") {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		switch {
		case strings.HasPrefix(l, "| `") && len(cells) >= 2:
			name := strings.Trim(cells[0], "`")
			if _, dup := listed[name]; dup {
				t.Errorf("%s is listed twice", name)
			}
			listed[name] = cells[1]
		case len(cells) == 6 && (slices.Contains(editcase.PeerFolders, cells[0]) || cells[0] == "all"):
			counted[cells[0]] = cells[1:]
		}
	}
	count := map[string][]int{}
	for _, c := range cases {
		if c.Peer == "" {
			continue
		}
		suite := strings.Split(c.Name, "/")[0]
		for _, s := range []string{suite, "all"} {
			if count[s] == nil {
				count[s] = make([]int, 1+len(editcase.Peers))
			}
			count[s][0]++
			count[s][1+slices.Index(editcase.Peers, c.Peer)]++
		}
		v, ok := listed[c.Name]
		switch {
		case c.Peer == "same" && ok:
			t.Errorf("%s is listed as %s, but its case says peer: same", c.Name, v)
		case c.Peer != "same" && !ok:
			t.Errorf("%s (peer: %s) is not listed in docs/EDIT-COMPAT.md", c.Name, c.Peer)
		case ok && v != c.Peer:
			t.Errorf("%s is listed as %s, but its case says peer: %s", c.Name, v, c.Peer)
		}
		delete(listed, c.Name)
	}
	for name := range listed {
		t.Errorf("docs/EDIT-COMPAT.md lists %s, which is not a ported case", name)
	}
	for s, n := range count {
		want := make([]string, len(n))
		for i, k := range n {
			want[i] = fmt.Sprint(k)
		}
		if !slices.Equal(counted[s], want) {
			t.Errorf("docs/EDIT-COMPAT.md counts %s as %v (cases, %s), the cases say %v", s, counted[s], strings.Join(editcase.Peers, ", "), want)
		}
	}
	t.Logf("ported cases (cases, %s): %v", strings.Join(editcase.Peers, ", "), count)
}
