package defs

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
)

// longParse is a 232-line Go function whose error message is written near its
// end (at the call of validKey), in a module with a test that fails on it.
func longParse(t *testing.T) (root, src, problem string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("package conf\n\nimport \"fmt\"\n\n// Parse reads the settings, one a line.\nfunc Parse(lines []string) (map[string]string, error) {\n\tout := map[string]string{}\n\tfor i, l := range lines {\n\t\tswitch {\n")
	for i := range 110 {
		fmt.Fprintf(&b, "\t\tcase l == %q:\n\t\t\tout[%q] = \"on\"\n", fmt.Sprint("flag", i), fmt.Sprint("flag", i))
	}
	b.WriteString("\t\tdefault:\n\t\t\tif !validKey(l) {\n\t\t\t\treturn nil, fmt.Errorf(\"line %d: not a known setting: %s\", i+1, l)\n\t\t\t}\n\t\t}\n\t}\n\treturn out, nil\n}\n\n// validKey reports whether l is key=value.\nfunc validKey(l string) bool {\n\treturn len(l) > 100\n}\n")
	src = b.String()
	root = t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":  "module example.com/conf\n\ngo 1.22\n",
		"conf.go": src,
		"conf_test.go": `package conf

import "testing"

func TestParseKeyValue(t *testing.T) {
	if _, err := Parse([]string{"name=x"}); err != nil {
		t.Fatalf("Parse: %v", err)
	}
}
`,
	})
	problem = "--- FAIL: TestParseKeyValue (0.00s)\n    conf_test.go:7: Parse: line 1: not a known setting: name=x\nFAIL\nFAIL\texample.com/conf\t0.002s\n"
	return root, src, problem
}

// A 232-line function whose failing message is written near its end, when the
// definitions' room is short (it would take more than half of it): its
// section shows the head, the lines that write the message and call the next
// definition, and says which lines it leaves out, instead of its first 100
// lines.
func TestDefinitionsGoLongFunctionShowsWhatMatters(t *testing.T) {
	root, src, problem := longParse(t)
	got := sectionsFor(t, root, problem, Request{MaxResultBytes: 6000, MaxTotalBytes: 12000})
	s, ok := got.find("File conf.go", "definition of Parse")
	if !ok {
		t.Fatalf("Parse not shown; sections:\n%s", got.titles())
	}
	lines := strings.Split(src, "\n")
	msgLine, callLine := 0, 0
	for i, l := range lines {
		if strings.Contains(l, "not a known setting") {
			msgLine = i + 1
		}
		if strings.Contains(l, "!validKey(l)") {
			callLine = i + 1
		}
	}
	for _, want := range []string{
		"6 | func Parse(lines []string) (map[string]string, error) {",
		fmt.Sprintf("%d | %s", msgLine, lines[msgLine-1]),
		fmt.Sprintf("%d | %s", callLine, lines[callLine-1]),
	} {
		if !strings.Contains(s.Sec.Body, want) {
			t.Errorf("Parse's section lacks %q:\n%s", want, s.Sec.Body)
		}
	}
	if !strings.Contains(s.Sec.Body, "left out") || !strings.Contains(s.Sec.Title, "lines of") {
		t.Errorf("Parse's section does not say what it leaves out: %s\n%s", s.Sec.Title, s.Sec.Body)
	}
}

// With room for it (at most half of what is left of the definitions' budget),
// the long function is shown whole — the line of a real fix can be anywhere in
// it.
func TestDefinitionsGoLongFunctionWholeWhenItFits(t *testing.T) {
	root, src, problem := longParse(t)
	got := sectionsFor(t, root, problem, Request{})
	s, ok := got.find("File conf.go", "definition of Parse")
	if !ok {
		t.Fatalf("Parse not shown; sections:\n%s", got.titles())
	}
	lines := strings.Split(src, "\n")
	for n := 5; n <= 237; n++ {
		if want := fmt.Sprintf("%d | %s", n, lines[n-1]); !strings.Contains(s.Sec.Body, want) {
			t.Fatalf("Parse's section lacks line %d %q:\n%s", n, lines[n-1], s.Sec.Body)
		}
	}
	if strings.Contains(s.Sec.Body, "left out") || strings.Contains(s.Sec.Title, "lines of 2") {
		t.Errorf("Parse shown in parts although it fits: %s", s.Sec.Title)
	}
}

