package defs

import (
	"cmp"
	"slices"

	"fixplan/context/frames"
)

// The value's path. A failing test checks a value the code under test made
// (the text Diff returns, the error Parse returns); the functions that make
// it are where a developer reads next: the test's failing statement reads
// got, made by Diff; Diff returns what r.String() returns, String what
// FormatDiff builds, FormatDiff what FormatValue or FormatDiffSlice format.
// The path starts at the calls that make what the failing statement reads
// (a test file's own helpers and tables left out); of the functions a
// definition on the path calls, those whose results flow into its return
// values — or that choose which return is taken — are on it too (a
// language's flowReader says which, goflow.go). The path is read breadth
// first ahead of the rest of the hops: each hop's definitions on it rank
// right after the path's definitions found before them, the most direct
// first (called in a return statement before what writes a returned
// variable), and are expanded first in the next hop, so the hop's parents
// are not spent on what a definition calls for its side effects (compareAny
// filling the state String reads later, which keeps the ordinary rank). A
// long function one on the path returns as it is (return f(…)) is the value:
// it is shown whole when it fits in the room left, however many long ones are
// (defCandidates).

// maxFlowDepth is how many calls below a definition the failing lines use
// the value's path is followed: deeper producers rank as their hop does.
const maxFlowDepth = 3

// maxFlowRound is how far from a return statement a call of a definition on
// the path may be to be on it too: called in the return (0), or in the value
// of a variable it returns or in a condition that chooses the return (1); the
// variables those read are a step further (what the whole function computes)
// and are not followed.
const maxFlowRound = 1

// flowReader is a language that reads which calls of a function make a
// value of it, each with how directly (0: called in the return statement or
// the failing statement itself): its return values (at 0), or what the
// statement at line at reads.
type flowReader interface {
	flowsTo(df *defFile, s defSpan, at int) map[string]int
}

// pointFlows returns the names of the calls that make the values the failing
// line at p reads (in f, p's file), nil when the language does not say.
func pointFlows(lang defLang, f *defFile, p defPoint) map[string]int {
	fr, ok := lang.(flowReader)
	if !ok {
		return nil
	}
	return fr.flowsTo(f, defSpan{}, p.line)
}

// markFlow puts the definitions found for use u (hits) on the value's path
// at depth below a definition (1: the failing lines') when u's name is among
// the calls that make the value (flows), with how directly and where it is
// called. A name's many methods found by name only are not, nor a test
// file's definitions the failing lines use (helpers and tables: their values
// are the test's own).
func markFlow(hits []defHit, flows map[string]int, u defUse, depth, line int) {
	r, ok := flows[u.name]
	if !ok {
		return
	}
	for i := range hits {
		if hits[i].loose || depth == 1 && frames.LooksLikeTestFile(hits[i].file) {
			continue
		}
		hits[i].flow, hits[i].flowRound, hits[i].flowAt = depth, r, line
	}
}

// flowNames returns the names of the calls that make the return values of h
// when h is on the value's path and the path goes on below it, else nil.
func flowNames(lang defLang, f *defFile, h defHit) map[string]int {
	fr, ok := lang.(flowReader)
	if !ok || h.flow == 0 || h.flow > maxFlowDepth {
		return nil
	}
	return fr.flowsTo(f, h.span, 0)
}

// onFlow reports whether a hit of a hop is ranked on the value's path (a
// name's many methods found by name only and variables are not).
func onFlow(x defHit) bool { return x.flow > 0 && !x.loose && !x.span.data }

// returned reports whether x is returned as it is by a definition on the
// value's path (return f(…)): its result is the value, and a long one is shown
// whole when it fits in the room left, however many long ones are.
func returned(x defHit) bool { return onFlow(x) && x.flow > 1 && x.flowRound == 0 }

// promoteFlow returns hits with the definitions on the value's path among
// next (the hits of a hop, ranked) also ranked right after the last
// definition of the path in hits, the most direct first, and next with them
// first (the next hop expands them before the others).
func promoteFlow(hits, next []defHit) ([]defHit, []defHit) {
	type key struct {
		file string
		line int
	}
	at := map[key]bool{}
	end := -1 // the last definition of the path in hits (not a hop's copy of it, appended after the path's place)
	for i, h := range hits {
		k := key{h.file, h.span.from}
		if !at[k] && onFlow(h) {
			end = i
		}
		at[k] = true
	}
	var block []defHit
	for _, x := range next {
		if k := (key{x.file, x.span.from}); onFlow(x) && !at[k] {
			at[k] = true
			block = append(block, x)
		}
	}
	if len(block) == 0 || end < 0 {
		return hits, next
	}
	slices.SortStableFunc(block, flowOrder)
	out := make([]defHit, 0, len(hits)+len(block))
	out = append(out, hits[:end+1]...)
	out = append(out, block...)
	out = append(out, hits[end+1:]...)
	next = slices.Clone(next)
	slices.SortStableFunc(next, func(a, b defHit) int {
		if fa, fb := onFlow(a), onFlow(b); fa != fb || !fa {
			return cmp.Compare(btoi(!fa), btoi(!fb))
		}
		return flowOrder(a, b)
	})
	return out, next
}

// flowOrder ranks the definitions on the value's path one hop found: the
// most direct first (called in a return statement before what writes a
// returned variable), then by their parent's rank, then in the order the
// parent calls them (its first return first).
func flowOrder(a, b defHit) int {
	return cmp.Or(cmp.Compare(a.flowRound, b.flowRound), cmp.Compare(a.point, b.point), cmp.Compare(a.flowAt, b.flowAt))
}
