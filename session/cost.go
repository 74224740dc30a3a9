package session

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"fixplan/llm"
	"fixplan/memory"
	"fixplan/plan"
	"fixplan/tokens"
)

// The cost before you pay it (docs/CONTRACT.md §4.7): what a plan will cost is
// known before anything is sent — its first request exactly as it will be sent,
// the worst case of the context rounds and of every request the loop can make —
// and a per-plan ceiling keeps any request from being sent that would take the
// plan past it.

// Ceiling caps what one plan may spend; a zero field is no cap.
type Ceiling struct {
	// Tokens caps the tokens in and out of all the plan's requests together.
	Tokens int
	// Cost caps their cost at the Settings prices (it needs a price).
	Cost float64
}

// correctionAllowance is what the worst case allows for the issues a repair or
// correction request quotes (invalid fields, a patch's closest lines, syntax errors).
const correctionAllowance = 2048

// maxAsks is how many times the loop (converse) can ask the model for a plan: the
// first ask, one after each context round, one after the no-blind-rewrites read
// (which may come after the rounds, §5.7), and one after each of the two
// corrections (changes that do not preview, syntax errors). Each ask may get one
// repair request of an invalid reply.
const maxAsks = 1 + MaxContextRounds + 1 + 2

// Estimate is what a plan will cost, known before anything is sent. Token counts
// are the model's tokenizer's, or estimated from the bytes (Tokenizer says which).
type Estimate struct {
	Tokenizer string `json:"tokenizer"`
	// PromptTokens is the first request's messages exactly as they will be sent
	// (the instructions, the problem, the base context), SchemaTokens the plan's
	// JSON schema that goes with every request (in the response format, or as a
	// message for servers that take no schema), and ReplyTokens the cap on each
	// reply (0: none — the provider's default).
	PromptTokens int `json:"prompt_tokens"`
	SchemaTokens int `json:"schema_tokens"`
	ReplyTokens  int `json:"reply_tokens"`
	// FirstTokens is the first request at most (prompt, schema and a full reply);
	// RoundsTokens the first request and the two context rounds at most (three
	// requests); WorstTokens every request the loop can make (WorstRequests).
	FirstTokens   int `json:"first_tokens"`
	RoundsTokens  int `json:"rounds_tokens"`
	WorstTokens   int `json:"worst_tokens"`
	WorstRequests int `json:"worst_requests"`
	// RoundContextTokens is the most one context round's results add (the
	// context budget in bytes, at tokens.BytesPerToken bytes a token).
	RoundContextTokens int `json:"round_context_tokens"`
	// The costs of the three at the Settings prices; absent without a price.
	FirstCost  *float64 `json:"first_cost,omitempty"`
	RoundsCost *float64 `json:"rounds_cost,omitempty"`
	WorstCost  *float64 `json:"worst_cost,omitempty"`
	// Window is the model's context window (0: unknown) and where it came from;
	// OverWindow: the instructions and the problem with a reply do not fit it,
	// and the plan would stop before anything is sent.
	Window       int    `json:"window"`
	WindowSource string `json:"window_source"`
	OverWindow   bool   `json:"over_window"`
	// CeilingTokens and CeilingCost are the per-plan ceiling (0: none).
	// OverCeiling: the first request alone would cross it, so the plan would stop
	// before anything is sent; RoundsOverCeiling: the context rounds may, so a
	// round may be stopped.
	CeilingTokens     int     `json:"ceiling_tokens"`
	CeilingCost       float64 `json:"ceiling_cost"`
	OverCeiling       bool    `json:"over_ceiling"`
	RoundsOverCeiling bool    `json:"rounds_over_ceiling"`
	// Notes are what the numbers need said: no prices, no reply cap, the window.
	Notes []string `json:"notes"`
}

// NoPrices is the note of an estimate without prices.
const NoPrices = "set prices in Settings to see a cost"

// spend is tokens in (prompts) and out (replies).
type spend struct{ in, out int }

func (s spend) add(o spend) spend { return spend{s.in + o.in, s.out + o.out} }
func (s spend) tokens() int       { return s.in + s.out }
func (s spend) cost(in, out float64) float64 {
	return float64(s.in)/1e6*in + float64(s.out)/1e6*out
}

