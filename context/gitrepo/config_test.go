package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseGitConfig checks the port of git's config parser on the forms a
// hostile config could hide a key in, and that it reads the same keys as git
// itself (`git config --file F --list --name-only -z`, which runs nothing) — or
// fails where git fails. stricter marks configs git accepts and the port
// refuses (refusing only means git is not run).
func TestParseGitConfig(t *testing.T) {
	tests := []struct {
		name     string
		config   string
		programs []string // nil: none
		bad      bool     // the port refuses it
		stricter bool     // git accepts it
	}{
		{name: "git init's config", config: "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n" +
			"[remote \"origin\"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"},
		{name: "fsmonitor", config: "[core]\n\tfsmonitor = .git/hooks/fsmonitor-watchman\n", programs: []string{"core.fsmonitor"}},
		{name: "case-insensitive section and key, no value", config: "[CoRe]\n\tFSMonitor\n", programs: []string{"core.fsmonitor"}},
		{name: "key on the header's line", config: "[core] fsmonitor = x\n", programs: []string{"core.fsmonitor"}},
		{name: "header and key without spaces", config: "[core]fsmonitor=x", programs: []string{"core.fsmonitor"}},
		{name: "CRLF", config: "[core]\r\n\tfsmonitor = x\r\n", programs: []string{"core.fsmonitor"}},
		{name: "BOM", config: "\xef\xbb\xbf[core]\n\tfsmonitor = x\n", programs: []string{"core.fsmonitor"}},
		{name: "filter subsection", config: "[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tsmudge = x\n\tprocess = y\n\trequired = true\n",
			programs: []string{"filter.*.clean", "filter.*.process", "filter.*.required", "filter.*.smudge"}},
		{name: "filter, old subsection form", config: "[filter.X]\n\tclean = x\n", programs: []string{"filter.*.clean"}},
		{name: "quoted subsection with escapes", config: "[filter \"a\\\"b]\\\\\"]\n\tclean = x\n", programs: []string{"filter.*.clean"}},
		{name: "diff drivers", config: "[diff]\n\texternal = x\n[diff \"pdf\"]\n\ttextconv = x\n\tcommand = y\n",
			programs: []string{"diff.*.command", "diff.*.textconv", "diff.external"}},
		{name: "includes", config: "[include]\n\tpath = ../x\n[includeIf \"gitdir:/\"]\n\tpath = /y\n", programs: []string{"include.path", "includeif.*.path"}},
		{name: "programs of core", config: "[core]\n\thooksPath = h\n\tpager = p\n\tsshCommand = s\n\taskPass = a\n\teditor = e\n\tgitProxy = g\n\talternateRefsCommand = c\n",
			programs: []string{"core.alternaterefscommand", "core.askpass", "core.editor", "core.gitproxy", "core.hookspath", "core.pager", "core.sshcommand"}},
		{name: "credential helper for a URL", config: "[credential \"https://x\"]\n\thelper = !evil\n", programs: []string{"credential.*.helper"}},
		{name: "others", config: "[gpg]\n\tprogram = g\n[merge \"m\"]\n\tdriver = d\n[pager]\n\tstatus = p\n[hook \"h\"]\n\tcommand = c\n[url \"ext::sh -c x\"]\n\tinsteadOf = https://\n[protocol \"ext\"]\n\tallow = always\n",
			programs: []string{"gpg.program", "hook.*.command", "merge.*.driver", "pager.status", "protocol.*.allow", "url.*.insteadof"}},
		{name: "aliases and submodules only with a shell command", config: "[alias]\n\tst = status\n\tx = \" !sh\"\n[submodule \"a\"]\n\tpath = a\n\tupdate = checkout\n[submodule \"b\"]\n\tupdate = !sh\n[color]\n\tpager = false\n",
			programs: []string{"alias.x", "submodule.*.update"}},
		{name: "comment lines", config: "# [core] fsmonitor = x\n; fsmonitor = y\n[core]\n\t# fsmonitor = z\n\tbare = false ; fsmonitor = w\n"},
		{name: "comment characters in quotes", config: "[user]\n\tname = \"a # b ; c\" # fsmonitor = x\n"},
		{name: "continued value is not a key", config: "[user]\n\tname = a \\\n\tfsmonitor = x\n"},
		{name: "continuation inside a comment ends with the line", config: "[user]\n\tname = a # \\\n\tfsmonitor = x\n", programs: []string{"user.fsmonitor"}},
		{name: "quoted newline escape", config: "[user]\n\tname = \"a\\nb\"\n\tpager = x\n", programs: []string{"user.pager"}},
		{name: "unterminated quote", config: "[user]\n\tname = \"a\n\tfsmonitor = x\"\n", bad: true},
		{name: "unknown escape", config: "[user]\n\tname = a\\q\n", bad: true},
		{name: "vertical tab before a key", config: "[core]\n\v fsmonitor = x\n", bad: true},
		{name: "subsection without quotes", config: "[filter x]\n\tclean = y\n", bad: true},
		{name: "unterminated header", config: "[core\n\tfsmonitor = x\n", bad: true},
		{name: "text after the subsection", config: "[filter \"x\" ]\n\tclean = y\n", bad: true},
		{name: "key with a bad character", config: "[core]\n\tfs.monitor = x\n", bad: true},
		{name: "key starting with a digit", config: "[core]\n\t1x = y\n", bad: true},
		{name: "key before any section", config: "fsmonitor = x\n[core]\n", bad: true, stricter: true},
		{name: "empty section name", config: "[ \"core\"]\n\tfsmonitor = x\n", bad: true, stricter: true},
		{name: "backslash at the end", config: "[core]\n\tx = a\\", bad: true, stricter: true},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, err := parseGitConfig([]byte(tt.config))
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v, want bad = %v", err, tt.bad)
			}
			if got := programNames(entries); !reflect.DeepEqual(got, tt.programs) {
				t.Errorf("programs = %q, want %q", got, tt.programs)
			}

			f := filepath.Join(dir, "config"+string(rune('a'+i)))
			if err := os.WriteFile(f, []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			out, gitErr := exec.Command("git", "config", "--file", f, "--list", "--name-only", "-z").Output()
			if (gitErr != nil) != (tt.bad && !tt.stricter) {
				t.Fatalf("git config: err = %v, want failure = %v", gitErr, tt.bad && !tt.stricter)
			}
			if tt.bad {
				return
			}
			var names []string
			for _, e := range entries {
				n := e.section
				if e.sub != "" {
					n += "." + e.sub
				}
				names = append(names, n+"."+e.key)
			}
			want := strings.Split(string(out), "\x00")
			want = want[:len(want)-1]
			if len(names) != len(want) || (len(names) > 0 && !reflect.DeepEqual(names, want)) {
				t.Errorf("keys = %q, git reads %q", names, want)
			}
		})
	}
}
