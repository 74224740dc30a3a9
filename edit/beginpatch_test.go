package edit

import "testing"

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
		" *** End Patch\n"
	if !ok || got != want {
		t.Fatalf("got %q, %v; want %q", got, ok, want)
	}
}
