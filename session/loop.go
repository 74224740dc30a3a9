package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"fixplan/llm"
	"fixplan/plan"
	"fixplan/session/ledger"
	"fixplan/tokens"
)

// MaxContextRounds is how many rounds of context requests the loop fulfils (docs/CONTRACT.md §5.7).
const MaxContextRounds = 2

// Config wires a Session. Model, Gatherer, Memory, Previewer and Store are required.
type Config struct {
	Model     Model
	Gatherer  Gatherer
	Memory    Memory
	Previewer Previewer
	Store     PlanStore
	Emitter   Emitter
	// Provider names the endpoint in messages (its base URL); never the key.
	Provider string
	// MaxTokens caps each reply (0 = provider default).
	MaxTokens int
	Now       func() time.Time
	NewID     func() string
	// Secrets are values never sent to the model nor saved in a plan record, such
	// as the API key (values under redact.MinLiteralSecret bytes are ignored).
	// NewPlanner adds FIXPLAN_API_KEY and OPENAI_API_KEY from the environment.
	Secrets []string
	// Warnings start the record's warnings (e.g. project memory that was ignored).
	Warnings []string
	// Version is fixplan's own version, recorded in every plan.
	Version string
	// EditFormatNote is the EDIT FORMAT line of the system message
	// (editformat.go); "" asks as auto does for a model without history.
	EditFormatNote string
	// Counter counts the model's tokens (tokens.For(model); the zero value
	// estimates).
	Counter tokens.Counter
	// Window, when set, asks the model's server what context window it serves;
	// the prompt is fitted to it (fit.go). ContextWindow, when positive, is the
	// user's own figure and wins.
	Window        func(ctx context.Context) llm.Window
	ContextWindow int
	// PriceInput and PriceOutput are the prices per million prompt and reply
	// tokens set in Settings (0: not set); a plan's Usage carries its cost.
	PriceInput, PriceOutput float64
	// RoundBudget caps the bytes of one context round's results together,
	// their request lines included (the context_budget setting; 0: its default).
	RoundBudget int
	// Ceiling caps what one plan may spend (cost.go); no request that would take
	// the plan past it is sent.
	Ceiling Ceiling
}

// Planner runs the fix loop.
type Planner struct {
	cfg Config
}

// NewPlanner checks cfg and returns a Planner.
func NewPlanner(cfg Config) (*Planner, error) {
	if cfg.Model == nil {
		return nil, errors.New("new planner: model, gatherer, memory, previewer and store are required")
	}
	return newPlanner(cfg)
}

