package defs

import (
	"context"
	"strings"
	"testing"

	"fixplan/context/frames"
	"fixplan/context/section"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// result is what Sections returned for a problem.
type result struct {
	sections []section.Candidate
	warnings []string
}

// sectionsFor looks up the definitions the failure in problem uses, as the
// gatherer does (the frames resolved to the project's files, then the first
// three failing tests' definitions, over one listing of the tree), with no section before them and the
// gatherer's default budget unless o says.
func sectionsFor(t *testing.T, root, problem string, o Request) result {
	t.Helper()
	files := projfstest.Open(t, root, projfs.Options{})
	ctx := context.Background()
	tree := files.Tree(projfs.TreeOptions{}) // one listing, shared
	res := frames.NewResolver(tree)
	o.Frames, o.Tests = res.Points(ctx, res.Trace(ctx, problem), problem, 3)
	o.Text, o.Tree = problem, tree
	if o.MaxResultBytes == 0 {
		o.MaxResultBytes = 24 * 1024
	}
	if o.MaxTotalBytes == 0 {
		o.MaxTotalBytes = 96 * 1024
	}
	cands, warnings := Sections(ctx, files, o)
	return result{cands, warnings}
}

// find returns the first section whose title contains all of parts.
func (r result) find(parts ...string) (section.Candidate, bool) {
	for _, c := range r.sections {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(c.Sec.Title, p)
		}
		if ok {
			return c, true
		}
	}
	return section.Candidate{}, false
}

// titles lists the sections' titles, one a line.
func (r result) titles() string {
	var b strings.Builder
	for _, c := range r.sections {
		b.WriteString("  " + c.Sec.Title + "\n")
	}
	return b.String()
}

// shows reports whether a section of file shows a line holding text.
func (r result) shows(file, text string) bool {
	for _, c := range r.sections {
		if strings.HasPrefix(c.Sec.Title, "File "+file+" ") && strings.Contains(c.Sec.Body, text) {
			return true
		}
	}
	return false
}

// rank returns the position of the first section defining name, -1 when
// none does.
func (r result) rank(name string) int {
	for i, c := range r.sections {
		if strings.Contains(c.Sec.Title, "definition of "+name+",") {
			return i
		}
	}
	return -1
}
