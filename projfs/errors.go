package projfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"fixplan/plan"
)

// Refuse builds the error of a read or a request that cannot be done: a
// *plan.Error whose Msg is the reason the model reads and whose Hint says what
// to do.
func Refuse(code plan.Code, format string, args ...any) error {
	return &plan.Error{Code: code, Msg: fmt.Sprintf(format, args...), Hint: hintFor(code)}
}

func hintFor(code plan.Code) string {
	switch code {
	case plan.ErrPathOutsideRoot:
		return "give a path relative to the project root, inside it"
	case plan.ErrProtectedPath:
		return ".git/ is never read; ask for the project's files instead"
	case plan.ErrSecretPath:
		return "secret files are read only when the user allows them in the settings"
	case plan.ErrNotFound:
		return "check the name: search for it or list the folder with a glob"
	case plan.ErrBinaryContent:
		return "only text files can be read"
	case plan.ErrCancelled:
		return "run it again"
	case plan.ErrIO:
		return "check the file's permissions"
	}
	return "fix the request and try again"
}

// Reason is the sentence of a refusal (its Msg), or the error text.
func Reason(err error) string {
	var pe *plan.Error
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}

// IOCode is the code of a failed open: ERR_NOT_FOUND for a missing file, else ERR_IO.
func IOCode(err error) plan.Code {
	if errors.Is(err, fs.ErrNotExist) {
		return plan.ErrNotFound
	}
	return plan.ErrIO
}

// PathErrReason words a filesystem error without the absolute root path.
func PathErrReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case strings.Contains(err.Error(), "escapes"):
		return "it leads outside the project root"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return "I/O error"
}
