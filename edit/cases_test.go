package edit

import (
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"fixplan/plan"
)

// TestCases runs every edit-placement case under testdata/cases: a txtar file
// per case holding the files before, the model's edit, and the files after or
// the refusal. The format is described in testdata/cases/README.md.
func TestCases(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(filepath.Join("testdata", "cases"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txtar") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no cases in testdata/cases")
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(p, filepath.Join("testdata", "cases")+string(filepath.Separator))), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			c, err := readCase(ar)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			c.run(t)
		})
	}
}

// editCase is one case: the project's files before the edit, the edit (a
// patch, or search/replace pairs per file), and either the files after (with,
// optionally, the placement notes) or the refusal.
type editCase struct {
	files      map[string][]byte
	patch      string
	pairs      []filePairs
	want       map[string][]byte
	placements []string // nil: not checked
	refusal    *caseRefusal
}

// filePairs are the search/replace pairs of one EDIT_FILE action.
type filePairs struct {
	path  string
	edits []plan.Edit
}

// caseRefusal is the error code a refused edit must have and the fragments its
// message must contain.
type caseRefusal struct {
	code      plan.Code
	fragments []string
}

func readCase(ar *txtar.Archive) (*editCase, error) {
	c := &editCase{files: map[string][]byte{}, want: map[string][]byte{}}
	for _, f := range ar.Files {
		name, data, err := caseText(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		switch {
		case name == "patch":
			c.patch = string(data)
		case strings.HasPrefix(name, "edit:"):
			path := strings.TrimSpace(strings.TrimPrefix(name, "edit:"))
			edits, err := readPairs(string(data))
			if err != nil {
				return nil, fmt.Errorf("section %q: %v", f.Name, err)
			}
			c.pairs = append(c.pairs, filePairs{path: path, edits: edits})
		case name == "placements":
			c.placements = []string{}
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if l != "" {
					c.placements = append(c.placements, l)
				}
			}
		case name == "refused":
			r, err := readRefusal(string(data))
			if err != nil {
				return nil, err
			}
			c.refusal = r
		case strings.HasPrefix(name, "want/"):
			c.want[strings.TrimPrefix(name, "want/")] = data
		default:
			c.files[name] = data
		}
	}
	switch {
	case (c.patch == "") == (len(c.pairs) == 0):
		return nil, fmt.Errorf("a case has either a patch section or edit: sections")
	case (c.refusal == nil) == (len(c.want) == 0):
		return nil, fmt.Errorf("a case has either want/ sections or a refused section")
	case c.refusal != nil && c.placements != nil:
		return nil, fmt.Errorf("a refused case places nothing: drop its placements section")
	}
	return c, nil
}

