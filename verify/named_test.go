package verify

import (
	"slices"
	"testing"
)

func TestSameTest(t *testing.T) {
	same := [][2]string{
		{"m/p.TestX", "m/p.TestX"},
		{"TestX", "m/p.TestX"},                                    // the problem lacked the package line
		{"m/p.TestX/sub", "TestX/sub"},                            // a subtest, same parent
		{"/home/u/proj/tests/t.py::test_y", "tests/t.py::test_y"}, // another machine's folder
		{"tests::it_adds", "it_adds"},                             // cargo module path
		{"src/a.test.js › Suite › adds", "Suite › adds"},
	}
	for _, p := range same {
		if !sameTest(p[0], p[1]) || !sameTest(p[1], p[0]) {
			t.Errorf("%q and %q are the same test", p[0], p[1])
		}
	}
	other := [][2]string{
		{"m/p.TestMean", "m/p.TestMeanNaN"},
		{"TestX", "m/p.TestA/TestX"}, // a subtest named like another test
		{"TestX", "m/p.NotTestX"},
		{"m/p.TestX", "m/q.TestX"},
		{"t.py::test_y", "t.py::test_y2"},
	}
	for _, p := range other {
		if sameTest(p[0], p[1]) || sameTest(p[1], p[0]) {
			t.Errorf("%q and %q are different tests", p[0], p[1])
		}
	}
}

// Named tests are found failing or passing in real outputs, and a test the
// output does not show is in neither list.
func TestLookupNamed(t *testing.T) {
	read := func(name string) string { return readOutput(t, name) }
	tests := []struct {
		name             string
		output           string
		named            []string
		failing, passing []string
	}{
		{"go test ./...: failing, in a passing package, not run", read("go_multi.txt"),
			[]string{"example.com/shop/calc.TestAdd", "example.com/shop/other.TestOther", "TestTable", "example.com/shop/absent.TestA", "example.com/shop/broken [build failed]"},
			[]string{"example.com/shop/calc.TestAdd", "TestTable", "example.com/shop/broken [build failed]"}, []string{"example.com/shop/other.TestOther"}},
		{"go test -v: a passing subtest of a failing test", read("go_verbose.txt"),
			[]string{"example.com/shop/calc.TestTable/ok", "TestTable/zero_case", "example.com/shop/calc.TestOther"},
			[]string{"TestTable/zero_case"}, []string{"example.com/shop/calc.TestTable/ok"}},
		{"go test, the package passes", "ok  \texample.com/stats\t0.003s\n",
			[]string{"example.com/stats.TestMean", "example.com/stats.TestMean/empty", "example.com/stats/sub.TestMean", "TestMean"},
			nil, []string{"example.com/stats.TestMean", "example.com/stats.TestMean/empty"}},
		{"pytest -v", read("pytest_verbose.txt"),
			[]string{"/ci/build/tests/test_calc.py::test_add", "tests/test_calc.py::test_sub", "tests/test_calc.py::test_mul"},
			[]string{"/ci/build/tests/test_calc.py::test_add"}, []string{"tests/test_calc.py::test_sub"}},
		{"unittest -v", "test_add (test_calc.TestCalc.test_add) ... ok\ntest_err (test_calc.TestCalc) ... ok\n",
			[]string{"test_calc.TestCalc.test_add", "test_calc.TestCalc.test_err", "test_calc.TestCalc.test_div"},
			nil, []string{"test_calc.TestCalc.test_add", "test_calc.TestCalc.test_err"}},
		{"cargo test", read("cargo.txt"),
			[]string{"tests::it_adds", "tests::it_subtracts"}, []string{"tests::it_adds"}, []string{"tests::it_subtracts"}},
		{"no named tests", read("go_multi.txt"), nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failing, passing := lookupNamed(tt.named, ParseFailures(tt.output).Names, tt.output)
			if !slices.Equal(failing, tt.failing) || !slices.Equal(passing, tt.passing) {
				t.Errorf("failing %q passing %q, want %q %q", failing, passing, tt.failing, tt.passing)
			}
		})
	}
}

func TestNamedTests(t *testing.T) {
	problem := "$ go test ./...\n--- FAIL: TestMean (0.00s)\n    mean_test.go:9: Mean([1 2 3]) = 3, want 2\nFAIL\nFAIL\texample.com/stats\t0.002s\nFAIL\n"
	if got := NamedTests(problem); !slices.Equal(got, []string{"example.com/stats.TestMean"}) {
		t.Errorf("NamedTests = %q", got)
	}
	if got := NamedTests("panic: runtime error: index out of range\n"); len(got) != 0 {
		t.Errorf("NamedTests of a panic = %q", got)
	}
	var many string
	for i := range 60 {
		many += "FAILED tests/test_x.py::test_" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "\n"
	}
	if got := NamedTests(many); len(got) != maxNamed {
		t.Errorf("%d named tests, want at most %d", len(got), maxNamed)
	}
}
