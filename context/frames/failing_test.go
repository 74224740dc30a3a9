package frames

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

func TestFailingTests(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []FailingTest
	}{
		{"go test", "--- FAIL: TestAdd (0.00s)\n    calc_test.go:12: bad\n--- FAIL: TestSub (0.00s)", []FailingTest{{Name: "TestAdd"}, {Name: "TestSub"}}},
		{"pytest node id", "FAILED tests/test_cart.py::test_discount - assert 100 == 90", []FailingTest{{Name: "test_discount", File: "tests/test_cart.py"}}},
		{"pytest class node id", "FAILED tests/test_parser.py::TestParser::test_nested - E", []FailingTest{{Name: "test_nested", File: "tests/test_parser.py"}}},
		{"unittest", "FAIL: test_upper (test_strings.StringTests)\n", []FailingTest{{Name: "test_upper"}}},
		{"gradle", "CalculatorTest > dividesByZero() FAILED", []FailingTest{{Name: "dividesByZero", File: "CalculatorTest.java"}}},
		{"junit4", "testDivide(com.acme.CalcTest)  Time elapsed: 0.01 sec  <<< FAILURE!", []FailingTest{{Name: "testDivide", File: "CalcTest.java"}}},
		{"phrase go", "TestParse fails since yesterday", []FailingTest{{Name: "TestParse"}}},
		{"phrase python", "test_login failed on CI but passes locally", []FailingTest{{Name: "test_login"}}},
		{"phrase still failing", "test_checkout is failing again", []FailingTest{{Name: "test_checkout"}}},
		{"FAIL colon", "FAIL: TestServer_Get", []FailingTest{{Name: "TestServer_Get"}}},
		{"cargo test", "test tests::overflow ... FAILED\ntest tests::adds ... ok\n", []FailingTest{{Name: "overflow"}}},
		{"pytest setup error", "_ ERROR at setup of test_upload_file _", []FailingTest{{Name: "test_upload_file"}}},
		{"jest title", "  ● Cart › totals › applies discount\n\n    expect(received)", []FailingTest{{Name: "applies discount"}}},
		{"plain words are not tests", "the tests failed and testing fails", nil},
		{"duplicates merged, file kept", "test_a failed\nFAILED t/test_x.py::test_a", []FailingTest{{Name: "test_a", File: "t/test_x.py"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FailingTests(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("FailingTests = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestModuleUnderTest(t *testing.T) {
	tests := []struct {
		in   string
		want string // first candidate
	}{
		{"calc/calc_test.go", "calc/calc.go"},
		{"tests/test_calc.py", "tests/calc.py"},
		{"pkg/calc_test.py", "pkg/calc.py"},
		{"src/cart.test.ts", "src/cart.ts"},
		{"src/cart.spec.js", "src/cart.js"},
		{"src/test/java/com/a/CalcTest.java", "src/main/java/com/a/Calc.java"},
		{"src/test/kotlin/ParserTests.kt", "src/main/kotlin/Parser.kt"},
		{"spec/user_spec.rb", "spec/user.rb"},
		{"README.md", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := ModuleUnderTest(tt.in)
			first := ""
			if len(got) > 0 {
				first = got[0]
			}
			if first != tt.want {
				t.Errorf("ModuleUnderTest(%q) = %v, want first %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFindDefinition(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"calc/calc.go":          "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
		"calc/calc_test.go":     "package calc\n\nimport \"testing\"\n\n// TestAdd checks Add.\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
		"docs/notes.md":         "TestAdd fails sometimes\n",
		"tests/test_cart.py":    "def helper():\n    pass\n\ndef test_discount():\n    assert False\n",
		"other/test_cart.py":    "def test_discount():\n    pass\n",
		"app/CalcTest.java":     "class CalcTest {\n  @Test\n  public void dividesByZero() {\n  }\n}\n",
		"web/cart.test.ts":      "test('x', () => {})\nfunction testTotals() {}\ndescribe('Cart', () => {\n  it(\"applies discount\", () => {})\n})\n",
		"web/cart.ts":           "// applies discount\n",
		"src/lib.rs":            "#[test]\nfn overflow() {\n}\n",
		"unrelated/TestAdd.txt": "TestAdd\n",
		// the file the output names holds no definition: found elsewhere
		"tests/test_empty.py": "# test_moved lives in test_moved.py\n",
		"tests/test_moved.py": "def test_moved():\n    pass\n",
		// the file named does not look like a test file: a test-looking file
		// of the same name elsewhere scores as much, and comes first by path
		"lib/sums.py":      "def check_sum():\n    pass\n",
		"a/test/sums.py":   "def check_sum():\n    pass\n",
		"lib/test_sums.py": "def check_sum():\n    pass\n",
	})
	g := NewResolver(projfstest.Open(t, root, projfs.Options{}).Tree(projfs.TreeOptions{}))
	tests := []struct {
		t        FailingTest
		file     string
		line     int
		notFound bool
	}{
		{FailingTest{Name: "TestAdd"}, "calc/calc_test.go", 6, false},
		{FailingTest{Name: "test_discount", File: "tests/test_cart.py"}, "tests/test_cart.py", 4, false},
		{FailingTest{Name: "dividesByZero", File: "CalcTest.java"}, "app/CalcTest.java", 3, false},
		{FailingTest{Name: "testTotals"}, "web/cart.test.ts", 2, false},
		{FailingTest{Name: "applies discount"}, "web/cart.test.ts", 4, false},
		{FailingTest{Name: "overflow"}, "src/lib.rs", 2, false},
		{FailingTest{Name: "TestMissing"}, "", 0, true},
		{FailingTest{Name: "test_moved", File: "tests/test_empty.py"}, "tests/test_moved.py", 1, false},
		{FailingTest{Name: "check_sum", File: "lib/sums.py"}, "a/test/sums.py", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.t.Name, func(t *testing.T) {
			d, ok := g.findDefinition(context.Background(), tt.t)
			if ok == tt.notFound || d.File != tt.file || d.Line != tt.line {
				t.Errorf("findDefinition(%+v) = %+v, %v; want %s:%d", tt.t, d, ok, tt.file, tt.line)
			}
		})
	}
}

// TestFailingTestsRunners finds the failing tests in each runner's usual output
// (the traces under testdata/traces): go test -json (joined per test, parallel
// subtests interleaved), pytest -rA and -v (PASSED/SKIPPED node ids are not
// failures; the headers of the PASSES section neither), Jest and Vitest summaries
// (the ✕/× rows take the file of their FAIL header).
func TestFailingTestsRunners(t *testing.T) {
	tests := []struct {
		file string
		want []FailingTest
	}{
		{"gotestjson_1_fail.txt", []FailingTest{{Name: "TestAdd"}}},
		{"gotestjson_2_parallel.txt", []FailingTest{{Name: "TestDiv"}}},
		{"gotestjson_4_panic.txt", []FailingTest{{Name: "TestCartAdd"}}},
		{"gotestjson_5_testify_windows.txt", []FailingTest{{Name: "TestTotal"}}},
		{"make_5_gotest.txt", []FailingTest{{Name: "TestAdd"}}},
		{"pytest_6_ra.txt", []FailingTest{{Name: "test_checkout_db", File: "tests/test_cart.py"}, {Name: "test_discount", File: "tests/test_cart.py"}}},
		{"pytest_7_verbose.txt", []FailingTest{{Name: "test_vat", File: "tests/test_price.py"}}},
		{"jest_1_summary.txt", []FailingTest{{Name: "applies discount", File: "src/cart.test.ts"}}},
		{"jest_2_all_failing.txt", []FailingTest{{Name: "retries on 503", File: "src/api/client.test.js"}}},
		{"jest_3_suite_failed.txt", nil},
		{"jest_4_windows.txt", []FailingTest{{Name: "shows the total", File: "src/components/Cart.test.tsx"}}},
		{"jest_5_vitest.txt", []FailingTest{{Name: "applies discount", File: "src/cart.test.ts"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "traces", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := FailingTests(string(b)); !slices.Equal(got, tt.want) {
				t.Errorf("FailingTests = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestExpandGoTestJSON(t *testing.T) {
	in := `{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"p","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:3: bad\n"}
not json: kept in place
{"Action":"output","Package":"p","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestB","Output":"--- PASS: TestB (0.00s)\n"}
`
	want := "=== RUN   TestA\n    a_test.go:3: bad\n--- FAIL: TestA (0.00s)\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nnot json: kept in place\n\n"
	if got := expandGoTestJSON(in); got != want {
		t.Errorf("expandGoTestJSON =\n%q\nwant\n%q", got, want)
	}
	if plain := "--- FAIL: TestX\n"; expandGoTestJSON(plain) != plain {
		t.Error("text without events must stay as it is")
	}
}

// Output naming thousands of failing tests, two formats interleaved (a go
// test's --- FAIL lines and pytest's node ids): the names come back in order of
// appearance, each once (the hits of each format were merged by an insertion
// sort, quadratic in the hits: seconds for a pasted 1 MB log).
func TestFailingTestsManyInterleaved(t *testing.T) {
	const n = 20000
	var b strings.Builder
	var want []FailingTest
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, "--- FAIL: TestGo%d (0.00s)\n", i)
			want = append(want, FailingTest{Name: fmt.Sprintf("TestGo%d", i)})
		} else {
			fmt.Fprintf(&b, "FAILED tests/test_x.py::test_py%d - assert 1 == 2\n", i)
			want = append(want, FailingTest{Name: fmt.Sprintf("test_py%d", i), File: "tests/test_x.py"})
		}
	}
	if got := FailingTests(b.String()); !slices.Equal(got, want) {
		t.Errorf("FailingTests of %d interleaved failures: %d names, want %d in order of appearance", n, len(got), len(want))
	}
}

func BenchmarkFailingTestsManyInterleaved(b *testing.B) {
	var s strings.Builder
	for i := range 20000 {
		if i%2 == 0 {
			fmt.Fprintf(&s, "--- FAIL: TestGo%d (0.00s)\n", i)
		} else {
			fmt.Fprintf(&s, "FAILED tests/test_x.py::test_py%d - assert 1 == 2\n", i)
		}
	}
	text := s.String()
	for b.Loop() {
		FailingTests(text)
	}
}
