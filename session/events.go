// Package session is fixplan's fix loop: gather base context, ask the model for one
// strict-JSON plan, validate and repair once, fulfil up to two rounds of context
// requests, preview the changes, and later apply, undo and verify them. The CLI and
// the desktop app are thin edges over it.
package session

import (
	"context"

	"fixplan/llm"
	"fixplan/plan"
)

// Stages reported through Emitter while planning.
const (
	StageGather   = "gather"   // gathering base context
	StageAsk      = "ask"      // a request to the model is under way (Round says which)
	StageStream   = "stream"   // reply tokens are arriving (Chars counts them)
	StageRepair   = "repair"   // the reply was invalid: one repair request
	StageFulfil   = "fulfil"   // fulfilling Requests context requests
	StagePreview  = "preview"  // computing file changes and diffs
	StageDone     = "done"     // the plan is ready (Message holds its id)
	StageError    = "error"    // planning failed (Message says why)
	StageCommand  = "command"  // a verification command wrote output (Message holds the chunk)
	StageVerify   = "verify"   // the plan is being checked in a scratch copy
	StageRecovery = "recovery" // a half-applied transaction was rolled back at start-up
)

// Event is one progress event. Round is 1-based; MaxRounds is the number of model
// rounds the loop may take (context rounds + 1).
type Event struct {
	Stage     string `json:"stage"`
	Round     int    `json:"round"`
	MaxRounds int    `json:"max_rounds"`
	Message   string `json:"message"`
	Chars     int    `json:"chars"`
	Requests  int    `json:"requests"`
}

// Emitter receives progress events. Implementations must not block for long; the
// desktop app batches them before they reach the window.
type Emitter interface {
	Emit(Event)
}

// EmitterFunc adapts a function to Emitter.
type EmitterFunc func(Event)

// Emit calls f(ev).
func (f EmitterFunc) Emit(ev Event) { f(ev) }

type discard struct{}

func (discard) Emit(Event) {}

// Model is the chat model the loop asks; llm/openai's Client satisfies it.
type Model interface {
	Complete(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Gatherer builds the base context and fulfils context requests; codectx's Gatherer
// satisfies it. Fulfil never fails: an unfulfillable request carries the reason.
type Gatherer interface {
	Base(ctx context.Context, in plan.ProblemInput) (plan.Gathered, error)
	Fulfil(ctx context.Context, in plan.ProblemInput, req plan.ContextRequest) plan.ContextResult
	// MayQuote says whether a file's lines may be shown to the model (nil) or why not.
	MayQuote(rel string) error
}

// Memory is the engineering memory; memory's Store satisfies it.
type Memory interface {
	Block() string
	Validate(entries []plan.MemoryEntry) (ok []plan.MemoryEntry, warnings []string)
}

// Previewer turns a plan's actions and patch into file changes against the disk,
// refusing what cannot apply (a *plan.Error with a code); apply's Engine satisfies it
// through engineAdapter.
type Previewer interface {
	Preview(p *plan.Plan) ([]plan.FileChange, error)
}

// PlanStore keeps plan records under .fixplan/plans.
type PlanStore interface {
	SavePlan(r *plan.Record) error
	LoadPlan(id string) (*plan.Record, error)
}
