package projfs

import (
	"fmt"
	"io"
	"strings"

	"fixplan/plan"
	"fixplan/redact"
)

// Text is a file as the model may see it: redacted whole (so a line range that
// starts inside a private key block is still redacted), then split in lines
// (redaction keeps the number of lines, so line numbers stay right).
type Text struct {
	Real  string       // root-relative path of the file read (symlinks resolved)
	Lines []string     // redacted lines without their endings
	Red   redact.Lines // the lines each redaction covers
}

// ReadText reads a confined (Open), non-binary text file of at most
// MaxFileBytes and redacts it whole.
func (r *Root) ReadText(rel string) (Text, error) {
	f, err := r.Open(rel)
	if err != nil {
		return Text{}, err
	}
	defer f.Close()
	return r.TextOf(f)
}

// TextOf is ReadText of a file Open opened.
func (r *Root) TextOf(f *File) (Text, error) {
	limit := r.opts.MaxFileBytes
	if f.Size > limit {
		return Text{}, Refuse(plan.ErrInvalidInput, "file %q is too big (%d bytes, limit %d): ask for a line range or search it", f.Clean, f.Size, limit)
	}
	data, err := ReadBounded(f, limit, fmt.Sprintf("%q", f.Clean))
	if IsTooLong(err) {
		return Text{}, Refuse(plan.ErrInvalidInput, "file %q is too big (limit %d bytes)", f.Clean, limit)
	}
	if err != nil {
		return Text{}, err
	}
	if IsBinary(data) {
		return Text{}, Refuse(plan.ErrBinaryContent, "file %q is binary, not text", f.Clean)
	}
	text, red := redact.Whole(f.Real, string(data))
	return Text{Real: f.Real, Lines: SplitLines([]byte(text)), Red: red}, nil
}

// ReadRaw reads a confined text file for parsing: the same checks as ReadText
// (root, links, .git, secret files, hard links, size, binary), without
// redaction. Nothing it returns may be shown to the model as it is.
func (r *Root) ReadRaw(rel string) ([]byte, error) {
	f, err := r.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := r.opts.MaxFileBytes
	if f.Size > limit {
		return nil, Refuse(plan.ErrInvalidInput, "file %q is too big", rel)
	}
	data, err := ReadBounded(f, limit, fmt.Sprintf("%q", rel))
	if err != nil || IsBinary(data) {
		return nil, Refuse(plan.ErrInvalidInput, "file %q cannot be read as text", rel)
	}
	return data, nil
}

// ReadHead reads at most n bytes of the start of a confined text file (a Go
// package clause, a package.json's main: the rest of the file is not needed);
// like ReadRaw it is not redacted.
func (r *Root) ReadHead(rel string, n int64) ([]byte, error) {
	f, err := r.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadBounded(io.LimitReader(f, n), n, fmt.Sprintf("%q", rel))
	if err != nil || IsBinary(data) {
		return nil, Refuse(plan.ErrInvalidInput, "file %q cannot be read as text", rel)
	}
	return data, nil
}

// SplitLines splits file content into lines without their endings. A final
// newline does not start an extra empty line.
func SplitLines(data []byte) []string {
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return []string{""}
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
