package codectx

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/context/frames"
	"fixplan/plan"
)

const outsideMarker = "OUTSIDE-THE-ROOT-7f3a"

// confineFixture builds <tmp>/outside (never to be read) and <tmp>/root with
// secrets, .git, binaries and symlinks pointing out of the root.
func confineFixture(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	outside = filepath.Join(base, "outside")
	root = filepath.Join(base, "root")
	writeTree(t, outside, map[string]string{"secret.txt": outsideMarker + "\n", "dir/x.txt": outsideMarker + "\n"})
	writeTree(t, root, map[string]string{
		"src/main.go":           "package main\n\nfunc main() {}\n",
		".git/config":           "[core]\n" + outsideMarker + "\n",
		".env":                  "API_TOKEN=abcd1234secret\n",
		"config/.env.local":     "DB_PASSWORD=hunter2hunter2\n",
		"certs/server.pem":      "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n",
		"id_rsa":                "key\n",
		"keys/api.key":          "k\n",
		"secrets/db.txt":        "db\n",
		".aws/credentials":      "[default]\n",
		"bin.dat":               "\x00\x01\x02needle",
		"big.txt":               strings.Repeat("0123456789\n", 200),
		"link_out":              "->" + filepath.Join(outside, "secret.txt"),
		"link_out_rel":          "->../outside/secret.txt",
		"dir_out":               "->" + outside,
		"abs_link":              "->/etc/passwd",
		"gitlink":               "->.git/config",
		"notes.txt":             "->.env",
		"loop":                  "->loop",
		"sub/deeper/escape.txt": "->../../../outside/secret.txt",
	})
	return root, outside
}

// TestConfinement tries to escape the root in every way the contract names; all
// are refused with a reason, and no text from outside the root comes back.
func TestConfinement(t *testing.T) {
	root, outside := confineFixture(t)
	g := newGatherer(t, root, Options{MaxFileBytes: 1024})
	tests := []struct {
		name, path, reason string
	}{
		{"parent", "../outside/secret.txt", "outside the project root"},
		{"deep parent", "../../../../../etc/passwd", "outside the project root"},
		{"parent after dir", "src/../../outside/secret.txt", "outside the project root"},
		{"backslash parent", `..\outside\secret.txt`, "outside the project root"},
		{"absolute unix", "/etc/passwd", "absolute"},
		{"absolute outside", filepath.Join(outside, "secret.txt"), "absolute"},
		{"absolute inside root", filepath.Join(root, "src/main.go"), "absolute"},
		{"tilde", "~/.ssh/id_rsa", "~"},
		{"tilde alone", "~", "~"},
		{"drive letter", `C:\Windows\win.ini`, "drive letter"},
		{"drive letter slash", "c:/x", "drive letter"},
		{"unc backslash", `\\server\share\x`, "UNC"},
		{"unc slash", "//server/share/x", "UNC"},
		{"nul byte", "src/main.go\x00.txt", "NUL"},
		{"empty", "", "needs a path"},
		{"root itself", ".", "project root itself"},
		{"symlink to outside file", "link_out", "outside the project root"},
		{"relative symlink to outside", "link_out_rel", "outside the project root"},
		{"symlinked parent dir", "dir_out/secret.txt", "outside the project root"},
		{"nested relative escape", "sub/deeper/escape.txt", "outside the project root"},
		{"symlink to /etc/passwd", "abs_link", "outside the project root"},
		{"git config", ".git/config", ".git"},
		{"git via dotdot", "src/../.git/config", ".git"},
		{"git upper case", ".GIT/config", ".git"},
		{"symlink into git", "gitlink", ".git"},
		{"fixplan state", ".fixplan/project.json", ".fixplan"},
		{"nested fixplan state", "sub/.FIXPLAN/plans/x.json", ".fixplan"},
		{"mercurial config", ".hg/hgrc", ".hg"},
		{"git short name", "GIT~1/config", ".git"},
		{"git trailing dot", "sub/.git./config", ".git"},
		{"dotenv", ".env", "secret"},
		{"dotenv variant", "config/.env.local", "secret"},
		{"pem", "certs/server.pem", "secret"},
		{"ssh key", "id_rsa", "secret"},
		{"key file", "keys/api.key", "secret"},
		{"secrets folder", "secrets/db.txt", "secret"},
		{"aws credentials", ".aws/credentials", "secret"},
		{"innocent name linking to secret", "notes.txt", "secret"},
		{"symlink loop", "loop", "cannot resolve"},
		{"directory", "src", "directory"},
		{"binary", "bin.dat", "binary"},
		{"too big", "big.txt", "too big"},
		{"missing", "nope.txt", "does not exist"},
	}
	if len(tests) < 25 {
		t.Fatalf("only %d cases", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr(tt.path)})
			if res.OK {
				t.Fatalf("read %q was allowed: %q", tt.path, res.Text)
			}
			if !strings.Contains(res.Error, tt.reason) {
				t.Errorf("reason %q does not say %q", res.Error, tt.reason)
			}
			if strings.Contains(res.Error+res.Text, outsideMarker) || (!strings.Contains(tt.path, root) && strings.Contains(res.Error, root)) {
				t.Errorf("result leaks outside text or the root path: %q", res.Error)
			}
		})
	}
}

