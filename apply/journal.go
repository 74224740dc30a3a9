package apply

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"time"

	"fixplan/internal/fsutil"
	"fixplan/plan"
)

// Journals read from .fixplan/tx/ are untrusted input until proven otherwise: the
// folder name must be an id fixplan makes, the file must carry this user's seal,
// the body's id must equal the folder name, and every entry must pass the same
// confinement as a live apply (clean relative path, no protected segment, fixed
// blob names, well-formed hashes). Anything else is moved to .fixplan/quarantine/
// and reported — never recovered, undone or pruned.

var txIDRe = regexp.MustCompile(`^[0-9]{8}-[0-9]{6}\.[0-9]{6}-[0-9a-f]{6}$`)

// validTxID accepts exactly the ids NewID makes.
func validTxID(id string) bool { return txIDRe.MatchString(id) }

// maxJournalEntries bounds what a journal may list.
const maxJournalEntries = 100000

var knownStates = map[string]bool{stateApplying: true, stateCommitted: true, stateRolledBack: true,
	stateUndoing: true, stateUndone: true, stateHeld: true}

func validSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// validate checks a journal body against the folder it was found in.
func validate(folder string, j *journal) error {
	if j.ID != folder {
		return fmt.Errorf("its id %q is not its folder's name", j.ID)
	}
	if !knownStates[j.State] {
		return fmt.Errorf("unknown state %q", j.State)
	}
	if len(j.Entries) > maxJournalEntries {
		return fmt.Errorf("too many entries (%d)", len(j.Entries))
	}
	seen := map[string]bool{}
	for i, en := range j.Entries {
		bad := func(why string) error { return fmt.Errorf("entry %d (%q): %s", i+1, en.Path, why) }
		rel, err := cleanRel(en.Path)
		if err != nil || rel != en.Path {
			return bad("not a clean path inside the project")
		}
		if en.Path == memoryPath {
			if en.Op != plan.OpCreate && en.Op != plan.OpUpdate {
				return bad("project memory can only be written")
			}
		} else if why := plan.ProtectedProblem(en.Path); why != "" {
			return bad(why)
		}
		if seen[en.Path] {
			return bad("listed twice")
		}
		seen[en.Path] = true
		switch en.Op {
		case plan.OpCreate, plan.OpUpdate, plan.OpDelete, plan.OpMkdir, plan.OpRmdir:
		default:
			return bad(fmt.Sprintf("unknown op %q", en.Op))
		}
		if en.Before != "" && !validSum(en.Before) || en.After != "" && !validSum(en.After) {
			return bad("malformed checksum")
		}
		switch {
		case !en.isFile():
			if en.Blob != "" || en.Before != "" || en.After != "" {
				return bad("a folder entry with file data")
			}
		case en.Existed:
			if en.Blob != blobName(i) || en.Before == "" {
				return bad("an existing file without its saved original")
			}
			if en.Op == plan.OpCreate {
				return bad("created a file that existed")
			}
		default:
			if en.Blob != "" || en.Op != plan.OpCreate {
				return bad("a new file entry that is not a creation")
			}
		}
		if (en.Op == plan.OpCreate || en.Op == plan.OpUpdate) && en.After == "" {
			return bad("a write without the checksum of what it wrote")
		}
	}
	return nil
}

// maxTxRead bounds the bytes of journal files one look at .fixplan/tx (a
// recovery, an undo, a prune, a list) reads whole. This user's journals are told
// by their sealed header's few hundred bytes (headState); only journals written
// before headers, and foreign or damaged files, must be read whole to be told
// apart, and a project can ship thousands of them.
const maxTxRead = 128 << 20

// txBudget is what one look at .fixplan/tx may still read whole.
type txBudget struct{ left int64 }

func newTxBudget() *txBudget { return &txBudget{left: maxTxRead} }

// errNotRead: the journal was not read, its size over what is left of the budget.
var errNotRead = errors.New("not read yet: one start reads at most 128 MiB of journals without a header")

