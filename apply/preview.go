package apply

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"

	"fixplan/edit"
	"fixplan/plan"
)

// Preview returns what the user sees for c: a unified diff `git apply` accepts
// (a/ and b/ labels, /dev/null for created and deleted files), the hash of the
// bytes it was computed from, placement notes and flags.
func (c Change) Preview() plan.FileChange {
	if c.pv != nil {
		fc := *c.pv
		fc.Flags = c.Flags
		return fc
	}
	return c.preview()
}

// memo computes the preview once and keeps it with the change (and its copies).
func (c *Change) memo() {
	if c.pv == nil {
		pv := c.preview()
		c.pv = &pv
	}
}

func (c Change) preview() plan.FileChange {
	fc := plan.FileChange{Path: c.Path, Op: c.Op, BaseSHA256: c.BeforeSHA256, Placement: c.Placement, Flags: c.Flags}
	switch c.Op {
	case plan.OpMkdir:
		fc.Diff = fmt.Sprintf("new folder %s/\n", c.Path)
		return fc
	case plan.OpRmdir:
		fc.Diff = fmt.Sprintf("remove folder %s/\n", c.Path)
		return fc
	}
	oldLabel, newLabel := "a/"+c.Path, "b/"+c.Path
	header := fmt.Sprintf("diff --git a/%s b/%s\n", c.Path, c.Path)
	switch c.Op {
	case plan.OpCreate:
		oldLabel = "/dev/null"
		header += fmt.Sprintf("new file mode 100%o\n", modeOr(c.Mode))
	case plan.OpDelete:
		newLabel = "/dev/null"
		header += fmt.Sprintf("deleted file mode 100%o\n", modeOr(c.BeforeMode))
	default:
		if c.Mode != c.BeforeMode && c.BeforeMode != 0 {
			header += fmt.Sprintf("old mode 100%o\nnew mode 100%o\n", c.BeforeMode.Perm(), c.Mode.Perm())
		}
	}
	d := edit.Unified(oldLabel, newLabel, c.Before, c.After)
	if c.shown != nil {
		d = c.shown.diff(c.Path, d, c.Before, c.After, false)
	}
	if d == "" {
		fc.Diff = header
		return fc
	}
	fc.Diff = header + d
	return fc
}

func modeOr(m fs.FileMode) fs.FileMode {
	if p := m.Perm(); p != 0 {
		return p
	}
	return 0o644
}

// changedLinesOver returns the number of +/- lines of c's diff when it is more
// than n, and some number no more than n otherwise. The diff is computed (and
// kept) only when the lines between the common start and end of an updated
// file's old and new bytes are more than n and no diff is at hand: a created or
// deleted file's count is its number of lines, and an update made by a patch
// that is not previewed (fixplan patch) counts the patch's own +/- lines.
func (c *Change) changedLinesOver(n int) int {
	lines := func(x []byte) int {
		k := bytes.Count(x, []byte{'\n'})
		if len(x) > 0 && x[len(x)-1] != '\n' {
			k++
		}
		return k
	}
	switch c.Op {
	case plan.OpCreate:
		return lines(c.After)
	case plan.OpDelete:
		return lines(c.Before)
	}
	a, b := c.Before, c.After
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for p > 0 && a[p-1] != '\n' {
		p-- // back to the start of a line
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	// A middle ending inside a line counts that line, so the suffix needs no aligning.
	if bound := lines(a[p:len(a)-s]) + lines(b[p:len(b)-s]); bound <= n {
		return bound
	}
	if c.pv == nil && c.patchLines > 0 {
		return c.patchLines
	}
	c.memo()
	return changedLines(c.Preview().Diff)
}

// changedLines counts the +/- lines of a unified diff.
func changedLines(diff string) int {
	n := 0
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++")) || (strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---")) {
			n++
		}
	}
	return n
}
