package apply

import (
	"fmt"
	"strings"

	"fixplan/edit"
	"fixplan/plan"
)

// codexChanges turns a *** Begin Patch envelope (edit.ParseBeginPatch) into
// changes against the disk: each section's path is confined like every other
// change's, an added or deleted file becomes that action, and an update's
// chunks are placed on the file as it is now (edit.Section.Place).
func (e *Engine) codexChanges(patch string) ([]Change, error) {
	files, err := edit.ParseBeginPatch(patch)
	if err != nil {
		return nil, err
	}
	var out []Change
	seen := map[string]bool{}
	for _, f := range files {
		rel, err := cleanRel(f.Path)
		if err != nil {
			return nil, err
		}
		if seen[rel] {
			return nil, (&plan.Error{Code: plan.ErrActionConflict, Msg: "the patch changes " + rel + " in two separate sections", Paths: []string{rel}}).
				WithHint("put all of a file's chunks under one *** Update File: header, or re-plan")
		}
		seen[rel] = true
		switch f.Op {
		case edit.AddFile:
			content := f.Content()
			c, skip, err := e.actionChange(rel, plan.Action{Kind: plan.CreateFile, Path: rel, Content: &content})
			if err != nil {
				return nil, err
			}
			if !skip {
				c.FromPatch = true
				out = append(out, c)
			}
		case edit.DeleteFile:
			c, _, err := e.actionChange(rel, plan.Action{Kind: plan.DeleteFile, Path: rel})
			if err != nil {
				return nil, err
			}
			c.FromPatch = true
			out = append(out, c)
		case edit.UpdateFile:
			cs, err := e.codexUpdate(rel, f)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	return out, nil
}

// codexUpdate applies the chunks of one *** Update File: section.
func (e *Engine) codexUpdate(rel string, f edit.Section) ([]Change, error) {
	abs, err := e.checkTarget(rel)
	if err != nil {
		return nil, err
	}
	cur, err := e.look(rel, abs, true)
	if err != nil {
		return nil, err
	}
	if !cur.exists || cur.dir {
		return nil, (&plan.Error{Code: plan.ErrNotFound, Msg: fmt.Sprintf("the patch updates %s, which does not exist", rel), Paths: []string{rel}}).
			WithHint("re-plan; a new file is *** Add File:")
	}
	if err := textFile(rel, cur.data); err != nil {
		return nil, err
	}
	after, placements, err := f.Place(rel, cur.data)
	if err != nil {
		return nil, err
	}
	c := Change{Path: rel, Op: plan.OpUpdate, Before: cur.data, BeforeSHA256: sum(cur.data), BeforeMode: cur.mode,
		Existed: true, After: after, Mode: cur.mode, FromPatch: true, Placement: placements}
	newRel := ""
	if f.MoveTo != "" {
		if newRel, err = cleanRel(f.MoveTo); err != nil {
			return nil, err
		}
	}
	if newRel == "" || newRel == rel { // a move onto the file's own path is no move
		if string(after) == string(cur.data) {
			return nil, nil
		}
		return []Change{c}, nil
	}
	nabs, err := e.checkTarget(newRel)
	if err != nil {
		return nil, err
	}
	there, err := e.look(newRel, nabs, false)
	if err != nil {
		return nil, err
	}
	if there.exists && !strings.EqualFold(newRel, rel) {
		return nil, (&plan.Error{Code: plan.ErrAlreadyExists, Msg: "cannot move " + rel + " to " + newRel + ": it already exists", Paths: []string{newRel}})
	}
	del := c
	del.Op, del.After, del.Mode, del.Placement = plan.OpDelete, nil, 0, nil
	create := Change{Path: newRel, Op: plan.OpCreate, After: after, Mode: cur.mode, FromPatch: true, Placement: placements}
	return []Change{del, create}, nil
}
