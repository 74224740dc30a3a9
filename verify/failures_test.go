package verify

import (
	"slices"
	"testing"
)

// The outputs under testdata/outputs are real (go test, python3 -m unittest,
// node --test with both reporters, made on this machine) or copied in the
// runners' exact formats (pytest, jest, cargo).
func TestParseFailures(t *testing.T) {
	tests := []struct {
		name    string
		file    string // under testdata/outputs, or "" for text
		text    string
		formats []string
		want    []string
	}{
		{name: "go test ./... with a build failure and subtests", file: "go_multi.txt", formats: []string{"go"},
			want: []string{"example.com/shop/broken [build failed]", "example.com/shop/calc.TestAdd",
				"example.com/shop/calc.TestTable", "example.com/shop/calc.TestTable/zero_case"}},
		{name: "go test -v", file: "go_verbose.txt", formats: []string{"go"},
			want: []string{"example.com/shop/calc.TestAdd", "example.com/shop/calc.TestTable", "example.com/shop/calc.TestTable/zero_case"}},
		{name: "go test in a package folder", text: "--- FAIL: TestAdd (0.00s)\n    calc_test.go:3: no\nFAIL\nexit status 1\nFAIL\texample.com/calc\t0.002s\n",
			formats: []string{"go"}, want: []string{"example.com/calc.TestAdd"}},
		{name: "go test timeout panic names the package", text: "panic: test timed out after 1s\n\trunning tests:\n\t\tTestSleep (1s)\n\ngoroutine 1 [running]:\nFAIL\texample.com/slow\t1.012s\nFAIL\n",
			formats: []string{"go"}, want: []string{"example.com/slow"}},
		{name: "go output cut before the package line", text: "--- FAIL: TestX (0.01s)\n    x_test.go:9: bad\n",
			formats: []string{"go"}, want: []string{"TestX"}},
		{name: "pytest short summary", file: "pytest.txt", formats: []string{"pytest"},
			want: []string{"tests/test_calc.py::test_add", "tests/test_other.py::TestOther::test_thing", "tests/test_other.py::test_needs_db"}},
		{name: "pytest verbose lines", file: "pytest_verbose.txt", formats: []string{"pytest"},
			want: []string{"tests/test_calc.py::test_add", "tests/test_calc.py::test_div[0-1]"}},
		{name: "pytest collection error", text: "=========== short test summary info ===========\nERROR tests/test_x.py - ModuleNotFoundError: No module named 'shop'\n!!!!!!! Interrupted: 1 error during collection !!!!!!!\n",
			formats: []string{"pytest"}, want: []string{"tests/test_x.py"}},
		{name: "python -m unittest", file: "unittest.txt", formats: []string{"unittest"},
			want: []string{"test_calc.TestCalc.test_err", "test_calc.TestCalc.test_add"}},
		{name: "unittest before 3.11", text: "FAIL: test_add (test_calc.TestCalc)\n----\nTraceback (most recent call last):\n",
			formats: []string{"unittest"}, want: []string{"test_calc.TestCalc.test_add"}},
		{name: "node --test TAP", file: "node_tap.txt", formats: []string{"node"},
			want: []string{"adds numbers", "group > inner fails", "group", "Suite A > does x", "Suite A"}},
		{name: "node --test spec, recap not read twice", file: "node_spec.txt", formats: []string{"node"},
			want: []string{"adds numbers", "group > inner fails", "group", "Suite A > does x", "Suite A"}},
		{name: "TAP todo and skip do not fail", text: "TAP version 13\nnot ok 1 - later # TODO not yet\nnot ok 2 - flaky # SKIP\nnot ok 3 - real\n",
			formats: []string{"node"}, want: []string{"real"}},
		{name: "jest", file: "jest.txt", formats: []string{"jest"},
			want: []string{"src/calc.test.js › Calculator › adds", "src/calc.test.js › top level"}},
		{name: "vitest summary", text: " FAIL  src/calc.test.ts > Calculator > adds\nAssertionError: expected 2 to be 3\n",
			formats: []string{"jest"}, want: []string{"src/calc.test.ts › Calculator › adds"}},
		{name: "cargo test", file: "cargo.txt", formats: []string{"cargo"},
			want: []string{"tests::it_adds", "tests::nested::it_divides"}},
		{name: "cargo compile error", file: "cargo_compile.txt", formats: []string{"cargo"},
			want: []string{"could not compile shop"}},
		{name: "colours are ignored", text: "\x1b[31m--- FAIL: TestX (0.00s)\x1b[0m\r\nFAIL\tm/p\t0.1s\r\n",
			formats: []string{"go"}, want: []string{"m/p.TestX"}},
		{name: "unknown format", text: "make: *** [Makefile:3: test] Error 2\n"},
		{name: "passing go test", text: "ok  \texample.com/calc\t0.002s\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.text
			if tt.file != "" {
				text = readOutput(t, tt.file)
			}
			got := ParseFailures(text)
			if !slices.Equal(got.Names, tt.want) {
				t.Errorf("names:\n got %q\nwant %q", got.Names, tt.want)
			}
			if !slices.Equal(got.Formats, tt.formats) {
				t.Errorf("formats: got %q, want %q", got.Formats, tt.formats)
			}
		})
	}
}

func TestNewFailures(t *testing.T) {
	tests := []struct {
		name          string
		after, before []string
		want          []string
	}{
		{"none before", []string{"a", "b"}, nil, []string{"a", "b"}},
		{"same", []string{"a"}, []string{"a"}, nil},
		{"one new, one fixed", []string{"a", "c"}, []string{"a", "b"}, []string{"c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := newFailures(tt.after, tt.before); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