// worstCase is the most the loop (converse, ask) can spend when its first
// request's messages take prompt tokens, the schema goes with every request,
// every reply is capped at reply tokens, a context round's results take at most
// round tokens and a known window (0: unknown) bounds every later prompt:
//
//   - the asks (maxAsks) come in the costliest order: the context rounds and the
//     no-blind-rewrites read first, each adding the model's reply (at most reply;
//     it stays in the conversation) and its results (at most round), then the
//     two corrections, each adding the reply and the issues it quotes
//     (correctionAllowance);
//   - each ask may get one repair request: its prompt, the invalid reply and the
//     issues (the exchange is not kept).
//
// rounds is the first ask and the asks after the two context rounds, without
// repairs: a plan that uses both rounds. all is every request.
func worstCase(prompt, schema, reply, round, window int) (rounds, all spend) {
	bound := func(p int) int {
		if window > 0 {
			return min(p, max(window-reply, 0))
		}
		return p
	}
	p := prompt
	for i := range maxAsks {
		in := p
		if i > 0 { // the first prompt is what it is; later ones are fitted to the window
			in = bound(p)
		}
		ask := spend{in + schema, reply}
		repair := spend{bound(p+reply+correctionAllowance) + schema, reply}
		if i <= MaxContextRounds {
			rounds = rounds.add(ask)
		}
		all = all.add(ask).add(repair)
		if i <= MaxContextRounds { // a context round, then the read of unseen files
			p += reply + round
		} else {
			p += reply + correctionAllowance
		}
	}
	return rounds, all
}

// schemaTokens is what the plan's JSON schema costs with a request: counted as
// sent to servers that take it as a message (the schema as embedded), which is
// no less than the compact form a response format carries.
func schemaTokens(c tokens.Counter) int {
	return tokens.PerMessage + c.Count(string(plan.Schema()))
}

// priced reports whether a price is set.
func (pl *Planner) priced() bool { return pl.cfg.PriceInput > 0 || pl.cfg.PriceOutput > 0 }

// ceilinged reports whether a ceiling is in force (a cost ceiling needs a price).
func (pl *Planner) ceilinged() bool {
	c := pl.cfg.Ceiling
	return c.Tokens > 0 || (c.Cost > 0 && pl.priced())
}

// replyCap is the reply cap sent with each request: the window's share when the
// window is known (fit.go), else the max tokens setting (0: the provider's default).
func (r *run) replyCap() int {
	if r.fit.known() {
		return r.fit.reply
	}
	return r.p.cfg.MaxTokens
}

// promptTokens counts a conversation as it is sent (msgs already redacted), the
// schema included.
func (r *run) promptTokens(msgs []llm.Message) int {
	contents := make([]string, len(msgs))
	for i, m := range msgs {
		contents[i] = m.Content
	}
	if r.schema == 0 {
		r.schema = schemaTokens(r.fit.count)
	}
	return r.fit.count.Messages(contents...) + r.schema
}

// spent is what the plan's requests so far took: the provider's numbers, or
// fixplan's count when it reported none (call).
func (r *run) spent() spend {
	var s spend
	for _, c := range r.rec.Calls {
		s = s.add(spend{c.PromptTokens, c.CompletionTokens})
	}
	return s
}

// ceilingStop is a request the ceiling kept from being sent: what it is, what it
// would have taken and what the plan had spent.
type ceilingStop struct {
	what    string
	ceiling Ceiling
	spent   spend
	request spend // prompt and reply cap
	prices  [2]float64
	// byCost: the cost ceiling was crossed (not the token one).
	byCost bool
}

