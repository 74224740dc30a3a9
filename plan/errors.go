package plan

import (
	"errors"
	"fmt"
)

// Code is a stable error code (docs/CONTRACT.md §10). The UI and every --json output carry it.
type Code string

// The stable error codes.
const (
	ErrPathOutsideRoot     Code = "ERR_PATH_OUTSIDE_ROOT"
	ErrProtectedPath       Code = "ERR_PROTECTED_PATH"
	ErrBaseMismatch        Code = "ERR_BASE_MISMATCH"
	ErrPatchApplyFailed    Code = "ERR_PATCH_APPLY_FAILED"
	ErrActionConflict      Code = "ERR_ACTION_CONFLICT"
	ErrBinaryContent       Code = "ERR_BINARY_CONTENT"
	ErrNonUTF8File         Code = "ERR_NON_UTF8_FILE"
	ErrUnseenFile          Code = "ERR_UNSEEN_FILE"
	ErrAlreadyApplied      Code = "ERR_ALREADY_APPLIED"
	ErrUndoEditedSince     Code = "ERR_UNDO_EDITED_SINCE"
	ErrSchemaValidation    Code = "ERR_SCHEMA_VALIDATION"
	ErrJSONExtract         Code = "ERR_JSON_EXTRACT"
	ErrProviderAuth        Code = "ERR_PROVIDER_AUTH"
	ErrProviderUnavailable Code = "ERR_PROVIDER_UNAVAILABLE"
	// Codes beyond the contract's list, for conditions it implies.
	ErrSecretPath      Code = "ERR_SECRET_PATH"
	ErrNotFound        Code = "ERR_NOT_FOUND"
	ErrAlreadyExists   Code = "ERR_ALREADY_EXISTS"
	ErrDirNotEmpty     Code = "ERR_DIR_NOT_EMPTY"
	ErrNothingToUndo   Code = "ERR_NOTHING_TO_UNDO"
	ErrNoPlan          Code = "ERR_NO_PLAN"
	ErrProviderRequest Code = "ERR_PROVIDER_REQUEST"
	ErrProviderQuota   Code = "ERR_PROVIDER_QUOTA"
	ErrConfig          Code = "ERR_CONFIG"
	ErrCancelled       Code = "ERR_CANCELLED"
	ErrInvalidInput    Code = "ERR_INVALID_INPUT"
	ErrIO              Code = "ERR_IO"
	// ErrForeignState: a plan or journal in .fixplan/ was not written by this
	// user's fixplan (it may have come with the project); it is never obeyed.
	ErrForeignState Code = "ERR_FOREIGN_STATE"
	// ErrCeiling: a request would take the plan over the per-plan ceiling the
	// user set (tokens or cost); it was not sent.
	ErrCeiling Code = "ERR_CEILING"
)

// Error is an error with a stable code, a sentence for people (Msg) and what to do (Hint).
// Paths lists the files concerned, when any.
type Error struct {
	Code  Code
	Msg   string
	Hint  string
	Paths []string
	Err   error
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Msg
	if e.Err != nil {
		if t := e.Err.Error(); t != "" { // a cause the message already words adds nothing
			s += ": " + t
		}
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// WithHint returns e with its hint set.
func (e *Error) WithHint(h string) *Error { e.Hint = h; return e }

// ForeignPlan is the one refusal of a plan this user's fixplan did not make: its
// record is not sealed with the user's key (it came with the project, say), so
// its text was chosen by whoever put it there. No layer applies, runs, verifies,
// re-plans or writes changes from such a plan, and each refuses it through
// ForeignPlan: the code is always ErrForeignState and the sentence always opens
// with "plan <id> was not made by your fixplan". refused follows it verbatim and
// says what is refused, with its own separator ("; its commands are never run",
// " (it may have come with the project)"); hint is what to do instead, in the
// words of the edge that shows it.
func ForeignPlan(id, refused, hint string) *Error {
	return &Error{Code: ErrForeignState, Msg: "plan " + id + " was not made by your fixplan" + refused, Hint: hint}
}

// CodeOf returns the code of the first *Error or *ParseError in err's chain, or "" when there is none.
func CodeOf(err error) Code {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	var parseErr *ParseError
	if errors.As(err, &parseErr) {
		return parseErr.Code
	}
	return ""
}
