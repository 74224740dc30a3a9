package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"fixplan/edit"
	"fixplan/plan"
)

// largeChange is the number of changed lines above which a change is flagged.
const largeChange = 400

// Changes turns p's actions and patch into validated changes against the disk, in
// the order they will be applied. Errors are *plan.Error: ERR_PATH_OUTSIDE_ROOT,
// ERR_PROTECTED_PATH, ERR_SECRET_PATH, ERR_ACTION_CONFLICT, ERR_BINARY_CONTENT,
// ERR_NON_UTF8_FILE, ERR_NOT_FOUND, ERR_ALREADY_EXISTS, ERR_DIR_NOT_EMPTY,
// ERR_PATCH_APPLY_FAILED and ERR_INVALID_INPUT.
func (e *Engine) Changes(p *plan.Plan) ([]Change, error) {
	var out []Change
	owner := map[string]string{} // path → what changes it
	claim := func(rel, by string) error {
		if prev, ok := owner[rel]; ok {
			return (&plan.Error{Code: plan.ErrActionConflict, Msg: fmt.Sprintf("%s is changed twice (%s and %s)", rel, prev, by), Paths: []string{rel}}).
				WithHint("re-plan: a plan may change each path once")
		}
		owner[rel] = by
		return nil
	}
	for i, a := range p.Actions() {
		rel, err := cleanRel(a.Path)
		if err != nil {
			return nil, err
		}
		if err := claim(rel, fmt.Sprintf("action %d %s", i+1, a.Kind)); err != nil {
			return nil, err
		}
		c, skip, err := e.actionChange(rel, a)
		if err != nil {
			return nil, err
		}
		if !skip {
			out = append(out, c)
		}
	}
	if patch := p.EffectivePatch(); strings.TrimSpace(patch) != "" {
		pcs, err := e.patchChanges(patch)
		if err != nil {
			return nil, err
		}
		for _, c := range pcs {
			if err := claim(c.Path, "the patch"); err != nil {
				return nil, err
			}
		}
		out = append(out, pcs...)
	}
	if err := e.checkDirDeletes(out); err != nil {
		return nil, err
	}
	order(out)
	e.shade(out)
	for i := range out {
		out[i].memo()
		flag(&out[i])
	}
	return out, nil
}

// stat describes what is at rel now.
type stat struct {
	exists, dir bool
	mode        fs.FileMode
	data        []byte
}

func (e *Engine) look(rel, _ string, read bool) (stat, error) {
	fi, err := e.r.Lstat(name(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return stat{}, nil
	}
	if err != nil {
		return stat{}, &plan.Error{Code: plan.ErrIO, Msg: "cannot inspect " + rel, Err: err, Paths: []string{rel}}
	}
	s := stat{exists: true, dir: fi.IsDir(), mode: fi.Mode().Perm()}
	if !s.dir && !fi.Mode().IsRegular() {
		return s, &plan.Error{Code: plan.ErrInvalidInput, Msg: rel + " is not a regular file", Paths: []string{rel}}
	}
	if read && !s.dir {
		if s.data, err = readIn(e.r, name(rel)); err != nil {
			if errors.Is(err, errTooBig) {
				return s, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("%s is over %d MiB: fixplan does not change files that large", rel, MaxFileBytes>>20), Err: err, Paths: []string{rel}}).
					WithHint("change it by hand, or re-plan asking the model to leave it alone")
			}
			return s, &plan.Error{Code: plan.ErrIO, Msg: "cannot read " + rel, Err: err, Paths: []string{rel}}
		}
	}
	return s, nil
}

