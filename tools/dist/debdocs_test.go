package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCLISource is a Go program answering -h like fixplan's CLI (built as
// "fixplan", a usage, a commands: list, each command's -h exiting 2 as the flag
// package does) and --version like both binaries.
const fakeCLISource = `package main

import (
	"fmt"
	"os"
)

var version = "dev"

func main() {
	a := os.Args[1:]
	switch {
	case len(a) == 1 && a[0] == "--version":
		fmt.Println("fixplan " + version)
	case len(a) == 1 && a[0] == "-h":
		fmt.Print("usage: fixplan [--root DIR] COMMAND [ARGS]\n       fixplan --version\n\ncommands:\n" +
			"  plan      ask the model for a fix plan (--problem TEXT)\n  undo      undo the last applied transaction\n\n" +
			"Run 'fixplan COMMAND -h' for a command's flags.\n")
	case len(a) == 2 && a[1] == "-h":
		fmt.Fprintf(os.Stderr, "usage: fixplan [--root DIR] %s [--json]\n\n.dot first and a back\\slash; see 'fixplan undo'.\n  -json\n    \tprint one JSON object\n", a[0])
		os.Exit(2)
	default:
		fmt.Println("fake")
	}
}
`

var (
	fakeCLIOnce sync.Once
	fakeCLIPath string
	fakeCLIErr  error
)

// fakeCLI builds fakeCLISource once per test run (a real Go binary: the
// package reads its build info and runs its -h).
func fakeCLI(t *testing.T) string {
	t.Helper()
	fakeCLIOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fixplan-dist-test-")
		if err != nil {
			fakeCLIErr = err
			return
		}
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fakecli\n\ngo 1.22\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "main.go"), []byte(fakeCLISource), 0o644)
		fakeCLIPath = filepath.Join(dir, "fixplan-cli")
		cmd := exec.Command("go", "build", "-ldflags", "-X main.version=v1.2.3-4-gabc1234", "-o", fakeCLIPath, ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			fakeCLIErr = err
			fakeCLIPath = string(out)
		}
	})
	if fakeCLIErr != nil {
		t.Fatalf("building the fake CLI: %v\n%s", fakeCLIErr, fakeCLIPath)
	}
	return fakeCLIPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fakeCLIPath != "" && fakeCLIErr == nil {
		os.RemoveAll(filepath.Dir(fakeCLIPath))
	}
	os.Exit(code)
}

func gunzip(t *testing.T, b []byte) (*gzip.Reader, []byte) {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return r, text
}

// checkGzip9n checks the header gzip -9n writes: no time, no name, maximum
// compression (the XFL byte lintian's changelog-not-compressed-with-max-compression reads).
func checkGzip9n(t *testing.T, b []byte) {
	t.Helper()
	r, _ := gunzip(t, b)
	if !r.ModTime.IsZero() || r.Name != "" || b[8] != 2 || b[9] != 3 {
		t.Errorf("gzip header: time %v, name %q, XFL %d, OS %d; want none, none, 2 (best), 3 (Unix)", r.ModTime, r.Name, b[8], b[9])
	}
}

func TestDebChangelog(t *testing.T) {
	date := time.Date(2026, 11, 27, 6, 50, 59, 0, time.FixedZone("CET", 3600))
	b := debChangelog("v1.2.3-4-gabc1234", "fixplan <noreply@fixplan.invalid>", date)
	if again := debChangelog("v1.2.3-4-gabc1234", "fixplan <noreply@fixplan.invalid>", date); !bytes.Equal(b, again) {
		t.Error("the same version and date gave other bytes")
	}
	checkGzip9n(t, b)
	_, text := gunzip(t, b)
	want := "fixplan (1.2.3+4.gabc1234) unstable; urgency=medium\n\n" +
		"  * fixplan v1.2.3-4-gabc1234, built from the commit of 2026-11-27.\n\n" +
		" -- fixplan <noreply@fixplan.invalid>  Fri, 27 Nov 2026 05:50:59 +0000\n"
	if string(text) != want {
		t.Errorf("changelog:\n%s\nwant:\n%s", text, want)
	}
	if p, err := exec.LookPath("dpkg-parsechangelog"); err == nil {
		f := filepath.Join(t.TempDir(), "changelog")
		os.WriteFile(f, text, 0o644)
		out, err := exec.Command(p, "-l", f, "-S", "Version").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "1.2.3+4.gabc1234" {
			t.Errorf("dpkg-parsechangelog: %v %s", err, out)
		}
	}
}

func TestCLIManPage(t *testing.T) {
	cli := fakeCLI(t)
	b, err := cliManPage(cli, "v1.2.3", time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	checkGzip9n(t, b)
	_, page := gunzip(t, b)
	for _, want := range []string{
		`.TH FIXPLAN-CLI 1 "2026\-11\-27" "fixplan v1.2.3" "User Commands"`,
		".SH SYNOPSIS\n.nf\nfixplan\\-cli [\\-\\-root DIR] COMMAND [ARGS]\nfixplan\\-cli \\-\\-version\n.fi\n",
		".TP\n.B plan\nask the model for a fix plan (\\-\\-problem TEXT)\n",
		".TP\n.B undo\n",
		".PP\nRun 'fixplan\\-cli COMMAND \\-h' for a command's flags.\n",
		".SS \"fixplan\\-cli plan\"\n.nf\nusage: fixplan\\-cli [\\-\\-root DIR] plan [\\-\\-json]\n",
		// a line starting with a dot is not a request; backslashes are escaped; a
		// command named in the text is called by the installed name
		"\n\\&.dot first and a back\\eslash; see 'fixplan\\-cli undo'.\n",
		".SH SEE ALSO\n.BR fixplan (1)\n",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	manLint(t, page)
	if _, err := cliManPage(filepath.Join(t.TempDir(), "none"), "v1", time.Now()); err == nil {
		t.Error("no error for a CLI that does not run")
	}
}

func TestAppManPage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repo, "build/linux/fixplan.1"))
	if err != nil {
		t.Fatal(err)
	}
	b := appManPage(src, "v1.2.3", time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC))
	checkGzip9n(t, b)
	_, page := gunzip(t, b)
	if !strings.Contains(string(page), `.TH FIXPLAN 1 "2026-11-27" "fixplan v1.2.3" "User Commands"`) || strings.Contains(string(page), "${") {
		t.Errorf("the date and version are not filled in:\n%s", page)
	}
	manLint(t, page)
}

// manLint formats a page as lintian's manpage check does and fails on any warning.
func manLint(t *testing.T, page []byte) {
	t.Helper()
	man, err := exec.LookPath("man")
	if err != nil {
		t.Log("man is not installed: the page is not formatted")
		return
	}
	f := filepath.Join(t.TempDir(), "page.1")
	os.WriteFile(f, page, 0o644)
	cmd := exec.Command(man, "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", f)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "LC_ALL=C.UTF-8")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Errorf("man --warnings: %v\n%s", err, stderr.String())
	}
}
