package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// How the JSON value was found in the reply.
const (
	ExtractedWhole    = "" // the reply was exactly one JSON value
	ExtractedFromText = "extracted from surrounding text or code fences"
	ExtractedRepaired = "comments or trailing commas removed" // may be combined with ExtractedFromText
	ExtractedPython   = "Python literals converted (True, False, None, quoted strings)"
)

// thinkRe matches the reasoning blocks local reasoning models (DeepSeek-R1, Qwen3,
// ...) print before their answer; JSON-like text inside them is not the answer.
// Tag names are read in any case, with or without attributes.
var thinkRe = regexp.MustCompile(`(?is)<(?:think|thinking|thought|reasoning)\b[^>]*>.*?</(?:think|thinking|thought|reasoning)\s*>`)

// thinkOpenRe and thinkCloseRe find a reasoning block's tags on their own: a
// server whose chat template opens the block in the prompt sends only its end.
var (
	thinkOpenRe  = regexp.MustCompile(`(?i)<(?:think|thinking|thought|reasoning)\b[^>]*>`)
	thinkCloseRe = regexp.MustCompile(`(?i)</(?:think|thinking|thought|reasoning)\s*>`)
)

// reasoningEnd returns where the reasoning ends in a reply whose chat template
// opened the block in the prompt: after a closing tag that no opening tag
// precedes. ok is false when there is no such tag.
func reasoningEnd(s []byte) (int, bool) {
	loc := thinkCloseRe.FindIndex(s)
	if loc == nil || thinkOpenRe.Match(s[:loc[0]]) {
		return 0, false
	}
	return loc[1], true
}

// planKeys are object keys that make a JSON object look like a (possibly legacy) plan.
var planKeys = []string{"mode", "summary", "plan", "proposed_changes", "actions", "patch",
	"context_requests", "memory_patch", "questions", "commands_to_run"}

