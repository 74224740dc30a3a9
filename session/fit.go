package session

import (
	"context"
	"fmt"
	"strings"

	"fixplan/context/section"
	"fixplan/llm"
	"fixplan/plan"
)

// startWindow asks the model's server for its context window in the background
// (it runs while the base context is gathered); the returned function waits for
// the answer. Without Config.Window the window is unknown.
func (r *run) startWindow(ctx context.Context) func() llm.Window {
	if r.p.cfg.Window == nil {
		return func() llm.Window { return llm.Window{} }
	}
	ch := make(chan llm.Window, 1)
	go func() { ch <- r.p.cfg.Window(ctx) }()
	return func() llm.Window { return <-ch }
}

// fitContext fits the base context to the window (docs/CONTRACT.md §6): under
// CompactBelow tokens the compact prompt and sections are used; with a known
// window the sections get a token budget (the room left after the instructions,
// the problem and the reply, less what the context rounds need); every section
// carries its token count; a window of SmallWindow tokens or fewer adds a warning
// saying how to raise it; and the ledger of lines sent starts with the sections.
// A window that cannot hold the instructions, the problem and a reply is an error
// (impossible): nothing is sent.
func (r *run) fitContext(w llm.Window, base plan.Gathered, prev *plan.Record) (plan.Gathered, error) {
	pl := r.p
	w, warn := windowFor(w, pl.cfg.ContextWindow)
	if warn != "" {
		base.Warnings = append(base.Warnings, warn)
		pl.emit(Event{Stage: StageGather, Message: warn})
	}
	r.fit = newFitting(pl.cfg.Counter, w, pl.cfg.MaxTokens)
	if r.fit.compact {
		base = compactSections(base)
	}
	budget := 0
	if r.fit.known() {
		empty := base
		empty.Sections = nil
		fixed := []llm.Message{
			{Role: llm.RoleSystem, Content: r.system(pl.cfg.Memory.Block())},
			{Role: llm.RoleUser, Content: userMessage(r.rec.Input, prev, empty) + planOnlyNote(r.rec.Input)},
		}
		if err := r.fit.impossible(fixed); err != nil {
			return base, err
		}
		budget = max(0, int(float64(r.fit.room(fixed))*baseShare))
		base = r.fit.fitBase(base, budget)
		if warn := windowWarning(r.fit.window); warn != "" {
			base.Warnings = append(base.Warnings, warn)
			pl.emit(Event{Stage: StageGather, Message: warn})
		}
	} else {
		for i := range base.Sections {
			base.Sections[i].Tokens = r.fit.sectionTokens(base.Sections[i])
		}
	}
	for _, s := range base.Sections {
		r.sent.AddSection(s)
	}
	r.usage = plan.Usage{Tokenizer: r.fit.count.Tokenizer(), Window: r.fit.window.Tokens, WindowSource: r.fit.window.Source,
		BaseBudget: budget, Compact: r.fit.compact}
	return base, nil
}

// system is the system message: the compact one for small windows; both end
// with the EDIT FORMAT line (editformat.go).
func (r *run) system(memoryBlock string) string {
	if r.fit.compact {
		return compactSystemPrompt(memoryBlock) + r.p.cfg.EditFormatNote
	}
	return systemPrompt(memoryBlock) + r.p.cfg.EditFormatNote
}

// prepareResults makes a round's results what the model will read: lines it
// already has become references to where they were sent (no repeats), the
// results are cut to the round's budget and to the room left in the window, and
// each carries its token count. raw is the model's reply the results answer (it
// goes into the conversation before them). avoided is the tokens the references
// save; the ledger records the results once they are sent (fulfil).
func (r *run) prepareResults(raw string, results []plan.ContextResult) (_ []plan.ContextResult, avoided int) {
	for i, res := range results {
		deduped := r.sent.Dedupe(res)
		if deduped.Text != res.Text {
			// A reference names where the lines were sent (a section title can be
			// long): for a line or two it costs more than the lines themselves, and
			// the model then gets the lines again, which is cheaper.
			if before, after := r.fit.count.Count(res.Text), r.fit.count.Count(deduped.Text); after < before {
				avoided += before - after
			} else {
				deduped = res
			}
		}
		results[i] = deduped
	}
	results = capRound(results, r.p.cfg.RoundBudget)
	msgs := append(append([]llm.Message{}, r.msgs...), llm.Message{Role: llm.RoleAssistant, Content: raw})
	return r.fit.fitResults(msgs, results), avoided
}