// loadJournal reads and checks the journal in .fixplan/tx/<folder>, within b
// (nil: no bound). The error says why it must not be obeyed; errForeign wrapped
// when it is not sealed by this user, errNoJournal when the folder holds no
// journal file, errNotRead when the budget does not cover it.
func (e *Engine) loadJournal(folder string, b *txBudget) (*journal, error) {
	if !validTxID(folder) {
		return nil, fmt.Errorf("%w: the folder name is not a transaction id", errMalformed)
	}
	fi, err := e.r.Lstat(txName(folder))
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: not a real folder", errMalformed)
	}
	jf := txName(folder, "journal.json")
	fi, err = e.r.Lstat(jf)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoJournal
	}
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: journal.json is not a regular file", errMalformed)
	}
	if fi.Size() > 64<<20 {
		return nil, fmt.Errorf("%w: journal.json is too large", errMalformed)
	}
	if b != nil {
		if fi.Size() > b.left {
			return nil, errNotRead
		}
		b.left -= fi.Size()
	}
	file, err := e.r.ReadFile(jf)
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", folder, err)
	}
	body, err := e.unseal("journal", folder, file)
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(body, &j); err != nil {
		return nil, fmt.Errorf("%w: %v", errMalformed, err)
	}
	if err := validate(folder, &j); err != nil {
		return nil, fmt.Errorf("%w: %v", errMalformed, err)
	}
	return &j, nil
}

var errNoJournal = errors.New("the folder holds no journal (a transaction that stopped before its first change)")