// extract returns the single plan-like JSON value of a reply, and how it was found.
// Errors are *ParseError with ErrJSONExtract: empty reply, no JSON, a truncated
// value, several different values, or a prose "phantom plan".
//
// Reasoning blocks are dropped only from a reply that is not JSON as it stands
// (a plan may write a file that holds such tags). When only the end of a block
// is in the reply, what precedes it is read as the answer first (the tag may be
// text inside the plan), and dropped when that finds no single plan.
func extract(raw []byte) ([]byte, string, error) {
	s := bytes.TrimSpace(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")))
	if len(s) == 0 {
		return nil, "", extractErr("the reply is empty")
	}
	if json.Valid(s) {
		return s, ExtractedWhole, nil
	}
	thought := false
	if thinkRe.Match(s) {
		s, thought = bytes.TrimSpace(thinkRe.ReplaceAll(s, nil)), true
	}
	v, how, err := extractFrom(s, thought)
	if err != nil {
		if end, ok := reasoningEnd(s); ok {
			return extractFrom(bytes.TrimSpace(s[end:]), true)
		}
	}
	return v, how, err
}

// extractFrom is extract on a reply without reasoning blocks; thought says
// some were dropped (the value is then not the whole reply).
func extractFrom(s []byte, thought bool) ([]byte, string, error) {
	if len(s) == 0 {
		return nil, "", extractErr("the reply is empty")
	}
	if json.Valid(s) {
		if thought {
			return s, ExtractedFromText, nil
		}
		return s, ExtractedWhole, nil
	}
	br := newBrackets(s, workBudget(len(s)))
	if s[0] == '{' || s[0] == '[' {
		end, ok, err := br.scan(0)
		if err != nil {
			return nil, "", budgetErr(len(s))
		}
		// A value that fills the reply is repaired whole, and so is one whose
		// brackets seem not to end: a quote in a comment or in a single-quoted
		// string may hide where they do.
		if !ok || end == len(s) {
			if fixed, how, ok := repair(s); ok {
				return fixed, how, nil
			}
		}
	}
	var cands [][]byte
	how := ExtractedFromText
	truncated := false
	for i := 0; i < len(s); i++ {
		if s[i] != '{' && s[i] != '[' {
			continue
		}
		end, ok, err := br.scan(i)
		if err != nil {
			return nil, "", budgetErr(len(s))
		}
		if !ok {
			// An unclosed value that starts like a plan is a reply cut off mid-way.
			if s[i] == '{' && br.planKeyFrom(i) {
				truncated = true
				break
			}
			continue
		}
		v := s[i:end]
		if !json.Valid(v) {
			fixed, fixedHow, ok := repair(v)
			if !ok {
				i = end - 1
				continue
			}
			v = fixed
			how = ExtractedFromText + "; " + fixedHow
		}
		if planLike(v) {
			cands = append(cands, v)
		}
		i = end - 1
	}
	switch {
	case len(cands) == 1 && !truncated:
		return cands[0], how, nil
	case len(cands) > 1:
		same := true
		first := compact(cands[0])
		for _, c := range cands[1:] {
			if !bytes.Equal(compact(c), first) {
				same = false
				break
			}
		}
		if same && !truncated {
			return cands[0], how, nil
		}
		return nil, "", extractErr(fmt.Sprintf("the reply holds %d different JSON values; answer with exactly one JSON object", len(cands)))
	case truncated:
		e := extractErr("the reply was cut off before its JSON object ended (truncated); answer with one complete, shorter JSON object")
		e.Truncated = true
		return nil, "", e
	case phantomPlan(s):
		e := extractErr("the reply describes a plan in prose without the JSON object; answer with the plan as one JSON object only")
		e.Phantom = true
		return nil, "", e
	}
	return nil, "", extractErr("the reply holds no JSON object; answer with one JSON object only, no text outside it")
}

// budgetErr refuses a reply whose brackets would take too long to match.
func budgetErr(n int) *ParseError {
	return extractErr(fmt.Sprintf("the reply's { and [ brackets could not be matched within the work allowed for its %d bytes (too many unclosed or unbalanced brackets); answer with one JSON object only, no text outside it", n))
}

func extractErr(msg string) *ParseError {
	return &ParseError{Code: ErrJSONExtract, Issues: []string{"/: " + msg}}
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

// strScan tracks whether a byte-by-byte walk over JSON text is inside a string.
type strScan struct{ in, esc bool }

// inString consumes c and reports whether it belongs to a string (its quotes included).
func (st *strScan) inString(c byte) bool {
	if st.in {
		switch {
		case st.esc:
			st.esc = false
		case c == '\\':
			st.esc = true
		case c == '"':
			st.in = false
		}
		return true
	}
	if c == '"' {
		st.in = true
		return true
	}
	return false
}

// repair makes a value that is not JSON valid, when it has only the slips
// models make: comments and trailing commas (repairJSON), or, failing that, a
// Python literal (pythonToJSON). Each is one pass over v.
func repair(v []byte) ([]byte, string, bool) {
	if fixed := repairJSON(v); json.Valid(fixed) {
		return fixed, ExtractedRepaired, true
	}
	if py, ok := pythonToJSON(v); ok {
		if fixed := removeTrailingCommas(py); json.Valid(fixed) {
			return fixed, ExtractedPython, true
		}
	}
	return nil, "", false
}

// repairJSON fixes the two slips models make most in hand-written JSON: line
// comments (// and #) and block comments, and trailing commas (all outside
// strings).
func repairJSON(s []byte) []byte { return removeTrailingCommas(stripComments(s)) }

// stripComments removes // and # line comments and /* */ block comments outside
// strings.
func stripComments(s []byte) []byte {
	out := make([]byte, 0, len(s))
	var st strScan
	for j := 0; j < len(s); j++ {
		c := s[j]
		switch {
		case st.inString(c):
		case c == '/' && j+1 < len(s) && s[j+1] == '/', c == '#':
			for j < len(s) && s[j] != '\n' {
				j++
			}
			if j < len(s) {
				out = append(out, '\n')
			}
			continue
		case c == '/' && j+1 < len(s) && s[j+1] == '*':
			end := bytes.Index(s[j+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			j += end + 3
			continue
		}
		out = append(out, c)
	}
	return out
}

// removeTrailingCommas drops commas that directly precede a closing bracket
// (outside strings), the most common hand-written JSON slip.
func removeTrailingCommas(s []byte) []byte {
	out := make([]byte, 0, len(s))
	var st strScan
	for j := 0; j < len(s); j++ {
		c := s[j]
		if !st.inString(c) && c == ',' {
			k := j + 1
			for k < len(s) && (s[k] == ' ' || s[k] == '\n' || s[k] == '\r' || s[k] == '\t') {
				k++
			}
			if k < len(s) && (s[k] == '}' || s[k] == ']') {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// planLike reports whether a valid JSON value looks like a plan: an object with a
// plan key, or an array of objects with a "kind" (legacy actions).
func planLike(v []byte) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	// Cheap refusals first: a reply may hold a million small values.
	if v[0] == '{' && bytes.IndexByte(v, '"') < 0 {
		return false
	}
	if v[0] == '[' && !bytes.HasPrefix(bytes.TrimLeft(v[1:], " \t\r\n"), []byte("{")) {
		return false
	}
	if v[0] == '{' {
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil {
			return false
		}
		for _, k := range planKeys {
			if _, ok := m[k]; ok {
				return true
			}
		}
		return false
	}
	var arr []map[string]json.RawMessage
	if json.Unmarshal(v, &arr) != nil || len(arr) == 0 {
		return false
	}
	_, ok := arr[0]["kind"]
	return ok
}

// cutKeys are the keys that make an unclosed object a plan cut off (planKeyRe).
var cutKeys = []string{"mode", "summary", "plan", "proposed_changes", "actions", "patch", "context_requests"}

var planKeyRe = regexp.MustCompile(`"(` + strings.Join(cutKeys, "|") + `)"\s*:`)

// hasCutKey reports whether one of cutKeys appears quoted in s: planKeyRe can
// match only then, and this look is much cheaper on a long reply.
func hasCutKey(s []byte) bool {
	for _, k := range cutKeys {
		if bytes.Contains(s, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}

// phantomRe matches prose plan lines: "Step 1", "1. Fix …", "Plan:", "## Plan".
var phantomRe = regexp.MustCompile(`(?im)^\s*(?:[*#>\s-]*)(?:step\s*\d+\b|\d+[.)]\s+\S|(?:fix\s+)?plan\s*:|\*\*(?:fix\s+)?plan\*\*|#+\s*(?:fix\s+)?plan\b)`)

// phantomPlan reports whether a reply without JSON describes a plan in prose.
func phantomPlan(s []byte) bool {
	return len(phantomRe.FindAllIndex(s, 3)) >= 2
}
