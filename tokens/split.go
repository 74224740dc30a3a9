package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers of o200k_base and cl100k_base, written out. A BPE
// tokenizer first cuts the text into pieces with a regular expression, then
// merges each piece's bytes into tokens on its own; the library runs that
// expression with a backtracking engine that costs more than the merging (~70%
// of a count). These functions cut the text exactly where the library's
// expressions do (tiktoken's patterns, with the engine's semantics: the first
// alternative that matches at a position wins, quantifiers are greedy and give
// back one character at a time; \s is unicode.IsSpace, the letter, number and
// mark classes are Go's unicode tables), so the count of a text is the sum of
// its pieces' counts (split_test.go checks both against the library). They take
// valid UTF-8 only: the library's engine reads invalid bytes as U+FFFD, and so
// does Count before it splits.
//
// The o200k_base pattern, alternative by alternative:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n/]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+
//
// and cl100k_base's:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)
//	[^\r\n\p{L}\p{N}]?\p{L}+
//	\p{N}{1,3}
//	 ?[^\s\p{L}\p{N}]+[\r\n]*
//	\s*[\r\n]+
//	\s+(?!\S)
//	\s+

// The classes of the patterns, as bits of ascii for the ASCII characters.
const (
	clUpper  = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	clLower              // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	clLetter             // \p{L}
	clNumber             // \p{N}
	clSpace              // \s
	clLead               // [^\r\n\p{L}\p{N}], the character a word may start with
	clPunct              // [^\s\p{L}\p{N}]
)

var ascii = func() (t [utf8.RuneSelf]uint8) {
	for r := range rune(utf8.RuneSelf) {
		t[r] = classOf(r)
	}
	return t
}()

// classOf is the classes r belongs to, from Go's unicode tables (as the
// library's engine has them).
func classOf(r rune) uint8 {
	var c uint8
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= clUpper
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= clLower
	}
	if unicode.In(r, unicode.L) {
		c |= clLetter
	}
	if unicode.In(r, unicode.N) {
		c |= clNumber
	}
	if unicode.IsSpace(r) {
		c |= clSpace
	}
	if r != '\r' && r != '\n' && c&(clLetter|clNumber) == 0 {
		c |= clLead
	}
	if c&(clSpace|clLetter|clNumber) == 0 {
		c |= clPunct
	}
	return c
}

// is reports whether r is in the class cl.
func is(r rune, cl uint8) bool {
	if r < utf8.RuneSelf {
		return ascii[r]&cl != 0
	}
	return classOf(r)&cl != 0
}

func isUpperish(r rune) bool { return is(r, clUpper) }
func isLowerish(r rune) bool { return is(r, clLower) }
func isLetter(r rune) bool   { return is(r, clLetter) }
func isNumber(r rune) bool   { return is(r, clNumber) }
func isSpace(r rune) bool    { return is(r, clSpace) }
func isLead(r rune) bool     { return is(r, clLead) }
func isPunct(r rune) bool    { return is(r, clPunct) }

// at is the rune at s[i] and its size (0, 0 at the end).
func at(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// run is the end of the run of runes from i that keep is true of.
func run(s string, i int, keep func(rune) bool) int {
	for {
		r, n := at(s, i)
		if n == 0 || !keep(r) {
			return i
		}
		i += n
	}
}

// contraction is the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i. The
// engine folds case with the Unicode tables, so 's also matches 'ſ (U+017F).
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	fold := func(j int, lower byte) bool { return j < len(s) && s[j]|0x20 == lower }
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if fold(i+2, 'e') {
			return i + 3
		}
	case 'l':
		if fold(i+2, 'l') {
			return i + 3
		}
	}
	if s[i+1] == 0xC5 && i+2 < len(s) && s[i+2] == 0xBF { // ſ
		return i + 3
	}
	return i
}

