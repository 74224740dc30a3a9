package edit

import (
	"fmt"
	"path"
	"strings"
)

// Added lines follow the file's indentation. When a hunk or a search matched
// only with its indentation ignored, the lines the model added are moved from
// the model's indentation to the file's, learnt from the lines that matched —
// never for files where indentation is syntax, and not when the model wrote
// its new lines at the file's indentation already (only its search was off).

// indentSensitive files: leading whitespace is syntax, so indentation-only fuzz is off.
func indentSensitive(rel string) bool {
	base := strings.ToLower(path.Base(rel))
	switch path.Ext(base) {
	case ".py", ".pyi", ".yaml", ".yml", ".mk", ".haml", ".pug", ".sass", ".coffee", ".nim":
		return true
	}
	return base == "makefile" || base == "gnumakefile"
}

// indentMap carries the search's indentation over to the file's, learnt from
// the lines the search matched: the same search indentation gets the same file
// indentation; spaces written for the file's tabs are converted; anything else
// moves by the delta of the first matched line.
type indentMap struct {
	same         map[string]string
	uneven       map[string]bool // search indentations that stand for several file ones
	spacesPerTab int
	from, to     string
	note         string
}

// repl are the lines the model wrote for the matched ones (the replacement, or
// a hunk's new side): when they are written at the file's indentation and not
// at the search's — their least indentation is the matched lines' least and
// not the search's — they are not in the search's frame, and the map moves
// nothing.
func newIndentMap(lines, search []string, at []int, repl []string) indentMap {
	im := indentMap{same: map[string]string{}, uneven: map[string]bool{}}
	var matched []string
	for _, i := range at {
		if i >= 0 {
			matched = append(matched, lines[i])
		}
	}
	if r := leastIndent(repl); r != leastIndent(search) && r == leastIndent(matched) {
		return im
	}
	first, unit, unitOK, differs := true, 0, true, false
	for i, s := range search {
		if strings.TrimSpace(s) == "" || at[i] < 0 {
			continue
		}
		sw, fw := leadingWS(s), leadingWS(lines[at[i]])
		if first {
			im.from, im.to, first = sw, fw, false
		}
		if f, ok := im.same[sw]; !ok {
			im.same[sw] = fw
		} else if f != fw {
			im.uneven[sw] = true
		}
		differs = differs || sw != fw
		// Spaces in the search where the file has tabs, k per tab throughout.
		switch {
		case sw == "" && fw == "":
		case strings.Trim(sw, " ") == "" && strings.Trim(fw, "\t") == "" && fw != "" && len(sw)%len(fw) == 0 && (unit == 0 || unit == len(sw)/len(fw)):
			unit = len(sw) / len(fw)
		default:
			unitOK = false
		}
	}
	if unitOK {
		im.spacesPerTab = unit
	}
	if differs {
		switch {
		case im.spacesPerTab > 0:
			im.note = fmt.Sprintf("(re-indented: %d spaces → tab)", im.spacesPerTab)
		default:
			im.note = fmt.Sprintf("(re-indented %+d)", len(im.to)-len(im.from))
		}
	}
	return im
}

// fit moves an added line to the file's indentation; false when its
// indentation stands for several in the file (the search was re-indented
// unevenly), so where it belongs cannot be known.
func (im indentMap) fit(l string) (string, bool) {
	if im.note == "" || strings.TrimSpace(l) == "" {
		return l, true
	}
	ws := leadingWS(l)
	if im.uneven[ws] {
		return l, false
	}
	if f, ok := im.same[ws]; ok {
		return f + l[len(ws):], true
	}
	if k := im.spacesPerTab; k > 0 && strings.Trim(ws, " ") == "" && len(ws)%k == 0 {
		return strings.Repeat("\t", len(ws)/k) + l[len(ws):], true
	}
	return reindent(l, im.from, im.to), true
}

// unevenIndent says why an added line cannot be re-indented.
const unevenIndent = "its lines are indented differently from the file, and unevenly (the same indentation in it stands for different indentation in the file), so fixplan cannot tell how to indent the added lines; copy the lines with their indentation"

// reindent moves a replacement line from the search's indentation to the file's.
func reindent(l, from, to string) string {
	if strings.TrimSpace(l) == "" {
		return l
	}
	ws := leadingWS(l)
	switch {
	case strings.HasPrefix(ws, from):
		return to + l[len(from):]
	case strings.HasPrefix(from, ws) && len(to) >= len(from)-len(ws):
		return to[:len(to)-(len(from)-len(ws))] + l[len(ws):]
	}
	return l
}

func leadingWS(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// leastIndent is the shortest indentation of the non-blank lines ls (the first
// of that length), or "" when every line is blank.
func leastIndent(ls []string) string {
	least, found := "", false
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if ws := leadingWS(l); !found || len(ws) < len(least) {
			least, found = ws, true
		}
	}
	return least
}