func (e *Engine) actionChange(rel string, a plan.Action) (Change, bool, error) {
	abs, err := e.checkTarget(rel)
	if err != nil {
		return Change{}, false, err
	}
	cur, err := e.look(rel, abs, true)
	if err != nil {
		return Change{}, false, err
	}
	c := Change{Path: rel, Existed: cur.exists, Before: cur.data, BeforeMode: cur.mode}
	if cur.exists && !cur.dir {
		c.BeforeSHA256 = sum(cur.data)
	}
	content := func() ([]byte, error) {
		if a.Content == nil {
			return nil, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("%s of %s has no content", a.Kind, rel), Paths: []string{rel}})
		}
		b := []byte(*a.Content)
		if edit.IsBinary(b) {
			return nil, (&plan.Error{Code: plan.ErrBinaryContent, Msg: "the new content of " + rel + " looks binary (NUL bytes or control characters)", Paths: []string{rel}}).
				WithHint("fixplan only writes text files")
		}
		return b, nil
	}
	switch a.Kind {
	case plan.CreateFile:
		b, err := content()
		if err != nil {
			return c, false, err
		}
		if cur.dir {
			return c, false, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: rel + " already exists as a folder", Paths: []string{rel}})
		}
		if cur.exists {
			if string(edit.ToLF(cur.data)) == string(edit.ToLF(b)) {
				return c, true, nil // identical: nothing to do
			}
			return c, false, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: rel + " already exists with other content", Paths: []string{rel}}).
				WithHint("re-plan: the model should update the existing file instead")
		}
		c.Op, c.After, c.Mode = plan.OpCreate, b, 0o644
	case plan.UpdateFile:
		b, err := content()
		if err != nil {
			return c, false, err
		}
		if !cur.exists || cur.dir {
			return c, false, (&plan.Error{Code: plan.ErrNotFound, Msg: rel + " does not exist, so it cannot be updated", Paths: []string{rel}}).
				WithHint("re-plan, or create the file")
		}
		if err := textFile(rel, cur.data); err != nil {
			return c, false, err
		}
		c.Op, c.After, c.Mode = plan.OpUpdate, edit.Adapt(cur.data, b), cur.mode
		if string(c.After) == string(cur.data) {
			return c, true, nil
		}
	case plan.EditFile:
		if !cur.exists || cur.dir {
			return c, false, (&plan.Error{Code: plan.ErrNotFound, Msg: rel + " does not exist, so it cannot be edited", Paths: []string{rel}}).
				WithHint("re-plan, or create the file with CREATE_FILE")
		}
		if err := textFile(rel, cur.data); err != nil {
			return c, false, err
		}
		after, placements, err := edit.SearchReplace(rel, cur.data, a.Edits)
		if err != nil {
			return c, false, err
		}
		if edit.IsBinary(after) {
			return c, false, (&plan.Error{Code: plan.ErrBinaryContent, Msg: "the edited content of " + rel + " looks binary (NUL bytes or control characters)", Paths: []string{rel}})
		}
		c.Op, c.After, c.Mode, c.Placement = plan.OpUpdate, after, cur.mode, placements
		if string(c.After) == string(cur.data) {
			return c, true, nil
		}
	case plan.DeleteFile:
		if !cur.exists || cur.dir {
			return c, false, (&plan.Error{Code: plan.ErrNotFound, Msg: rel + " does not exist as a file, so it cannot be deleted", Paths: []string{rel}})
		}
		c.Op = plan.OpDelete
	case plan.CreateDir:
		if cur.exists && cur.dir {
			return c, true, nil
		}
		if cur.exists {
			return c, false, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: rel + " already exists as a file", Paths: []string{rel}})
		}
		c.Op, c.Mode = plan.OpMkdir, 0o755
	case plan.DeleteDir:
		if !cur.exists || !cur.dir {
			return c, false, (&plan.Error{Code: plan.ErrNotFound, Msg: rel + " is not an existing folder", Paths: []string{rel}})
		}
		c.Op, c.BeforeMode = plan.OpRmdir, cur.mode
	default:
		return c, false, plan.Errorf(plan.ErrInvalidInput, "unknown action kind %q for %s", a.Kind, rel)
	}
	return c, false, nil
}

// textFile refuses to replace content of files that are not UTF-8 text.
func textFile(rel string, b []byte) error {
	if edit.IsBinary(b) {
		return (&plan.Error{Code: plan.ErrBinaryContent, Msg: rel + " is a binary file", Paths: []string{rel}}).WithHint("fixplan only edits text files")
	}
	if !utf8.Valid(b) {
		return (&plan.Error{Code: plan.ErrNonUTF8File, Msg: rel + " is not UTF-8 text, so its content cannot be replaced safely", Paths: []string{rel}}).
			WithHint("convert the file to UTF-8 or edit it by hand")
	}
	return nil
}

