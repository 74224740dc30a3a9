package edit

import (
	"fmt"
	"path"
	"strings"

	"fixplan/plan"
)

// The "*** Begin Patch" envelope that Codex-trained models write in the patch
// field (docs/CONTRACT.md §7.2):
//
//	*** Begin Patch
//	*** Update File: src/app.py
//	*** Move to: src/main.py          (optional rename)
//	@@ def handler():                 (optional anchor line)
//	 context
//	-old
//	+new
//	*** End of File                   (optional)
//	*** Add File: docs/new.md
//	+every line of the new file
//	*** Delete File: old.txt
//	*** End Patch
//
// It carries no line numbers, so each chunk of an update becomes a search/replace
// pair (its context and removed lines are the search, its context and added lines
// the replacement) and is matched like an EDIT_FILE: exactly once, in layers, all
// chunks or none. A chunk that only adds lines goes after its anchor line (which
// must occur once) or, without an anchor, at the end of the file.

const (
	codexBegin  = "*** Begin Patch"
	codexEnd    = "*** End Patch"
	codexUpdate = "*** Update File: "
	codexAdd    = "*** Add File: "
	codexDelete = "*** Delete File: "
	codexMove   = "*** Move to: "
	codexEOF    = "*** End of File"
)

// IsBeginPatch reports a patch written in the Begin Patch envelope.
func IsBeginPatch(patch string) bool {
	for _, l := range strings.Split(patch, "\n") {
		if strings.TrimSpace(l) == codexBegin {
			return true
		}
	}
	return false
}

// SectionOp is what a section of the envelope does to its file.
type SectionOp string

// The sections of an envelope.
const (
	AddFile    SectionOp = "add"    // *** Add File:
	UpdateFile SectionOp = "update" // *** Update File:
	DeleteFile SectionOp = "delete" // *** Delete File:
)

// A Section is one file's part of a *** Begin Patch envelope.
type Section struct {
	Op SectionOp
	// Path is the file as the envelope names it (not cleaned).
	Path string
	// MoveTo is an update's *** Move to: path ("" when it stays where it is).
	MoveTo string
	add    []string // the lines of an added file
	chunks []codexChunk
}

type codexChunk struct {
	anchor   string
	old, new []string
	eof      bool
	line     int // the chunk's first line in the envelope (0-based), for refusals
}

// Content is the text of an added file: its lines, each ended with "\n".
func (f Section) Content() string { return joinLines(f.add) }

// ParseBeginPatch reads the envelope into its sections, in order. It fails with
// ERR_INVALID_INPUT, naming the line, for anything outside the grammar, and is
// as strict as Codex where Codex refuses: an envelope without its *** End Patch
// line (a reply cut off — an added file would be written cut off), a chunk
// with no lines, an update with neither a chunk nor a *** Move to:, a line
// after *** End of File that does not start a new chunk.
func ParseBeginPatch(patch string) ([]Section, error) {
	files, _, err := parseBeginPatch(patch)
	return files, err
}

// parseBeginPatch is ParseBeginPatch also saying which lines (0-based) it read
// as section headers and as the end.
func parseBeginPatch(patch string) ([]Section, map[int]bool, error) {
	marks := map[int]bool{}
	files, err := parseBeginPatchInto(patch, marks)
	return files, marks, err
}

