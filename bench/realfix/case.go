package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A Case is one real fix, stored as bench/realfix/cases/<id>.json. Its pre-fix
// tree is the Parent commit with the fix commit's versions of TestFiles laid
// over it (the regression test, added or changed by the fix), so running Test
// there fails for the reason the fix removed; at the Fix commit it passes.
type Case struct {
	ID      string `json:"id"`      // <short repo name>-<first 10 hex of Fix>
	Repo    string `json:"repo"`    // owner/name on GitHub
	Fix     string `json:"fix"`     // the fix commit
	Parent  string `json:"parent"`  // its first parent
	Lang    string `json:"lang"`    // go, python, js or ts
	Subject string `json:"subject"` // the fix commit's subject line
	// GoMod, when set, is the module path of a go.mod the runner writes into a
	// tree that has none (a repository from before modules).
	GoMod string `json:"go_mod,omitempty"`
	// Setup runs in the tree before Test (verify only): the test runner's own
	// packages for a JavaScript project.
	Setup [][]string `json:"setup,omitempty"`
	// Test runs in the tree's root and runs only the fix's regression tests.
	Test      []string `json:"test"`
	TestFiles []string `json:"test_files"` // taken from Fix into the pre-fix tree
	// Functions are the functions of the pre-fix tree the fix commit's non-test
	// diff changes, with their lines (first to last, the declaration to its end).
	Functions []Func `json:"functions"`
	// Output is what Test printed in the pre-fix tree: the failure the base
	// context is gathered for. $ROOT stands for the tree's folder.
	Output string `json:"output"`
}

// A Func is one fixed function: its file (root-relative, slash-separated), its
// name as the report shows it, and its first and last lines before the fix.
type Func struct {
	File string `json:"file"`
	Name string `json:"name"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// RootMark stands for the pre-fix tree's folder in a recorded output.
const RootMark = "$ROOT"

// HeldOut reports whether the case belongs to the held-out set (about a third
// of the cases, by a hash of the id): the context gatherer is tuned on the
// other cases only, and this set says whether a change generalises.
func (c *Case) HeldOut() bool {
	h := fnv.New32a()
	h.Write([]byte(c.ID))
	return h.Sum32()%3 == 0
}

// Set names the case's set in reports.
func (c *Case) Set() string {
	if c.HeldOut() {
		return "held-out"
	}
	return "tuning"
}

// Project is the repository's name without its owner.
func (c *Case) Project() string { return path.Base(c.Repo) }

var (
	hexRe  = regexp.MustCompile(`^[0-9a-f]{40}$`)
	repoRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	idRe   = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*-[0-9a-f]{10}$`)
)

// Check reports what is wrong with a case's data, or nil.
func (c *Case) Check() error {
	switch {
	case !idRe.MatchString(c.ID):
		return fmt.Errorf("id %q is not <name>-<10 hex>", c.ID)
	case !repoRe.MatchString(c.Repo):
		return fmt.Errorf("%s: repo %q is not owner/name", c.ID, c.Repo)
	case !hexRe.MatchString(c.Fix) || !hexRe.MatchString(c.Parent):
		return fmt.Errorf("%s: fix and parent must be full commit hashes", c.ID)
	case !strings.HasSuffix(c.ID, "-"+c.Fix[:10]):
		return fmt.Errorf("%s: the id does not end with the fix commit's first 10 hex", c.ID)
	case c.Lang != "go" && c.Lang != "python" && c.Lang != "js" && c.Lang != "ts":
		return fmt.Errorf("%s: lang %q is not go, python, js or ts", c.ID, c.Lang)
	case len(c.Test) == 0:
		return fmt.Errorf("%s: no test command", c.ID)
	case len(c.TestFiles) == 0:
		return fmt.Errorf("%s: no test files", c.ID)
	case len(c.Functions) == 0:
		return fmt.Errorf("%s: no fixed function", c.ID)
	case strings.TrimSpace(c.Output) == "":
		return fmt.Errorf("%s: no recorded output", c.ID)
	}
	for _, p := range append(append([]string{}, c.TestFiles...), funcFiles(c.Functions)...) {
		if !safeRel(p) {
			return fmt.Errorf("%s: %q is not a clean relative path", c.ID, p)
		}
	}
	for _, f := range c.Functions {
		if f.Name == "" || f.From < 1 || f.To < f.From {
			return fmt.Errorf("%s: function %q in %s has no name or a bad range %d-%d", c.ID, f.Name, f.File, f.From, f.To)
		}
		for _, t := range c.TestFiles {
			if t == f.File {
				return fmt.Errorf("%s: fixed function %s is in a test file %s", c.ID, f.Name, t)
			}
		}
	}
	return nil
}

func funcFiles(fs []Func) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.File)
	}
	return out
}

// safeRel reports whether p is a clean, relative, slash-separated path inside
// the tree.
func safeRel(p string) bool {
	return p != "" && p == path.Clean(p) && !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.Contains(p, "\\")
}

// loadCases reads every <id>.json of dir, sorted by id.
func loadCases(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*Case
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var c Case
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if filepath.Base(f) != c.ID+".json" {
			return nil, fmt.Errorf("%s: the file is not named after the id %s", f, c.ID)
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("%s: id %s twice", f, c.ID)
		}
		seen[c.ID] = true
		out = append(out, &c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// saveCase writes c as dir/<id>.json.
func saveCase(dir string, c *Case) error {
	if err := c.Check(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, c.ID+".json"), append(data, '\n'), 0o644)
}