// roundFullPrefix opens the refusal of a request the round's context budget
// left no room for; resultsMessage names a run of them in one line.
const roundFullPrefix = "this round's context budget"

// minRoundResult is the least room (bytes) a result is cut to; with less it is
// refused instead. minRoundShare is the share a result may take, even when an
// equal share of what is left would be less (many requests): the first ones are
// then served and the rest refused, rather than all cut to nothing.
const (
	minRoundResult = 256
	minRoundShare  = 1024
)

// capRound caps a round's results together at budget bytes, the request lines
// that head them included (docs/CONTRACT.md §5.5): in order, each result gets an
// equal share of what is left, at least minRoundShare (what one does not use is
// left to the next); a longer one is cut at a line boundary (a read_file result
// cut so counts as the file seen in part), and one whose share is too small for
// a useful part — and every request after the budget is used up — is refused,
// saying so.
func capRound(results []plan.ContextResult, budget int) []plan.ContextResult {
	left := budget
	full := func(r *plan.ContextResult) {
		*r = plan.ContextResult{Request: r.Request,
			Error: fmt.Sprintf("%s (%d bytes) is used up; ask again in a later round for what you still need", roundFullPrefix, budget)}
	}
	for i := range results {
		r := &results[i]
		if left < minRoundResult {
			full(r)
			continue
		}
		head := len(requestLine(i+1, r.Request))
		share := min(left, max(left/(len(results)-i), minRoundShare)) - head
		if r.OK && len(r.Text) > share {
			label, body, _ := strings.Cut(r.Text, "\n")
			if room := share - len(label) - 1; room >= minRoundResult {
				r.Text = label + "\n" + section.Cap(body, room)
				for j := range r.Seen {
					r.Seen[j].Whole = false
				}
			} else {
				full(r)
			}
		}
		if r.OK {
			left -= head + len(r.Text)
		} else {
			left -= head + len(r.Error)
		}
	}
	return results
}

// call records one model request's usage: the provider's numbers, or fixplan's
// own count when the provider reported none.
func (r *run) call(c plan.Call, sent []llm.Message, reply string) plan.Call {
	if c.PromptTokens == 0 && c.CompletionTokens == 0 {
		// counted as the ceiling counts a request: the messages as sent and
		// the schema that goes with them
		c.PromptTokens, c.CompletionTokens = r.promptTokens(sent), r.fit.count.Count(reply)
		r.usage.Counted = true
	}
	if c.Attempts > 1 {
		// the failed attempts' prompts were sent too (a timed-out request
		// may be billed): counted, so the ceiling and the cost shown hold them
		c.PromptTokens += (c.Attempts - 1) * r.promptTokens(sent)
	}
	return c
}

// finalUsage sums the calls and prices them with the prices set in Settings.
func (r *run) finalUsage() *plan.Usage {
	u := r.usage
	if u.Tokenizer == "" {
		u.Tokenizer = r.fit.count.Tokenizer()
	}
	u.PromptTokens, u.CompletionTokens = 0, 0
	for _, c := range r.rec.Calls {
		u.PromptTokens += c.PromptTokens
		u.CompletionTokens += c.CompletionTokens
	}
	if in, out := r.p.cfg.PriceInput, r.p.cfg.PriceOutput; in > 0 || out > 0 {
		cost := spend{u.PromptTokens, u.CompletionTokens}.cost(in, out)
		u.Cost = &cost
	}
	u.CeilingTokens, u.CeilingCost = r.p.cfg.Ceiling.Tokens, r.p.cfg.Ceiling.Cost
	return &u
}