func parseBeginPatchInto(patch string, marks map[int]bool) ([]Section, error) {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	bad := func(n int, why string) error {
		return plan.Errorf(plan.ErrInvalidInput, "the *** Begin Patch envelope is malformed at line %d (%q): %s", n+1, lines[n], why).
			WithHint("each file starts with *** Update File:, *** Add File: or *** Delete File:, and each changed line with ' ', '-' or '+'")
	}
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) != codexBegin {
		i++
	}
	var files []Section
	var cur *Section
	var chunk *codexChunk
	header := 0 // the line of cur's header
	// chunkDone refuses the last chunk when it has no lines, once the next
	// chunk, section or the end comes; done also refuses cur when it is an
	// update with no chunk and no move.
	chunkDone := func() error {
		if chunk != nil && len(chunk.old) == 0 && len(chunk.new) == 0 {
			return bad(chunk.line, "the chunk has no lines; each chunk needs ' ', '-' or '+' lines")
		}
		return nil
	}
	done := func() error {
		if cur != nil && cur.Op == UpdateFile && len(cur.chunks) == 0 && cur.MoveTo == "" {
			return bad(header, "the section has no chunk, so it changes nothing")
		}
		return chunkDone()
	}
	newChunk := func(anchor string, at int) {
		cur.chunks = append(cur.chunks, codexChunk{anchor: anchor, line: at})
		chunk = &cur.chunks[len(cur.chunks)-1]
	}
	// A marker may have white space around it, as Codex reads it, but only
	// where a marker is allowed: in an update, a line starting with ' ', '-'
	// or '+' is a changed line (" *** Update File: b" is the context line
	// "*** Update File: b"), except after *** End of File, where no changed
	// line may follow. " *** End Patch" is the end, a context line otherwise,
	// when it is the envelope's last end line (Codex reads the last line).
	lastEnd := -1
	for n, l := range lines {
		if strings.TrimSpace(l) == codexEnd {
			lastEnd = n
		}
	}
	ended := false
	for i++; i < len(lines) && !ended; i++ {
		l := lines[i]
		t := strings.TrimRight(l, " \t")
		if cur == nil || cur.Op != UpdateFile || (chunk != nil && chunk.eof) || !strings.ContainsAny(l[:min(len(l), 1)], " -+") {
			t = strings.TrimSpace(l)
		}
		switch {
		case t == codexEnd || (i == lastEnd && strings.TrimSpace(l) == codexEnd):
			if err := done(); err != nil {
				return nil, err
			}
			ended, marks[i] = true, true
			continue
		case strings.HasPrefix(t, codexUpdate), strings.HasPrefix(t, codexAdd), strings.HasPrefix(t, codexDelete):
			if err := done(); err != nil {
				return nil, err
			}
			f := Section{}
			switch {
			case strings.HasPrefix(t, codexUpdate):
				f.Op, f.Path = UpdateFile, strings.TrimSpace(t[len(codexUpdate):])
			case strings.HasPrefix(t, codexAdd):
				f.Op, f.Path = AddFile, strings.TrimSpace(t[len(codexAdd):])
			default:
				f.Op, f.Path = DeleteFile, strings.TrimSpace(t[len(codexDelete):])
			}
			if f.Path == "" {
				return nil, bad(i, "the file header names no path")
			}
			files = append(files, f)
			cur, chunk, header, marks[i] = &files[len(files)-1], nil, i, true
			continue
		case strings.HasPrefix(t, "```"):
			continue
		}
		if cur == nil {
			if strings.TrimSpace(t) == "" {
				continue
			}
			return nil, bad(i, "a change before any file header")
		}
		switch cur.Op {
		case DeleteFile:
			if strings.TrimSpace(t) != "" {
				return nil, bad(i, "*** Delete File: takes no lines")
			}
		case AddFile:
			switch {
			case strings.HasPrefix(l, "+"):
				cur.add = append(cur.add, l[1:])
			case strings.TrimSpace(l) == "" && i == len(lines)-1:
			default:
				return nil, bad(i, "every line of an added file starts with '+'")
			}
		case UpdateFile:
			switch {
			case strings.HasPrefix(t, codexMove):
				if cur.MoveTo != "" || len(cur.chunks) > 0 {
					return nil, bad(i, "*** Move to: belongs right after *** Update File:")
				}
				cur.MoveTo = strings.TrimSpace(t[len(codexMove):])
			case t == codexEOF:
				if chunk == nil || (len(chunk.old) == 0 && len(chunk.new) == 0) {
					return nil, bad(i, "*** End of File without a chunk")
				}
				chunk.eof = true
			case strings.HasPrefix(t, "@@"):
				if err := chunkDone(); err != nil {
					return nil, err
				}
				newChunk(strings.TrimSpace(strings.TrimPrefix(t, "@@")), i)
			case chunk != nil && chunk.eof && t == "":
				// Codex skips blank lines between chunks; after *** End of File
				// one cannot be a context line.
			case chunk != nil && chunk.eof:
				return nil, bad(i, "a line after *** End of File starts a new chunk with @@")
			case l == "":
				// A blank context line whose space was lost (unless it ends the text).
				if i == len(lines)-1 {
					continue
				}
				if chunk == nil {
					newChunk("", i)
				}
				chunk.old, chunk.new = append(chunk.old, ""), append(chunk.new, "")
			case l[0] == ' ' || l[0] == '-' || l[0] == '+':
				if chunk == nil {
					newChunk("", i)
				}
				switch l[0] {
				case ' ':
					chunk.old, chunk.new = append(chunk.old, l[1:]), append(chunk.new, l[1:])
				case '-':
					chunk.old = append(chunk.old, l[1:])
				case '+':
					chunk.new = append(chunk.new, l[1:])
				}
			default:
				return nil, bad(i, "a changed line must start with ' ', '-' or '+'")
			}
		}
	}
	if !ended {
		return nil, plan.Errorf(plan.ErrInvalidInput, "the *** Begin Patch envelope has no *** End Patch line: the reply looks cut off, so none of it is applied").
			WithHint("re-plan; a complete envelope ends with *** End Patch")
	}
	if len(files) == 0 {
		return nil, plan.Errorf(plan.ErrInvalidInput, "the *** Begin Patch envelope holds no file changes").
			WithHint("add *** Update File:, *** Add File: or *** Delete File: sections")
	}
	return files, nil
}

