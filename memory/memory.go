// Package memory is fixplan's engineering memory (docs/CONTRACT.md §8): a whitelist of typed
// keys stored in two files — the user's preferences.json in the OS config dir and the
// project's .fixplan/project.json — merged project over user into the MEMORY block of
// the system prompt. A model's memory_patch is validated here and merged only when the
// user applies it; project bytes are written by the apply transaction, user bytes here.
package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fixplan/internal/config"
	"fixplan/plan"
	"fixplan/projfs"
)

// ProjectFile is the project memory file, relative to the root.
const ProjectFile = ".fixplan/project.json"

// Limits on values.
const (
	MaxNotes   = 2000
	MaxCommand = 1000
)

// DefaultUserPath returns preferences.json in the user's config folder
// (internal/config: <os.UserConfigDir>/fixplan).
func DefaultUserPath() (string, error) {
	dir, err := config.Default()
	if err != nil {
		return "", err
	}
	return config.PreferencesFile(dir), nil
}

// Store holds both memory files as read at Open: the whitelisted keys (what the
// model sees) and every key as found (what is written back, so nothing a person
// put in the files is dropped).
type Store struct {
	root       string
	userPath   string
	user       map[string]json.RawMessage
	project    map[string]json.RawMessage
	userRaw    map[string]json.RawMessage
	projectRaw map[string]json.RawMessage
	// projectProblem says why the project file was not used (a link, too big, not
	// a JSON object); project memory is then empty and never written.
	projectProblem error
	// dropped lists values of the project file that were not used.
	dropped []string
}

// Open reads the project memory under root and the user memory at userPath ("" → the
// default path). Missing files are empty memory. A file that is not a JSON object is
// an error naming it (fixplan never overwrites what it cannot read).
func Open(root, userPath string) (*Store, error) {
	if userPath == "" {
		p, err := DefaultUserPath()
		if err != nil {
			return nil, err
		}
		userPath = p
	}
	s := &Store{root: root, userPath: userPath}
	var err error
	if s.userRaw, err = readFile(userPath); err != nil {
		return nil, err
	}
	s.user = whitelisted(s.userRaw, "")
	// The project file is untrusted: a bad one never stops the project from
	// opening; it is ignored (and never overwritten) with a warning.
	b, err := readProject(root)
	if err == nil {
		s.projectRaw, err = parse(ProjectFile, b)
	}
	if err != nil {
		s.projectProblem = err
		s.projectRaw = map[string]json.RawMessage{}
	}
	// user.* keys come only from the user's own preferences, never from a project.
	s.project = whitelisted(s.projectRaw, "user.")
	s.confineLogPaths()
	return s, nil
}

// confineLogPaths keeps, of the project file's log paths, only those inside the
// project: a shipped project.json must not make fixplan read /etc/… or ~/.netrc
// into the model's context. (The user's own preferences may name any file.)
func (s *Store) confineLogPaths() {
	raw, ok := s.project[plan.KeyLogPaths]
	if !ok {
		return
	}
	var m map[string]string
	if json.Unmarshal(raw, &m) != nil {
		delete(s.project, plan.KeyLogPaths)
		s.dropped = append(s.dropped, plan.KeyLogPaths+" is not an object of names to paths")
		return
	}
	kept := map[string]string{}
	for name, p := range m {
		clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
		if why := plan.PathProblem(p); why != "" || !filepath.IsLocal(filepath.FromSlash(clean)) || plan.InProtectedFolder(clean) {
			s.dropped = append(s.dropped, fmt.Sprintf("log %q (%s) is not a file inside the project", name, p))
			continue
		}
		kept[name] = clean
	}
	b, _ := json.Marshal(kept)
	s.project[plan.KeyLogPaths] = b
}

// Warnings says why project memory was ignored, if it was.
func (s *Store) Warnings() []string {
	var out []string
	if s.projectProblem != nil {
		out = append(out, "project memory ignored: "+s.projectProblem.Error())
	}
	for _, d := range s.dropped {
		out = append(out, "project memory (.fixplan/project.json): "+d+"; ignored")
	}
	return out
}

