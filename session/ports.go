package session

import (
	"context"

	"fixplan/apply"
	codectx "fixplan/context"
	"fixplan/llm"
	"fixplan/memory"
	"fixplan/plan"
)

// The ports: what the fix loop and Session consume, each satisfied by a core
// package in production (asserted below) and by fakes in the tests.

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

// The production implementations of the ports (engineAdapter: session.go).
var (
	_ Gatherer  = (*codectx.Gatherer)(nil)
	_ Memory    = (*memory.Store)(nil)
	_ PlanStore = (*apply.Engine)(nil)
	_ Previewer = engineAdapter{}
)
