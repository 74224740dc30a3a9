package apply

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A project folder is untrusted: a clone can ship a .fixplan/ of its own. So every
// journal and plan fixplan writes is sealed with an HMAC under a per-user key kept
// in the user's config folder, and only sealed state is ever obeyed (recovered,
// undone, auto-selected). Unsealed or badly sealed state is foreign.

// KeySize is the length of the per-user state key.
const KeySize = 32

// LoadKey reads the per-user state key at path, creating it (random, mode 0600,
// its folder 0700) when it does not exist. Two processes creating it at once end
// up with the same key (the second adopts the first one's file).
func LoadKey(path string) ([]byte, error) {
	if k, err := readKey(path); err == nil {
		return k, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create state key: %w", err)
	}
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("create state key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".state-key-*")
	if err != nil {
		return nil, fmt.Errorf("create state key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_ = tmp.Chmod(0o600)
	if _, err := tmp.WriteString(hex.EncodeToString(k) + "\n"); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("create state key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("create state key: %w", err)
	}
	tmp.Close()
	// Link fails when another process made the key first; then use theirs.
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		if err := os.Rename(tmp.Name(), path); err != nil {
			return nil, fmt.Errorf("create state key: %w", err)
		}
	}
	return readKey(path)
}

func readKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := hex.DecodeString(string(bytes.TrimSpace(b)))
	if err != nil || len(k) != KeySize {
		return nil, fmt.Errorf("state key %s is damaged (want %d hex bytes); delete it and fixplan makes a new one (older plans and journals then show as foreign)", path, KeySize)
	}
	return k, nil
}

// envelope is the on-disk form of sealed state: the body's exact bytes and their MAC.
type envelope struct {
	Format string          `json:"format"`
	MAC    string          `json:"mac"`
	Body   json.RawMessage `json:"body"`
}

var (
	// errForeign: the file is not sealed with this user's key.
	errForeign = errors.New("not written by this user's fixplan (no valid seal)")
	// errMalformed: the file is not the envelope fixplan writes.
	errMalformed = errors.New("not a fixplan state file")
)

func (e *Engine) mac(kind, id string, body []byte) string {
	h := hmac.New(sha256.New, e.opt.Key)
	h.Write([]byte("fixplan/" + kind + "\x00" + id + "\x00"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// seal wraps body (JSON) for the file of kind/id.
func (e *Engine) seal(kind, id string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n\"format\": %q,\n\"mac\": %q,\n\"body\": ", "fixplan-"+kind+"/1", e.mac(kind, id, body))
	b.Write(body)
	b.WriteString("\n}\n")
	return b.Bytes()
}

// sealJournal wraps a journal body like seal, with the journal's state and a MAC
// of (id, state) in front of the body, so start-up can tell this user's finished
// journals from everything else by reading the file's first bytes (headState).
func (e *Engine) sealJournal(id, state string, body []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(body) + 256)
	fmt.Fprintf(&b, "%s%s\",\"smac\":%q,\"mac\":%q,\"body\":", journalHead, state, e.mac("journal-state", id, []byte(state)), e.mac("journal", id, body))
	b.Write(body)
	b.WriteString("}\n")
	return b.Bytes()
}

// journalHead is how every journal file sealJournal writes begins.
const journalHead = `{"format":"fixplan-journal/1","state":"`

// headState returns the state written at the start of .fixplan/tx/<folder>/journal.json
// when its MAC is this user's; ok is false for anything else (an older journal
// without the header, a foreign or damaged file), which must then be loaded whole.
// It reads at most a few hundred bytes. The state only decides what may be skipped:
// a journal is always loaded and validated whole before it is obeyed.
func (e *Engine) headState(folder string) (string, bool) {
	if !validTxID(folder) {
		return "", false
	}
	jf := txName(folder, "journal.json")
	if fi, err := e.r.Lstat(jf); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	f, err := e.r.Open(jf)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var buf [256]byte
	n, _ := io.ReadFull(f, buf[:])
	rest, ok := bytes.CutPrefix(buf[:n], []byte(journalHead))
	if !ok {
		return "", false
	}
	state, rest, ok := bytes.Cut(rest, []byte(`","smac":"`))
	if !ok || !knownStates[string(state)] || len(rest) < 65 || rest[64] != '"' {
		return "", false
	}
	if !hmac.Equal(rest[:64], []byte(e.mac("journal-state", folder, state))) {
		return "", false
	}
	return string(state), true
}

// sealed splits a file laid out exactly as seal writes one of kind into its MAC
// and body, without decoding any JSON; ok is false for any other layout.
func sealed(kind string, file []byte) (mac, body []byte, ok bool) {
	rest, ok := bytes.CutPrefix(file, []byte("{\n\"format\": \"fixplan-"+kind+"/1\",\n\"mac\": \""))
	if !ok || len(rest) < 64 {
		return nil, nil, false
	}
	mac, rest = rest[:64], rest[64:]
	rest, ok = bytes.CutPrefix(rest, []byte("\",\n\"body\": "))
	if !ok {
		return nil, nil, false
	}
	body, ok = bytes.CutSuffix(rest, []byte("\n}\n"))
	return mac, body, ok && len(body) > 0
}

// ownBody returns the body of a file of kind/id that is exactly what seal wrote
// with this user's key; ok is false for anything else (foreign, edited, another
// layout, a journal). No JSON is decoded.
func (e *Engine) ownBody(kind, id string, file []byte) (body []byte, ok bool) {
	mac, body, ok := sealed(kind, file)
	if !ok || !hmac.Equal(mac, []byte(e.mac(kind, id, body))) {
		return nil, false
	}
	return body, true
}

// unseal returns the body of a sealed file of kind/id. errForeign means its seal
// is not this user's (the body is returned for display only; in seal's layout it
// is not checked to be JSON); errMalformed that the file is not an envelope at
// all. A file in seal's layout is split without decoding JSON, and one whose
// first key is not "format" (fixplan writes it first) is not decoded further.
func (e *Engine) unseal(kind, id string, file []byte) ([]byte, error) {
	if mac, body, ok := sealed(kind, file); ok {
		if !hmac.Equal(mac, []byte(e.mac(kind, id, body))) {
			return body, errForeign
		}
		return body, nil
	}
	dec := json.NewDecoder(bytes.NewReader(file))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errMalformed
	}
	if k, err := dec.Token(); err != nil || k != "format" {
		return nil, errMalformed
	}
	var env envelope
	if err := json.Unmarshal(file, &env); err != nil || env.Format != "fixplan-"+kind+"/1" || len(env.Body) == 0 {
		return nil, errMalformed
	}
	want := e.mac(kind, id, env.Body)
	if !hmac.Equal([]byte(want), []byte(env.MAC)) {
		return env.Body, errForeign
	}
	return env.Body, nil
}