// caseText reads a section's name and its flags ("w.txt [crlf noeol]") and
// returns the name and the data as they are meant: [crlf] makes every line
// break CRLF, [noeol] drops the final line break.
func caseText(name string, data []byte) (string, []byte, error) {
	name = strings.TrimSpace(name)
	i := strings.LastIndex(name, " [")
	if i < 0 || !strings.HasSuffix(name, "]") {
		return name, data, nil
	}
	flags := strings.Fields(name[i+2 : len(name)-1])
	name = name[:i]
	s := string(data)
	for _, fl := range flags {
		switch fl {
		case "noeol":
			if !strings.HasSuffix(s, "\n") {
				return "", nil, fmt.Errorf("section %q: [noeol] on a section without a last line", name)
			}
			s = strings.TrimSuffix(s, "\n")
		case "crlf":
		default:
			return "", nil, fmt.Errorf("section %q: unknown flag %q (crlf, noeol)", name, fl)
		}
	}
	if slices.Contains(flags, "crlf") {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return name, []byte(s), nil
}

// readPairs reads search/replace blocks:
//
//	<<<<<<< SEARCH
//	lines to find
//	=======
//	lines to put in their place
//	>>>>>>> REPLACE
//
// Each line of a block ends with a line break; an empty replace block deletes.
func readPairs(s string) ([]plan.Edit, error) {
	var out []plan.Edit
	var search, replace *strings.Builder
	for n, l := range strings.SplitAfter(s, "\n") {
		switch strings.TrimRight(l, "\r\n") {
		case "<<<<<<< SEARCH":
			if search != nil {
				return nil, fmt.Errorf("line %d: a SEARCH block inside another", n+1)
			}
			search = &strings.Builder{}
			continue
		case "=======":
			if search == nil || replace != nil {
				return nil, fmt.Errorf("line %d: ======= outside a SEARCH block", n+1)
			}
			replace = &strings.Builder{}
			continue
		case ">>>>>>> REPLACE":
			if replace == nil {
				return nil, fmt.Errorf("line %d: REPLACE without =======", n+1)
			}
			out = append(out, plan.Edit{Search: search.String(), Replace: replace.String()})
			search, replace = nil, nil
			continue
		}
		switch {
		case replace != nil:
			replace.WriteString(l)
		case search != nil:
			search.WriteString(l)
		case strings.TrimSpace(l) != "":
			return nil, fmt.Errorf("line %d: text outside a SEARCH/REPLACE block", n+1)
		}
	}
	if search != nil {
		return nil, fmt.Errorf("an unfinished SEARCH/REPLACE block")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no SEARCH/REPLACE block")
	}
	return out, nil
}

// readRefusal reads the refused section: the error code on its first line,
// then the fragments of the message, separated by blank lines (the lines of
// one fragment must stand together in the message).
func readRefusal(s string) (*caseRefusal, error) {
	code, rest, _ := strings.Cut(s, "\n")
	r := &caseRefusal{code: plan.Code(strings.TrimSpace(code))}
	if !strings.HasPrefix(string(r.code), "ERR_") {
		return nil, fmt.Errorf("the refused section starts with an error code (ERR_…), not %q", code)
	}
	for _, f := range strings.Split(rest, "\n\n") {
		if f = strings.Trim(f, "\n"); f != "" {
			r.fragments = append(r.fragments, f)
		}
	}
	return r, nil
}

func (c *editCase) run(t *testing.T) {
	files := maps.Clone(c.files)
	var placed []string
	var err error
	if c.patch != "" {
		placed, err = applyPatch(t, files, c.patch)
	} else {
		for _, p := range c.pairs {
			before, ok := files[p.path]
			if !ok {
				t.Fatalf("the case edits %s but has no such file", p.path)
			}
			var after []byte
			var notes []string
			if after, notes, err = SearchReplace(p.path, before, p.edits); err != nil {
				break
			}
			files[p.path] = after
			placed = append(placed, prefixed(p.path, notes)...)
		}
	}
	if c.refusal != nil {
		if err == nil {
			t.Fatalf("applied, want %s; placements %q", c.refusal.code, placed)
		}
		if got := plan.CodeOf(err); got != c.refusal.code {
			t.Errorf("code %s, want %s: %v", got, c.refusal.code, err)
		}
		for _, f := range c.refusal.fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("the message lacks\n%s\nmessage:\n%v", f, err)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	for _, p := range slices.Sorted(maps.Keys(c.want)) {
		if got, ok := files[p]; !ok {
			t.Errorf("%s: missing, want %q", p, c.want[p])
		} else if string(got) != string(c.want[p]) {
			t.Errorf("%s:\ngot  %q\nwant %q", p, got, c.want[p])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if _, ok := c.want[p]; !ok {
			t.Errorf("%s: present after the edit, but the case does not want it", p)
		}
	}
	if c.placements != nil && !slices.Equal(placed, c.placements) {
		t.Errorf("placements\n%s\nwant\n%s", strings.Join(placed, "\n"), strings.Join(c.placements, "\n"))
	}
}

// applyPatch applies a unified diff or a *** Begin Patch envelope to files as a
// change to a tree: created, updated, moved and deleted files, each file's
// hunks or chunks placed by this package. It returns the placements ("path:
// note") or the first refusal. Path rules, files that are not there and two
// sections for one file are the engine's to check (package apply).
func applyPatch(t *testing.T, files map[string][]byte, patch string) ([]string, error) {
	t.Helper()
	have := func(p string) []byte {
		t.Helper()
		b, ok := files[p]
		if !ok {
			t.Fatalf("the patch changes %s but the case has no such file", p)
		}
		return b
	}
	var placed []string
	if IsBeginPatch(patch) {
		sections, err := ParseBeginPatch(patch)
		if err != nil {
			return nil, err
		}
		for _, s := range sections {
			switch s.Op {
			case AddFile:
				files[s.Path] = []byte(s.Content())
			case DeleteFile:
				have(s.Path)
				delete(files, s.Path)
			case UpdateFile:
				after, notes, err := s.Place(s.Path, have(s.Path))
				if err != nil {
					return nil, err
				}
				to := s.Path
				if s.MoveTo != "" {
					delete(files, s.Path)
					to = s.MoveTo
				}
				files[to] = after
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
		from := f.OldName
		if !f.IsNew {
			before = have(from)
		}
		to := f.NewName
		if f.IsNew {
			from = to
		}
		after, notes, err := Place(from, before, f.TextFragments)
		if err != nil {
			return nil, err
		}
		delete(files, from)
		if !f.IsDelete {
			files[to] = after
		}
		placed = append(placed, prefixed(from, notes)...)
	}
	return placed, nil
}

func prefixed(path string, notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = path + ": " + n
	}
	return out
}