// A test that builds a value of a 200-line struct type and a 150-line
// function: the struct is shown as its head and the fields the test sets
// (Retry, Name), saying so, not whole, with the type of Retry but not the
// types of the fields it does not show; the long function is still shown
// whole.
func TestDefinitionsGoLongTypeShowsTheFieldsUsed(t *testing.T) {
	var b strings.Builder
	b.WriteString("package srv\n\n// Server is a server.\ntype Server struct {\n")
	for i := range 60 {
		fmt.Fprintf(&b, "\t// Opt%d is option %d.\n\tOpt%d int\n\n", i, i, i)
		if i == 10 {
			b.WriteString("\t// Extras are more options.\n\tExtras Extra\n\n")
		}
		if i == 40 {
			b.WriteString("\t// Retry is how many times a request is sent again.\n\tRetry Count\n\n")
		}
	}
	b.WriteString("\t// Name is the server's name.\n\tName string\n}\n\n// Start starts s.\nfunc Start(s *Server) int {\n\tn := 0\n")
	for i := range 150 {
		fmt.Fprintf(&b, "\tn += s.Opt%d\n", i%60)
	}
	b.WriteString("\treturn n + int(s.Retry)\n}\n\n// Count is a number of times.\ntype Count int\n\n// Extra are more options.\ntype Extra struct{ A int }\n")
	src := b.String()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod": "module example.com/srv\n\ngo 1.22\n",
		"srv.go": src,
		"srv_test.go": `package srv

import "testing"

func TestStart(t *testing.T) {
	s := &Server{Retry: 2, Name: "a"}
	if n := Start(s); n != 2 {
		t.Fatalf("Start = %d", n)
	}
}
`,
	})
	problem := "--- FAIL: TestStart (0.00s)\n    srv_test.go:8: Start = 3\nFAIL\nFAIL\texample.com/srv\t0.002s\n"
	got := sectionsFor(t, root, problem, Request{})
	s, ok := got.find("File srv.go", "definition of Server")
	if !ok {
		t.Fatalf("Server not shown; sections:\n%s", got.titles())
	}
	if !strings.Contains(s.Sec.Title, "the head and the fields the failing lines name") {
		t.Errorf("the long struct's section does not say it shows the fields the test names: %s", s.Sec.Title)
	}
	for _, want := range []string{"| type Server struct {", "| \tRetry Count", "| \tName string", "| \t// Retry is how many times"} {
		if !strings.Contains(s.Sec.Body, want) {
			t.Errorf("Server's section lacks %q:\n%s", want, s.Sec.Body)
		}
	}
	if strings.Contains(s.Sec.Body, "\tOpt20 int") {
		t.Errorf("Server's section shows a field no failing line names:\n%s", s.Sec.Body)
	}
	if _, ok := got.find("definition of Count"); !ok {
		t.Errorf("the type of a field the test sets is not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("definition of Extra"); ok {
		t.Errorf("the type of a field the struct's section does not show is shown; sections:\n%s", got.titles())
	}
	if f, ok := got.find("File srv.go", "definition of Start"); !ok || strings.Contains(f.Sec.Title, "lines of") {
		t.Errorf("the long function Start is not shown whole; sections:\n%s", got.titles())
	}
}

// A long Python function that raises the error the failure prints unquoted
// (a traceback's last line) from an f-string, when the definitions' room is
// short: its section shows the raise among the lines that matter.
func TestDefinitionsPythonLongFunctionShowsTheRaise(t *testing.T) {
	var b strings.Builder
	b.WriteString("def parse(text):\n    total = 0\n")
	for i := range 120 {
		fmt.Fprintf(&b, "    if text == 'unit%d':\n        total += %d\n", i, i)
	}
	b.WriteString("    unit = text.split()[-1]\n    if unit not in ('s', 'm'):\n        raise ValueError(f'unknown unit {unit!r} in the duration')\n    return total\n")
	src := b.String()
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"durations/__init__.py": "",
		"durations/parse.py":    src,
		"tests/__init__.py":     "",
		"tests/test_parse.py":   "from durations.parse import parse\n\n\ndef test_parse():\n    assert parse('3 s') == 3\n",
	})
	problem := "    def test_parse():\n>       assert parse('3 s') == 3\nE   ValueError: unknown unit 's' in the duration\n\n" +
		"tests/test_parse.py:5: ValueError\nFAILED tests/test_parse.py::test_parse - ValueError: unknown unit 's' in the duration\n"
	got := sectionsFor(t, root, problem, Request{MaxResultBytes: 3000, MaxTotalBytes: 7000})
	s, ok := got.find("File durations/parse.py", "definition of parse", "lines of")
	if !ok {
		t.Fatalf("parse not shown in part; sections:\n%s", got.titles())
	}
	if !strings.Contains(s.Sec.Body, "raise ValueError(f'unknown unit {unit!r} in the duration')") {
		t.Errorf("parse's section lacks the raise of the failure's message:\n%s", s.Sec.Body)
	}
}
