package session

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fixplan/llm"
	"fixplan/plan"
	"fixplan/session/ledger"
	"fixplan/tokens"
)

// WindowModel is a Model that can say what context window its server serves
// (llm/openai's Client asks Ollama, LM Studio, llama.cpp and vLLM). Window never
// fails: Tokens 0 means unknown.
type WindowModel interface {
	Window(ctx context.Context) llm.Window
}

const (
	// CompactBelow: a window smaller than this many tokens gets the compact prompt
	// (shorter instructions, no environment or recent-files sections).
	CompactBelow = 8192
	// SmallWindow: a window of this many tokens or fewer is too small for a useful
	// plan; the plan carries a warning saying how to raise it on that server.
	SmallWindow = 4096
	// baseShare is the part of the room left after the instructions, the problem
	// and the reply that the base context may fill; the rest is kept for the
	// context rounds.
	baseShare = 0.6
	// minSectionTokens: a section is cut to fit only when at least this much
	// room is left; otherwise it is left out.
	minSectionTokens = 48
	// MinReply is the smallest reply cap a plan can be written in (the JSON object
	// with its empty lists is about 80 tokens); a window whose half is smaller, or
	// whose prompt leaves less than the reply cap, cannot hold any plan.
	MinReply = 256
	// MaxWindow: a window larger than this many tokens (16M; the largest models
	// serve 10M) is not believed — a server reporting 2^63-1 would otherwise ask
	// for a reply cap of 2^61 — and is treated as unknown, with a warning.
	MaxWindow = 1 << 24
)

// fitting is how one plan's conversation is fitted to the model's window.
type fitting struct {
	count  tokens.Counter
	window llm.Window
	// reply is the reply cap sent to the provider (0: the provider's default).
	reply   int
	compact bool
}

// newFitting reserves room for the reply out of a known window: a quarter of it,
// at least 1024 tokens and at most maxTokens (the setting) and half the window,
// so prompt plus reply never exceed what the server serves (Ollama would silently
// drop the start of the prompt). A window too small for MinReply is checked by
// impossible before anything is sent.
func newFitting(c tokens.Counter, w llm.Window, maxTokens int) fitting {
	f := fitting{count: c, window: w, reply: maxTokens}
	if w.Tokens <= 0 || w.Tokens > MaxWindow {
		f.window.Tokens = 0
		return f
	}
	r := max(w.Tokens/4, 1024)
	if maxTokens > 0 {
		r = min(r, maxTokens)
	}
	f.reply = min(r, w.Tokens/2)
	f.compact = w.Tokens < CompactBelow
	return f
}

// known reports whether the window is known (token budgets apply).
func (f fitting) known() bool { return f.window.Tokens > 0 }

// room is what is left of the window for more prompt after msgs.
func (f fitting) room(msgs []llm.Message) int {
	contents := make([]string, len(msgs))
	for i, m := range msgs {
		contents[i] = m.Content
	}
	return f.window.Tokens - f.reply - f.count.Messages(contents...)
}

// windowFor is the window a plan is fitted to: the user's own figure (the
// context_window setting) replaces the server's, and a figure over MaxWindow is
// not believed — the window is then unknown (byte budgets only) and warn says so.
func windowFor(w llm.Window, setting int) (fit llm.Window, warn string) {
	if setting > 0 { // the user's own setting wins
		w = llm.Window{Tokens: setting, Server: w.Server, Max: w.Max, Source: "the context window set in Settings"}
	}
	if w.Tokens > MaxWindow {
		warn = fmt.Sprintf("the model's context window was given as %s tokens (%s), more than any model serves; it was ignored and the context was capped in bytes only", TokensText(w.Tokens), w.Source)
		return llm.Window{Server: w.Server}, warn
	}
	return w, ""
}

// impossible is the error of a request that cannot fit the window: less than
// MinReply tokens for the reply, or the instructions and the problem (msgs, the
// conversation before any context) taking the room the reply needs. Nothing is
// sent then: a server would reject it or, like Ollama, silently drop the start of
// the prompt. The error says how to raise the window on that server.
func (f fitting) impossible(msgs []llm.Message) error {
	if !f.known() {
		return nil
	}
	contents := make([]string, len(msgs))
	for i, m := range msgs {
		contents[i] = m.Content
	}
	prompt := f.count.Messages(contents...)
	w := f.window
	fix := RaiseWindowHint(w.Server, SuggestWindow(w.Tokens, max(prompt+f.reply, 2*MinReply))) + "; if the server serves more than it reports, set context_window in Settings"
	switch {
	case w.Tokens/2 < MinReply:
		return (&plan.Error{Code: plan.ErrProviderRequest,
			Msg: fmt.Sprintf("the model's context window is only %s tokens (%s): too small for any plan (a reply needs at least %s tokens, at most half the window); nothing was sent",
				TokensText(w.Tokens), w.Source, TokensText(MinReply))}).WithHint(fix)
	case prompt+f.reply > w.Tokens:
		return (&plan.Error{Code: plan.ErrProviderRequest,
			Msg: fmt.Sprintf("the model's context window is only %s tokens (%s): fixplan's instructions and the problem take %s tokens and the reply %s, more than the window holds; nothing was sent",
				TokensText(w.Tokens), w.Source, TokensText(prompt), TokensText(f.reply))}).WithHint(fix + "; or shorten the problem text")
	}
	return nil
}

