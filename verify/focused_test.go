//go:build !windows

// The table expects python3, which is what the commands name off Windows.

package verify

import (
	"testing"
)

func TestFocusedCommand(t *testing.T) {
	read := func(name string) string { return readOutput(t, name) }
	// The project's files, as the files callback sees them.
	project := map[string]bool{
		"calc": true, "calc/calc_test.go": true, "broken": true, "other": true,
		"internal/store": true, "internal/store/store_test.go": true, "main_test.go": true,
		"tests": true, "tests/test_calc.py": true, "tests/test_other.py": true, "test_calc.py": true,
		"pkg/__init__.py": true, "pkg/test_mod.py": true,
		"math.test.js": true, "test/api.test.mjs": true,
		"src/calc.test.js": true, "src/it's.test.js": true,
		"-rf.test.js": true,
	}
	files := func(rel string) bool { return project[rel] }
	tests := []struct {
		name, problem string
		want          string // "" means not recognised
	}{
		{name: "go test ./... picks the first failing package, frame confirms the folder",
			problem: read("go_multi.txt"), want: `go test -run '^(TestAdd|TestTable)$' ./calc`},
		{name: "go test -v", problem: read("go_verbose.txt"), want: `go test -run '^(TestAdd|TestTable)$' ./calc`},
		{name: "go subtest runs its top-level test",
			problem: "--- FAIL: TestTable (0.00s)\n    --- FAIL: TestTable/zero_case (0.00s)\n        calc_test.go:5: boom\nFAIL\nFAIL\texample.com/shop/calc\t0.003s\n",
			want:    `go test -run '^TestTable$' ./calc`},
		{name: "go nested package from the import path",
			problem: "--- FAIL: TestGet (0.00s)\n    store_test.go:20: got nil\nFAIL\nFAIL\tgithub.com/ana/shop/internal/store\t0.01s\n",
			want:    `go test -run '^TestGet$' ./internal/store`},
		{name: "go root package: the frame exists at the top",
			problem: "--- FAIL: TestMain2 (0.00s)\n    main_test.go:8: bad\nFAIL\nexit status 1\nFAIL\texample.com/tool\t0.002s\n",
			want:    `go test -run '^TestMain2$' .`},
		{name: "go frame with -fullpath of another machine",
			problem: "--- FAIL: TestGet (0.00s)\n    /home/bob/src/shop/internal/store/store_test.go:20: got nil\n",
			want:    `go test -run '^TestGet$' ./internal/store`},
		{name: "go package unknown: all packages, still only that test",
			problem: "--- FAIL: TestGhost (0.00s)\n    ghost_test.go:3: x\n", want: `go test -run '^TestGhost$' ./...`},
		{name: "go test name outside the safe charset is not used",
			problem: "--- FAIL: Test$(rm -rf ~) (0.00s)\n", want: ""},
		{name: "pytest short summary, two node ids", problem: read("pytest.txt"),
			want: `python3 -m pytest tests/test_calc.py::test_add tests/test_other.py::TestOther::test_thing tests/test_other.py::test_needs_db`},
		{name: "pytest parametrized id is quoted", problem: read("pytest_verbose.txt"),
			want: `python3 -m pytest tests/test_calc.py::test_add 'tests/test_calc.py::test_div[0-1]'`},
		{name: "pytest as the user ran it",
			problem: "$ pytest -q\nF\nFAILED tests/test_calc.py::test_add - assert 2 == 3\n",
			want:    `pytest tests/test_calc.py::test_add`},
		{name: "pytest path that is not in the project", problem: "FAILED tests/test_gone.py::test_x - assert 0\n", want: ""},
		{name: "pytest long traceback without the summary",
			problem: "___________ TestOther.test_thing ___________\n\nself = <x>\n\n    def test_thing(self):\n>       assert False\nE       assert False\n\ntests/test_other.py:11: AssertionError\n",
			want:    `python3 -m pytest tests/test_other.py::TestOther::test_thing`},
		{name: "python -m unittest", problem: read("unittest.txt"),
			want: `python3 -m unittest test_calc.TestCalc.test_err test_calc.TestCalc.test_add`},
		{name: "unittest in a package", problem: "FAIL: test_x (pkg.test_mod.TestMod.test_x)\n", want: `python3 -m unittest pkg.test_mod.TestMod.test_x`},
		{name: "plain traceback in a test file of another machine",
			problem: "Traceback (most recent call last):\n  File \"/home/bob/shop/tests/test_calc.py\", line 5, in test_add\n    assert add(1, 1) == 3\nAssertionError\n",
			want:    `python3 -m pytest tests/test_calc.py -k test_add`},
		{name: "node --test TAP", problem: read("node_tap.txt"), want: `node --test math.test.js`},
		{name: "node --test spec", problem: read("node_spec.txt"), want: `node --test math.test.js`},
		{name: "node file URL in a stack",
			problem: "✖ fetches users (3.1ms)\n  Error: 500\n      at TestContext.<anonymous> (file:///home/bob/app/test/api.test.mjs:12:9)\n",
			want:    `node --test test/api.test.mjs`},
		{name: "node path starting with a dash", problem: "not ok 1 - x\n  location: '/w/-rf.test.js:1:1'\n", want: `node --test ./-rf.test.js`},
		{name: "jest", problem: read("jest.txt"), want: `npx jest src/calc.test.js -t '^Calculator adds$'`},
		{name: "jest quote in a path and regex characters in a name",
			problem: " FAIL  src/it's.test.js\n  ● parser › handles (a+b)*c\n",
			want:    `npx jest 'src/it'\''s.test.js' -t '^parser handles \(a\+b\)\*c$'`},
		{name: "jest suite that does not load", problem: " FAIL  src/calc.test.js\n  ● Test suite failed to run\n\n    Cannot find module './calc'\n",
			want: `npx jest src/calc.test.js`},
		{name: "cargo", problem: read("cargo.txt"), want: `cargo test tests::it_adds -- --exact`},
		{name: "nothing known", problem: "Segmentation fault (core dumped)\n", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FocusedCommand(tt.problem, files)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("FocusedCommand:\n got %q (ok %v)\nwant %q", got, ok, tt.want)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"./calc", "./calc"},
		{"^TestX$", `'^TestX$'`},
		{"it's", `'it'\''s'`},
		{"a b", `'a b'`},
		{"$(reboot)", `'$(reboot)'`},
		{"", `''`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ShellQuote(tt.in); got != tt.want {
				t.Errorf("ShellQuote(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
