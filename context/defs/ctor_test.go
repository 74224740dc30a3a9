package defs

import (
	"strings"
	"testing"
)

// A method called on an object constructed on the spot is that class's
// (Splitter().process: Splitter's process, not Joiner's), and a method of a
// class a package re-exports is found through the re-export (engine.Engine()
// is text/engine/core.py's Engine, whose run is shown).
func TestDefinitionsPythonConstructedOnTheSpot(t *testing.T) {
	root, problem := typedFixture(t, "pyctor")
	got := sectionsFor(t, root, problem, Request{})
	if !got.shows("text/engine/core.py", "return Splitter().process(sql)") {
		t.Errorf("Engine.run (of a re-exported class) not shown; sections:\n%s", got.titles())
	}
	s, ok := got.find("File text/engine/splitter.py", "definition of process")
	if !ok {
		t.Fatalf("Splitter.process not shown; sections:\n%s", got.titles())
	}
	if !strings.Contains(s.Sec.Body, `split(";")`) {
		t.Errorf("the process shown is not Splitter's:\n%s", s.Sec.Body)
	}
	if n := strings.Count(got.titles(), "definition of process"); n != 1 {
		t.Errorf("%d sections of a process, want Splitter's only; sections:\n%s", n, got.titles())
	}
}
