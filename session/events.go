package session

// Stages reported through Emitter while planning.
const (
	StageGather   = "gather"   // gathering base context
	StageEstimate = "estimate" // what the plan will cost, before the first request (Message words it)
	StageCeiling  = "ceiling"  // the per-plan ceiling kept a request from being sent (Message says which)
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
