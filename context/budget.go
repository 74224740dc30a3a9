package codectx

import (
	"fmt"
	"sort"

	"fixplan/context/section"
	"fixplan/plan"
	"fixplan/redact"
)

// dropCovered drops file sections whose lines an earlier section already shows
// (after the per-section cap maxBody: a whole file cut at the cap does not
// show its end).
func dropCovered(cands []section.Candidate, maxBody int) []section.Candidate {
	shown := map[string][]section.LineRange{}
	out := cands[:0:0]
	for _, c := range cands {
		if c.Seen == nil {
			out = append(out, c)
			continue
		}
		prev := shown[c.Seen.Path]
		covered := true
		for _, r := range c.Ranges {
			in := false
			for _, p := range prev {
				if p.From <= r.From && r.To <= p.To {
					in = true
					break
				}
			}
			covered = covered && in
		}
		if covered && len(prev) > 0 {
			continue
		}
		shown[c.Seen.Path] = mergeRanges(append(prev, c.Shown(maxBody)...))
		out = append(out, c)
	}
	return out
}

// budget caps each section, then the total, redacts, and records what was seen.
func (g *Gatherer) budget(cands []section.Candidate, warnings []string) plan.Gathered {
	out := plan.Gathered{Sections: []plan.Section{}, Seen: []plan.SeenFile{}, Warnings: warnings}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	left := g.opts.MaxTotalBytes
	seenAt := map[string]int{}
	for _, c := range cands {
		body, n := c.Sec.Body, c.Redactions
		if !c.Redacted {
			body, n = redact.Text(body)
		}
		capped := section.Cap(body, g.opts.MaxResultBytes)
		if len(c.Sec.Title)+len(capped) > left {
			room := left - len(c.Sec.Title)
			if room < 256 {
				out.Warnings = append(out.Warnings, fmt.Sprintf("context budget reached: section %q left out", c.Sec.Title))
				continue
			}
			capped = section.Cap(capped, room)
		}
		left -= len(c.Sec.Title) + len(capped)
		out.Redactions += n
		out.Sections = append(out.Sections, plan.Section{Title: c.Sec.Title, Body: capped})
		if c.Seen != nil {
			s := *c.Seen
			if capped != body {
				s.Whole = false
			}
			if i, ok := seenAt[s.Path]; ok {
				out.Seen[i].Whole = out.Seen[i].Whole || s.Whole
				continue
			}
			seenAt[s.Path] = len(out.Seen)
			out.Seen = append(out.Seen, s)
		}
	}
	return out
}

// mergeRanges sorts rs and merges the ranges that overlap or touch.
func mergeRanges(rs []section.LineRange) []section.LineRange {
	sort.Slice(rs, func(i, j int) bool { return rs[i].From < rs[j].From })
	var out []section.LineRange
	for _, r := range rs {
		if k := len(out) - 1; k >= 0 && r.From <= out[k].To+1 {
			out[k].To = max(out[k].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return out
}

// windows returns the ranges ±n lines around each center, clamped to [1,total]
// and merged where they overlap or touch, in file order.
func windows(centers []int, n, total int) []section.LineRange {
	var rs []section.LineRange
	for _, c := range centers {
		if c < 1 || c > total {
			continue
		}
		rs = append(rs, section.LineRange{From: max(1, c-n), To: min(total, c+n)})
	}
	return mergeRanges(rs)
}
