package codectx

import (
	"context"
	"strings"
	"testing"

	"fixplan/plan"
)

// TestFulfilSearchFormat pins the text the model receives for a search request.
func TestFulfilSearchFormat(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"m.py": "a\nb\nneedle = 1\nc\nd\ne\nf\ng\nneedle = 2\nh\n",
		"n.py": "token = 'abcdef123456'  # needle\n",
	})
	g := newGatherer(t, root, Options{MaxSearchResults: 2})
	res := g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqSearch, Query: ptr("needle"), Glob: ptr("*.py")})
	want := `search "needle" glob "*.py": 3 matches in 2 files (showing the first 2; narrow the query or the glob for more)
m.py-1- a
m.py-2- b
m.py:3: needle = 1
m.py-4- c
m.py-5- d
--
m.py-7- f
m.py-8- g
m.py:9: needle = 2
m.py-10- h
`
	if !res.OK || res.Text != want {
		t.Errorf("got OK=%v %q\n%s\nwant\n%s", res.OK, res.Error, res.Text, want)
	}
	res = g.Fulfil(context.Background(), plan.ProblemInput{}, plan.ContextRequest{Type: plan.ReqSearch, Query: ptr("needle"), Glob: ptr("n.py")})
	if !res.OK || strings.Contains(res.Text, "abcdef123456") || res.Redactions != 1 {
		t.Errorf("search result not Redacted: %q (%d)", res.Text, res.Redactions)
	}
}
