package editor

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"

	"fixplan/plan"
)

// start runs the chosen command without a shell, in the project's folder:
// detached (its own session or process group), with no standard stream of
// fixplan's, and not waited for — a goroutine only reaps it. A terminal editor
// given the caller's terminal runs in it, and start returns when it exits.
func (c choice) start(r *Request) error {
	if c.edit {
		if err := systemEdit(c.argv[0], r.root); err != nil {
			return startErr(c, err)
		}
		return nil
	}
	if r.goos == "windows" {
		if err := batchSafe(c.argv); err != nil {
			return err
		}
	}
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = r.root
	cmd.Env = r.Env
	if c.attached {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = r.Terminal.In, r.Terminal.Out, r.Terminal.Err
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil // the editor ran; how it ended is its own business
		}
		if err != nil {
			return startErr(c, err)
		}
		return nil
	}
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return startErr(c, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// startErr says which program could not be started and why, and what to set.
func startErr(c choice, err error) error {
	why := err.Error()
	var ee *exec.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &ee):
		why = ee.Err.Error()
	case errors.As(err, &pe):
		why = pe.Err.Error()
	}
	hint := "correct " + viaSettings + ", or leave it empty (auto)"
	switch {
	case strings.HasPrefix(c.via, "$"):
		hint = "correct " + strings.Fields(c.via)[0] + ", or " + setHint
	case c.via != "Settings":
		hint = setHint
	}
	if strings.Contains(why, "exec format error") {
		hint = "a script needs a #! line; " + hint
	}
	prog := c.editor
	if len(c.argv) > 0 && !c.edit {
		prog = c.argv[0]
	}
	return &plan.Error{Code: plan.ErrConfig, Msg: fmt.Sprintf("the editor %s (%s) could not be started: %s", prog, c.via, why), Hint: hint}
}

// batchSafe refuses to hand cmd.exe's metacharacters to a Windows batch file
// (code.cmd is one): Windows runs a .bat or .cmd through cmd.exe, which reads
// & | < > ^ % ! ( ) " and , ; = in its arguments as its own syntax whatever
// quoting Go adds, so a file named "a&calc.py" could start another program.
func batchSafe(argv []string) error {
	name := strings.ToLower(strings.TrimRight(argv[0], ". "))
	if !strings.HasSuffix(name, ".bat") && !strings.HasSuffix(name, ".cmd") {
		return nil
	}
	for _, a := range argv[1:] {
		if i := strings.IndexAny(a, "&|<>^%!()\",;=\r\n"); i >= 0 {
			return plan.Errorf(plan.ErrConfig, "the editor %s is a batch file, and the argument %q holds %q, which cmd.exe would read as a command", argv[0], a, a[i:i+1]).
				WithHint("set Settings → Open files with to the editor's .exe (e.g. for VS Code: \"%LOCALAPPDATA%\\Programs\\Microsoft VS Code\\Code.exe\" -g {file}:{line}), or rename the file")
		}
	}
	return nil
}
