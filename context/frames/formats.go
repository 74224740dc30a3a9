package frames

import (
	"encoding/json"
	"strings"
)

// errorListTable reads Visual Studio's Error List as it is copied (tab-separated
// "Severity Code Description Project File Line Suppression State [Details]"):
// the header row says which columns hold the file and the line. Rows copied
// without the header are read when they start with a severity and hold a source
// path followed by a line number.
type errorListTable struct {
	file, line int // column indexes; 0/0 until a header was seen
}

// row returns the frame of one line of the table, and updates the columns when
// the line is the table's header.
func (t *errorListTable) row(line string) (Frame, bool) {
	if strings.IndexByte(line, '\t') < 0 {
		if strings.TrimSpace(line) != "" {
			*t = errorListTable{}
		}
		return Frame{}, false
	}
	cols := strings.Split(line, "\t")
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	if cols[0] == "Severity" {
		*t = errorListTable{}
		for i, c := range cols {
			switch c {
			case "File":
				t.file = i
			case "Line":
				t.line = i
			}
		}
		return Frame{}, false
	}
	if t.file > 0 && t.line > 0 && t.file < len(cols) && t.line < len(cols) {
		f := Frame{Path: cols[t.file], Line: atoi(cols[t.line])}
		return f, f.Line > 0 && (knownExt(f.Path) || validFramePath(f.Path)) // not the linker's Calc.exe
	}
	switch cols[0] {
	case "Error", "Warning", "Message":
	default:
		return Frame{}, false
	}
	for i := 1; i+1 < len(cols); i++ {
		if (knownExt(cols[i]) || validFramePath(cols[i])) && allDigits(cols[i+1]) {
			return Frame{Path: cols[i], Line: atoi(cols[i+1])}, true
		}
	}
	return Frame{}, false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// testEvent is the part of a `go test -json` (test2json) event that is read.
type testEvent struct {
	Action     string
	Package    string
	ImportPath string // build-output events (Go 1.24+)
	Test       string
	Output     string
}

// maxJSONEventLine bounds a line decoded as a test2json event.
const maxJSONEventLine = 64 << 10

// expandGoTestJSON turns `go test -json` output back into the text go test
// prints: the Output of the events joined per package and test (in order of
// each one's first event, so parallel tests that interleave are whole again).
// Lines that are not test2json events follow the groups begun before them.
// Text without events is returned as is.
func expandGoTestJSON(text string) string {
	if !strings.Contains(text, `"Action":`) {
		return text
	}
	type group struct {
		key string
		b   strings.Builder
	}
	var groups []*group
	at := map[string]*group{}
	other := &group{}
	groups = append(groups, other)
	events := 0
	for line := range strings.SplitSeq(text, "\n") {
		trimmed := strings.TrimSpace(line)
		var ev testEvent
		if len(trimmed) < 2 || trimmed[0] != '{' || len(trimmed) > maxJSONEventLine || !strings.Contains(trimmed, `"Action"`) ||
			json.Unmarshal([]byte(trimmed), &ev) != nil || ev.Action == "" {
			// lines around the events (make's, a CI's) keep their place
			other.b.WriteString(line)
			other.b.WriteByte('\n')
			continue
		}
		events++
		if ev.Output == "" {
			continue
		}
		pkg := ev.Package
		if pkg == "" {
			pkg = ev.ImportPath
		}
		key := pkg + "\x00" + ev.Test
		g, ok := at[key]
		if !ok {
			g = &group{key: key}
			at[key] = g
			groups = append(groups, g)
			other = &group{} // later plain lines come after this group
			groups = append(groups, other)
		}
		g.b.WriteString(ev.Output)
	}
	if events == 0 {
		return text
	}
	var b strings.Builder
	for _, g := range groups {
		b.WriteString(g.b.String())
	}
	return b.String()
}
