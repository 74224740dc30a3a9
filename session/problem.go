package session

import (
	"fmt"
	"strings"

	"fixplan/plan"
)

// MaxProblemBytes bounds the pasted problem text. Everything pasted is redacted
// before it is used (whole-text secret rules), which takes seconds per megabyte
// of unusual text; an error or a failing test fits many times over, and longer
// output belongs in a log, whose end is read within the context budget.
const MaxProblemBytes = 1 << 20

// checkProblem refuses an empty or oversized problem before anything is done
// with it.
func checkProblem(in plan.ProblemInput) error {
	if strings.TrimSpace(in.Problem) == "" {
		return plan.Errorf(plan.ErrInvalidInput, "the problem is empty").WithHint("describe the problem or paste the error output")
	}
	if n := len(in.Problem); n > MaxProblemBytes {
		return plan.Errorf(plan.ErrInvalidInput, "the problem text is %s; at most %s is accepted", sizeText(n), sizeText(MaxProblemBytes)).
			WithHint("paste the failing part (the error and its trace), or attach the whole output as a log — its end is read")
	}
	return nil
}

func sizeText(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