// windowOf is the window probe of a model that has one (nil otherwise).
func windowOf(m Model) func(context.Context) llm.Window {
	if wm, ok := m.(WindowModel); ok {
		return wm.Window
	}
	return nil
}

// SuggestWindow is the window size a raise-the-window hint names: the next
// power of two at least what is needed (need tokens), larger than the current
// window and at least 16384 — never a size the server already has.
func SuggestWindow(current, need int) int {
	want := max(need, current+1, 16384)
	size := 16384
	for size < want && size < MaxWindow {
		size *= 2
	}
	return size
}

// RaiseWindowHint says how to give the model a bigger window of size tokens
// (SuggestWindow's figure) on a server.
func RaiseWindowHint(server string, size int) string {
	n := strconv.Itoa(size)
	switch server {
	case llm.ServerOllama:
		return "raise Ollama's window: start it with OLLAMA_CONTEXT_LENGTH=" + n + " ollama serve, or set PARAMETER num_ctx " + n + " in a Modelfile (ollama create) for this model"
	case llm.ServerLMStudio:
		return "raise LM Studio's window: load the model with a larger Context Length in its load settings (e.g. " + n + ")"
	case llm.ServerLlamaCpp:
		return "raise llama.cpp server's window: restart llama-server with -c " + n + " (--ctx-size)"
	case llm.ServerVLLM:
		return "raise vLLM's window: restart it with --max-model-len " + n + " (up to what the model supports)"
	}
	return "use a model or server with a context window of at least " + n + " tokens"
}

// windowWarning is the plan's warning about a window too small for a useful plan.
func windowWarning(w llm.Window) string {
	if w.Tokens <= 0 || w.Tokens > SmallWindow {
		return ""
	}
	return fmt.Sprintf("the model's context window is only %s tokens (%s): too small for a useful plan; fixplan sent a compact prompt and cut the context to fit — %s",
		TokensText(w.Tokens), w.Source, RaiseWindowHint(w.Server, SuggestWindow(w.Tokens, 0)))
}

// compactSections keeps the sections a small window needs most: everything but
// the environment (the model can ask for it with an env request) and the recent
// files.
func compactSections(g plan.Gathered) plan.Gathered {
	out := g.Sections[:0:0]
	for _, s := range g.Sections {
		if s.Title == "Environment" || s.Title == "Recent files" {
			continue
		}
		out = append(out, s)
	}
	g.Sections = out
	return g
}

// sectionTokens is what one section costs as userMessage frames it.
func (f fitting) sectionTokens(s plan.Section) int { return SectionTokens(f.count, s) }

// SectionTokens is what one base-context section costs the model, framed as the
// first user message frames it ("=== Title ===" and the body).
func SectionTokens(c tokens.Counter, s plan.Section) int {
	return c.Count(fmt.Sprintf("\n=== %s ===\n", s.Title)) + c.Count(s.Body)
}

// fitBase fits the base context into budget tokens, sections in order (their
// priority): a section that does not fit is cut at line boundaries — a window
// around stack frames keeps the lines around its middle, anything else its start
// — or left out with a warning when less than minSectionTokens are left. Files
// whose sections were cut are recorded as seen in part, files left out entirely
// as not seen. Each kept section carries its token count.
func (f fitting) fitBase(g plan.Gathered, budget int) plan.Gathered {
	left := budget
	out := plan.Gathered{Sections: []plan.Section{}, Redactions: g.Redactions, Warnings: g.Warnings}
	shown := map[string]bool{} // path → some lines of it kept
	cut := map[string]bool{}   // path → a section of it was cut or left out
	for _, s := range g.Sections {
		path := ""
		if m := ledger.FileTitle.FindStringSubmatch(s.Title); m != nil {
			path = m[1]
		}
		n := f.sectionTokens(s)
		if n > left {
			if left < minSectionTokens {
				out.Warnings = append(out.Warnings, fmt.Sprintf("context budget reached: section %q left out (the model's window is %s tokens)", s.Title, TokensText(f.window.Tokens)))
				if path != "" {
					cut[path] = true
				}
				continue
			}
			s.Body = f.shrink(s.Body, left-f.count.Count(fmt.Sprintf("\n=== %s ===\n", s.Title)), strings.Contains(s.Title, "(around the stack frames)"))
			s.Title = retitle(s.Title, s.Body)
			n = f.sectionTokens(s)
			if path != "" {
				cut[path] = true
			}
		}
		left -= n
		s.Tokens = n
		if path != "" {
			shown[path] = true
		}
		out.Sections = append(out.Sections, s)
	}
	out.Seen = []plan.SeenFile{}
	for _, sf := range g.Seen {
		if !shown[sf.Path] && cut[sf.Path] {
			continue // none of its lines was sent
		}
		if cut[sf.Path] {
			sf.Whole = false
		}
		out.Seen = append(out.Seen, sf)
	}
	return out
}