func TestAllowSecrets(t *testing.T) {
	root, _ := confineFixture(t)
	g := newGatherer(t, root, Options{AllowSecrets: true})
	tests := []struct {
		name, path string
		ok         bool
		want       string
	}{
		{"dotenv allowed and redacted", ".env", true, "API_TOKEN=[REDACTED]"},
		{"pem allowed and redacted", "certs/server.pem", true, "[REDACTED]"},
		{"git still refused", ".git/config", false, ".git"},
		{"outside still refused", "link_out", false, "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqReadFile, Path: ptr(tt.path)})
			if res.OK != tt.ok {
				t.Fatalf("OK = %v (%s), want %v", res.OK, res.Error, tt.ok)
			}
			if !strings.Contains(res.Text+res.Error, tt.want) {
				t.Errorf("result %q / %q lacks %q", res.Text, res.Error, tt.want)
			}
			if tt.ok && (strings.Contains(res.Text, "abcd1234secret") || strings.Contains(res.Text, "MIIB")) {
				t.Errorf("secret value not Redacted: %q", res.Text)
			}
		})
	}
}

// TestWalkNeverLeavesRoot checks frame resolution over a root full of outward
// symlinks (projfs tests the walk and search themselves, with both walkers).
func TestWalkNeverLeavesRoot(t *testing.T) {
	root, outside := confineFixture(t)
	g := newGatherer(t, root, Options{})
	rs := g.ResolveFrames(context.Background(), []frames.Frame{
		{Path: filepath.Join(outside, "secret.txt"), Line: 1},
		{Path: "../outside/secret.txt", Line: 1},
		{Path: "dir_out/x.txt", Line: 1},
	})
	for _, r := range rs {
		if r.File != "" {
			t.Errorf("frame %s resolved to %s", r.Path, r.File)
		}
	}
}

// TestRefusalCodes checks the stable code each kind of refusal carries.
func TestRefusalCodes(t *testing.T) {
	root, _ := confineFixture(t)
	g := newGatherer(t, root, Options{MaxFileBytes: 1024})
	tests := []struct {
		path string
		code plan.Code
	}{
		{"../outside/secret.txt", plan.ErrPathOutsideRoot},
		{"/etc/passwd", plan.ErrPathOutsideRoot},
		{"link_out", plan.ErrPathOutsideRoot},
		{".git/config", plan.ErrProtectedPath},
		{"gitlink", plan.ErrProtectedPath},
		{".env", plan.ErrSecretPath},
		{"nope.txt", plan.ErrNotFound},
		{"bin.dat", plan.ErrBinaryContent},
		{"big.txt", plan.ErrInvalidInput},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, _, err := g.ReadRange(tt.path, 0, 0)
			var pe *plan.Error
			if !errors.As(err, &pe) || pe.Code != tt.code || pe.Hint == "" {
				t.Errorf("ReadRange(%q) error = %#v, want code %s with a hint", tt.path, err, tt.code)
			}
		})
	}
}