// newPlanner is NewPlanner without a model: such a Planner can only Estimate.
func newPlanner(cfg Config) (*Planner, error) {
	if cfg.Gatherer == nil || cfg.Memory == nil || cfg.Previewer == nil || cfg.Store == nil {
		return nil, errors.New("new planner: model, gatherer, memory, previewer and store are required")
	}
	if cfg.Emitter == nil {
		cfg.Emitter = discard{}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewID == nil {
		cfg.NewID = NewID
	}
	if cfg.RoundBudget <= 0 {
		cfg.RoundBudget = DefaultSettings().ContextBudget
	}
	if cfg.EditFormatNote == "" {
		cfg.EditFormatNote = editFormatNote(resolveEditFormat(EditAuto, "", nil))
	}
	cfg.Secrets = append(append([]string(nil), cfg.Secrets...), os.Getenv("FIXPLAN_API_KEY"), os.Getenv("OPENAI_API_KEY"))
	return &Planner{cfg: cfg}, nil
}

// NewID returns a sortable, unique plan id: UTC time plus random hex.
func NewID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// ReplyError is a model reply that stayed invalid after the one repair request. The
// record (state failed, with the raw reply) was saved under RecordID.
type ReplyError struct {
	RecordID string
	Raw      string
	Issues   []string
	Err      error
}

func (e *ReplyError) Error() string {
	return fmt.Sprintf("the model's reply is not a usable plan, even after a repair request: %s", strings.Join(firstN(e.Issues, 3), "; "))
}

func (e *ReplyError) Unwrap() error { return e.Err }

func firstN(ss []string, n int) []string {
	if len(ss) > n {
		return ss[:n]
	}
	return ss
}

// run is the state of one Plan call.
type run struct {
	p      *Planner
	rec    *plan.Record
	msgs   []llm.Message
	seen   map[string]bool // path → whole content seen
	turn   int
	rounds int
	// warnedFormat is set once the weaker-format warning was recorded.
	warnedFormat bool
	// fit fits the conversation to the model's window; sent is the ledger of
	// file lines already sent; usage accumulates the record's Usage (fit.go).
	fit   fitting
	sent  *ledger.Ledger
	usage plan.Usage
	// applyMode: the run writes the changes of an approved plan (writechanges.go).
	applyMode bool
	// schema is what the plan's schema costs with a request (counted once);
	// stop is the first request the per-plan ceiling kept from being sent, and
	// last the model's last usable reply, which a stopped plan ends with (cost.go).
	schema int
	stop   *ceilingStop
	last   *plan.Plan
}

// Plan gathers context, asks the model, validates (one repair request per reply),
// fulfils up to MaxContextRounds rounds of context requests, previews the changes
// and saves the draft record. It fails with a *plan.Error for provider problems
// (ERR_PROVIDER_*), cancellation (ERR_CANCELLED) and bad input, and with a
// *ReplyError when the reply stays invalid. Nothing in the project changes except
// the record under .fixplan/plans.
//
// Secrets never leave: the problem, answers and captured logs are redacted before
// anything else sees them (the record keeps them redacted), every message is
// redacted again as it is sent, and the record is redacted before it is saved
// (redact.go).
func (pl *Planner) Plan(ctx context.Context, in plan.ProblemInput) (*plan.Record, error) {
	if err := checkProblem(in); err != nil {
		return nil, err
	}
	r := pl.newRun(pl.redactInput(in))
	rec, err := r.plan(ctx)
	if err != nil {
		pl.emit(Event{Stage: StageError, Message: err.Error()})
		return rec, err
	}
	pl.emit(Event{Stage: StageDone, Message: rec.ID})
	return rec, nil
}

// newRun starts the run of one plan for in (redacted).
func (pl *Planner) newRun(in plan.ProblemInput) *run {
	return &run{p: pl, seen: map[string]bool{}, sent: ledger.New(), fit: newFitting(pl.cfg.Counter, llm.Window{}, pl.cfg.MaxTokens), rec: &plan.Record{
		ID: pl.cfg.NewID(), CreatedAt: pl.cfg.Now().UTC(), State: plan.StateDraft, FixplanVersion: pl.cfg.Version, Input: in,
		Changes: []plan.FileChange{}, Rounds: []plan.Round{}, Warnings: append([]string{}, pl.cfg.Warnings...), Memory: []plan.MemoryEntry{},
	}}
}

func (pl *Planner) emit(ev Event) {
	ev.MaxRounds = MaxContextRounds + 1
	pl.cfg.Emitter.Emit(ev)
}

func cancelled(ctx context.Context) error {
	if ctx.Err() != nil {
		return plan.Errorf(plan.ErrCancelled, "planning was cancelled").WithHint("press Fix (plan) again to start over")
	}
	return nil
}

func (r *run) plan(ctx context.Context) (*plan.Record, error) {
	overWindow, err := r.prepare(ctx)
	if err == nil {
		err = overWindow
	}
	if err != nil {
		return nil, err
	}
	r.announce()
	return r.converse(ctx)
}

// prepare builds the run's first conversation (r.msgs): the plan it re-plans,
// the base context gathered and fitted to the window, the system and first user
// messages. overWindow is the error of a window that cannot hold them (fit.go):
// the conversation is built all the same, for an estimate, but must not be sent.
func (r *run) prepare(ctx context.Context) (overWindow, err error) {
	pl := r.p
	var prev *plan.Record
	if r.rec.Input.Previous != "" {
		if prev, err = pl.cfg.Store.LoadPlan(r.rec.Input.Previous); err != nil {
			return nil, fmt.Errorf("load plan %s: %w", r.rec.Input.Previous, err)
		}
		if prev.Foreign {
			// Its text was chosen by whoever put it in the project, not by the user.
			return nil, plan.ForeignPlan(prev.ID, "; it is not used to re-plan", "describe the problem again in a new plan")
		}
	}
	pl.emit(Event{Stage: StageGather, Message: "gathering context"})
	window := r.startWindow(ctx) // asked while the base context is gathered
	base, err := pl.cfg.Gatherer.Base(ctx, r.rec.Input)
	if err := cancelled(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("gather base context: %w", err)
	}
	base, overWindow = r.fitContext(window(), base, prev) // token budget, compact prompt, counts
	r.rec.Base = base
	r.rec.Warnings = append(r.rec.Warnings, base.Warnings...)
	r.see(base.Seen)
	r.msgs = []llm.Message{
		{Role: llm.RoleSystem, Content: r.system(pl.cfg.Memory.Block())},
		{Role: llm.RoleUser, Content: userMessage(r.rec.Input, prev, base) + planOnlyNote(r.rec.Input)},
	}
	return overWindow, nil
}

// announce reports the estimate of the conversation about to be sent
// (StageEstimate): what the first request takes and what the plan may.
func (r *run) announce() {
	r.p.emit(Event{Stage: StageEstimate, Message: r.estimate(nil).Summary()})
}

// converse runs the conversation r.msgs starts: ask, repair, context rounds,
// preview (with one correction round for changes that do not apply and one for
// syntax errors they introduce), then save. A request the per-plan ceiling keeps
// from being sent ends the plan with what it has (cost.go, docs/CONTRACT.md §4.7).
func (r *run) converse(ctx context.Context) (*plan.Record, error) {
	pl := r.p
	blindAsked, previewRepaired, syntaxRepaired := false, false, false
	for {
		parsed, raw, err := r.ask(ctx)
		if stop := asStop(err); stop != nil {
			if len(r.rec.Calls) == 0 { // nothing was sent
				return r.rec, stop.firstError()
			}
			if r.last != nil {
				r.stopped(stop)
				r.rec.Warnings = append(r.rec.Warnings, "the plan is the model's last usable reply")
				return r.settle(ctx, *r.last)
			}
		}
		if err != nil {
			return r.rec, err
		}
		p := parsed.Plan
		last := p
		r.last = &last
		r.rec.Warnings = append(r.rec.Warnings, parsed.Warnings...)
		if len(p.ContextRequests) > 0 {
			if r.stop != nil {
				r.rec.Warnings = append(r.rec.Warnings, fmt.Sprintf("the model asked for %d more context request(s) after the ceiling kept a request from being sent; not fulfilled: %s",
					len(p.ContextRequests), describeRequests(p.ContextRequests)))
				return r.settle(ctx, p)
			}
			if r.rounds >= MaxContextRounds {
				r.rec.Warnings = append(r.rec.Warnings, fmt.Sprintf("the model asked for %d more context request(s) after %d rounds; not fulfilled: %s",
					len(p.ContextRequests), MaxContextRounds, describeRequests(p.ContextRequests)))
				return r.settle(ctx, p)
			}
			sent, err := r.fulfil(ctx, raw, p.ContextRequests, "")
			if err != nil {
				return r.rec, err
			}
			if !sent { // the ceiling kept the round from being sent: the final plan without it, if that fits
				msgs := withTurn(r.msgs, raw, withoutContextMessage)
				if r.admits(msgs, "") == nil {
					r.rec.Warnings = append(r.rec.Warnings, "the model was asked for its final plan without that context")
					r.msgs = msgs
					continue
				}
				r.rec.Warnings = append(r.rec.Warnings, "the plan is the model's reply that asked for that context")
				return r.settle(ctx, p)
			}
			continue
		}
		r.onlyAsked(&p)
		changes, perr := pl.cfg.Previewer.Preview(&p)
		if perr == nil {
			unseen := r.unseen(changes)
			if len(unseen) > 0 && !blindAsked && r.stop == nil {
				blindAsked = true
				note := fmt.Sprintf("You proposed changes to files whose current content you have not seen: %s. Here is their content; redo those changes against it.", strings.Join(unseen, ", "))
				sent, err := r.fulfil(ctx, raw, readRequests(unseen), note)
				if err != nil {
					return r.rec, err
				}
				if sent {
					continue
				}
			}
			if issues := r.syntaxFeedback(changes, unseen); len(issues) > 0 && !syntaxRepaired && r.stop == nil {
				syntaxRepaired = true
				msgs := withTurn(r.msgs, clip(raw, 64<<10), repairMessage(issues, false))
				if stop := r.admits(msgs, "the request to correct the syntax errors of the changes"); stop != nil {
					r.stopped(stop)
				} else {
					pl.emit(Event{Stage: StageRepair, Round: r.turn, Message: "the proposed changes break the syntax of a file; asking the model to correct them"})
					r.msgs = msgs
					continue
				}
			}
			r.dropUnseen(&p, unseen)
			return r.finish(ctx, p)
		}
		if plan.CodeOf(perr) != "" && !previewRepaired && r.stop == nil {
			previewRepaired = true
			msgs := withTurn(r.msgs, clip(raw, 64<<10), repairMessage([]string{"/proposed_changes: " + pl.quotable(perr)}, false))
			if stop := r.admits(msgs, "the request to correct the changes that do not apply"); stop != nil {
				r.stopped(stop)
			} else {
				r.rec.Warnings = append(r.rec.Warnings, noteChangesRepaired+": "+oneLine(perr.Error()))
				pl.emit(Event{Stage: StageRepair, Round: r.turn, Message: "the proposed changes do not apply; asking the model to correct them"})
				r.msgs = msgs
				continue
			}
		}
		r.rec.Warnings = append(r.rec.Warnings, noteChangesDropped+": "+perr.Error())
		dropAll(&p)
		return r.finish(ctx, p)
	}
}

// withoutContextMessage asks for the final plan when the ceiling kept the
// context the model asked for from being sent.
const withoutContextMessage = "CONTEXT NOT SENT: the context you asked for was not sent: it would take this plan over the cost ceiling the operator set. " +
	"Answer now with the complete JSON fix plan from what you have, and an empty context_requests list.\n"

// withTurn is msgs followed by the model's reply and a user message (a new slice).
func withTurn(msgs []llm.Message, reply, user string) []llm.Message {
	return append(append(make([]llm.Message, 0, len(msgs)+2), msgs...),
		llm.Message{Role: llm.RoleAssistant, Content: reply}, llm.Message{Role: llm.RoleUser, Content: user})
}

// describeRequests lists context requests the way the model wrote them.
func describeRequests(reqs []plan.ContextRequest) string {
	descs := make([]string, len(reqs))
	for i, q := range reqs {
		descs[i] = describeRequest(q)
	}
	return strings.Join(descs, ", ")
}

// onlyAsked takes the file changes out of a plan when only the plan was asked for.
func (r *run) onlyAsked(p *plan.Plan) {
	if r.rec.Input.PlanOnly && hasChanges(p) {
		r.rec.Warnings = append(r.rec.Warnings, "the model proposed file changes although only the plan was asked for; they were left out (write them with Write the changes once you approve the plan)")
		dropAll(p)
	}
}

// dropUnseen takes the changes to files the model never saw out of p (no blind
// rewrites, docs/CONTRACT.md §4.4).
func (r *run) dropUnseen(p *plan.Plan, unseen []string) {
	if len(unseen) == 0 {
		return
	}
	r.rec.Warnings = append(r.rec.Warnings, fmt.Sprintf("%s: changes to %s dropped: the model never saw their content (no blind rewrites)",
		plan.ErrUnseenFile, strings.Join(unseen, ", ")))
	dropPaths(p, unseen)
}

// settle ends a plan with p as it is — a reply after the last context round, or
// the model's last usable reply when the ceiling stopped the plan: its context
// requests are recorded as not fulfilled, and what it may not keep is taken out
// as always (changes when only the plan was asked for, changes to files the
// model never saw: no blind rewrites, docs/CONTRACT.md §4.4).
func (r *run) settle(ctx context.Context, p plan.Plan) (*plan.Record, error) {
	if len(p.ContextRequests) > 0 {
		r.rec.Unfulfilled = p.ContextRequests
	}
	r.onlyAsked(&p)
	if changes, err := r.p.cfg.Previewer.Preview(&p); err == nil {
		r.dropUnseen(&p, r.unseen(changes))
	}
	return r.finish(ctx, p)
}

// ask sends the conversation, parses the reply, and makes ONE repair request when it
// is invalid. The invalid exchange is not kept in the history. A request the
// ceiling keeps from being sent is a *ceilingStop (a repair request's only when
// the run has an earlier usable reply to end with; otherwise the reply is saved
// as failed and the error says so).
func (r *run) ask(ctx context.Context) (*plan.Parsed, string, error) {
	pl := r.p
	r.turn++
	raw, err := r.complete(ctx, r.msgs, StageAsk)
	var parsed *plan.Parsed
	var perr error
	if err == nil {
		parsed, perr = plan.Parse([]byte(raw))
		if perr == nil {
			return parsed, raw, nil
		}
	} else if llm.KindOf(err) == llm.KindTruncated {
		perr = &plan.ParseError{Code: plan.ErrJSONExtract, Truncated: true,
			Issues: []string{"/: the reply was cut off at the token limit (truncated)"}}
	} else {
		return nil, raw, err
	}
	issues := plan.Issues(perr)
	var pe *plan.ParseError
	truncated := errors.As(perr, &pe) && pe.Truncated
	repair := withTurn(r.msgs, clip(raw, 64<<10), repairMessage(issues, truncated))
	if stop := r.admits(repair, "the request to repair the model's invalid reply"); stop != nil {
		if r.last != nil {
			return nil, raw, stop
		}
		r.stopped(stop)
		if err := r.saveFailed(raw, perr); err != nil {
			return nil, raw, err
		}
		return nil, raw, stop.replyError(r.rec.ID)
	}
	pl.emit(Event{Stage: StageRepair, Round: r.turn, Message: "the reply was not a valid plan; asking once more: " + strings.Join(firstN(issues, 2), "; ")})
	raw2, err := r.complete(ctx, repair, StageRepair)
	if err != nil && llm.KindOf(err) != llm.KindTruncated {
		return nil, raw2, err
	}
	if err == nil {
		if parsed, perr2 := plan.Parse([]byte(raw2)); perr2 == nil {
			return parsed, raw2, nil
		} else {
			perr = perr2
		}
	}
	if raw2 == "" {
		raw2 = raw
	}
	if err := r.saveFailed(raw2, perr); err != nil {
		return nil, raw2, err
	}
	return nil, raw2, &ReplyError{RecordID: r.rec.ID, Raw: r.rec.Raw, Issues: r.rec.Issues, Err: perr}
}

// saveFailed saves the record as failed with the model's invalid reply raw and
// the issues of perr.
func (r *run) saveFailed(raw string, perr error) error {
	pl := r.p
	r.rec.State = plan.StateFailed
	r.rec.Raw = raw
	r.rec.Issues = plan.Issues(perr)
	if len(r.rec.Issues) == 0 {
		r.rec.Issues = []string{"/: the reply was cut off at the token limit (truncated)"}
	}
	r.rec.Usage = r.finalUsage()
	pl.redactRecord(r.rec)
	if serr := pl.cfg.Store.SavePlan(r.rec); serr != nil {
		return fmt.Errorf("save failed plan: %w", serr)
	}
	return nil
}

// complete sends one request. Under a per-plan ceiling it is sent only when the
// plan's spending so far, its prompt and a full reply stay within it; otherwise
// the error is a *ceilingStop and nothing is sent.
func (r *run) complete(ctx context.Context, msgs []llm.Message, stage string) (string, error) {
	pl := r.p
	if err := cancelled(ctx); err != nil {
		return "", err
	}
	turn := r.turn
	sent := pl.redactMessages(msgs)
	what := "the first request"
	if len(r.rec.Calls) > 0 {
		what = fmt.Sprintf("request %d", len(r.rec.Calls)+1)
	}
	maxTokens, stop := r.admit(sent, r.replyCap(), what) // prompt plus reply fit the server's window (replyCap) and the ceiling
	if stop != nil {
		return "", stop
	}
	pl.emit(Event{Stage: stage, Round: turn, Message: fmt.Sprintf("asking the model (round %d of %d)", turn, MaxContextRounds+1)})
	plan.PrepareSchema() // compiled while the model answers, for the reply's check
	resp, err := pl.cfg.Model.Complete(ctx, llm.Request{
		Messages: sent, Schema: plan.Schema(), SchemaName: plan.SchemaName, MaxTokens: maxTokens,
		MaxAttempts: r.attemptsLeft(spend{r.promptTokens(sent), maxTokens}),
		OnProgress: func(p llm.Progress) {
			pl.emit(Event{Stage: StageStream, Round: turn, Chars: p.Chars})
		},
	})
	if err == nil || llm.KindOf(err) == llm.KindTruncated {
		r.rec.Calls = append(r.rec.Calls, r.call(plan.Call{Turn: turn, Repair: stage == StageRepair, Model: resp.Model, Format: string(resp.Format),
			PromptTokens: resp.PromptTokens, CompletionTokens: resp.CompletionTokens, Attempts: resp.Attempts, DurationMS: resp.Duration.Milliseconds()}, sent, resp.Content))
	}
	if err != nil {
		if llm.KindOf(err) == llm.KindTruncated {
			return resp.Content, err
		}
		return "", ProviderError(err, pl.cfg.Provider, ctx)
	}
	if resp.Format != "" && resp.Format != llm.FormatJSONSchema && !r.warnedFormat {
		r.warnedFormat = true
		r.rec.Warnings = append(r.rec.Warnings, fmt.Sprintf("the provider does not accept strict JSON schemas; fixplan asked for %s output and validated it locally", resp.Format))
	}
	if resp.Attempts > 1 {
		r.rec.Warnings = append(r.rec.Warnings, fmt.Sprintf("the provider needed %d attempts for round %d (the prompts of the failed ones are counted as spent: a provider may bill them)", resp.Attempts, turn))
	}
	return resp.Content, nil
}

// fulfil answers requests (one context round) and appends the exchange to the
// history. sent is false when the ceiling kept the round from being sent: it is
// recorded with every request not fulfilled, saying why, and nothing of it
// counts as seen (cost.go).
func (r *run) fulfil(ctx context.Context, raw string, reqs []plan.ContextRequest, note string) (sent bool, err error) {
	pl := r.p
	r.rounds++
	pl.emit(Event{Stage: StageFulfil, Round: r.turn, Requests: len(reqs), Message: fmt.Sprintf("fulfilling %d context request(s)", len(reqs))})
	round := plan.Round{Requests: reqs, Results: make([]plan.ContextResult, 0, len(reqs))}
	for _, q := range reqs {
		if err := cancelled(ctx); err != nil {
			return false, err
		}
		round.Results = append(round.Results, pl.cfg.Gatherer.Fulfil(ctx, r.rec.Input, q))
	}
	if err := cancelled(ctx); err != nil {
		return false, err
	}
	results, avoided := r.prepareResults(raw, round.Results) // no repeats, fitted to the window, counted
	msgs := withTurn(r.msgs, raw, resultsMessage(r.rounds, results, MaxContextRounds-r.rounds, note))
	what := fmt.Sprintf("context round %d", r.rounds)
	if note != "" {
		what = "the read of the files the model changed without seeing them"
	}
	if stop := r.admits(msgs, what); stop != nil {
		r.stopped(stop)
		for i := range results {
			results[i] = plan.ContextResult{Request: results[i].Request, Error: "not sent: " + stop.Error()}
		}
		round.Results = results
		r.rec.Rounds = append(r.rec.Rounds, round)
		return false, nil
	}
	r.usage.RepeatsAvoided += avoided
	for i, res := range results {
		r.sent.AddResult(r.rounds, i, res)
		r.see(res.Seen)
	}
	round.Results = results
	r.rec.Rounds = append(r.rec.Rounds, round)
	r.msgs = msgs
	return true, nil
}

// finish validates memory, records the preview and saves the draft.
func (r *run) finish(ctx context.Context, p plan.Plan) (*plan.Record, error) {
	pl := r.p
	if err := cancelled(ctx); err != nil {
		return r.rec, err
	}
	pl.emit(Event{Stage: StagePreview, Message: "computing the diffs"})
	changes, err := pl.cfg.Previewer.Preview(&p)
	if err != nil {
		r.rec.Warnings = append(r.rec.Warnings, "the proposed changes were left out because they cannot be applied: "+err.Error())
		dropAll(&p)
		changes = nil
	}
	if changes == nil {
		changes = []plan.FileChange{}
	}
	for _, c := range changes {
		if len(c.SyntaxIssues) > 0 {
			r.rec.Warnings = append(r.rec.Warnings, fmt.Sprintf("the change to %s introduces a syntax error the file did not have (%s); review it before applying",
				c.Path, c.SyntaxIssues[0]))
		}
	}
	if r.applyMode {
		r.rec.Warnings = append(r.rec.Warnings, applyWarnings(&p, changes)...)
	}
	mem, warns := pl.cfg.Memory.Validate(p.MemoryPatch)
	if mem == nil {
		mem = []plan.MemoryEntry{}
	}
	r.rec.Plan, r.rec.Changes, r.rec.Memory = p, changes, mem
	r.rec.Warnings = dedupe(append(r.rec.Warnings, warns...))
	r.rec.Usage = r.finalUsage()
	pl.redactRecord(r.rec)
	if err := pl.cfg.Store.SavePlan(r.rec); err != nil {
		return r.rec, fmt.Errorf("save plan: %w", err)
	}
	return r.rec, nil
}

// dedupe keeps the first of each warning: a model that repeats an unknown memory
// key in every reply gets the warning once.
func dedupe(ws []string) []string {
	seen := map[string]bool{}
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// quotable is a preview failure as the model may read it: a patch failure quotes
// the file's lines (expected vs closest), so for a file the model may not read
// (a secret, a hard link git does not track) only its first line is sent.
func (pl *Planner) quotable(err error) string {
	msg := err.Error()
	var pe *plan.Error
	if !errors.As(err, &pe) || !strings.Contains(msg, "\n") {
		return msg
	}
	for _, p := range pe.Paths {
		if pl.cfg.Gatherer.MayQuote(p) != nil {
			first, _, _ := strings.Cut(msg, "\n")
			return first + " (the file's lines are not shown: the model may not read this file)"
		}
	}
	return msg
}
