package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStartTraceLogsEachMarkOnceAndOnlyWellFormedPageMarks(t *testing.T) {
	var out strings.Builder
	begun := time.Now().Add(-50 * time.Millisecond)
	tr := NewStartTrace(&out, begun)
	tr.Mark("main")
	tr.Mark("main")
	now := float64(time.Now().UnixMicro()) / 1000
	tr.FromPage(map[string]any{"mark": "fix-painted", "unix_ms": now})
	tr.FromPage(map[string]any{"mark": "fix-painted", "unix_ms": now + 5})
	for _, bad := range []any{
		"fix-painted",
		map[string]any{"mark": "Fix painted\nfixplan-trace: forged", "unix_ms": now},
		map[string]any{"mark": strings.Repeat("a", 33), "unix_ms": now},
		map[string]any{"mark": "script"},
		map[string]any{"mark": "script", "unix_ms": now - 2*3600*1000},
	} {
		tr.FromPage(bad)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "fixplan-trace: main +") || !strings.HasPrefix(lines[1], "fixplan-trace: page-fix-painted +") {
		t.Fatalf("trace =\n%s", out.String())
	}
	if !strings.Contains(lines[1], " unix_ns=") || strings.Contains(lines[1], "+-") {
		t.Fatalf("the page's mark should carry its wall-clock time after main began: %s", lines[1])
	}

	var none *StartTrace // FIXPLAN_TRACE_START unset: the calls stay in place and do nothing
	none.Mark("main")
	none.FromPage(map[string]any{"mark": "script", "unix_ms": now})
	none.Listen(nil)
}

// The page asks for the project as soon as it runs, which can be before Wails has
// run Start (it runs beside the window's creation): it must still get the start-up
// project with its recovery notices, not "no project".
func TestProjectWaitsForTheStartUpProject(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "calc.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cfg := t.TempDir()
	a := New(Deps{Keys: &fakeKeys{}, ConfigDir: cfg, UserPrefs: filepath.Join(cfg, "prefs.json"), StartProject: root,
		Getenv: func(string) string { return "" }, Trace: NewStartTrace(&out, time.Now())})
	got := make(chan *ProjectInfo)
	go func() {
		p, err := a.Project()
		if err != nil {
			t.Error(err)
		}
		got <- p
	}()
	Start(a, &fakeRuntime{dir: root})
	t.Cleanup(func() { Stop(a) })
	p := <-got
	if p == nil || p.Root != root {
		t.Fatalf("Project before Start finished = %+v, want the start-up project %s", p, root)
	}
	if !strings.Contains(out.String(), "fixplan-trace: startup ") || !strings.Contains(out.String(), "fixplan-trace: project-open ") {
		t.Fatalf("trace =\n%s", out.String())
	}
}
