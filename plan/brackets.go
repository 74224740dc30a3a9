package plan

import (
	"errors"
	"slices"
)

// errWorkBudget is returned when finding where a reply's JSON values end would
// take more work than its size allows (workBudget).
var errWorkBudget = errors.New("work budget spent")

// workBudget is how many bytes the bracket scans of one reply of n bytes may
// read in all. With what failed scans learnt kept, they read each byte a few
// times (at most 6.4 in random texts and in a search for the costliest one);
// the budget stops whatever input that memory would not make cheap.
func workBudget(n int) int { return 16*n + 1<<20 }

// brackets finds where the JSON objects and arrays of one reply end. Any { or [
// may start the value, and each start reads the quotes after it its own way (a
// quote in prose before the JSON must not swallow it), so a value is scanned
// from its own start. A scan that fails (the reply ends first, or a bracket
// closes the wrong kind) teaches later scans what it saw, so that no later scan
// repeats it: a reply of 200 KB of '[' is read twice, not 200,000 times.
type brackets struct {
	s     []byte
	steps int // bytes the scans may still read
	// neverEnds marks the starts known to fail: an earlier failed scan opened
	// this bracket outside a string and it was still open when that scan failed.
	neverEnds bitset
	// doomed[ph] marks the positions from which a scan with brackets of its own
	// open, reaching them in string phase ph, is known to fail: a failed scan
	// passed there in the same phase, so it read every byte after the same way,
	// and never closed a bracket opened before them.
	doomed [3]bitset
	// doomedTop[ph][k] marks the positions from which such a scan fails when
	// the last bracket it has open is of kind k (0 '{', 1 '['): an earlier failed
	// scan passed there in the same phase, never closed a bracket opened before
	// them, and failed by closing the wrong kind for its last one.
	doomedTop [3][2]bitset
	open      []int32 // where the brackets open in the current scan are
	// noKeyFrom is the first start from which no plan key follows (len(s)+1:
	// not known yet).
	noKeyFrom int
}

func newBrackets(s []byte, budget int) *brackets {
	return &brackets{s: s, steps: budget, noKeyFrom: len(s) + 1}
}

// bitset is one bit per byte of the reply.
type bitset []uint64

func (b bitset) has(i int) bool { return b != nil && b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (i & 63) }

// phase is where a scan is in the string syntax: 0 outside strings, 1 inside
// one, 2 right after a backslash inside one. Two scans in the same phase at the
// same byte read every later byte the same way.
func (st *strScan) phase() int {
	switch {
	case !st.in:
		return 0
	case !st.esc:
		return 1
	}
	return 2
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// kind numbers the two opening brackets for doomedTop.
func kind(open byte) int {
	if open == '{' {
		return 0
	}
	return 1
}

// scan finds the end (exclusive) of the JSON object or array starting at s[i],
// balancing brackets outside strings. ok is false when the reply ends first or
// a bracket closes the wrong kind. err is errWorkBudget when the budget is spent.
func (b *brackets) scan(i int) (end int, ok bool, err error) {
	if b.neverEnds.has(i) {
		return i, false, nil
	}
	s := b.s
	open := b.open[:0]
	defer func() { b.open = open[:0] }()
	var st strScan
	j := i
	for ; j < len(s); j++ {
		if b.steps--; b.steps < 0 {
			return j, false, errWorkBudget
		}
		if len(open) > 0 {
			ph := st.phase()
			if b.doomed[ph].has(j) {
				break
			}
			if b.doomedTop[ph][kind(s[open[len(open)-1]])].has(j) {
				// It will close its last bracket the wrong way, as that scan did.
				return j, false, b.learn(i, j, open, true)
			}
		}
		c := s[j]
		if st.inString(c) {
			continue
		}
		switch c {
		case '{', '[':
			if len(open) == cap(open) {
				open = slices.Grow(open, len(open)+16) // doubling: append grows big stacks by a quarter
			}
			open = append(open, int32(j))
		case '}', ']':
			if len(open) == 0 {
				return j, false, nil
			}
			if closer(s[open[len(open)-1]]) != c {
				return j, false, b.learn(i, j, open, true)
			}
			open = open[:len(open)-1]
			if len(open) == 0 {
				return j + 1, true, nil
			}
		}
	}
	return j, false, b.learn(i, j, open, false)
}

// learn records what the failed scan from i tells later scans. It stopped at f
// with the brackets at open still open: the reply ended, or a doomed position
// was reached (every bracket open there stays open), or (mismatch) the last of
// open is closed by the wrong kind at s[f] or, from a doomedTop position,
// later. A second pass over [i, f) finds, for each byte, how many brackets were
// open (depth) and in which phase.
//
// A later scan reaching byte q in the same phase with brackets of its own open
// reads every later byte the same way, opens and closes the same brackets after
// q and meets the same end; it fails too when the scan never closed a bracket
// open at q: when the depth-th bracket open at q stays open (open[depth-1] < q)
// and is not the one closed wrongly (doomed), or is the one closed wrongly and
// the later scan's last bracket is of its kind (doomedTop). A start at q fails
// when the bracket it opens there stays open or is closed wrongly
// (open[depth] == q).
func (b *brackets) learn(i, f int, open []int32, mismatch bool) error {
	if b.neverEnds == nil {
		words := len(b.s)/64 + 1
		b.neverEnds = make(bitset, words)
		for k := range b.doomed {
			b.doomed[k] = make(bitset, words)
			b.doomedTop[k] = [2]bitset{make(bitset, words), make(bitset, words)}
		}
	}
	if b.steps -= f - i; b.steps < 0 {
		return errWorkBudget
	}
	kept, wrong := open, -1
	if mismatch {
		kept = open[:len(open)-1]
		wrong = kind(b.s[open[len(open)-1]])
	}
	s := b.s
	var st strScan
	depth := 0
	for q := i; q < f; q++ {
		if depth >= 1 && depth <= len(open) && int(open[depth-1]) < q {
			if depth <= len(kept) {
				b.doomed[st.phase()].set(q)
			} else {
				b.doomedTop[st.phase()][wrong].set(q)
			}
		}
		c := s[q]
		if st.inString(c) {
			continue
		}
		switch c {
		case '{', '[':
			if depth < len(open) && int(open[depth]) == q {
				b.neverEnds.set(q)
			}
			depth++
		case '}', ']':
			depth--
		}
	}
	return nil
}

// planKeyFrom reports whether a plan key ("mode": , "summary": …) follows s[i]
// (it says an unclosed object is a plan cut off). Starts are asked in
// increasing order, so once none follows one start none follows a later one.
func (b *brackets) planKeyFrom(i int) bool {
	if i >= b.noKeyFrom {
		return false
	}
	if hasCutKey(b.s[i:]) && planKeyRe.Match(b.s[i:]) {
		return true
	}
	b.noKeyFrom = i
	return false
}
