package openai

import (
	"errors"
	"fmt"
	"io"
)

// DefaultMaxReplyBytes is the reply size cap of a Client whose Config leaves
// MaxReplyBytes at 0: 4 MiB.
const DefaultMaxReplyBytes = 4 << 20

// ReplyTooLargeError is the error of a reply that grew beyond the cap
// (Config.MaxReplyBytes). Reading stops at the cap, so memory stays bounded; such
// a reply is not retried. Callers find it with errors.As under the *llm.Error.
type ReplyTooLargeError struct {
	// Limit is the cap in bytes.
	Limit int64
}

func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("the model's reply exceeded %s", sizeText(e.Limit))
}

// sizeText writes n bytes for people: "4 MiB", "512 KiB", "1500 bytes".
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// limitedBody is a response body that fails with *ReplyTooLargeError once more
// than limit bytes arrive (at once when Content-Length already says so).
type limitedBody struct {
	rc    io.ReadCloser
	left  int64 // bytes still allowed
	limit int64
	err   error
}

func newLimitedBody(rc io.ReadCloser, contentLength, limit int64) *limitedBody {
	b := &limitedBody{rc: rc, left: limit, limit: limit}
	if contentLength > limit {
		b.err = &ReplyTooLargeError{Limit: limit}
	}
	return b
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.left <= 0 { // at the cap: one more byte makes the reply too large
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			b.err = &ReplyTooLargeError{Limit: b.limit}
			return 0, b.err
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// tooLarge reports whether err is or wraps a *ReplyTooLargeError.
func tooLarge(err error) bool {
	var tl *ReplyTooLargeError
	return errors.As(err, &tl)
}
