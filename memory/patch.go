package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"fixplan/internal/fsutil"
	"fixplan/plan"
)

// Validate type-checks memory_patch entries against the whitelist. It returns the
// entries that may be offered to the user (values normalised: project.log_paths as
// an object) and one warning per rejected entry; rejected entries are never stored.
func (s *Store) Validate(entries []plan.MemoryEntry) ([]plan.MemoryEntry, []string) {
	var ok []plan.MemoryEntry
	var warnings []string
	seen := map[string]bool{}
	for _, e := range entries {
		v, err := checkValue(e.Key, e.Value)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("memory_patch %s rejected: %v", e.Key, err))
			continue
		}
		if seen[e.Key] {
			warnings = append(warnings, fmt.Sprintf("memory_patch %s given twice; the last value wins", e.Key))
			for i := range ok {
				if ok[i].Key == e.Key {
					ok[i].Value = v
				}
			}
			continue
		}
		seen[e.Key] = true
		ok = append(ok, plan.MemoryEntry{Key: e.Key, Value: v})
	}
	return ok, warnings
}

func isNull(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) == 0 || string(t) == "null"
}

// checkValue validates one value and returns it normalised ("null" removes the key).
func checkValue(key string, raw json.RawMessage) (json.RawMessage, error) {
	if !isKey(key) {
		return nil, fmt.Errorf("key is not in the whitelist")
	}
	if isNull(raw) {
		return json.RawMessage("null"), nil
	}
	switch key {
	case plan.KeyLogPaths:
		m, err := logPaths(raw)
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(m)
		return b, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("value must be a string")
	}
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("value is not UTF-8 text")
	}
	switch key {
	case plan.KeyNotes:
		if utf8.RuneCountInString(s) > MaxNotes {
			return nil, fmt.Errorf("notes are %d characters; the limit is %d", utf8.RuneCountInString(s), MaxNotes)
		}
	case plan.KeyVerbosity:
		if s != "brief" && s != "normal" && s != "detailed" {
			return nil, fmt.Errorf("verbosity must be brief, normal or detailed, not %q", s)
		}
	case plan.KeyLanguage:
		if strings.TrimSpace(s) == "" || len(s) > 40 || strings.ContainsAny(s, "\n\r") {
			return nil, fmt.Errorf("language must be a short name such as \"English\" or \"es\"")
		}
	default: // the default_* commands
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("command is empty (use null to remove it)")
		}
		if len(s) > MaxCommand || strings.ContainsAny(s, "\n\r\x00") {
			return nil, fmt.Errorf("command must be one line of at most %d bytes", MaxCommand)
		}
	}
	b, _ := json.Marshal(s)
	return b, nil
}

// logPaths accepts {source: path} or [{source, path}] and checks every path is a
// plain relative path inside the project.
func logPaths(raw json.RawMessage) (map[string]string, error) {
	m := map[string]string{}
	if err := json.Unmarshal(raw, &m); err != nil {
		var list []struct {
			Source string `json:"source"`
			Path   string `json:"path"`
		}
		if err2 := json.Unmarshal(raw, &list); err2 != nil {
			return nil, fmt.Errorf("log_paths must map source names to relative paths")
		}
		m = map[string]string{}
		for _, e := range list {
			m[e.Source] = e.Path
		}
	}
	for src, p := range m {
		if strings.TrimSpace(src) == "" {
			return nil, fmt.Errorf("log_paths has an empty source name")
		}
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("log_paths %s has an empty path", src)
		}
		if why := plan.PathProblem(p); why != "" {
			return nil, fmt.Errorf("log_paths %s: %q %s", src, p, why)
		}
	}
	return m, nil
}

// split separates validated entries into project.* and user.* ones.
func split(entries []plan.MemoryEntry) (project, user []plan.MemoryEntry) {
	for _, e := range entries {
		if strings.HasPrefix(e.Key, "user.") {
			user = append(user, e)
		} else {
			project = append(project, e)
		}
	}
	return project, user
}

func merge(base map[string]json.RawMessage, entries []plan.MemoryEntry) (map[string]json.RawMessage, bool) {
	out := map[string]json.RawMessage{}
	for k, v := range base {
		out[k] = v
	}
	changed := false
	for _, e := range entries {
		old, had := out[e.Key]
		if isNull(e.Value) {
			if had {
				delete(out, e.Key)
				changed = true
			}
			continue
		}
		if !had || !bytes.Equal(compactJSON(old), compactJSON(e.Value)) {
			out[e.Key] = e.Value
			changed = true
		}
	}
	return out, changed
}

