package gitrepo

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestGitEnviron(t *testing.T) {
	root := filepath.FromSlash("/p/proj")
	repo := gitRepo{top: root, gitDir: root + "/.git", common: root + "/.git"}
	env := gitEnviron([]string{"HOME=/home/u", "GIT_DIR=/elsewhere/.git", "git_index_file=/x/index", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/home/u/.gitconfig", "GIT_CONFIG_GLOBAL2=" + root + "/evil", "OPENAI_API_KEY=sk-x", "LC_ALL=de_DE.UTF-8",
		"GIT_EXTERNAL_DIFF=/bin/evil", "PATH=/usr/bin"}, root, "/usr/bin", repo)
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v // later wins, as in exec.Cmd
	}
	want := map[string]string{"HOME": "/home/u", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/home/u/.gitconfig",
		"LC_ALL": "C", "PATH": "/usr/bin", "GIT_COMMON_DIR": repo.common, "GIT_TERMINAL_PROMPT": "0", "GIT_NO_LAZY_FETCH": "1",
		"GIT_OPTIONAL_LOCKS": "0", "GOTOOLCHAIN": "local"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, k := range []string{"GIT_DIR", "git_index_file", "GIT_CONFIG_GLOBAL2", "OPENAI_API_KEY", "GIT_EXTERNAL_DIFF"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s reaches git", k)
		}
	}
}
