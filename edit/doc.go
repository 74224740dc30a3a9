// Package edit turns a model's edit and the bytes of the file it edits into the
// file's new bytes, with a note on where each part was placed, or into a refusal
// that says why and shows the closest lines of the file. It also computes the
// unified diff fixplan shows for a change and numbers and selects its hunks.
//
// Everything here is text work on bytes the caller already holds: no file is
// read or written, and nothing here knows about projects, transactions or the
// engine (package apply) that calls it. Errors are *plan.Error.
//
// One file per kind of edit:
//
//   - clean.go: a model's unified diff normalised and parsed (ParseDiff);
//   - place.go: a unified diff's hunks placed on a file (Place), exactly, at an
//     offset, or ignoring whitespace;
//   - searchreplace.go: search/replace pairs (SearchReplace), matched in layers;
//   - beginpatch.go: the *** Begin Patch envelope (ParseBeginPatch, Section.Place);
//   - indent.go: added lines re-indented to the file's indentation;
//   - closest.go: the closest lines of a file, for refusals;
//   - unified.go: the unified diff of two texts (Unified);
//   - hunks.go: its hunks numbered (HunksOf, ParseHunks) and a selection of them
//     applied (SelectHunks);
//   - text.go: binary and line-ending helpers.
//
// Its placement cases are data: testdata/cases holds one txtar file per case
// (the files before, the edit, the files after or the refusal), and TestCases
// runs them all; testdata/cases/README.md describes the format.
package edit
