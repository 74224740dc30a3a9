package main

import (
	"strconv"
	"strings"

	"fixplan/apply"
	"fixplan/plan"
)

// Hunk selections: `apply --hunks PATH:N,N-M` and `plan --replan ID --reject PATH:N,N`
// name hunks by the numbers apply --show-hunks prints.

// maxHunkNumber bounds hunk numbers and how many one --hunks value may list: a
// change is at most apply.MaxUserContent bytes, so it never has more hunks than
// this, and a range ending near the largest int no longer overflows the loop.
const maxHunkNumber = 1 << 20

// parseHunkSel reads one --hunks PATH:N,N... value.
func parseHunkSel(v string) (apply.FileChoice, error) {
	i := strings.LastIndexByte(v, ':')
	if i <= 0 {
		return apply.FileChoice{}, plan.Errorf(plan.ErrInvalidInput, "--hunks %q: expected PATH:N[,N...]", v).WithHint("e.g. --hunks src/app.py:1,3 (see --show-hunks)")
	}
	fc := apply.FileChoice{Path: v[:i], Hunks: []int{}}
	for _, f := range strings.Split(v[i+1:], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err != nil || a < 1 || b < a || b > maxHunkNumber {
			return apply.FileChoice{}, plan.Errorf(plan.ErrInvalidInput, "--hunks %q: %q is not a hunk number or range", v, f).WithHint("hunks are numbered from 1 (see --show-hunks); a range is N-M")
		}
		if len(fc.Hunks)+(b-a+1) > maxHunkNumber {
			return apply.FileChoice{}, plan.Errorf(plan.ErrInvalidInput, "--hunks %q names more than %d hunks", v, maxHunkNumber).WithHint("list each hunk once (see --show-hunks)")
		}
		for n := a; n <= b; n++ {
			fc.Hunks = append(fc.Hunks, n)
		}
	}
	if len(fc.Hunks) == 0 {
		return apply.FileChoice{}, plan.Errorf(plan.ErrInvalidInput, "--hunks %q names no hunk", v).WithHint("to leave a whole file out, apply the others with --only")
	}
	return fc, nil
}
