package rules

import (
	"fmt"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// TestScopedRulesReadOnlyTheirFrontMatter: a folder of big Cursor rules whose
// globs match no file in play costs a few KiB each (their front matter), not
// their whole size; an applying file is read whole once; and when maxRuleFiles
// files are already used, the rest of the folder is not opened at all.
func TestScopedRulesReadOnlyTheirFrontMatter(t *testing.T) {
	root := t.TempDir()
	big := strings.Repeat("a long paragraph of rules that nobody needs here\n", 40000) // ~2 MiB
	files := map[string]string{"app/x.py": "x = 1\n"}
	for i := range 10 {
		files[fmt.Sprintf(".cursor/rules/n%02d.mdc", i)] = "---\nglobs: nomatch/**\n---\n" + big
	}
	files[".cursor/rules/p.mdc"] = "---\nglobs: app/**\n---\nUse snake_case.\n"
	testtree.Write(t, root, files)
	heads, wholes := map[string]int{}, map[string]int{}
	ruleReadHook = func(rel string, whole bool) {
		if whole {
			wholes[rel]++
		} else {
			heads[rel]++
		}
	}
	t.Cleanup(func() { ruleReadHook = nil })

	proj := projfstest.Open(t, root, projfs.Options{})
	got := Files(proj, []string{"app/x.py"})
	if strings.Join(got, " ") != ".cursor/rules/p.mdc" {
		t.Errorf("RuleFiles = %q, want only the applying rule", got)
	}
	for i := range 10 {
		n := fmt.Sprintf(".cursor/rules/n%02d.mdc", i)
		if wholes[n] != 0 || heads[n] != 1 {
			t.Errorf("%s (globs match nothing) read whole %d times, its front matter %d times; want 0 and 1", n, wholes[n], heads[n])
		}
	}
	if p := ".cursor/rules/p.mdc"; wholes[p] != 1 {
		t.Errorf("the applying rule was read whole %d times, want 1", wholes[p])
	}

	// 20 applying instructions: the first maxRuleFiles are used, the others
	// and the Cursor rules after them are not opened
	clear(heads)
	clear(wholes)
	files = map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf(".github/instructions/z%02d.instructions.md", i)] = "---\napplyTo: \"**\"\n---\nrule " + fmt.Sprint(i) + "\n"
	}
	testtree.Write(t, root, files)
	if got := Files(proj, []string{"app/x.py"}); len(got) != maxRuleFiles {
		t.Fatalf("RuleFiles = %d files %q, want %d", len(got), got, maxRuleFiles)
	}
	for rel, n := range wholes {
		if n > 1 {
			t.Errorf("%s read whole %d times", rel, n)
		}
	}
	for rel := range files {
		var i int
		fmt.Sscanf(rel, ".github/instructions/z%02d", &i)
		if i >= maxRuleFiles && heads[rel]+wholes[rel] != 0 {
			t.Errorf("%s opened after %d rules files were used", rel, maxRuleFiles)
		}
	}
	for rel := range heads {
		if strings.HasPrefix(rel, ".cursor/") {
			t.Errorf("%s opened after %d rules files were used", rel, maxRuleFiles)
		}
	}
}
