package apply

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"

	"fixplan/edit"
	"fixplan/plan"
)

// patchChanges turns a unified diff into changes: cleaned and parsed
// (edit.ParseDiff), and each file's hunks placed against the file on disk
// (edit.Place). A patch in the *** Begin Patch envelope is converted instead
// (codexChanges).
func (e *Engine) patchChanges(patch string) ([]Change, error) {
	if edit.IsBeginPatch(patch) {
		return e.codexChanges(patch) // the *** Begin Patch envelope (codexpatch.go)
	}
	files, err := edit.ParseDiff(patch)
	if err != nil {
		return nil, err
	}
	var out []Change
	seen := map[string]int{}
	for i, f := range files {
		if f.IsBinary {
			return nil, plan.Errorf(plan.ErrBinaryContent, "the patch changes a binary file (%s)", f.NewName)
		}
		cs, err := e.patchFile(f)
		if err != nil {
			return nil, err
		}
		// Each file section is placed against the file on disk, so a second
		// section for the same path would silently drop the first one's hunks.
		for _, c := range cs {
			if j, dup := seen[c.Path]; dup && j != i {
				return nil, (&plan.Error{Code: plan.ErrActionConflict, Msg: fmt.Sprintf("the patch changes %s in two separate sections (%d and %d)", c.Path, j+1, i+1), Paths: []string{c.Path}}).
					WithHint("merge the sections into one per file (all its hunks under one ---/+++ header), or re-plan")
			}
			seen[c.Path] = i
		}
		out = append(out, cs...)
	}
	return out, nil
}

func (e *Engine) patchFile(f *gitdiff.File) ([]Change, error) {
	// Git modes: only regular files (100644, 100755); never a symbolic link
	// (120000) or a submodule (160000), which fixplan would write as a plain file.
	if f.NewMode != 0 && f.NewMode&0o170000 != 0o100000 {
		return nil, (&plan.Error{Code: plan.ErrInvalidInput, Msg: fmt.Sprintf("the patch makes %s a %s (mode %o); fixplan only writes regular files", f.NewName, gitKind(f.NewMode), f.NewMode), Paths: []string{f.NewName}}).
			WithHint("create links and submodules by hand")
	}
	switch {
	case f.IsNew:
		rel, err := cleanRel(f.NewName)
		if err != nil {
			return nil, err
		}
		abs, err := e.checkTarget(rel)
		if err != nil {
			return nil, err
		}
		cur, err := e.look(rel, abs, true)
		if err != nil {
			return nil, err
		}
		after, placements, err := edit.Place(rel, nil, f.TextFragments)
		if err != nil {
			return nil, err
		}
		if edit.IsBinary(after) {
			return nil, plan.Errorf(plan.ErrBinaryContent, "the new content of %s looks binary", rel)
		}
		if cur.exists {
			if !cur.dir && string(edit.ToLF(cur.data)) == string(edit.ToLF(after)) {
				return nil, nil
			}
			return nil, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: rel + " already exists, but the patch creates it", Paths: []string{rel}}).
				WithHint("re-plan: the model should patch the existing file")
		}
		mode := fs.FileMode(0o644)
		if f.NewMode != 0 {
			mode = f.NewMode.Perm()
		}
		return []Change{{Path: rel, Op: plan.OpCreate, After: after, Mode: mode, FromPatch: true, Placement: placements}}, nil
	case f.IsDelete:
		c, err := e.patchExisting(f.OldName, f)
		if err != nil {
			return nil, err
		}
		if len(strings.TrimSpace(string(c.After))) != 0 {
			return nil, (&plan.Error{Code: plan.ErrPatchApplyFailed, Msg: "the patch deletes " + c.Path + " but does not remove all of its lines", Paths: []string{c.Path}}).
				WithHint("re-plan so the model sees the file as it is now")
		}
		c.Op, c.After, c.Mode = plan.OpDelete, nil, 0
		return []Change{c}, nil
	case f.IsRename || (f.OldName != "" && f.NewName != "" && f.OldName != f.NewName):
		c, err := e.patchExisting(f.OldName, f)
		if err != nil {
			return nil, err
		}
		newRel, err := cleanRel(f.NewName)
		if err != nil {
			return nil, err
		}
		abs, err := e.checkTarget(newRel)
		if err != nil {
			return nil, err
		}
		cur, err := e.look(newRel, abs, false)
		if err != nil {
			return nil, err
		}
		// A case-only rename on a case-insensitive disk finds the old file here.
		if cur.exists && !strings.EqualFold(newRel, c.Path) {
			return nil, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: "cannot rename " + c.Path + " to " + newRel + ": it already exists", Paths: []string{newRel}})
		}
		del := c
		del.Op, del.After, del.Mode, del.Placement = plan.OpDelete, nil, 0, nil
		create := Change{Path: newRel, Op: plan.OpCreate, After: c.After, Mode: c.BeforeMode, FromPatch: true, Placement: c.Placement}
		return []Change{del, create}, nil
	default:
		c, err := e.patchExisting(f.NewName, f)
		if err != nil {
			return nil, err
		}
		if string(c.After) == string(c.Before) {
			return nil, nil
		}
		return []Change{c}, nil
	}
}

// patchExisting places f's hunks on the existing file name.
func (e *Engine) patchExisting(name string, f *gitdiff.File) (Change, error) {
	rel, err := cleanRel(name)
	if err != nil {
		return Change{}, err
	}
	abs, err := e.checkTarget(rel)
	if err != nil {
		return Change{}, err
	}
	cur, err := e.look(rel, abs, true)
	if err != nil {
		return Change{}, err
	}
	if !cur.exists || cur.dir {
		return Change{}, (&plan.Error{Code: plan.ErrNotFound, Msg: fmt.Sprintf("the patch changes %s, which does not exist", rel), Paths: []string{rel}}).
			WithHint("re-plan, or check the path")
	}
	if err := textFile(rel, cur.data); err != nil {
		return Change{}, err
	}
	after, placements, err := edit.Place(rel, cur.data, f.TextFragments)
	if err != nil {
		return Change{}, err
	}
	n := 0
	for _, fr := range f.TextFragments {
		n += int(fr.LinesAdded + fr.LinesDeleted)
	}
	return Change{Path: rel, Op: plan.OpUpdate, Before: cur.data, BeforeSHA256: sum(cur.data), BeforeMode: cur.mode,
		Existed: true, After: after, Mode: cur.mode, FromPatch: true, Placement: placements, patchLines: n}, nil
}

func gitKind(m fs.FileMode) string {
	switch m & 0o170000 {
	case 0o120000:
		return "symbolic link"
	case 0o160000:
		return "submodule"
	case 0o040000:
		return "folder"
	}
	return "special file"
}