// admit decides whether a request of the conversation sent (redacted) with a
// reply cap of reply tokens may be sent under the ceiling: it may when the
// plan's spending so far, its prompt and a full reply stay within it. A reply
// without a cap (0) is capped at what the ceiling leaves, at least MinReply.
// cap is the reply cap to send.
func (r *run) admit(sent []llm.Message, reply int, what string) (cap int, stop *ceilingStop) {
	pl := r.p
	if !pl.ceilinged() {
		return reply, nil
	}
	c, in, out := pl.cfg.Ceiling, pl.cfg.PriceInput, pl.cfg.PriceOutput
	spent, prompt := r.spent(), r.promptTokens(sent)
	cap = reply
	if cap == 0 && c.Tokens > 0 {
		cap = max(c.Tokens-spent.tokens()-prompt, 0)
	}
	priced := c.Cost > 0 && pl.priced()
	if cap == 0 && priced && out > 0 {
		// what the cost ceiling leaves, a token short of it (the float sum of
		// the parts must not come out a hair over), and no more than a reply
		// can be
		cap = costCap(c.Cost-spent.cost(in, out)-spend{prompt, 0}.cost(in, out), out)
	}
	req := spend{prompt, cap}
	stop = &ceilingStop{what: what, ceiling: c, spent: spent, request: req, prices: [2]float64{in, out}}
	switch {
	case c.Tokens > 0 && (spent.tokens()+req.tokens() > c.Tokens || (reply == 0 && cap < MinReply)):
		return cap, stop
	case priced && (overCost(spent.cost(in, out)+req.cost(in, out), c.Cost) || (reply == 0 && out > 0 && cap < MinReply)):
		stop.byCost = true
		return cap, stop
	}
	return cap, nil
}

// maxReplyCap is the largest reply cap a ceiling sets when nothing else caps the
// reply (no model takes a reply near it).
const maxReplyCap = 1 << 30

// costCap is the reply cap that keeps a request within left (in the prices'
// currency) at out per million reply tokens: a token short of it, so the float
// sum of the request's parts does not come out a hair over, and no more than a
// reply can be.
func costCap(left, out float64) int {
	return int(max(min(math.Floor(left*1e6/out)-1, maxReplyCap), 0))
}

// overCost reports whether cost is over the ceiling, with the float sum's own
// error allowed for (a cost of exactly the ceiling is within it).
func overCost(cost, ceiling float64) bool {
	return cost > ceiling+ceiling*1e-12+1e-12
}

// attemptsLeft is how many times a request of size req may be sent before the
// plan's spend would cross the ceiling — the attempts a transient failure may
// take, each of which a provider may bill (at least 1: admit let it through).
func (r *run) attemptsLeft(req spend) int {
	pl := r.p
	if !pl.ceilinged() {
		return 0
	}
	c, in, out := pl.cfg.Ceiling, pl.cfg.PriceInput, pl.cfg.PriceOutput
	spent, n := r.spent(), math.MaxInt
	if c.Tokens > 0 && req.tokens() > 0 {
		n = min(n, (c.Tokens-spent.tokens())/req.tokens())
	}
	if c.Cost > 0 && pl.priced() {
		if rc := req.cost(in, out); rc > 0 {
			n = min(n, int(min((c.Cost-spent.cost(in, out))/rc, math.MaxInt32)))
		}
	}
	return max(n, 1)
}

// admits is admit for a conversation the loop is about to send, with its reply cap.
func (r *run) admits(msgs []llm.Message, what string) *ceilingStop {
	if !r.p.ceilinged() {
		return nil
	}
	_, stop := r.admit(r.p.redactMessages(msgs), r.replyCap(), what)
	return stop
}

// stopped records that the ceiling kept a request of a started plan from being
// sent: a warning, the record's usage (the first stop), and a progress event.
func (r *run) stopped(stop *ceilingStop) {
	msg := stop.Error()
	if r.stop == nil {
		r.stop = stop
		r.usage.Stopped = msg
	}
	r.rec.Warnings = append(r.rec.Warnings, msg)
	r.p.emit(Event{Stage: StageCeiling, Round: r.turn, Message: msg})
}

func asStop(err error) *ceilingStop {
	var stop *ceilingStop
	if errors.As(err, &stop) {
		return stop
	}
	return nil
}

// limit words the ceiling that was crossed.
func (s *ceilingStop) limit() string {
	if s.byCost {
		return fmt.Sprintf("your ceiling of %s per plan (at your Settings prices)", CostText(s.ceiling.Cost))
	}
	return fmt.Sprintf("your ceiling of %s tokens per plan", TokensText(s.ceiling.Tokens))
}

// size words what the request would take.
func (s *ceilingStop) size() string {
	t := fmt.Sprintf("%s tokens (%s in, up to %s out)", TokensText(s.request.tokens()), TokensText(s.request.in), TokensText(s.request.out))
	if s.byCost {
		return fmt.Sprintf("up to %s, %s", CostText(s.request.cost(s.prices[0], s.prices[1])), t)
	}
	return "up to " + t
}

