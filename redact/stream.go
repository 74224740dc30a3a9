package redact

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A line range of a file too big to hold is read by streaming: memory is
// bounded by the range (at most maxBytes of it) plus streamMargin lines on
// each side, not by the file. The range is redacted with its margins (detectors
// look a few lines around a match), and the lines inside private key blocks are
// known from the start of the file: the stream follows BEGIN/END markers on its
// way to the range, so a range that starts inside a key block is redacted even
// though the range itself holds no marker.

const (
	// streamMargin is how many lines before and after a streamed range are read
	// and redacted with it; more than any detector's reach (rules.go).
	streamMargin = 16
	// maxStreamLine is the longest line kept whole; longer lines are cut.
	maxStreamLine = 1 << 20
)

// Streamed is a line range read from a stream.
type Streamed struct {
	Text       string // the label-less, numbered lines Start..End ("  12 | text")
	Start, End int
	Total      int  // lines in the file
	Redactions int  // redactions touching Start..End
	Cut        bool // the range was cut at maxBytes: End is the last line kept
}

// ReadRange reads lines start..end (1-based, inclusive; end < 1 = to the last
// line) of r, at most maxBytes of them, and redacts them as the content of the
// file at path. It fails with ErrBinary on a NUL byte before the range ends and
// with ErrPastEnd (Total set) on a start past the end of the file.
func ReadRange(r io.Reader, path string, start, end int, maxBytes int64) (Streamed, error) {
	if start < 1 {
		start = 1
	}
	from := max(1, start-streamMargin)
	stop := 0 // last line kept (0 = none yet decided: to the end)
	if end >= 1 {
		stop = end + streamMargin
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		lines  []string
		inside []bool // the line is inside a private key block
		kept   int64
		keyOn  bool // the previous line left us inside a key block
		n      int  // lines read
		cut    bool // the range was cut at maxBytes
		last   = end
	)
	for {
		line, ok, err := readLine(br)
		if err != nil {
			return Streamed{}, err
		}
		if !ok {
			break
		}
		n++
		if bytes.IndexByte(line, 0) >= 0 {
			return Streamed{}, ErrBinary
		}
		in, next, confirms := keyState(keyOn, line)
		keyOn = next
		if n < from {
			continue
		}
		if kept+int64(len(line)) > maxBytes && n > start {
			cut = true // the margin after the range is lost: lines past the cut are not shown
			last = n - 1
			rest, err := countLines(br)
			if err != nil {
				return Streamed{}, err
			}
			n += rest
			break
		}
		if confirms && len(inside) > 0 && len(lines) == n-from { // the BEGIN line above opens a real block
			inside[len(inside)-1] = true
		}
		lines = append(lines, string(line))
		inside = append(inside, in)
		kept += int64(len(line)) + 1
		if stop > 0 && n >= stop {
			rest, err := countLines(br)
			if err != nil {
				return Streamed{}, err
			}
			n += rest
			break
		}
	}
	total := max(n, 1)
	if n == 0 {
		lines, inside = []string{""}, []bool{false}
	}
	if start > total {
		return Streamed{Total: total}, fmt.Errorf("start past the end: %w", ErrPastEnd)
	}
	if last < 1 || last > total {
		last = total
	}
	// lines inside key blocks are replaced before the window is redacted
	blocks := 0
	for i := range lines {
		if inside[i] {
			if strings.TrimSpace(lines[i]) != "" {
				lines[i] = Redacted
			}
			ln := from + i
			if ln >= start && ln <= last && (i == 0 || !inside[i-1] || ln == start) {
				blocks++
			}
		}
	}
	text, red := Whole(path, strings.Join(lines, "\n"))
	win := strings.Split(text, "\n")
	var b strings.Builder
	w := len(strconv.Itoa(last))
	for ln := start; ln <= last && ln-from < len(win); ln++ {
		fmt.Fprintf(&b, "%*d | %s\n", w, ln, win[ln-from])
	}
	// red counts lines of the window: shift to file lines
	return Streamed{Text: b.String(), Start: start, End: last, Total: total,
		Redactions: blocks + red.In(start-from+1, last-from+1), Cut: cut}, nil
}

// The errors of ReadRange.
var (
	ErrBinary  = errors.New("binary content")
	ErrPastEnd = errors.New("start past the end of the file")
)

// readLine returns the next line of br without its line ending; lines longer
// than maxStreamLine are cut. ok is false at the end of the input.
func readLine(br *bufio.Reader) (line []byte, ok bool, err error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			if long != nil {
				chunk = append(long, chunk...)
			}
			return trimEOL(chunk), true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if len(long) < maxStreamLine {
				long = append(long, chunk[:min(len(chunk), maxStreamLine-len(long))]...)
			}
		case errors.Is(err, io.EOF):
			if long == nil && len(chunk) == 0 {
				return nil, false, nil
			}
			return trimEOL(append(long, chunk...)), true, nil
		default:
			return nil, false, err
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// countLines counts the lines left in br (a last line without a newline counts).
func countLines(br *bufio.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n, lastByte := 0, byte('\n')
	for {
		m, err := br.Read(buf)
		if m > 0 {
			n += bytes.Count(buf[:m], []byte{'\n'})
			lastByte = buf[m-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if lastByte != '\n' {
		n++
	}
	return n, nil
}

// keyState follows private key blocks line by line: in says whether line is
// inside a block (key material or its END line), next whether the block goes
// on after it, confirms whether line shows that the BEGIN line just above opened
// a real block (key material follows it, not code).
func keyState(on bool, line []byte) (in, next, confirms bool) {
	if !bytes.Contains(line, []byte("PRIVATE KEY")) || !(pemBeginRe().Match(line) || pemEndRe().Match(line)) {
		if !on {
			return false, false, false
		}
		core, ok := pemLine(string(line))
		if !ok || core != "" && !keyish(core) {
			return false, false, false // code after a BEGIN literal: no block
		}
		return true, true, core != ""
	}
	if on && pemEndRe().Match(line) {
		return true, false, true
	}
	b := pemBeginRe().FindIndex(line)
	if b == nil {
		return on, on, false // a stray END outside a block
	}
	if pemEndRe().Match(line[b[1]:]) {
		return false, false, false // a whole block on one line: the window's redaction finds it
	}
	return false, true, false
}