// whitelisted returns the whitelisted keys of m, without those starting with drop.
func whitelisted(m map[string]json.RawMessage, drop string) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range m {
		if isKey(k) && (drop == "" || !strings.HasPrefix(k, drop)) {
			out[k] = v
		}
	}
	return out
}

// maxProjectFile bounds the project memory file fixplan reads.
const maxProjectFile = 1 << 20

// readProject reads .fixplan/project.json confined to root: the project folder is
// untrusted, so a link (to ~/.ssh or anywhere) or an oversized file is refused.
func readProject(root string) ([]byte, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	defer r.Close()
	name := filepath.FromSlash(ProjectFile)
	fi, err := r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read memory %s: %w", ProjectFile, err)
	}
	if err := projfs.NotRegular("memory file "+ProjectFile, fi.Mode()); err != nil {
		return nil, plan.Errorf(plan.ErrConfig, "%s", projfs.Reason(err)).WithHint("replace it with a plain JSON file or delete it")
	}
	// opened without blocking and its type seen on the descriptor: a FIFO
	// swapped in since the Lstat is refused, not waited on
	f, fi, err := projfs.OpenIn(r, name, "memory file "+ProjectFile)
	if err != nil {
		return nil, plan.Errorf(plan.ErrConfig, "%s", projfs.Reason(err)).WithHint("replace it with a plain JSON file or delete it")
	}
	defer f.Close()
	if fi.Size() > maxProjectFile {
		return nil, plan.Errorf(plan.ErrConfig, "memory file %s is over 1 MB", ProjectFile).
			WithHint("replace it with a plain JSON file or delete it")
	}
	b, err := projfs.ReadBounded(f, maxProjectFile, "memory file "+ProjectFile)
	if err != nil {
		return nil, plan.Errorf(plan.ErrConfig, "%s", projfs.Reason(err)).WithHint("replace it with a plain JSON file or delete it")
	}
	return b, nil
}

func readFile(path string) (map[string]json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read memory %s: %w", path, err)
	}
	return parse(path, b)
}

func parse(path string, b []byte) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(b)) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, plan.Errorf(plan.ErrConfig, "memory file %s is not a JSON object: %v", path, err).
			WithHint("fix the file by hand or delete it; fixplan will not overwrite it")
	}
	return m, nil
}

func isKey(k string) bool {
	for _, m := range plan.MemoryKeys {
		if m == k {
			return true
		}
	}
	return false
}

// UserPath is where user memory lives.
func (s *Store) UserPath() string { return s.userPath }

// Merged returns both memories merged, project over user.
func (s *Store) Merged() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range s.user {
		out[k] = v
	}
	for k, v := range s.project {
		out[k] = v
	}
	return out
}

// Get returns a merged value decoded into v; ok is false when the key is unset.
func (s *Store) Get(key string, v any) (bool, error) {
	raw, ok := s.Merged()[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("decode memory %s: %w", key, err)
	}
	return true, nil
}

// FromProject reports whether key's merged value comes from the project's own
// .fixplan/project.json (untrusted: it may have come with a clone) rather than
// from the user's preferences.
func (s *Store) FromProject(key string) bool {
	_, ok := s.project[key]
	return ok
}

// Block returns the MEMORY block for the system prompt: the merged memory as one
// compact JSON object with sorted keys ("{}" when empty).
func (s *Store) Block() string {
	m := s.Merged()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		var buf bytes.Buffer
		if json.Compact(&buf, m[k]) == nil {
			b.Write(buf.Bytes())
		} else {
			b.WriteString("null")
		}
	}
	b.WriteByte('}')
	return b.String()
}

// LogPaths returns project.log_paths (source → root-relative path).
func (s *Store) LogPaths() map[string]string {
	out := map[string]string{}
	if _, err := s.Get(plan.KeyLogPaths, &out); err != nil {
		return map[string]string{}
	}
	return out
}
