package envprobe

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// The version probes of the env section must run nothing the project chooses.
// Tools pick what they run from the folder they start in and its parents
// (.mvn/jvm.config, rust-toolchain.toml, .tool-versions, go.mod toolchain lines,
// .nvmrc, package.json packageManager, .python-version, ...) and from PATH
// (node_modules/.bin, ".", an entry inside the project). So a probe starts in a
// fresh empty folder outside the root whose parents belong to the user (see
// probeDir), finds its tool on a PATH without relative entries and without
// entries inside the root, and gets an environment without credentials, without
// variables that name places inside the root, and with GOTOOLCHAIN=local.

// LookTool finds the tool name on the scrubbed PATH (PATH()), never inside the
// root: the default Options.LookPath.
func (p *Probe) LookTool(name string) (string, error) { return lookOutside(name, p.root, p.PATH()) }

// LookOutside finds the program name in the folders of pathList (a $PATH value)
// the way LookTool does for a probe: never in a relative or empty entry, never
// in a folder inside root (absolute, symlinks resolved) nor through a link that
// leads into it. Programs fixplan starts for the user (their editor) are found
// with it, so a project cannot put its own program in their place.
func LookOutside(name, root, pathList string) (string, error) {
	return lookOutside(name, root, scrubPATH(pathList, root))
}

// lookOutside finds name in list (already scrubbed for root) and refuses a
// program that leads into root.
func lookOutside(name, root, list string) (string, error) {
	path, err := lookPathIn(name, list)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && inside(root, real) {
		return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
	}
	return path, nil
}

// PATH is $PATH without empty or relative entries and without entries that
// are (or lead through symlinks) inside the root, missing folders and repeats. It
// is remembered for as long as $PATH does not change.
func (p *Probe) PATH() string {
	raw := os.Getenv("PATH")
	p.pathMu.Lock()
	defer p.pathMu.Unlock()
	if p.pathSet && p.pathRaw == raw {
		return p.path
	}
	p.pathRaw, p.path, p.pathSet = raw, scrubPATH(raw, p.root), true
	return p.path
}

// scrubPATH implements PATH for one PATH value.
func scrubPATH(list, root string) string {
	var keep []string
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(list) {
		d = strings.Trim(d, `"`) // Windows allows quoted entries
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if seen[d] || inside(root, d) {
			continue
		}
		seen[d] = true
		real, err := filepath.EvalSymlinks(d)
		if err != nil || inside(root, real) {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// inside reports whether p is root or below it (both absolute and clean).
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// lookPathIn finds the executable name in the folders of list, trying the
// PATHEXT extensions on Windows. Unlike exec.LookPath it never looks in the
// current folder and never reads $PATH.
func lookPathIn(name, list string) (string, error) {
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = pathExts(name)
	}
	for _, dir := range filepath.SplitList(list) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		for _, ext := range exts {
			p := filepath.Join(dir, name+ext)
			if isExecutable(p) {
				return p, nil
			}
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// pathExts lists the suffixes to try for name on Windows: none when name already
// ends in one of PATHEXT, else each of PATHEXT.
func pathExts(name string) []string {
	v := os.Getenv("PATHEXT")
	if v == "" {
		v = ".com;.exe;.bat;.cmd"
	}
	var exts []string
	for _, e := range strings.Split(strings.ToLower(v), ";") {
		if e == "" || e[0] != '.' {
			continue
		}
		if strings.HasSuffix(strings.ToLower(name), e) {
			return []string{""}
		}
		exts = append(exts, e)
	}
	return exts
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode().Perm()&0o111 != 0
}

// dropSuffixes end the names of variables that carry credentials; dropNames are
// more of them. None reaches a probe.
var (
	dropSuffixes = []string{"_API_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_SECRET_KEY", "_ACCESS_KEY",
		"_PASSWORD", "_PASSWD", "_CREDENTIALS"}
	dropNames = []string{"FIXPLAN_API_KEY", "OPENAI_API_KEY", "PWD", "OLDPWD", "PATH", "GOTOOLCHAIN"}
	// keepNames are never dropped for naming a place inside the root: when the
	// project is the home folder, tools still need to find the user's settings.
	keepNames = []string{"HOME", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "TMPDIR", "TEMP", "TMP",
		"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"}
)

// Environ is the environment of a probe that runs in dir: environ without
// credentials, without PWD/OLDPWD, without variables whose value names a place
// inside root (VIRTUAL_ENV, NODE_OPTIONS=--require <root>/x.js, ...), with PATH
// set to path and GOTOOLCHAIN=local (no toolchain download or switch).
func Environ(environ []string, root, path, dir string) []string {
	out := make([]string, 0, len(environ)+3)
	for _, kv := range environ {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || name == "" { // Windows' "=C:=C:\dir" entries
			out = append(out, kv)
			continue
		}
		up := strings.ToUpper(name)
		if hasAny(up, dropNames, func(a, b string) bool { return a == b }) ||
			hasAny(up, dropSuffixes, strings.HasSuffix) ||
			(!hasAny(up, keepNames, func(a, b string) bool { return a == b }) && namesInside(val, root)) {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "PATH="+path, "GOTOOLCHAIN=local")
	if runtime.GOOS != "windows" {
		out = append(out, "PWD="+dir)
	}
	return out
}

func hasAny(s string, list []string, match func(s, x string) bool) bool {
	for _, x := range list {
		if match(s, x) {
			return true
		}
	}
	return false
}

// namesInside reports whether val mentions root as a path: root followed by the
// end, a separator, a list separator, a space or a quote (case-insensitively on
// Windows).
func namesInside(val, root string) bool {
	const after = `/\:; "'`
	fold := runtime.GOOS == "windows"
	for i := 0; i+len(root) <= len(val); i++ {
		if !fold {
			j := strings.Index(val[i:], root)
			if j < 0 {
				return false
			}
			i += j
		} else if !strings.EqualFold(val[i:i+len(root)], root) {
			continue
		}
		end := i + len(root)
		if end == len(val) || strings.IndexByte(after, val[end]) >= 0 {
			return true
		}
	}
	return false
}