func (s *ceilingStop) Error() string {
	spent := TokensText(s.spent.tokens()) + " tokens"
	if s.byCost {
		spent = CostText(s.spent.cost(s.prices[0], s.prices[1]))
	}
	return fmt.Sprintf("%s was not sent: with %s spent, it would take %s more, over %s", s.what, spent, s.size(), s.limit())
}

// hint says what to do about a ceiling that stops a plan.
func (s *ceilingStop) hint() string {
	raise := "raise max tokens per plan in Settings (or fixplan plan --max-tokens N)"
	if s.byCost {
		raise = "raise max cost per plan in Settings (or fixplan plan --max-cost AMOUNT)"
	}
	return raise + ", lower max tokens (the cap on each reply), or shorten the problem text and the attached logs"
}

// firstError is the error of a plan whose first request the ceiling stopped.
func (s *ceilingStop) firstError() error {
	return plan.Errorf(plan.ErrCeiling, "the first request of this plan would take %s, over %s; nothing was sent", s.size(), s.limit()).
		WithHint(s.hint())
}

// replyError is the error of a plan whose only reply was invalid and whose repair
// request the ceiling stopped; the reply was saved in the failed record id.
func (s *ceilingStop) replyError(id string) error {
	return plan.Errorf(plan.ErrCeiling, "the model's reply is not a usable plan, and the request to repair it would take %s more, over %s; the reply was saved in plan %s",
		s.size(), s.limit(), id).WithHint(s.hint())
}

// CostText words a cost at the Settings prices (no currency is assumed): two
// decimals, or two significant digits under 0.01.
func CostText(c float64) string {
	if c >= 0.01 {
		return fmt.Sprintf("%.2f", c)
	}
	return fmt.Sprintf("%.2g", c)
}

