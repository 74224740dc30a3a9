package defs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/context/frames"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// TestSections looks definitions up from given failure points, without a
// trace to parse: the fixtures' failing lines, in each language.
func TestSections(t *testing.T) {
	tests := []struct {
		fixture string
		req     Request
		want    [][]string // parts of the titles of sections that must be there, in rank order
		not     []string   // parts of titles that must not
	}{
		{"go", Request{Tests: []frames.Location{{File: "cart_test.go", Line: 10}}}, [][]string{
			{"File total.go", "definition of Total", "used at cart_test.go:10"},
			{"File internal/round/round.go", "definition of Half", "used by Total in total.go"},
		}, []string{"report/report.go", "definition of TestTotal"}},
		{"py", Request{Frames: []frames.Location{{File: "tests/test_checkout.py", Line: 8}}}, [][]string{
			{"File app/pricing.py", "definition of discount", "used at tests/test_checkout.py:8"},
			{"File support/orders.py", "definition of make_order"},
			{"File app/pricing.py", "definition of RATE_CAP", "used by discount in app/pricing.py"},
		}, nil},
		{"ts", Request{Frames: []frames.Location{{File: "test/checkout.test.ts", Line: 8}}}, [][]string{
			{"File src/cart.ts", "definition of cartTotal", "used at test/checkout.test.ts:8"},
			{"File src/format.ts", "definition of formatPrice"},
		}, []string{"definition of expect", "definition of describe"}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			root := t.TempDir()
			if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "defs", tt.fixture))); err != nil {
				t.Fatal(err)
			}
			files := projfstest.Open(t, root, projfs.Options{})
			tt.req.MaxResultBytes, tt.req.MaxTotalBytes = 24*1024, 96*1024
			cands, warnings := Sections(context.Background(), files, tt.req)
			got := result{cands, warnings}
			last := -1
			for _, parts := range tt.want {
				at := -1
				for i := range cands {
					if _, ok := (result{sections: cands[i : i+1]}).find(parts...); ok {
						at = i
						break
					}
				}
				if at < 0 {
					t.Errorf("no section %q; sections:\n%s", parts, got.titles())
				} else if at < last {
					t.Errorf("section %q ranked before the one above it:\n%s", parts, got.titles())
				}
				last = max(last, at)
			}
			for _, part := range tt.not {
				if strings.Contains(got.titles(), part) {
					t.Errorf("a section %q was shown:\n%s", part, got.titles())
				}
			}
			for _, c := range cands {
				if !c.Redacted || c.Seen == nil || len(c.Ranges) != 1 {
					t.Errorf("section %q: redacted %v, seen %v, ranges %v", c.Sec.Title, c.Redacted, c.Seen, c.Ranges)
				}
			}
		})
	}
}
