package defs

// pyLang's hop notes (hopnotes.go): what runs of a definition's lines
// (pyRunLines), the uses that rank after every hop (option branches the
// failing lines do not take, pyopts.go; a registering call's arguments and
// the name-only namesakes of a registry's method, pyregistry.go; the name a
// def line defines), its registrations and dispatches, and the dunder
// methods of a class (pyclass.go).
func (pyLang) hopNotes(f *defFile, span lineRange, named func(string) bool) hopNotes {
	lines := pyRunLines(f, span)
	split := newSpanSplit(lines, span.from)
	pyOptionGated(f, span, named, split)
	for i, l := range lines {
		// the name a def or class line of a hop's definition defines: its
		// namesakes elsewhere are not what it calls
		if m := pyDefRe.FindStringSubmatchIndex(l); m != nil {
			split.move(span.from+i, m[4], m[5])
		}
	}
	notes := hopNotes{registered: pyRegistered(lines, span, split), dispatched: pyDispatched(f, lines, span)}
	notes.later = split.onlyLater()
	notes.called = pyProtocol(f, span)
	for _, dp := range notes.dispatched {
		// the method's namesakes found by name only: the registry says whose
		if notes.later == nil {
			notes.later = map[[2]string]bool{}
		}
		notes.later[[2]string{dp.item, dp.method}] = true
	}
	return notes
}
