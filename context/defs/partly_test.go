package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/context/section"
	"fixplan/internal/testtree"
	"fixplan/plan"
)

// A definition an earlier section shows in part (here: its first 40 lines, as
// the window around a frame would) is shown as the rest of its lines, with a
// line saying where the others are — not all of them again.
func TestDefinitionsPartlyShownShowTheRest(t *testing.T) {
	var b strings.Builder
	b.WriteString("package conf\n\n// Parse reads the settings.\nfunc Parse(lines []string) int {\n\tn := 0\n")
	for i := range 60 {
		fmt.Fprintf(&b, "\tif len(lines) > %d {\n\t\tn += %d\n\t}\n", i, i)
	}
	b.WriteString("\treturn n\n}\n")
	src := b.String()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":       "module example.com/conf\n\ngo 1.22\n",
		"conf.go":      src,
		"conf_test.go": "package conf\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tif Parse(nil) != 1 {\n\t\tt.Fatal(\"Parse(nil) != 1\")\n\t}\n}\n",
	})
	problem := "--- FAIL: TestParse (0.00s)\n    conf_test.go:7: Parse(nil) != 1\nFAIL\nFAIL\texample.com/conf\t0.002s\n"
	lines := strings.Split(src, "\n")
	got := sectionsFor(t, root, problem, Request{Have: []section.Candidate{{
		Sec:  plan.Section{Title: "File conf.go lines 1-40 of 186 (around the stack frames)", Body: section.Numbered(lines, 1, 40)},
		Seen: &plan.SeenFile{Path: "conf.go"},
	}}})
	s, ok := got.find("File conf.go", "definition of Parse")
	if !ok {
		t.Fatalf("Parse not shown; sections:\n%s", got.titles())
	}
	if strings.Contains(s.Sec.Body, "\n5 | ") || !strings.Contains(s.Sec.Body, "41 | ") || !strings.Contains(s.Sec.Title, "those the sections above do not show") {
		t.Errorf("Parse's section repeats the lines shown above, or does not say it leaves them out: %s\n%s", s.Sec.Title, s.Sec.Body)
	}
}
