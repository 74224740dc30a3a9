// Package editcase reads the edit-placement cases under edit/testdata/cases
// (described in its README.md) and checks an outcome against one: the tests of
// package edit run each case through the placement functions, the tests of
// package apply run the same cases through the engine, on disk. For tests
// only.
package editcase

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"fixplan/plan"
)

// A Case is one case: the project's files before the edit, the edit (a patch,
// or search/replace pairs per file), and either the files after (with,
// optionally, the placement notes) or the refusal.
type Case struct {
	// Name is the case's path under the cases folder, without ".txtar".
	Name string
	// Peer is a ported case's verdict on its "peer:" line (same, safer,
	// different or refused; see Peers), "" for fixplan's own cases.
	Peer  string
	Files map[string][]byte
	// Patch is the model's patch field: a unified diff or a Begin Patch envelope.
	Patch string
	// Pairs are the search/replace pairs of EDIT_FILE actions, one per file.
	Pairs      []FilePairs
	Want       map[string][]byte
	Placements []string // nil: not checked
	Refusal    *Refusal
}

// FilePairs are the search/replace pairs of one EDIT_FILE action.
type FilePairs struct {
	Path  string
	Edits []plan.Edit
}

// Refusal is the error code a refused edit must have and the fragments its
// message must contain.
type Refusal struct {
	Code      plan.Code
	Fragments []string
}

// Peers are the verdicts a ported case gives on its "peer:" line: the same
// result as the other tool's test expects (the same files, or both refuse);
// safer (the other tool writes something fixplan refuses as unsafe);
// different (both write, or fixplan writes where the other refuses, and the
// results differ); refused (the other tool applies, fixplan refuses).
var Peers = []string{"same", "safer", "different", "refused"}

// PeerFolders are the folders of ported cases, named for the tool whose test
// suite they come from.
var PeerFolders = []string{"codex", "git", "cline", "aider"}

// Load reads every case under dir (the cases folder), in path order.
func Load(dir string) ([]*Case, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txtar") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no cases in %s", dir)
	}
	var out []*Case
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(dir, p)
		c, err := Parse(strings.TrimSuffix(filepath.ToSlash(rel), ".txtar"), data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Parse reads one case; name is its path under the cases folder without
// ".txtar" (a ported case's folder names its tool).
func Parse(name string, data []byte) (*Case, error) {
	ar := txtar.Parse(data)
	c := &Case{Name: name, Files: map[string][]byte{}, Want: map[string][]byte{}}
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(l, "peer:"); ok {
			c.Peer = strings.TrimSpace(v)
		}
	}
	for _, f := range ar.Files {
		name, data, err := sectionText(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		switch {
		case name == "patch":
			c.Patch = string(data)
		case strings.HasPrefix(name, "edit:"):
			path := strings.TrimSpace(strings.TrimPrefix(name, "edit:"))
			edits, err := readPairs(string(data))
			if err != nil {
				return nil, fmt.Errorf("section %q: %v", f.Name, err)
			}
			c.Pairs = append(c.Pairs, FilePairs{Path: path, Edits: edits})
		case name == "placements":
			c.Placements = []string{}
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if l != "" {
					c.Placements = append(c.Placements, l)
				}
			}
		case name == "refused":
			r, err := readRefusal(string(data))
			if err != nil {
				return nil, err
			}
			c.Refusal = r
		case strings.HasPrefix(name, "want/"):
			c.Want[strings.TrimPrefix(name, "want/")] = data
		default:
			c.Files[name] = data
		}
	}
	ported := slices.Contains(PeerFolders, strings.Split(c.Name, "/")[0])
	switch {
	case (c.Patch == "") == (len(c.Pairs) == 0):
		return nil, fmt.Errorf("a case has either a patch section or edit: sections")
	case (c.Refusal == nil) == (len(c.Want) == 0):
		return nil, fmt.Errorf("a case has either want/ sections or a refused section")
	case c.Refusal != nil && c.Placements != nil:
		return nil, fmt.Errorf("a refused case places nothing: drop its placements section")
	case ported && !slices.Contains(Peers, c.Peer):
		return nil, fmt.Errorf("a ported case says how fixplan compares with its tool on a line \"peer: %s\", not %q", strings.Join(Peers, "|"), c.Peer)
	case !ported && c.Peer != "":
		return nil, fmt.Errorf("only ported cases (in %s) have a peer: line", strings.Join(PeerFolders, ", "))
	}
	return c, nil
}

// sectionText reads a section's name and its flags ("w.txt [crlf noeol]") and
// returns the name and the data as they are meant: [crlf] makes every line
// break CRLF, [noeol] drops the final line break.
func sectionText(name string, data []byte) (string, []byte, error) {
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
func readRefusal(s string) (*Refusal, error) {
	code, rest, _ := strings.Cut(s, "\n")
	r := &Refusal{Code: plan.Code(strings.TrimSpace(code))}
	if !strings.HasPrefix(string(r.Code), "ERR_") {
		return nil, fmt.Errorf("the refused section starts with an error code (ERR_…), not %q", code)
	}
	for _, f := range strings.Split(rest, "\n\n") {
		if f = strings.Trim(f, "\n"); f != "" {
			r.Fragments = append(r.Fragments, f)
		}
	}
	return r, nil
}

// Check compares an outcome with the case: the project's files after the edit
// and the placements ("path: note"; nil: not compared), or the refusal err.
// It returns what differs, one problem a line; none when the outcome is the
// case's.
func (c *Case) Check(files map[string][]byte, placed []string, err error) []string {
	var bad []string
	if c.Refusal != nil {
		if err == nil {
			return []string{fmt.Sprintf("applied, want %s; placements %q", c.Refusal.Code, placed)}
		}
		if got := plan.CodeOf(err); got != c.Refusal.Code {
			bad = append(bad, fmt.Sprintf("code %s, want %s: %v", got, c.Refusal.Code, err))
		}
		for _, f := range c.Refusal.Fragments {
			if !strings.Contains(err.Error(), f) {
				bad = append(bad, fmt.Sprintf("the message lacks\n%s\nmessage:\n%v", f, err))
			}
		}
		return bad
	}
	if err != nil {
		return []string{fmt.Sprintf("refused: %v", err)}
	}
	for _, p := range slices.Sorted(maps.Keys(c.Want)) {
		if got, ok := files[p]; !ok {
			bad = append(bad, fmt.Sprintf("%s: missing, want %q", p, c.Want[p]))
		} else if string(got) != string(c.Want[p]) {
			bad = append(bad, fmt.Sprintf("%s:\ngot  %q\nwant %q", p, got, c.Want[p]))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if _, ok := c.Want[p]; !ok {
			bad = append(bad, fmt.Sprintf("%s: present after the edit, but the case does not want it", p))
		}
	}
	if c.Placements != nil && placed != nil && !slices.Equal(placed, c.Placements) {
		bad = append(bad, fmt.Sprintf("placements\n%s\nwant\n%s", strings.Join(placed, "\n"), strings.Join(c.Placements, "\n")))
	}
	return bad
}