// checkDirDeletes allows DELETE_DIR only for folders that are empty once the
// plan's own deletions inside them are done.
func (e *Engine) checkDirDeletes(cs []Change) error {
	gone := map[string]bool{}
	for _, c := range cs {
		if c.Op == plan.OpDelete || c.Op == plan.OpRmdir {
			gone[c.Path] = true
		}
	}
	for _, c := range cs {
		if c.Op != plan.OpRmdir {
			continue
		}
		var left []string
		_ = fs.WalkDir(e.r.FS(), c.Path, func(rel string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if rel == c.Path {
				return nil
			}
			if !gone[rel] {
				left = append(left, rel)
			}
			return nil
		})
		if len(left) > 0 {
			sort.Strings(left)
			return (&plan.Error{Code: plan.ErrDirNotEmpty, Msg: fmt.Sprintf("folder %s is not empty (%d entries are not deleted by the plan)", c.Path, len(left)), Paths: left}).
				WithHint("only empty folders, or folders whose contents the plan deletes, are removed")
		}
	}
	return nil
}

// order sorts changes into a safe order: folders created parents-first, files,
// then folders removed deepest-first.
func order(cs []Change) {
	rank := func(c Change) int {
		switch c.Op {
		case plan.OpMkdir:
			return 0
		case plan.OpRmdir:
			return 2
		}
		return 1
	}
	sort.SliceStable(cs, func(i, j int) bool {
		ri, rj := rank(cs[i]), rank(cs[j])
		if ri != rj {
			return ri < rj
		}
		switch ri {
		case 0:
			return strings.Count(cs[i].Path, "/") < strings.Count(cs[j].Path, "/")
		case 2:
			return strings.Count(cs[i].Path, "/") > strings.Count(cs[j].Path, "/")
		}
		return false
	})
}

// redactedMark is what redaction puts in place of a secret in what the model sees.
const redactedMark = "[REDACTED]"

// writesRedacted reports a change whose new text holds more [REDACTED] marks than
// the file had: the model copied a redacted secret back, and applying it would
// replace the real secret with the mark.
func writesRedacted(c Change) bool {
	if c.Op != plan.OpCreate && c.Op != plan.OpUpdate {
		return false
	}
	return bytes.Count(c.After, []byte(redactedMark)) > bytes.Count(c.Before, []byte(redactedMark))
}

func flag(c *Change) {
	if writesRedacted(*c) {
		c.Flags = append(c.Flags, "writes [REDACTED]: the model saw a redacted secret and copied the mark back; applying it would replace the real value — untick this file or edit it by hand")
	}
	if (c.Op == plan.OpCreate || c.Op == plan.OpUpdate) && c.Mode.Perm()&0o002 != 0 && c.BeforeMode.Perm()&0o002 == 0 {
		c.Flags = append(c.Flags, fmt.Sprintf("world-writable: the file gets mode %o, so any user of this machine can change it", c.Mode.Perm()))
	}
	if c.Op == plan.OpCreate && c.Mode.Perm()&0o111 != 0 {
		c.Flags = append(c.Flags, fmt.Sprintf("executable: the new file gets mode %o and can be run as a program", c.Mode.Perm()))
	}
	if c.Op == plan.OpUpdate && c.Mode.Perm()&0o111 != 0 && c.BeforeMode.Perm()&0o111 == 0 {
		c.Flags = append(c.Flags, fmt.Sprintf("executable: the file's mode changes from %o to %o, so it can be run as a program", c.BeforeMode.Perm(), c.Mode.Perm()))
	}
	if isLockFile(c.Path) {
		c.Flags = append(c.Flags, "lock file: usually regenerated by the package manager")
	}
	if c.Op == plan.OpUpdate || c.Op == plan.OpCreate || c.Op == plan.OpDelete {
		if changed := c.changedLinesOver(largeChange); changed > largeChange {
			c.Flags = append(c.Flags, fmt.Sprintf("large change: %d lines", changed))
		}
	}
}

func parentDir(p string) string { return filepath.Dir(p) }
