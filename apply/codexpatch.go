package apply

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

// isCodexPatch reports a patch written in the Begin Patch envelope.
func isCodexPatch(patch string) bool {
	for _, l := range strings.Split(patch, "\n") {
		if strings.TrimSpace(l) == codexBegin {
			return true
		}
	}
	return false
}

type codexChunk struct {
	anchor   string
	old, new []string
	eof      bool
}

type codexFile struct {
	op     string // "add", "update", "delete"
	path   string
	moveTo string
	add    []string // the lines of an added file
	chunks []codexChunk
}

// parseCodexPatch reads the envelope. It fails with ERR_INVALID_INPUT, naming the
// line, for anything outside the grammar.
func parseCodexPatch(patch string) ([]codexFile, error) {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	bad := func(n int, why string) error {
		return plan.Errorf(plan.ErrInvalidInput, "the *** Begin Patch envelope is malformed at line %d (%q): %s", n+1, lines[n], why).
			WithHint("each file starts with *** Update File:, *** Add File: or *** Delete File:, and each changed line with ' ', '-' or '+'")
	}
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) != codexBegin {
		i++
	}
	var files []codexFile
	var cur *codexFile
	var chunk *codexChunk
	newChunk := func(anchor string) {
		cur.chunks = append(cur.chunks, codexChunk{anchor: anchor})
		chunk = &cur.chunks[len(cur.chunks)-1]
	}
	ended := false
	for i++; i < len(lines) && !ended; i++ {
		l := lines[i]
		t := strings.TrimRight(l, " \t")
		switch {
		case t == codexEnd:
			ended = true
			continue
		case strings.HasPrefix(t, codexUpdate), strings.HasPrefix(t, codexAdd), strings.HasPrefix(t, codexDelete):
			f := codexFile{}
			switch {
			case strings.HasPrefix(t, codexUpdate):
				f.op, f.path = "update", strings.TrimSpace(t[len(codexUpdate):])
			case strings.HasPrefix(t, codexAdd):
				f.op, f.path = "add", strings.TrimSpace(t[len(codexAdd):])
			default:
				f.op, f.path = "delete", strings.TrimSpace(t[len(codexDelete):])
			}
			if f.path == "" {
				return nil, bad(i, "the file header names no path")
			}
			files = append(files, f)
			cur, chunk = &files[len(files)-1], nil
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
		switch cur.op {
		case "delete":
			if strings.TrimSpace(t) != "" {
				return nil, bad(i, "*** Delete File: takes no lines")
			}
		case "add":
			switch {
			case strings.HasPrefix(l, "+"):
				cur.add = append(cur.add, l[1:])
			case strings.TrimSpace(l) == "" && i == len(lines)-1:
			default:
				return nil, bad(i, "every line of an added file starts with '+'")
			}
		case "update":
			switch {
			case strings.HasPrefix(t, codexMove):
				if cur.moveTo != "" || len(cur.chunks) > 0 {
					return nil, bad(i, "*** Move to: belongs right after *** Update File:")
				}
				cur.moveTo = strings.TrimSpace(t[len(codexMove):])
			case t == codexEOF:
				if chunk == nil {
					return nil, bad(i, "*** End of File without a chunk")
				}
				chunk.eof = true
			case strings.HasPrefix(t, "@@"):
				newChunk(strings.TrimSpace(strings.TrimPrefix(t, "@@")))
			case l == "":
				// A blank context line whose space was lost (unless it ends the text).
				if i == len(lines)-1 {
					continue
				}
				if chunk == nil {
					newChunk("")
				}
				chunk.old, chunk.new = append(chunk.old, ""), append(chunk.new, "")
			case l[0] == ' ' || l[0] == '-' || l[0] == '+':
				if chunk == nil {
					newChunk("")
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
	if len(files) == 0 {
		return nil, plan.Errorf(plan.ErrInvalidInput, "the *** Begin Patch envelope holds no file changes").
			WithHint("add *** Update File:, *** Add File: or *** Delete File: sections")
	}
	return files, nil
}

// codexChanges turns an envelope into changes against the disk.
func (e *Engine) codexChanges(patch string) ([]Change, error) {
	files, err := parseCodexPatch(patch)
	if err != nil {
		return nil, err
	}
	var out []Change
	seen := map[string]bool{}
	for _, f := range files {
		rel, err := cleanRel(f.path)
		if err != nil {
			return nil, err
		}
		if seen[rel] {
			return nil, (&plan.Error{Code: plan.ErrActionConflict, Msg: "the patch changes " + rel + " in two separate sections", Paths: []string{rel}}).
				WithHint("put all of a file's chunks under one *** Update File: header, or re-plan")
		}
		seen[rel] = true
		switch f.op {
		case "add":
			content := strings.Join(f.add, "\n")
			if len(f.add) > 0 {
				content += "\n"
			}
			c, skip, err := e.actionChange(rel, plan.Action{Kind: plan.CreateFile, Path: rel, Content: &content})
			if err != nil {
				return nil, err
			}
			if !skip {
				c.FromPatch = true
				out = append(out, c)
			}
		case "delete":
			c, _, err := e.actionChange(rel, plan.Action{Kind: plan.DeleteFile, Path: rel})
			if err != nil {
				return nil, err
			}
			c.FromPatch = true
			out = append(out, c)
		case "update":
			cs, err := e.codexUpdate(rel, f)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	return out, nil
}

// codexUpdate applies the chunks of one *** Update File: section.
func (e *Engine) codexUpdate(rel string, f codexFile) ([]Change, error) {
	abs, err := e.checkTarget(rel)
	if err != nil {
		return nil, err
	}
	cur, err := e.look(rel, abs, true)
	if err != nil {
		return nil, err
	}
	if !cur.exists || cur.dir {
		return nil, (&plan.Error{Code: plan.ErrNotFound, Msg: fmt.Sprintf("the patch updates %s, which does not exist", rel), Paths: []string{rel}}).
			WithHint("re-plan; a new file is *** Add File:")
	}
	if err := textFile(rel, cur.data); err != nil {
		return nil, err
	}
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
				if at, n := uniqueTrimmedAt(cur.data, ch.anchor); n == 1 {
					w.from = at
				}
			}
			edits = append(edits, plan.Edit{Search: strings.Join(ch.old, "\n") + "\n", Replace: joinLines(ch.new)})
			where = append(where, w)
		case ch.anchor != "" && !ch.eof:
			// Added lines go after the anchor, compared like Codex does (trimmed) and
			// then matched as the exact file line, so they keep their own indentation.
			anchor := ch.anchor
			if l, n := uniqueTrimmed(cur.data, anchor); n == 1 {
				anchor = l
			}
			edits = append(edits, plan.Edit{Search: anchor + "\n", Replace: anchor + "\n" + joinLines(ch.new)})
			where = append(where, srWhere{})
		default:
			appended = append(appended, ch.new...)
		}
	}
	after, placements := cur.data, []string(nil)
	if len(edits) > 0 {
		if after, placements, err = searchReplaceWhere(rel, cur.data, edits, where); err != nil {
			return nil, err
		}
	}
	if len(appended) > 0 {
		after = appendLines(after, appended)
		placements = append(placements, fmt.Sprintf("%d line(s) added at the end of the file", len(appended)))
	}
	if len(placements) == 0 {
		placements = []string{"no chunks"}
	}
	c := Change{Path: rel, Op: plan.OpUpdate, Before: cur.data, BeforeSHA256: sum(cur.data), BeforeMode: cur.mode,
		Existed: true, After: after, Mode: cur.mode, FromPatch: true, Placement: placements}
	newRel := ""
	if f.moveTo != "" {
		if newRel, err = cleanRel(f.moveTo); err != nil {
			return nil, err
		}
	}
	if newRel == "" || newRel == rel { // a move onto the file's own path is no move
		if string(after) == string(cur.data) {
			return nil, nil
		}
		return []Change{c}, nil
	}
	nabs, err := e.checkTarget(newRel)
	if err != nil {
		return nil, err
	}
	there, err := e.look(newRel, nabs, false)
	if err != nil {
		return nil, err
	}
	if there.exists && !strings.EqualFold(newRel, rel) {
		return nil, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: "cannot move " + rel + " to " + newRel + ": it already exists", Paths: []string{newRel}})
	}
	del := c
	del.Op, del.After, del.Mode, del.Placement = plan.OpDelete, nil, 0, nil
	create := Change{Path: newRel, Op: plan.OpCreate, After: after, Mode: cur.mode, FromPatch: true, Placement: placements}
	return []Change{del, create}, nil
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

// DropEnvelopeFiles returns a *** Begin Patch envelope without the sections of
// the files drop names (slash-separated, cleaned paths), and false when patch is
// not such an envelope. With no section left it returns "".
func DropEnvelopeFiles(patch string, drop map[string]bool) (string, bool) {
	if !isCodexPatch(patch) {
		return patch, false
	}
	var out []string
	skipping, kept := false, 0
	for _, l := range strings.SplitAfter(patch, "\n") {
		t := strings.TrimRight(l, " \t\r\n")
		for _, h := range []string{codexUpdate, codexAdd, codexDelete} {
			if strings.HasPrefix(t, h) {
				skipping = drop[path.Clean(strings.ReplaceAll(strings.TrimSpace(t[len(h):]), `\`, "/"))]
				if !skipping {
					kept++
				}
			}
		}
		if t == codexEnd {
			skipping = false
		}
		if !skipping {
			out = append(out, l)
		}
	}
	if kept == 0 {
		return "", true
	}
	return strings.Join(out, ""), true
}
