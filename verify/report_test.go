package verify

import (
	"slices"
	"testing"
)

func TestJudgeAndDecide(t *testing.T) {
	names := func(n ...string) Failures { return Failures{Formats: []string{"go"}, Names: n} }
	pass := func(cmd string, focused bool) CommandReport {
		return CommandReport{Command: cmd, Focused: focused, Outcome: OutcomePassed}
	}
	fail := func(cmd string, focused bool, code int, f Failures, base *BaselineResult) CommandReport {
		return CommandReport{Command: cmd, Focused: focused, Outcome: OutcomeFailed, ExitCode: code, Failures: f, Baseline: base}
	}
	base := func(code int, f Failures) *BaselineResult { return &BaselineResult{ExitCode: code, Failures: f} }
	// named sets what the output showed of the problem's tests.
	named := func(c CommandReport, failing, passing []string) CommandReport {
		c.NamedFailing, c.NamedPassing = failing, passing
		return c
	}
	tests := []struct {
		name     string
		cmds     []CommandReport
		named    []string // the tests the problem names
		state    State
		reason   Reason
		newFails []string
	}{
		{name: "all pass", cmds: []CommandReport{pass("f", true), pass("s", false)}, state: StateVerified},
		{name: "suite only, passes", cmds: []CommandReport{pass("s", false)}, state: StateVerified},
		{name: "focused fails", cmds: []CommandReport{fail("f", true, 1, names("m.TestX"), nil), {Command: "s", Outcome: OutcomeNotRun}},
			state: StateFailed, reason: ReasonFocusedFails},
		{name: "focused times out", cmds: []CommandReport{{Command: "f", Focused: true, Outcome: OutcomeFailed, ExitCode: -1, TimedOut: true}},
			state: StateFailed, reason: ReasonFocusedFails},
		{name: "suite fails only as before", cmds: []CommandReport{pass("f", true), fail("s", false, 1, names("m.TestOld"), base(1, names("m.TestOld")))},
			state: StateVerified},
		{name: "suite fails as before, one old failure fixed", cmds: []CommandReport{pass("f", true), fail("s", false, 1, names("m.A"), base(1, names("m.A", "m.B")))},
			state: StateVerified},
		{name: "suite has a new failure", cmds: []CommandReport{pass("f", true), fail("s", false, 1, names("m.TestOld", "m.TestNew"), base(1, names("m.TestOld")))},
			state: StatePartly, reason: ReasonNewFailures, newFails: []string{"m.TestNew"}},
		{name: "suite newly failing, baseline passed", cmds: []CommandReport{pass("f", true), fail("s", false, 1, names("m.TestNew"), base(0, Failures{}))},
			state: StatePartly, reason: ReasonNewFailures, newFails: []string{"m.TestNew"}},
		{name: "suite fails without test names, baseline passed", cmds: []CommandReport{pass("f", true), fail("s", false, 2, Failures{}, base(0, Failures{}))},
			state: StateFailed, reason: ReasonCommandFails},
		{name: "unknown format, same exit code as before", cmds: []CommandReport{pass("f", true), fail("s", false, 2, Failures{}, base(2, Failures{}))},
			state: StateVerified},
		{name: "unknown format, other exit code", cmds: []CommandReport{pass("f", true), fail("s", false, 3, Failures{}, base(2, Failures{}))},
			state: StateFailed, reason: ReasonCommandFails},
		{name: "new failures and no focused command", cmds: []CommandReport{fail("s", false, 1, names("m.TestNew"), base(0, Failures{}))},
			state: StateFailed, reason: ReasonCommandFails, newFails: []string{"m.TestNew"}},
		{name: "no focused command, suite fails as before", cmds: []CommandReport{fail("s", false, 1, names("m.TestOld"), base(1, names("m.TestOld")))},
			state: StateNotVerified, reason: ReasonInconclusive},
		{name: "suite times out after the change only", cmds: []CommandReport{pass("f", true), {Command: "s", Outcome: OutcomeFailed, ExitCode: -1, TimedOut: true, Baseline: base(1, names("m.A"))}},
			state: StateFailed, reason: ReasonCommandFails},
		{name: "suite times out before and after", cmds: []CommandReport{pass("f", true), {Command: "s", Outcome: OutcomeFailed, ExitCode: -1, TimedOut: true, Baseline: &BaselineResult{ExitCode: -1, TimedOut: true}}},
			state: StateVerified},
		{name: "two suites: one new failure, one unexplained", cmds: []CommandReport{pass("f", true),
			fail("s1", false, 1, names("m.New"), base(0, Failures{})), fail("s2", false, 2, Failures{}, base(0, Failures{}))},
			state: StateFailed, reason: ReasonCommandFails, newFails: []string{"m.New"}},
		// The tests the problem names, looked up in the suite's output.
		{name: "no focused command, the named test still fails as before", named: []string{"m.TestMean"},
			cmds:  []CommandReport{named(fail("s", false, 1, names("m.TestMean"), base(1, names("m.TestMean"))), []string{"m.TestMean"}, nil)},
			state: StateFailed, reason: ReasonNamedFails},
		{name: "named test still fails, also a new failure", named: []string{"m.TestMean"},
			cmds:  []CommandReport{named(fail("s", false, 1, names("m.TestMean", "m.TestNew"), base(1, names("m.TestMean"))), []string{"m.TestMean"}, nil)},
			state: StateFailed, reason: ReasonNamedFails, newFails: []string{"m.TestNew"}},
		{name: "named test fails, the baseline passed (flaky)", named: []string{"m.TestMean"},
			cmds:  []CommandReport{named(fail("s", false, 1, names("m.TestMean"), base(0, Failures{})), []string{"m.TestMean"}, nil)},
			state: StateFailed, reason: ReasonNamedFails},
		{name: "named test passes, other failures as before", named: []string{"m.TestMean"},
			cmds:  []CommandReport{named(fail("s", false, 1, names("m.TestOld"), base(1, names("m.TestOld", "m.TestMean"))), nil, []string{"m.TestMean"})},
			state: StateVerified, reason: ReasonNamedPass},
		{name: "one of two named tests found passing", named: []string{"m.TestMean", "m.TestSum"},
			cmds:  []CommandReport{named(fail("s", false, 1, names("m.TestOld"), base(1, names("m.TestOld", "m.TestMean", "m.TestSum"))), nil, []string{"m.TestMean"})},
			state: StateNotVerified, reason: ReasonInconclusive},
		{name: "named test passes, a new failure", named: []string{"m.TestMean"},
			cmds:  []CommandReport{named(fail("s", false, 1, names("m.TestNew"), base(1, names("m.TestMean"))), nil, []string{"m.TestMean"})},
			state: StatePartly, reason: ReasonNewFailures, newFails: []string{"m.TestNew"}},
		{name: "named test not in the output, suite fails as before", named: []string{"m.TestMean"},
			cmds:  []CommandReport{fail("s", false, 1, names("m.TestOld"), base(1, names("m.TestOld")))},
			state: StateNotVerified, reason: ReasonInconclusive},
		{name: "named test passes in a suite that passes", named: []string{"m.TestMean"},
			cmds:  []CommandReport{named(pass("s", false), nil, []string{"m.TestMean"})},
			state: StateVerified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds := slices.Clone(tt.cmds)
			for i := range cmds {
				judge(&cmds[i])
			}
			state, reason, detail, nf := decide(cmds, tt.named)
			if state != tt.state || reason != tt.reason || !slices.Equal(nf, tt.newFails) {
				t.Errorf("decide = %s %q %q (%s), want %s %q %q", state, reason, nf, detail, tt.state, tt.reason, tt.newFails)
			}
			if state != StateVerified && detail == "" {
				t.Error("no detail")
			}
		})
	}
}

func TestRelativeTo(t *testing.T) {
	dir := t.TempDir()
	out := "not ok 1 - " + dir + "/math.test.js\n  location: '" + dir + "/math.test.js:3:1'\ncwd " + dir + "\n"
	got := relativeTo(out, dir)
	want := "not ok 1 - math.test.js\n  location: 'math.test.js:3:1'\ncwd .\n"
	if got != want {
		t.Errorf("relativeTo:\n got %q\nwant %q", got, want)
	}
}

func TestTail(t *testing.T) {
	tests := []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "abc", 10, "abc"},
		{"from a line start", "line one\nline two\nline three\n", 15, "line three\n"},
		{"utf-8 boundary", "ééééé", 5, "éé"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tail(tt.in, tt.n); got != tt.want {
				t.Errorf("tail = %q, want %q", got, tt.want)
			}
		})
	}
}
