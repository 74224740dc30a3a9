// Package workflows checks the GitHub Actions workflows in .github/workflows with
// actionlint (as a library): syntax, expressions, contexts (a secret cannot be read in
// a step's `if`), job dependencies, the inputs of well-known actions, and the shell
// of every `run:` with shellcheck when it is installed (make apt-test installs it).
package workflows

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

const workflowDir = "../../.github/workflows"

func newLinter(t *testing.T) *actionlint.Linter {
	t.Helper()
	opts := &actionlint.LinterOptions{Oneline: true}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = sc
	} else {
		t.Log("shellcheck is not installed: run: scripts are not checked")
	}
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func describe(errs []*actionlint.Error) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\n  %s:%d:%d: %s [%s]", filepath.Base(e.Filepath), e.Line, e.Column, e.Message, e.Kind)
	}
	return b.String()
}

// TestWorkflows lints every workflow of the repository.
func TestWorkflows(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(workflowDir, "*.y*ml"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[filepath.Base(f)] = true
	}
	for _, want := range []string{"ci.yml", "release.yml"} {
		if !names[want] {
			t.Errorf("%s/%s is missing", workflowDir, want)
		}
	}
	l := newLinter(t)
	for _, f := range files {
		errs, err := l.LintFile(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(errs) > 0 {
			t.Errorf("%s has %d problem(s):%s", filepath.Base(f), len(errs), describe(errs))
		}
	}
}

// TestReleaseSigningNeedsSecrets: every step that uses a signing or notarisation
// secret runs only when that secret is configured (its if: tests that env.X is not
// empty), so a fork without them still releases, unsigned.
func TestReleaseSigningNeedsSecrets(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(workflowDir, "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wf, errs := actionlint.Parse(b)
	if len(errs) > 0 {
		t.Fatalf("parse:%s", describe(errs))
	}
	secrets := []string{"WINDOWS_SIGN_PFX_BASE64", "MACOS_CERTIFICATE_P12_BASE64", "MACOS_SIGN_IDENTITY", "APPLE_ID", "APPLE_APP_PASSWORD"}
	guarded := 0
	for id, job := range wf.Jobs {
		for _, st := range job.Steps {
			run, ok := st.Exec.(*actionlint.ExecRun)
			if !ok || run.Run == nil {
				continue
			}
			name := ""
			if st.Name != nil {
				name = st.Name.Value
			}
			for _, s := range secrets {
				if !strings.Contains(run.Run.Value, "$"+s) {
					continue
				}
				if !checksASecret(st.If, secrets) {
					t.Errorf("job %s, step %q uses $%s but runs without checking a signing secret is set (if: env.X != '')", id, name, s)
					continue
				}
				guarded++
			}
		}
	}
	if guarded < 4 {
		t.Errorf("only %d guarded uses of signing secrets found in release.yml", guarded)
	}
}

// checksASecret reports whether a step's if requires one of the secrets to be set.
func checksASecret(cond *actionlint.String, secrets []string) bool {
	if cond == nil {
		return false
	}
	for _, s := range secrets {
		if strings.Contains(cond.Value, "env."+s+" != ''") {
			return true
		}
	}
	return false
}

// TestLinterCatchesBrokenWorkflows proves the check above has teeth: each broken
// snippet must be reported (and the good one must not be).
func TestLinterCatchesBrokenWorkflows(t *testing.T) {
	const head = "name: t\non: push\njobs:\n"
	cases := []struct {
		name, src, want string // want: a piece of the expected message
		needsShellcheck bool
	}{
		{name: "good", src: head + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: echo ok\n"},
		{name: "no runs-on", src: head + "  a:\n    steps:\n      - run: echo ok\n", want: `"runs-on" section is missing`},
		{name: "unknown event", src: "name: t\non: pushh\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n", want: `unknown Webhook event "pushh"`},
		{name: "needs a job that does not exist", src: head + "  a:\n    runs-on: ubuntu-latest\n    needs: [build]\n    steps:\n      - run: echo ok\n", want: `job "a" needs job "build" which does not exist`},
		{name: "secret in a step's if", src: head + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - if: secrets.KEY != ''\n        run: echo ok\n", want: `context "secrets" is not allowed here`},
		{name: "unclosed expression", src: head + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.sha\n", want: "unexpected EOF while lexing expression"},
		{name: "misspelt action input", src: head + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          fetch_depth: 0\n", want: `input "fetch_depth" is not defined`},
		{name: "bad YAML", src: head + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n     - run: echo no\n", want: "could not parse as YAML"},
		{name: "shell bug in run", src: head + "  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          if [ -f x ] then echo ok; fi\n", want: "shellcheck reported issue", needsShellcheck: true},
	}
	l := newLinter(t)
	_, scErr := exec.LookPath("shellcheck")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.needsShellcheck && scErr != nil {
				t.Fatal("shellcheck is needed (make apt-test installs it)")
			}
			errs, err := l.Lint("case.yml", []byte(c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(errs) > 0 {
					t.Fatalf("a good workflow was reported:%s", describe(errs))
				}
				return
			}
			if len(errs) == 0 {
				t.Fatalf("the broken workflow was not reported (want %q)", c.want)
			}
			if !strings.Contains(describe(errs), c.want) {
				t.Fatalf("reported, but not as %q:%s", c.want, describe(errs))
			}
		})
	}
}
