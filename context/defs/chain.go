package defs

import "slices"

// Depth along the chain. Each hop's definitions rank after all of the hop
// before (breadth first): the one-hop helpers of the failing lines come before
// what those helpers use. A definition of a file that a section before the
// definitions shows cut at the section cap (a module under test of 1,000 lines
// shown up to its 24 KB) ranks right after the definition that leads there
// instead (depth first): it is the code under test, which the base context
// set out to show and could not show whole, and the hops say which of its
// definitions the failure reaches (the 267-line function a test reaches
// through Execute → initCompleteCmd, below the cut, before Execute's twenty
// other callees). It is still expanded with its own hop.

// promote returns hits with the definitions among next (the hits of a hop,
// ranked) of files the sections before cut at the cap also ranked right after
// the definition that uses them, and next with them first (the next hop
// expands them before the others).
func (d *defFinder) promote(hits, next []defHit) ([]defHit, []defHit) {
	cut := d.cutFiles()
	if len(cut) == 0 {
		return hits, next
	}
	type key struct {
		file string
		line int
	}
	at := map[key]bool{}
	for _, h := range hits {
		at[key{h.file, h.span.from}] = true
	}
	// the promoted definitions of each parent, in next's order
	after := map[defPoint][]defHit{}
	n := 0
	for _, x := range next {
		k := key{x.file, x.span.from}
		if !cut[x.file] || at[k] || x.loose || x.span.data {
			continue
		}
		at[k] = true
		after[x.usedAt] = append(after[x.usedAt], x)
		n++
	}
	if n == 0 {
		return hits, next
	}
	out := make([]defHit, 0, len(hits)+n)
	for _, h := range hits {
		out = append(out, h)
		p := defPoint{h.file, h.span.to} // what its uses are found at (usedAt)
		for _, x := range after[p] {
			x.tier = h.tier
			out = append(out, x)
		}
		delete(after, p)
	}
	promoted := func(x defHit) int {
		if cut[x.file] && !x.loose && !x.span.data {
			return 0
		}
		return 1
	}
	next = slices.Clone(next)
	slices.SortStableFunc(next, func(a, b defHit) int { return promoted(a) - promoted(b) })
	return out, next
}

// cutFiles are the files of the sections before the definitions that are cut
// at the section cap.
func (d *defFinder) cutFiles() map[string]bool {
	out := map[string]bool{}
	for _, c := range d.req.Have {
		if c.Seen != nil && len(c.Sec.Body) > d.req.MaxResultBytes {
			out[c.Seen.Path] = true
		}
	}
	return out
}
