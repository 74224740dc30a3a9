package defs

// pyLang's hop notes (hopnotes.go): the uses that rank after every hop —
// in branches of options the failing lines do not set (pyopts.go), or the
// name a def line defines.
func (pyLang) hopNotes(f *defFile, span lineRange, named func(string) bool) hopNotes {
	lines := pyScan(f).blank[span.from-1 : span.to]
	split := newSpanSplit(lines, span.from)
	pyOptionGated(f, span, named, split)
	for i, l := range lines {
		// the name a def or class line of a hop's definition defines: its
		// namesakes elsewhere are not what it calls
		if m := pyDefRe.FindStringSubmatchIndex(l); m != nil {
			split.move(span.from+i, m[4], m[5])
		}
	}
	return hopNotes{later: split.onlyLater()}
}