// shrink cuts text to at most budget tokens at line boundaries. centered keeps
// the middle of each block (blocks are separated by a "…" line, as codectx
// separates the windows of one file), else the start; every cut is marked.
func (f fitting) shrink(text string, budget int, centered bool) string {
	if f.count.Count(text) <= budget {
		return text
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	keep := len(lines) * budget / max(1, f.count.Count(text))
	for ; keep >= 0; keep -= max(1, keep/8) {
		var out string
		if centered {
			out = keepMiddle(lines, keep)
		} else {
			out = keepStart(lines, keep)
		}
		if f.count.Count(out) <= budget || keep == 0 {
			return out
		}
	}
	return keepStart(lines, 0)
}

func keepStart(lines []string, keep int) string {
	keep = min(max(keep, 0), len(lines))
	var b strings.Builder
	for _, l := range lines[:keep] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if keep < len(lines) {
		fmt.Fprintf(&b, "…[cut to fit the model's window: %d more lines]\n", len(lines)-keep)
	}
	return b.String()
}

// keepMiddle keeps about keep lines spread over the blocks, each block keeping
// its middle (where the stack frame's line is).
func keepMiddle(lines []string, keep int) string {
	var blocks [][]string
	cur := []string{}
	for _, l := range lines {
		if l == "…" {
			blocks = append(blocks, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, l)
	}
	blocks = append(blocks, cur)
	total := len(lines) - (len(blocks) - 1)
	var b strings.Builder
	for i, blk := range blocks {
		if i > 0 {
			b.WriteString("…\n")
		}
		k := len(blk)
		if total > 0 {
			k = min(len(blk), len(blk)*keep/total)
		}
		from := (len(blk) - k) / 2
		if from > 0 {
			fmt.Fprintf(&b, "…[cut to fit the model's window: %d lines before]\n", from)
		}
		for _, l := range blk[from : from+k] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		if after := len(blk) - from - k; after > 0 {
			fmt.Fprintf(&b, "…[cut to fit the model's window: %d lines after]\n", after)
		}
	}
	return b.String()
}

// retitle rewrites the line spans of a file section's title to the lines its
// body really shows after a cut.
func retitle(title, body string) string {
	m := ledger.FileTitle.FindStringSubmatchIndex(title)
	if m == nil {
		return title
	}
	var spans []string
	from, to := 0, 0
	for _, l := range strings.Split(body, "\n") {
		n, ok := ledger.LineNumber(l)
		if !ok {
			continue
		}
		if from != 0 && n == to+1 {
			to = n
			continue
		}
		if from != 0 {
			spans = append(spans, fmt.Sprintf("%d-%d", from, to))
		}
		from, to = n, n
	}
	if from != 0 {
		spans = append(spans, fmt.Sprintf("%d-%d", from, to))
	}
	if len(spans) == 0 {
		spans = []string{"none"}
	}
	return title[:m[4]] + strings.Join(spans, ", ") + title[m[5]:]
}

// fitResults caps a round's results so the conversation still fits the window:
// each result gets an equal share of the room left (cut at line boundaries,
// marked); when almost no room is left, a result says so instead. A read_file
// result that was cut counts as the file seen in part.
func (f fitting) fitResults(msgs []llm.Message, results []plan.ContextResult) []plan.ContextResult {
	if !f.known() {
		for i := range results {
			r := &results[i]
			if r.OK {
				r.Tokens = f.count.Count(r.Text)
			} else {
				r.Tokens = f.count.Count(r.Error)
			}
		}
		return results
	}
	room := f.room(msgs) - 64 // the framing of the results message
	for i := range results {
		share := room / (len(results) - i)
		r := &results[i]
		text := r.Text
		if !r.OK {
			text = r.Error
		}
		n := f.count.Count(text)
		if n > share && r.OK {
			if share < minSectionTokens {
				r.OK, r.Text, r.Error, r.Seen = false, "", fmt.Sprintf("no room left in the model's context window (%s tokens); answer with what you have", TokensText(f.window.Tokens)), nil
				n = f.count.Count(r.Error)
			} else {
				label, body, _ := strings.Cut(r.Text, "\n")
				r.Text = label + "\n" + f.shrink(body, share-f.count.Count(label)-1, false)
				n = f.count.Count(r.Text)
				for j := range r.Seen {
					r.Seen[j].Whole = false
				}
			}
		}
		r.Tokens = n
		room -= n + 16 // the request line before it
	}
	return results
}