// txFolders lists the names in .fixplan/tx/, newest first; nil when the folder is
// missing or not a real folder.
func (e *Engine) txFolders() ([]string, error) {
	if !e.stateReal(stateName("tx")) {
		return nil, nil
	}
	ents, err := fs.ReadDir(e.r.FS(), ".fixplan/tx")
	if err != nil {
		return nil, fmt.Errorf("list transactions: %w", err)
	}
	names := make([]string, 0, len(ents))
	for _, d := range ents {
		names = append(names, d.Name())
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	return names, nil
}

// journals lists this user's valid journals, newest first; anything else is skipped
// (Recover quarantines it).
func (e *Engine) journals() ([]*journal, error) {
	names, err := e.txFolders()
	if err != nil {
		return nil, err
	}
	var out []*journal
	b := newTxBudget()
	for _, n := range names {
		if j, err := e.loadJournal(n, b); err == nil {
			out = append(out, j)
		}
	}
	return out, nil
}

// quarantine moves .fixplan/tx/<folder> to .fixplan/quarantine/ with a note of why.
// It returns where it went (root-relative, slash form).
func (e *Engine) quarantine(folder, why string) (string, error) {
	if err := e.ensureStateDir("quarantine"); err != nil {
		return "", err
	}
	free := func(n string) (bool, error) {
		for _, p := range []string{n, n + ".why"} {
			if _, err := e.r.Lstat(stateName("quarantine", p)); err == nil {
				return false, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return false, err
			}
		}
		return true, nil
	}
	target := folder
	for n := 1; ; n++ {
		ok, err := free(target)
		if err != nil {
			return "", fmt.Errorf("set aside %s: %w", folder, err)
		}
		if ok {
			break
		}
		if n > 1000 {
			return "", fmt.Errorf("set aside %s: too many folders of that name in .fixplan/quarantine", folder)
		}
		target = fmt.Sprintf("%s-%d", folder, n)
	}
	if err := e.r.Rename(stateName("tx", folder), stateName("quarantine", target)); err != nil {
		return "", fmt.Errorf("set aside %s: %w", folder, err)
	}
	note := fmt.Sprintf("set aside %s from .fixplan/tx/%s\nreason: %s\n", time.Now().UTC().Format(time.RFC3339), folder, why)
	_ = fsutil.WriteFileAtomicIn(e.r, stateName("quarantine", target+".why"), []byte(note), 0o644)
	return ".fixplan/quarantine/" + target, nil
}

// refused is a folder of .fixplan/tx recovery must not obey, and why.
type refused struct {
	folder string
	err    error
}

// why words r's reason for people.
func (r refused) why() string {
	if errors.Is(r.err, errForeign) || r.err == errMalformed {
		return "its journal was not written by your fixplan (it may have come with the project); it was not recovered"
	}
	return r.err.Error()
}

// One recovery looks at most at maxLook folders of .fixplan/tx (newest first)
// and sets aside those it must not obey: up to aloneUpTo each in its own place
// with its own note and notice, more together in one folder of
// .fixplan/quarantine with one note and one notice (a clone can ship thousands,
// and each note is two fsyncs: 3,000 took 21 s). The next start goes on.
const (
	maxLook   = 4096
	aloneUpTo = 8
)

// setAside moves the refused folders out of .fixplan/tx and words what it did;
// left folders were not looked at or not read (txBudget), said in one notice.
func (e *Engine) setAside(list []refused, left int) []Notice {
	var out []Notice
	if len(list) <= aloneUpTo {
		for _, r := range list {
			out = append(out, e.setAsideOne(r))
		}
	} else {
		n, moved := e.setAsideMany(list)
		left += len(list) - moved
		out = append(out, n)
	}
	if left > 0 {
		out = append(out, Notice{Kind: NoticeQuarantined, Message: fmt.Sprintf(
			"%d more folders in .fixplan/tx were not looked at or set aside yet (one start looks at %d and reads at most %d MiB of journals without a header); the next start goes on", left, maxLook, maxTxRead>>20)})
	}
	return out
}

// setAsideOne moves one refused folder to .fixplan/quarantine with its note.
func (e *Engine) setAsideOne(r refused) Notice {
	n, why := r.folder, r.why()
	where, qerr := e.quarantine(n, why)
	msg := fmt.Sprintf(".fixplan/tx/%s was set aside in %s: %s; inspect or discard it with fixplan journals", n, where, why)
	if qerr != nil {
		msg = fmt.Sprintf(".fixplan/tx/%s is ignored: %s (%v)", n, why, qerr)
	}
	if errors.Is(r.err, errNoJournal) {
		msg = fmt.Sprintf("an apply stopped before its first change (.fixplan/tx/%s, nothing was changed); set aside in %s", n, where)
	}
	return Notice{Kind: NoticeQuarantined, Transaction: n, Message: msg}
}

// setAsideMany moves refused folders together into one new folder of
// .fixplan/quarantine, with one note listing each and why; it returns the
// notice and how many it moved.
func (e *Engine) setAsideMany(list []refused) (Notice, int) {
	batch := "set-aside-" + NewID()
	where := ".fixplan/quarantine/" + batch
	fail := func(err error) (Notice, int) {
		return Notice{Kind: NoticeQuarantined, Message: fmt.Sprintf("%d folders in .fixplan/tx are not your fixplan's journals and are ignored; they could not be set aside (%v)", len(list), err)}, 0
	}
	if err := e.ensureStateDir("quarantine"); err != nil {
		return fail(err)
	}
	if err := e.r.Mkdir(stateName("quarantine", batch), 0o755); err != nil {
		return fail(err)
	}
	var note strings.Builder
	var first *refused
	var lastErr error
	moved := 0
	for i, r := range list {
		if err := e.r.Rename(stateName("tx", r.folder), stateName("quarantine", batch, r.folder)); err != nil {
			lastErr = err
			continue
		}
		if first == nil {
			first = &list[i]
		}
		moved++
		fmt.Fprintf(&note, "%s: %s\n", r.folder, r.why())
	}
	if moved == 0 {
		_ = e.r.Remove(stateName("quarantine", batch))
		return fail(lastErr)
	}
	head := fmt.Sprintf("set aside %s from .fixplan/tx\nreason: %d folders that are not your fixplan's journals (they may have come with the project); none was recovered\n\n",
		time.Now().UTC().Format(time.RFC3339), moved)
	_ = fsutil.WriteFileAtomicIn(e.r, stateName("quarantine", batch+".why"), []byte(head+note.String()), 0o644)
	return Notice{Kind: NoticeQuarantined, Message: fmt.Sprintf(
		"%d folders in .fixplan/tx were not your fixplan's journals (e.g. %s: %s); none was recovered, and they were set aside together in %s; inspect or discard them with fixplan journals",
		moved, first.folder, first.why(), where)}, moved
}

// finished reports whether a journal in state st needs no more work.
func finished(st string) bool {
	return st == stateCommitted || st == stateRolledBack || st == stateUndone
}

// stateOf returns the state of this user's journal in folder, from its sealed
// header when it has one (a few hundred bytes read) or else by loading it whole
// within b; ok is false for anything that is not this user's valid journal (or
// was not read).
func (e *Engine) stateOf(folder string, b *txBudget) (string, bool) {
	if st, ok := e.headState(folder); ok {
		return st, true
	}
	j, err := e.loadJournal(folder, b)
	if err != nil {
		return "", false
	}
	return j.State, true
}

// newestCommitted loads this user's newest committed journal (the one undo
// restores); nil when there is none. Only that journal is read whole.
func (e *Engine) newestCommitted() (*journal, error) {
	names, err := e.txFolders()
	if err != nil {
		return nil, err
	}
	b := newTxBudget()
	for _, n := range names {
		if st, ok := e.headState(n); ok && st != stateCommitted {
			continue
		}
		if j, err := e.loadJournal(n, b); err == nil && j.State == stateCommitted {
			return j, nil
		}
	}
	return nil, nil
}

// prune keeps the newest Keep finished transactions of this user; held, foreign
// and unfinished ones are never removed. It reads only the journals' headers.
func (e *Engine) prune() {
	names, err := e.txFolders()
	if err != nil {
		return
	}
	kept := 0
	b := newTxBudget()
	for _, n := range names {
		if st, ok := e.stateOf(n, b); !ok || !finished(st) {
			continue
		}
		kept++
		if kept > e.opt.Keep && validTxID(n) {
			_ = e.r.RemoveAll(txName(n))
		}
	}
}

// JournalInfo describes one journal for people: this user's, or one set aside.
type JournalInfo struct {
	// ID is the transaction id, or the quarantined folder's name.
	ID      string    `json:"id"`
	PlanID  string    `json:"plan_id,omitempty"`
	State   string    `json:"state"` // a journal state, or "quarantined"
	Created time.Time `json:"created,omitzero"`
	// Where is the folder, relative to the project root.
	Where string `json:"where"`
	// Reason says why a quarantined folder was set aside, or why a held one is held.
	Reason string `json:"reason,omitempty"`
	// Kept are files a recovery left alone (edited after the crash).
	Kept    []string       `json:"kept,omitempty"`
	Entries []JournalEntry `json:"entries,omitempty"`
}

// JournalEntry is one file or folder of a journal and where its original is.
type JournalEntry struct {
	Path     string  `json:"path"`
	Op       plan.Op `json:"op"`
	Original string  `json:"original,omitempty"` // root-relative path of the saved original
}

func infoOf(j *journal) JournalInfo {
	in := JournalInfo{ID: j.ID, PlanID: j.PlanID, State: j.State, Created: j.Created, Where: ".fixplan/tx/" + j.ID, Reason: j.Problem, Kept: j.Kept}
	for _, en := range j.Entries {
		je := JournalEntry{Path: en.Path, Op: en.Op}
		if en.Blob != "" {
			je.Original = ".fixplan/tx/" + j.ID + "/" + en.Blob
		}
		in.Entries = append(in.Entries, je)
	}
	return in
}

// Journals lists this user's journals (newest first) and the folders set aside
// in .fixplan/quarantine/. It reads and obeys nothing else.
func (e *Engine) Journals() ([]JournalInfo, error) {
	out := []JournalInfo{}
	js, err := e.journals()
	if err != nil {
		return nil, err
	}
	for _, j := range js {
		out = append(out, infoOf(j))
	}
	if !e.stateReal(stateName("quarantine")) {
		return out, nil
	}
	ents, err := fs.ReadDir(e.r.FS(), ".fixplan/quarantine")
	if err != nil {
		return nil, fmt.Errorf("list quarantine: %w", err)
	}
	for _, d := range ents {
		n := d.Name()
		if strings.HasSuffix(n, ".why") {
			continue
		}
		in := JournalInfo{ID: n, State: "quarantined", Where: ".fixplan/quarantine/" + n, Reason: e.quarantineReason(n)}
		out = append(out, in)
	}
	return out, nil
}

// quarantineReason is the reason line of the note beside a folder set aside
// (read from the note's first 4 KiB; a folder set aside with many lists them below).
func (e *Engine) quarantineReason(n string) string {
	if fi, err := e.r.Lstat(stateName("quarantine", n+".why")); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	f, err := e.r.Open(stateName("quarantine", n+".why"))
	if err != nil {
		return ""
	}
	defer f.Close()
	var buf [4 << 10]byte
	k, _ := io.ReadFull(f, buf[:])
	_, r, _ := strings.Cut(string(buf[:k]), "reason: ")
	r, _, _ = strings.Cut(r, "\n")
	return strings.TrimSpace(r)
}

// DiscardJournal deletes a journal that needs no more work: one set aside in
// quarantine, a held one, or a finished one. A committed journal is the undo
// history and a running one is not finished: both are refused.
func (e *Engine) DiscardJournal(id string) error {
	unlock, err := e.lock()
	if err != nil {
		return err
	}
	defer unlock()
	all, err := e.Journals()
	if err != nil {
		return err
	}
	for _, in := range all {
		if in.ID != id {
			continue
		}
		switch in.State {
		case "quarantined":
			if err := e.r.RemoveAll(stateName("quarantine", id)); err != nil {
				return fmt.Errorf("discard %s: %w", id, err)
			}
			_ = e.r.Remove(stateName("quarantine", id+".why"))
			return nil
		case stateCommitted:
			return plan.Errorf(plan.ErrInvalidInput, "transaction %s is the undo history of applied changes", id).
				WithHint("undo it, or keep it; fixplan keeps the last few and drops older ones by itself")
		case stateApplying, stateUndoing:
			return plan.Errorf(plan.ErrInvalidInput, "transaction %s is not finished", id).WithHint("run any fixplan command to recover it first")
		}
		if err := e.r.RemoveAll(txName(id)); err != nil {
			return fmt.Errorf("discard %s: %w", id, err)
		}
		return nil
	}
	return plan.Errorf(plan.ErrNotFound, "there is no journal %q in this project", id).WithHint("list them with fixplan journals")
}