func compactJSON(b json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

func encode(m map[string]json.RawMessage) []byte {
	b, _ := json.MarshalIndent(m, "", "  ")
	return append(b, '\n')
}

// ProjectBytesAfter returns the new bytes of .fixplan/project.json once the project.*
// entries (already validated) are merged, and whether anything changes. Each entry
// set is marked in the file's "origin" object as the model's proposal in plan
// from.Plan, accepted by the user at from.Accepted (the file is shared: a teammate
// must not take it for the project's own choice). The caller writes them inside
// the apply transaction; call CommitProject afterwards.
func (s *Store) ProjectBytesAfter(entries []plan.MemoryEntry, from Proposal) ([]byte, bool, error) {
	proj, _ := split(entries)
	if len(proj) > 0 && s.projectProblem != nil {
		return nil, false, plan.Errorf(plan.ErrConfig, "%s is not used (%v), so project memory cannot be updated", ProjectFile, s.projectProblem).
			WithHint("fix or delete the file, or untick the project memory entries")
	}
	m, changed := mergeProposal(s.projectRaw, proj, from)
	if !changed {
		return nil, false, nil
	}
	return encode(m), true, nil
}

// CommitProject records entries as written to the project file (after the transaction).
func (s *Store) CommitProject(entries []plan.MemoryEntry, from Proposal) {
	proj, _ := split(entries)
	s.projectRaw, _ = mergeProposal(s.projectRaw, proj, from)
	s.project = whitelisted(s.projectRaw, "user.")
}

// OriginKey is the project file's object that says where fixplan's entries came
// from: key → Origin. It is not memory (never sent to the model).
const OriginKey = "origin"

// Proposal is the plan whose memory_patch the user applied, and when.
type Proposal struct {
	Plan     string
	Accepted time.Time
}

// Origin records a project memory entry the model proposed and the user applied.
type Origin struct {
	ProposedBy string `json:"proposed_by"` // "model"
	Plan       string `json:"plan"`
	Accepted   string `json:"accepted"` // RFC 3339, when the user applied it
	// Value is the value as written: once the entry is edited by hand, the
	// record no longer describes it.
	Value json.RawMessage `json:"value"`
}

// mergeProposal is merge with the entries' origin recorded under OriginKey (a
// removed entry loses its record).
func mergeProposal(base map[string]json.RawMessage, entries []plan.MemoryEntry, from Proposal) (map[string]json.RawMessage, bool) {
	out, changed := merge(base, entries)
	if !changed {
		return out, false
	}
	origins := map[string]json.RawMessage{}
	_ = json.Unmarshal(out[OriginKey], &origins)
	for _, e := range entries {
		if isNull(e.Value) {
			delete(origins, e.Key)
			continue
		}
		b, _ := json.Marshal(Origin{ProposedBy: "model", Plan: from.Plan, Accepted: from.Accepted.UTC().Format(time.RFC3339), Value: e.Value})
		origins[e.Key] = b
	}
	if len(origins) == 0 {
		delete(out, OriginKey)
	} else {
		b, _ := json.Marshal(origins)
		out[OriginKey] = b
	}
	return out, true
}

// ProposedByModel returns the origin of key's project value when the project
// file says the model proposed it and the value is still the one recorded. The
// file is the project's (untrusted): this only adds to a label, never approves.
func (s *Store) ProposedByModel(key string) (Origin, bool) {
	v, ok := s.project[key]
	if !ok {
		return Origin{}, false
	}
	var origins map[string]Origin
	if json.Unmarshal(s.projectRaw[OriginKey], &origins) != nil {
		return Origin{}, false
	}
	o, ok := origins[key]
	if !ok || o.ProposedBy != "model" || !bytes.Equal(compactJSON(o.Value), compactJSON(v)) || !planID(o.Plan) {
		return Origin{}, false
	}
	if _, err := time.Parse(time.RFC3339, o.Accepted); err != nil {
		return Origin{}, false
	}
	return o, true
}

// SaveUser merges the user.* entries into the user preferences file (atomically) and
// reports whether it changed. The file lives outside every project.
func (s *Store) SaveUser(entries []plan.MemoryEntry) (bool, error) {
	_, usr := split(entries)
	m, changed := merge(s.userRaw, usr)
	if !changed {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(s.userPath), 0o700); err != nil {
		return false, fmt.Errorf("create config dir: %w", err)
	}
	if err := fsutil.WriteFileAtomic(s.userPath, encode(m), 0o600); err != nil {
		return false, err
	}
	s.userRaw, s.user = m, whitelisted(m, "")
	return true, nil
}

// Keys returns the keys of entries, sorted.
func Keys(entries []plan.MemoryEntry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Key)
	}
	sort.Strings(out)
	return out
}

// planID reports a plan id as fixplan makes them (digits, '-', '.', lowercase
// hex): the project file's text goes into a label only in that shape.
func planID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
