package session

import (
	"os"

	"fixplan/redact"
)

// The known secrets — the configured API key and the provider key variables of
// fixplan's own environment, by value — are removed from everything fixplan
// writes, as from everything it sends: a command's output (a check can read the
// key from /proc/<parent>/environ and print it) before it is kept, shown,
// streamed, saved as the verification note, cached as a verification baseline or
// recorded with a plan. The Planner does the same to what it sends and to the
// records it saves (redact.go).

// knownSecrets are the values scrub removes: configured, plus the provider key
// variables of fixplan's environment, each also as JSON escapes it (literalSecrets).
func knownSecrets(configured []string) []string {
	vals := append([]string(nil), configured...)
	for _, k := range providerKeyVars {
		vals = append(vals, os.Getenv(k))
	}
	return literalSecrets(vals)
}

// scrubber removes known secrets by value.
type scrubber []string

// text returns s with every known secret replaced by [REDACTED].
func (sc scrubber) text(s string) string {
	s, _ = redact.Values(s, sc...)
	return s
}

// stream forwards output chunks to on with the secrets removed, holding back the
// tail that could be the start of one split across chunks; flush sends the rest.
func (sc scrubber) stream(on func(string)) (write func(string), flush func()) {
	if on == nil {
		return nil, func() {}
	}
	hold := 0
	for _, v := range sc {
		hold = max(hold, len(v)-1)
	}
	var pending string
	write = func(chunk string) {
		t := sc.text(pending + chunk)
		cut := max(0, len(t)-hold)
		pending = t[cut:]
		if cut > 0 {
			on(t[:cut])
		}
	}
	flush = func() {
		if pending != "" {
			on(sc.text(pending))
			pending = ""
		}
	}
	return write, flush
}
