package session

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"fixplan/edit"
	"fixplan/plan"
)

// No blind rewrites (docs/CONTRACT.md §4.4): which updated files the model never saw, and
// how their changes are taken out of a plan when it still has not seen them.

func cleanPath(p string) string { return path.Clean(filepath.ToSlash(p)) }

func (r *run) see(files []plan.SeenFile) {
	for _, f := range files {
		k := cleanPath(f.Path)
		r.seen[k] = r.seen[k] || f.Whole
	}
}

// unseen lists updated existing files whose content the model never saw: for a
// whole-content action the whole file must have been sent, for a patch any part.
func (r *run) unseen(changes []plan.FileChange) []string {
	var out []string
	for _, c := range changes {
		if c.Op != plan.OpUpdate {
			continue
		}
		whole, ok := r.seen[cleanPath(c.Path)]
		fromPatch := len(c.Placement) > 0
		if !ok || (!fromPatch && !whole) {
			out = append(out, c.Path)
		}
	}
	sort.Strings(out)
	return out
}

func readRequests(paths []string) []plan.ContextRequest {
	out := make([]plan.ContextRequest, len(paths))
	for i, p := range paths {
		p := p
		out[i] = plan.ContextRequest{Type: plan.ReqReadFile, Path: &p}
	}
	return out
}

// dropAll removes every file change from p (they could not be previewed).
func dropAll(p *plan.Plan) {
	if p.ProposedChanges != nil {
		p.ProposedChanges.Actions = []plan.Action{}
		p.ProposedChanges.Patch = nil
	}
	p.Patch = nil
}

// dropPaths removes the actions and patch sections that touch paths.
func dropPaths(p *plan.Plan, paths []string) {
	drop := map[string]bool{}
	for _, x := range paths {
		drop[cleanPath(x)] = true
	}
	if pc := p.ProposedChanges; pc != nil {
		kept := []plan.Action{}
		for _, a := range pc.Actions {
			if !drop[cleanPath(a.Path)] {
				kept = append(kept, a)
			}
		}
		pc.Actions = kept
		if pc.Patch != nil {
			s := dropPatchFiles(*pc.Patch, drop)
			pc.Patch = &s
		}
	}
	if p.Patch != nil {
		s := dropPatchFiles(*p.Patch, drop)
		p.Patch = &s
	}
}

// dropPatchFiles removes the file sections of a unified diff (or of a
// *** Begin Patch envelope) whose target is in drop.
func dropPatchFiles(patch string, drop map[string]bool) string {
	if s, ok := edit.DropBeginPatchFiles(patch, drop); ok {
		return s
	}
	lines := strings.SplitAfter(patch, "\n")
	var out strings.Builder
	var section []string
	flush := func() {
		if len(section) == 0 {
			return
		}
		if !drop[sectionPath(section)] {
			for _, l := range section {
				out.WriteString(l)
			}
		}
		section = nil
	}
	for i, l := range lines {
		start := strings.HasPrefix(l, "diff --git ")
		if !start && strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ") {
			start = len(section) == 0 || !strings.HasPrefix(section[0], "diff --git ") || hasHunk(section)
		}
		if start {
			flush()
		}
		section = append(section, l)
	}
	flush()
	return out.String()
}

func hasHunk(section []string) bool {
	for _, l := range section {
		if strings.HasPrefix(l, "@@") {
			return true
		}
	}
	return false
}

func sectionPath(section []string) string {
	var minus, plus string
	for _, l := range section {
		t := strings.TrimRight(l, "\r\n")
		if strings.HasPrefix(t, "--- ") && minus == "" {
			minus = stripPrefix(t[4:])
		} else if strings.HasPrefix(t, "+++ ") && plus == "" {
			plus = stripPrefix(t[4:])
			break
		}
	}
	if plus != "" && plus != "/dev/null" {
		return cleanPath(plus)
	}
	return cleanPath(minus)
}

func stripPrefix(p string) string {
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		p = p[2:]
	}
	return p
}
