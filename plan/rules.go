package plan

import (
	"fmt"
	"path"
	"strings"
)

// check applies the rules strict mode cannot express, returning issues in the same
// "instance path: message" form as schema validation.
func (p *Plan) check() []string {
	var issues []string
	add := func(loc, format string, args ...any) {
		issues = append(issues, loc+": "+fmt.Sprintf(format, args...))
	}
	for i, r := range p.ContextRequests {
		loc := fmt.Sprintf("/context_requests/%d", i)
		switch r.Type {
		case ReqReadFile:
			if r.Path == nil || strings.TrimSpace(*r.Path) == "" {
				add(loc+"/path", "read_file needs a path relative to the project root")
			} else if why := PathProblem(*r.Path); why != "" {
				add(loc+"/path", "%q %s", *r.Path, why)
			}
			if r.StartLine != nil && *r.StartLine < 1 {
				add(loc+"/start_line", "must be 1 or more (lines are 1-based)")
			}
			if r.StartLine != nil && r.EndLine != nil && *r.EndLine < *r.StartLine {
				add(loc+"/end_line", "must not be before start_line")
			}
		case ReqSearch:
			if r.Query == nil || *r.Query == "" {
				add(loc+"/query", "search needs a non-empty literal query")
			}
		case ReqLogs:
			if r.Source == nil || strings.TrimSpace(*r.Source) == "" {
				add(loc+"/source", "logs needs a source (runtime, build, test, verification or a configured name)")
			}
			if r.LastN != nil && *r.LastN < 1 {
				add(loc+"/last_n", "must be 1 or more")
			}
		}
	}
	seen := map[string]int{}
	for i, a := range p.Actions() {
		loc := fmt.Sprintf("/proposed_changes/actions/%d", i)
		switch a.Kind {
		case CreateFile, UpdateFile:
			if a.Content == nil {
				add(loc+"/content", "%s needs the whole new file content", a.Kind)
			}
		default:
			if a.Content != nil {
				add(loc+"/content", "%s takes no content; use null", a.Kind)
			}
		}
		if a.Kind == EditFile {
			if len(a.Edits) == 0 {
				add(loc+"/edits", "EDIT_FILE needs at least one {search, replace} pair")
			}
			for j, e := range a.Edits {
				if strings.TrimSpace(e.Search) == "" {
					add(fmt.Sprintf("%s/edits/%d/search", loc, j), "needs the exact current lines to replace (a blank search matches everywhere); to add a file use CREATE_FILE")
				}
			}
		} else if len(a.Edits) > 0 {
			add(loc+"/edits", "%s takes no edits; use null (edits belong to EDIT_FILE)", a.Kind)
		}
		if strings.TrimSpace(a.Path) == "" {
			add(loc+"/path", "needs a path relative to the project root")
			continue
		}
		if why := PathProblem(a.Path); why != "" {
			add(loc+"/path", "%q %s", a.Path, why)
			continue
		}
		key := path.Clean(strings.ReplaceAll(a.Path, `\`, "/"))
		if j, dup := seen[key]; dup {
			add(loc+"/path", "%q is already changed by action %d; use one action per path", a.Path, j)
			continue
		}
		seen[key] = i
	}
	for i, c := range p.CommandsToRun {
		if r, bad := controlRune(c); bad {
			add(fmt.Sprintf("/commands_to_run/%d", i), "contains the control character %U; a command must be plain text the user can read before approving it", r)
		}
	}
	if p.ProposedChanges != nil {
		for i, c := range p.ProposedChanges.CommandsToRun {
			if r, bad := controlRune(c); bad {
				add(fmt.Sprintf("/proposed_changes/commands_to_run/%d", i), "contains the control character %U; a command must be plain text the user can read before approving it", r)
			}
		}
	}
	if p.Summary == "" && len(p.Plan) == 0 && len(p.Actions()) == 0 && p.EffectivePatch() == "" &&
		len(p.Questions) == 0 && len(p.ContextRequests) == 0 {
		add("/", "the plan is empty: give a summary and steps, changes, questions or context_requests")
	}
	return issues
}

// PathProblem says why a path written by the model cannot name a file inside the
// project root, or returns "" when it is a plain relative path. Confinement is
// enforced again (with symlinks resolved) when context is read and when changes apply.
func PathProblem(p string) string {
	if r, bad := controlRune(p); bad && r != 0 {
		return fmt.Sprintf("contains the control character %U", r)
	}
	switch {
	case strings.ContainsRune(p, 0):
		return "contains a NUL byte"
	case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//"):
		return "is a network (UNC) path; use a path relative to the project root"
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`):
		return "is absolute; use a path relative to the project root"
	case len(p) >= 2 && p[1] == ':' && ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z')):
		return "has a drive letter; use a path relative to the project root"
	case strings.HasPrefix(p, "~"):
		return "starts with ~ (a home directory); use a path relative to the project root"
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return "leaves the project root (..); use a path relative to the project root"
		}
	}
	return ""
}

// controlRune returns the first C0 or C1 control character of s (or DEL, or a
// bidirectional formatting character), tabs excepted: they can rewrite what a terminal shows (ESC sequences, carriage
// returns), so a path or a command carrying one would not be what the user reads.
func controlRune(s string) (rune, bool) {
	for _, r := range s {
		if IsControlRune(r) {
			return r, true
		}
	}
	return 0, false
}

// IsControlRune reports whether r is a character controlRune refuses: a C0 or
// C1 control character other than tab, DEL, or a bidirectional formatting
// character. Text from the project shown inside a framed block (the project's
// rules) has them escaped.
func IsControlRune(r rune) bool {
	return r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || bidiControl(r))
}

// bidiControl reports Unicode bidirectional formatting characters: they reorder
// what is displayed ("Trojan Source"), so a command could read differently from
// what runs.
func bidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