// Place applies the chunks of an *** Update File: section to before, the
// bytes of rel (the section's path, cleaned by the caller), and says where each
// was placed. The chunks are matched like an EDIT_FILE's pairs (SearchReplace),
// an anchor line or *** End of File narrowing where; a chunk that only adds
// lines goes after its anchor line or at the end of the file. Refusals are
// SearchReplace's (ERR_PATCH_APPLY_FAILED). With no chunk the placements say
// "no chunks" and after is before.
func (f Section) Place(rel string, before []byte) (after []byte, placements []string, err error) {
	var edits []plan.Edit
	var where []srWhere
	var appended []string
	for _, ch := range f.chunks {
		switch {
		case len(ch.old) > 0:
			// The anchor, when it is one line of the file, says the chunk comes
			// after it; *** End of File says it ends the file. Both only narrow
			// where the chunk may match: it must still match exactly once there.
			w := srWhere{atEnd: ch.eof}
			if ch.anchor != "" {
				if at, n := uniqueTrimmedAt(before, ch.anchor); n == 1 {
					w.from = at
				}
			}
			edits = append(edits, plan.Edit{Search: strings.Join(ch.old, "\n") + "\n", Replace: joinLines(ch.new)})
			where = append(where, w)
		case ch.anchor != "" && !ch.eof:
			// Added lines go after the anchor, compared like Codex does (trimmed) and
			// then matched as the exact file line, so they keep their own indentation.
			anchor := ch.anchor
			if l, n := uniqueTrimmed(before, anchor); n == 1 {
				anchor = l
			}
			edits = append(edits, plan.Edit{Search: anchor + "\n", Replace: anchor + "\n" + joinLines(ch.new)})
			where = append(where, srWhere{})
		default:
			appended = append(appended, ch.new...)
		}
	}
	after = before
	if len(edits) > 0 {
		if after, placements, err = searchReplaceWhere(rel, before, edits, where); err != nil {
			return nil, nil, err
		}
	}
	if len(appended) > 0 {
		after = appendLines(after, appended)
		placements = append(placements, fmt.Sprintf("%d line(s) added at the end of the file", len(appended)))
	}
	if len(placements) == 0 {
		placements = []string{"no chunks"}
	}
	return after, placements, nil
}

// uniqueTrimmed returns the line of b equal to want when both are trimmed, and
// how many such lines there are.
func uniqueTrimmed(b []byte, want string) (string, int) {
	at, n := uniqueTrimmedAt(b, want)
	if n == 0 {
		return "", 0
	}
	lines, _ := splitLines(b)
	return lines[at], n
}

// uniqueTrimmedAt is uniqueTrimmed returning the (last) line's index.
func uniqueTrimmedAt(b []byte, want string) (int, int) {
	lines, _ := splitLines(b)
	at, n := 0, 0
	for i, l := range lines {
		if strings.TrimSpace(l) == strings.TrimSpace(want) {
			at, n = i, n+1
		}
	}
	return at, n
}

func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// appendLines adds lines at the end of b in b's line-break convention.
func appendLines(b []byte, add []string) []byte {
	eol := "\n"
	if usesCRLF(b) {
		eol = "\r\n"
	}
	s := string(b)
	hadEOL := len(s) == 0 || strings.HasSuffix(s, "\n")
	if !hadEOL {
		s += eol
	}
	s += strings.Join(add, eol)
	if hadEOL {
		s += eol
	}
	return []byte(s)
}

// DropBeginPatchFiles returns a *** Begin Patch envelope without the sections of
// the files drop names (slash-separated, cleaned paths), and false when patch is
// not such an envelope. With no section left it returns "".
func DropBeginPatchFiles(patch string, drop map[string]bool) (string, bool) {
	if !IsBeginPatch(patch) {
		return patch, false
	}
	// The lines the parser reads as headers and end decide, so a header with
	// white space around it is one and a context line that looks like one is
	// not; an envelope it refuses is cut at the unindented markers. The kept
	// headers are written without white space around them: where a section is
	// dropped, an indented header may come to follow a chunk, where it would
	// be read as a context line.
	_, marks, err := parseBeginPatch(patch)
	var out []string
	skipping, kept, dropped := false, 0, 0
	for i, l := range strings.SplitAfter(patch, "\n") {
		t := strings.TrimRight(l, " \t\r\n")
		if err == nil {
			if !marks[i] {
				t = ""
			}
			t = strings.TrimSpace(t)
		}
		for _, h := range []string{codexUpdate, codexAdd, codexDelete} {
			if strings.HasPrefix(t, h) {
				skipping = drop[path.Clean(strings.ReplaceAll(strings.TrimSpace(t[len(h):]), `\`, "/"))]
				if skipping {
					dropped++
				} else {
					kept++
				}
			}
		}
		if t == codexEnd {
			skipping = false
		}
		if err == nil && marks[i] {
			l = t + l[len(strings.TrimRight(l, "\r\n")):]
		}
		if !skipping {
			out = append(out, l)
		}
	}
	switch {
	case kept == 0:
		return "", true
	case dropped == 0:
		return patch, true
	}
	return strings.Join(out, ""), true
}