// TokensText writes a token count with thousands separators ("12,573"), as the
// window's estimate writes it, so a figure reads the same in every message.
func TokensText(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// estimate is the run's Estimate once its first conversation is built (r.msgs);
// overWindow is the error of a window that cannot hold it (fit.go), if any.
func (r *run) estimate(overWindow error) Estimate {
	pl := r.p
	e := Estimate{Tokenizer: r.fit.count.Tokenizer(), ReplyTokens: r.replyCap(), Window: r.fit.window.Tokens, WindowSource: r.fit.window.Source,
		CeilingTokens: pl.cfg.Ceiling.Tokens, CeilingCost: pl.cfg.Ceiling.Cost, WorstRequests: 2 * maxAsks, Notes: []string{},
		RoundContextTokens: tokens.EstimateBytes(pl.cfg.RoundBudget)}
	sent := pl.redactMessages(r.msgs)
	all := r.promptTokens(sent)
	e.SchemaTokens = r.schema
	e.PromptTokens = all - r.schema
	first := spend{all, e.ReplyTokens}
	rounds, worst := worstCase(e.PromptTokens, e.SchemaTokens, e.ReplyTokens, e.RoundContextTokens, e.Window)
	e.FirstTokens, e.RoundsTokens, e.WorstTokens = first.tokens(), rounds.tokens(), worst.tokens()
	in, out := pl.cfg.PriceInput, pl.cfg.PriceOutput
	if pl.priced() {
		fc, rc, wc := first.cost(in, out), rounds.cost(in, out), worst.cost(in, out)
		e.FirstCost, e.RoundsCost, e.WorstCost = &fc, &rc, &wc
	} else {
		e.Notes = append(e.Notes, NoPrices)
		if pl.cfg.Ceiling.Cost > 0 {
			e.Notes = append(e.Notes, "max cost per plan is set but no price is: the cost ceiling cannot apply")
		}
	}
	if e.ReplyTokens == 0 {
		e.Notes = append(e.Notes, "the replies have no cap (max tokens 0: the provider's default), so they are not counted; set max tokens in Settings to count them")
	}
	if overWindow == nil && e.Window > 0 && e.FirstTokens > e.Window {
		// the schema goes as the response format (a grammar on local servers),
		// not in the prompt the window holds: counted for cost, not for the window
		e.Notes = append(e.Notes, fmt.Sprintf("the first request fits the model's window of %s tokens: its %s tokens of JSON schema go as the response format and are counted here for the cost, not against the window",
			TokensText(e.Window), TokensText(e.SchemaTokens)))
	}
	if overWindow != nil {
		e.OverWindow = true
		var pe *plan.Error
		if errors.As(overWindow, &pe) {
			e.Notes = append(e.Notes, pe.Msg+"; "+pe.Hint)
		} else {
			e.Notes = append(e.Notes, overWindow.Error())
		}
	}
	if pl.ceilinged() {
		_, stop := r.admit(sent, e.ReplyTokens, "the first request")
		e.OverCeiling = stop != nil
		c := pl.cfg.Ceiling
		e.RoundsOverCeiling = (c.Tokens > 0 && rounds.tokens() > c.Tokens) || (c.Cost > 0 && pl.priced() && rounds.cost(in, out) > c.Cost)
	}
	return e
}

// Summary is the estimate in one line, as `fixplan plan` prints it before it
// sends anything.
func (e Estimate) Summary() string {
	var b strings.Builder
	cost := func(c *float64) string {
		if c == nil {
			return ""
		}
		return ", cost " + CostText(*c)
	}
	reply := fmt.Sprintf("up to %s out", TokensText(e.ReplyTokens))
	if e.ReplyTokens == 0 {
		reply = "a reply of no set size"
	}
	fmt.Fprintf(&b, "estimate: the first request takes %s tokens in and %s (%s%s); with both context rounds up to %s tokens%s; every request the loop can make (%d) up to %s%s",
		TokensText(e.PromptTokens+e.SchemaTokens), reply, TokensText(e.FirstTokens), cost(e.FirstCost), TokensText(e.RoundsTokens), cost(e.RoundsCost), e.WorstRequests, TokensText(e.WorstTokens), cost(e.WorstCost))
	if e.Tokenizer == tokens.Estimate {
		fmt.Fprintf(&b, " (tokens estimated at %.1f bytes a token)", tokens.BytesPerToken)
	}
	switch {
	case e.OverCeiling:
		fmt.Fprintf(&b, "; the first request alone crosses your ceiling of %s: nothing will be sent", Ceiling{e.CeilingTokens, e.CeilingCost})
	case e.RoundsOverCeiling:
		fmt.Fprintf(&b, "; the context rounds may cross your ceiling of %s: a round that would is not sent", Ceiling{e.CeilingTokens, e.CeilingCost})
	}
	for _, n := range e.Notes {
		b.WriteString("; " + n)
	}
	return b.String()
}

// String words the ceiling: "10000 tokens per plan", "0.05 per plan" (at the
// Settings prices; no currency is assumed), "10000 tokens or 0.05 per plan".
func (c Ceiling) String() string {
	var parts []string
	if c.Tokens > 0 {
		parts = append(parts, TokensText(c.Tokens)+" tokens")
	}
	if c.Cost > 0 {
		parts = append(parts, CostText(c.Cost))
	}
	return strings.Join(parts, " or ") + " per plan"
}

// Estimate is what planning in would cost, worked out without sending anything:
// the base context is gathered and fitted, and the first request built, exactly
// as Plan does (docs/CONTRACT.md §4.7). It fails like Plan before its first
// request (bad input, a plan it cannot re-plan, cancellation, gathering); a
// window too small for the request is not an error but OverWindow.
func (pl *Planner) Estimate(ctx context.Context, in plan.ProblemInput) (Estimate, error) {
	if err := checkProblem(in); err != nil {
		return Estimate{}, err
	}
	r := pl.newRun(pl.redactInput(in))
	overWindow, err := r.prepare(ctx)
	if err != nil {
		return Estimate{}, err
	}
	return r.estimate(overWindow), nil
}

// Estimate is Planner.Estimate for this project with its settings and model
// (which is asked for its window, never for a reply); without a model the window
// is unknown. Nothing is sent, and no progress is reported.
func (s *Session) Estimate(ctx context.Context, in plan.ProblemInput) (Estimate, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in.Logs = s.withVerification(in.Logs)
	if mem, err := memory.Open(s.root, s.opts.UserPrefsPath); err == nil {
		s.mem = mem // as Plan: the MEMORY block is part of the first request
	}
	pl, err := s.plannerWith(discard{})
	if err != nil {
		return Estimate{}, err
	}
	return pl.Estimate(ctx, in)
}
