package edit

import (
	"path"
	"strings"
	"testing"
)

// A section header with white space before it is dropped with its section; a
// context line that reads like a header stays in its section.
func TestDropBeginPatchFilesReadsMarkersAsTheParserDoes(t *testing.T) {
	env := "*** Begin Patch\n" +
		"*** Add File: keep.txt\n+k\n" +
		"  *** Add File: gone.txt\n+g\n" +
		"*** Update File: a.txt\n@@\n one\n *** Update File: gone.txt\n-two\n+TWO\n" +
		" *** End Patch\n"
	got, ok := DropBeginPatchFiles(env, map[string]bool{"gone.txt": true})
	want := "*** Begin Patch\n" +
		"*** Add File: keep.txt\n+k\n" +
		"*** Update File: a.txt\n@@\n one\n *** Update File: gone.txt\n-two\n+TWO\n" +
		"*** End Patch\n"
	if !ok || got != want {
		t.Fatalf("got %q, %v; want %q", got, ok, want)
	}
}

// FuzzBeginPatch feeds arbitrary envelopes to the parser and to dropping a
// section: no panic; dropping no file keeps an envelope as it is, and dropping
// one file leaves an envelope the parser reads without that file's sections.
func FuzzBeginPatch(f *testing.F) {
	f.Add("*** Begin Patch\n  *** Add File: a\n+x\n*** Update File: b\n@@\n-o\n+n\n\t*** End of File\n\n *** End Patch\n", "a")
	f.Add("*** Begin Patch\n*** Update File: a\n *** Update File: b\n-c\n*** End Patch", "b")
	f.Add("*** Begin Patch\n*** Update File: x\n@@\n-o\n+n\n*** Add File: a\n+1\n  *** Update File: b\n@@\n-p\n+q\n*** End Patch\n", "a")
	f.Fuzz(func(t *testing.T, patch, drop string) {
		files, err := ParseBeginPatch(patch)
		if err != nil {
			return
		}
		if got, ok := DropBeginPatchFiles(patch, map[string]bool{}); !ok || got != patch {
			t.Fatalf("dropping nothing changed the envelope: %q", got)
		}
		got, _ := DropBeginPatchFiles(patch, map[string]bool{drop: true})
		if got == "" {
			return
		}
		left, err := ParseBeginPatch(got)
		if err != nil {
			t.Fatalf("dropping %q left an envelope the parser refuses: %v\n%q", drop, err, got)
		}
		n := 0
		for _, s := range files {
			if path.Clean(strings.ReplaceAll(s.Path, `\`, "/")) != drop {
				n++
			}
		}
		if len(left) != n {
			t.Fatalf("dropping %q left %d sections, want %d\n%q", drop, len(left), n, got)
		}
	})
}
