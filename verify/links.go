package verify

import (
	"path/filepath"
	"runtime"
	"strings"

	"fixplan/plan"
)

// maxLinkHops bounds the links followed while resolving one link (Linux's own
// limit is 40).
const maxLinkHops = 40

// keepInsideLinks returns the links whose resolution stays inside the tree at
// every step and records the others as skipped. The resolution follows the
// tree's own links component by component, as the OS would, so that a chain
// such as "d/x -> .." plus "e -> d/x/../.." (lexically ".", really the parent of
// the tree) is caught. Names are compared case-folded, which on a case-sensitive
// file system can only skip more links, never keep a dangerous one.
func keepInsideLinks(links []entry, st *CloneStats) []entry {
	if len(links) == 0 {
		return nil
	}
	byName := make(map[string]string, len(links))
	for _, l := range links {
		byName[foldPath(splitPath(l.rel))] = l.target
	}
	var kept []entry
	for _, l := range links {
		comps := splitPath(l.rel)
		if _, ok := resolveLink(comps[:len(comps)-1], l.target, byName, new(int)); ok {
			kept = append(kept, l)
			continue
		}
		st.SkippedLinks++
		st.skip(l.rel, "symbolic link leads outside the project")
	}
	return kept
}

// resolveLink resolves target relative to the folder dir (components from the
// tree's top) and returns the resulting components, or false when the
// resolution leaves the tree, is absolute, or takes more than maxLinkHops links.
func resolveLink(dir []string, target string, links map[string]string, hops *int) ([]string, bool) {
	if isAbsTarget(target) {
		return nil, false
	}
	cur := append([]string(nil), dir...)
	for _, c := range splitPath(target) {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return nil, false
			}
			cur = cur[:len(cur)-1]
			continue
		}
		if strings.Trim(c, ". ") == "" {
			return nil, false // "...", ". ." — Win32 trims such names; refuse them
		}
		next := append(cur[:len(cur):len(cur)], c)
		t, isLink := links[foldPath(next)]
		if !isLink {
			cur = next
			continue
		}
		*hops++
		if *hops > maxLinkHops {
			return nil, false
		}
		res, ok := resolveLink(cur, t, links, hops)
		if !ok {
			return nil, false
		}
		cur = res
	}
	return cur, true
}

// isAbsTarget reports a link text that does not resolve relative to its folder:
// an absolute path, and on Windows a drive or UNC path or a rooted "\x".
func isAbsTarget(t string) bool {
	if strings.HasPrefix(t, "/") || filepath.IsAbs(t) {
		return true
	}
	if runtime.GOOS == "windows" || strings.Contains(t, `\`) {
		if strings.HasPrefix(t, `\`) || filepath.VolumeName(t) != "" || (len(t) >= 2 && t[1] == ':') {
			return true
		}
	}
	return false
}

// splitPath splits on both separators: a link text written on Windows uses
// backslashes, and a project name with a backslash is no link target on Unix we
// need to keep precise about (splitting there can only make the check stricter).
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
}

func foldPath(comps []string) string {
	f := make([]string, len(comps))
	for i, c := range comps {
		f[i] = plan.NormalName(c)
	}
	return strings.Join(f, "/")
}