// whitespace is the end of \s*[\r\n]+, \s+(?!\S) or \s+ at i, which holds a
// space (the three alternatives are tried in this order). The library's
// engine backs \s* off to the run's FIRST \r or \n, not to its last as a
// backtracking engine would ("\n  \n" is two pieces for it), so this does too.
// OpenAI's tokenizer keeps such a run one piece: it counts one token fewer
// for " \n  \n" (diff_external_test.go's -oracle found no text the quirk counts lower).
func whitespace(s string, i int) int {
	end := run(s, i, isSpace)
	last, nl := i, -1 // the last rune of the run; its first \r or \n
	for j := i; j < end; {
		r, n := at(s, j)
		if nl < 0 && (r == '\r' || r == '\n') {
			nl = j
		}
		last = j
		j += n
	}
	switch {
	case nl >= 0:
		for nl < end && (s[nl] == '\r' || s[nl] == '\n') {
			nl++
		}
		return nl
	case end == len(s) || last == i:
		return end
	default:
		return last // leaves one space before the next word
	}
}

// words is the end of o200k_base's first two alternatives at i (the optional
// lead character, then the letters), or i when neither matches.
func words(s string, i int) int {
	r0, n0 := at(s, i)
	starts := [2]int{i, i}
	if isLead(r0) {
		starts[0] = i + n0 // the lead character is optional: first with it, then without
	}
	// [\p{Lu}…]*[\p{Ll}…]+: the upper run, then the lower run; when no lower
	// character follows the upper run, it gives back characters until one it
	// holds that is also lower can start the lower run.
	for k, j := range starts {
		if k == 1 && j == starts[0] {
			break
		}
		end, lastLower := j, -1
		for {
			r, n := at(s, end)
			if n == 0 || !isUpperish(r) {
				break
			}
			end += n
			if isLowerish(r) {
				lastLower = end
			}
		}
		if r, n := at(s, end); n > 0 && isLowerish(r) {
			return contraction(s, run(s, end, isLowerish))
		}
		if lastLower >= 0 {
			return contraction(s, lastLower)
		}
	}
	// [\p{Lu}…]+[\p{Ll}…]*
	for k, j := range starts {
		if k == 1 && j == starts[0] {
			break
		}
		if end := run(s, j, isUpperish); end > j {
			return contraction(s, run(s, end, isLowerish))
		}
	}
	return i
}

// numbers is the end of \p{N}{1,3} at i, or i.
func numbers(s string, i int) int {
	end := i
	for k := 0; k < 3; k++ {
		r, n := at(s, end)
		if n == 0 || !isNumber(r) {
			break
		}
		end += n
	}
	return end
}

// punctuation is the end of ` ?[^\s\p{L}\p{N}]+` followed by a run of the
// bytes in tail at i, or i.
func punctuation(s string, i int, tail string) int {
	j := i
	if j < len(s) && s[j] == ' ' {
		j++
	}
	end := run(s, j, isPunct)
	if end == j {
		return i
	}
	for end < len(s) && indexByte(tail, s[end]) {
		end++
	}
	return end
}

func indexByte(set string, c byte) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}

// splitO200k calls piece with each piece of s (valid UTF-8) in order, cut as
// o200k_base's pattern cuts it.
func splitO200k(s string, piece func(string)) { splitWith(s, words, "\r\n/", piece) }

// splitCl100k is splitO200k for cl100k_base's pattern.
func splitCl100k(s string, piece func(string)) { splitWith(s, cl100kWords, "\r\n", piece) }

// cl100kWords is the end of cl100k_base's first two alternatives at i (a
// contraction; the letters, after an optional lead character), or i.
func cl100kWords(s string, i int) int {
	if end := contraction(s, i); end > i {
		return end
	}
	r0, n0 := at(s, i)
	if r1, n1 := at(s, i+n0); isLead(r0) && n1 > 0 && isLetter(r1) {
		return run(s, i+n0, isLetter)
	}
	if isLetter(r0) {
		return run(s, i, isLetter)
	}
	return i
}

// splitWith cuts s by a pattern of both tokenizers' shape: its own first
// alternatives (first), then the numbers, the punctuation followed by a run of
// the bytes in tail, and the three of whitespace. Every character is a letter,
// a number, a space or punctuation, so some alternative matches at every
// position (a character none matched would be a piece of its own).
func splitWith(s string, first func(string, int) int, tail string, piece func(string)) {
	for i := 0; i < len(s); {
		end := first(s, i)
		if end == i {
			end = numbers(s, i)
		}
		if end == i {
			end = punctuation(s, i, tail)
		}
		if end == i {
			if r, _ := at(s, i); isSpace(r) {
				end = whitespace(s, i)
			}
		}
		if end == i {
			_, n := at(s, i)
			end = i + n
		}
		piece(s[i:end])
		i = end
	}
}
