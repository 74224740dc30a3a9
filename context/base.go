package codectx

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"fixplan/context/defs"
	"fixplan/context/frames"
	"fixplan/context/rules"
	"fixplan/context/section"
	"fixplan/plan"
	"fixplan/projfs"
)

const (
	maxWindowFiles  = 8  // files shown around frames
	maxFailingTests = 3  // failing tests looked up
	maxFramesListed = 60 // frames listed in the "Stack frames" section
)

// Base gathers the base context (docs/CONTRACT.md §6) for one problem: env, project prefs
// from memory, recent files, logs, resolved stack-trace windows and failing-test
// heuristics. Sections are what the model receives, highest priority first (env,
// prefs, frames, the project's rules for AI tools (rules.go), project code
// windows, failing tests, definitions, uncommitted changes (gitrepo), logs,
// recent files, library windows); each is capped at MaxResultBytes and the whole at
// MaxTotalBytes. Seen lists files whose content was included (Whole=false for
// windows). A log that cannot be read becomes a warning. It fails only when ctx
// is done.
func (g *Gatherer) Base(ctx context.Context, in plan.ProblemInput) (plan.Gathered, error) {
	var cands []section.Candidate
	var warnings []string
	add := func(title, body string) {
		cands = append(cands, section.Candidate{Sec: plan.Section{Title: title, Body: body}})
	}
	tree := g.tree()
	g.keepListing(in, tree)
	// git status (the recent files) runs beside the rest from the start
	recent := later(func() string { return g.recentFiles(ctx, tree) })

	add("Environment", g.Env(ctx))
	if prefs, _ := g.projectMemory(); len(prefs) > 0 {
		var b strings.Builder
		for _, k := range []string{plan.KeyDefaultTestCommand, plan.KeyDefaultLintCommand, plan.KeyDefaultFormatCommand, plan.KeyDefaultBuildCommand, plan.KeyNotes} {
			if v, ok := prefs[k]; ok {
				fmt.Fprintf(&b, "%s: %s\n", k, v)
			}
		}
		add("Project preferences", b.String())
	}

	// logs are read once: their text feeds the frames and failing tests too
	var logSecs []section.Candidate
	traceText := in.Problem
	for _, l := range g.allLogs(in) {
		text, from, err := g.logText(l)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("log %s: %s", l.Source, projfs.Reason(err)))
			continue
		}
		red, n := redactedTail(text, g.opts.LogLastN)
		body := strings.Join(red.lines, "\n") + "\n"
		traceText += "\n" + body
		logSecs = append(logSecs, section.Candidate{Sec: plan.Section{
			Title: fmt.Sprintf("Log %s (%s, last %d of %d lines)", l.Source, from, len(red.lines), red.total), Body: body},
			Redacted: true, Redactions: n})
	}

	res := frames.NewResolver(tree)
	resolved := res.Trace(ctx, traceText)
	if len(resolved) > 0 {
		add("Stack frames", framesList(resolved))
	}
	rulesAt := len(cands) // the project's rules come right after the frames list
	win, lib := g.frameWindows(resolved, &warnings)
	cands = append(cands, win...)
	cands = append(cands, g.failingTestSections(ctx, traceText, res, &warnings)...)
	inPlay := filesShown(cands[rulesAt:]) // the files of the frames and failing tests
	// the recent changes (git diff, the files in play first) beside the definitions
	diff := later(func() gitChanges { c, ok := g.gitDiffSection(ctx, inPlay); return gitChanges{c, ok} })
	// the definitions the failing lines use come before the windows of farther
	// frames' files (a failure across many test files fills the budget with them)
	defsAt := len(cands)
	if len(win) > 1 {
		defsAt = rulesAt + 1
	}
	cands = slices.Insert(cands, defsAt, g.definitionSections(ctx, cands, resolved, traceText, res, tree, &warnings)...)
	if !g.opts.NoProjectRules {
		if c, ok := rules.Section(g.files, inPlay, g.opts.MaxTotalBytes); ok {
			cands = slices.Insert(cands, rulesAt, c)
		}
	}
	if w := g.git.Refusal(); w != "" {
		warnings = append(warnings, w)
	}
	if d := diff(); d.ok {
		cands = append(cands, d.c)
	}
	cands = append(cands, logSecs...)
	if rf := recent(); rf != "" {
		add("Recent files", rf)
	}
	cands = append(cands, lib...)
	if err := ctx.Err(); err != nil {
		return plan.Gathered{}, fmt.Errorf("gather base context: %w", err)
	}
	return g.budget(dropCovered(cands, g.opts.MaxResultBytes), warnings), nil
}

// gitChanges is the recent-changes section, when there is one.
type gitChanges struct {
	c  section.Candidate
	ok bool
}

// later runs f on a goroutine of its own and returns what waits for its
// result: git runs beside the reading and parsing of a base context.
func later[T any](f func() T) func() T {
	c := make(chan T, 1)
	go func() { c <- f() }()
	return sync.OnceValue(func() T { return <-c })
}

// tree is one listing of the project's files, made when first needed, for
// every reader of it in one base context: the frames' file index, the failing
// tests' definitions, the definitions' message and name searches, and (where
// git gives no status) the recent files, for which it keeps the files' times
// when there is no repository (a repository git may not be run on, which
// takes a look through its .git to tell, has them stat-ed after the listing).
func (g *Gatherer) tree() *projfs.Tree {
	return g.files.Tree(projfs.TreeOptions{ModTimes: !g.git.Found()})
}

// keepListing keeps the base context's listing of the project for the model's
// search requests of the same plan (Fulfil with the same input): the tree is
// walked once per plan, not once more for each search. A search looks through
// the files listed when the plan's base context was gathered, read as they are
// when it runs (a file removed since is skipped; one created since is not
// searched until the next plan).
func (g *Gatherer) keepListing(in plan.ProblemInput, tree *projfs.Tree) {
	g.listing.Lock()
	defer g.listing.Unlock()
	g.listing.key, g.listing.tree = inputKey(in), tree
}

// listingFor is the listing the base context of in made, or nil when the last
// base context was gathered for another input.
func (g *Gatherer) listingFor(in plan.ProblemInput) *projfs.Tree {
	g.listing.Lock()
	defer g.listing.Unlock()
	if g.listing.tree == nil || g.listing.key != inputKey(in) {
		return nil
	}
	return g.listing.tree
}

// inputKey tells one problem input from another (a digest of all of it).
func inputKey(in plan.ProblemInput) [sha256.Size]byte {
	b, _ := json.Marshal(in)
	return sha256.Sum256(b)
}

// filesShown lists the project files the candidates show, in order, once each.
func filesShown(cands []section.Candidate) []string {
	var out []string
	for _, c := range cands {
		if c.Seen != nil && !slices.Contains(out, c.Seen.Path) {
			out = append(out, c.Seen.Path)
		}
	}
	return out
}

// framesList renders the frames with what each resolved to.
func framesList(rs []frames.ResolvedFrame) string {
	var b strings.Builder
	for i, r := range rs {
		if i == maxFramesListed {
			fmt.Fprintf(&b, "…[%d more frames]\n", len(rs)-i)
			break
		}
		loc := fmt.Sprintf("%s:%d", r.Path, r.Line)
		if r.Column > 0 {
			loc += fmt.Sprintf(":%d", r.Column)
		}
		switch {
		case r.File != "":
			fmt.Fprintf(&b, "%s → %s\n", loc, r.File)
		case r.Library:
			fmt.Fprintf(&b, "%s (library)\n", loc)
		default:
			fmt.Fprintf(&b, "%s (not found in the project)\n", loc)
		}
	}
	return b.String()
}

// frameWindows builds the ±WindowLines windows around the resolved frames: one
// section per file, files in order of first appearance, overlapping windows merged.
// Project files come back in win; files of library frames inside the root in lib.
func (g *Gatherer) frameWindows(rs []frames.ResolvedFrame, warnings *[]string) (win, lib []section.Candidate) {
	var order []string
	lines := map[string][]int{}
	isLib := map[string]bool{}
	for _, r := range rs {
		if r.File == "" {
			continue
		}
		if _, ok := lines[r.File]; !ok {
			order = append(order, r.File)
			isLib[r.File] = r.Library
		}
		lines[r.File] = append(lines[r.File], r.Line)
	}
	sort.SliceStable(order, func(i, j int) bool { return !isLib[order[i]] && isLib[order[j]] })
	for i, f := range order {
		if i == maxWindowFiles {
			*warnings = append(*warnings, fmt.Sprintf("%d more files with frames were not shown", len(order)-i))
			break
		}
		if rules.IsRuleFile(f) {
			// its text reaches the model only as PROJECT RULES (and not at all
			// with the rules off); the model may still ask to read it
			*warnings = append(*warnings, fmt.Sprintf("%s is a project rules file: no window around its frame is shown", f))
			continue
		}
		c, err := g.windowSection(f, lines[f], g.opts.WindowLines, g.opts.WindowLines, "around the stack frames")
		if err != nil {
			*warnings = append(*warnings, projfs.Reason(err))
			continue
		}
		if isLib[f] {
			lib = append(lib, c)
		} else {
			win = append(win, c)
		}
	}
	return win, lib
}

// windowSection reads file and shows the lines [c-before, c+after] around each
// center, merged, with line numbers.
func (g *Gatherer) windowSection(file string, centers []int, before, after int, why string) (section.Candidate, error) {
	ft, err := g.files.ReadText(file)
	if err != nil {
		return section.Candidate{}, err
	}
	rel, all := ft.Real, ft.Lines
	var rs []section.LineRange
	for _, c := range centers {
		c = min(max(c, 1), len(all))
		rs = append(rs, section.LineRange{From: max(1, c-before), To: min(len(all), c+after)})
	}
	rs = mergeRanges(rs)
	var b strings.Builder
	var spans []string
	shown, n := 0, 0
	for i, r := range rs {
		if i > 0 {
			b.WriteString("…\n")
		}
		b.WriteString(section.Numbered(all, r.From, r.To))
		spans = append(spans, fmt.Sprintf("%d-%d", r.From, r.To))
		shown += r.To - r.From + 1
		n += ft.Red.In(r.From, r.To)
	}
	whole := shown == len(all)
	title := fmt.Sprintf("File %s lines %s of %d (%s)", rel, strings.Join(spans, ", "), len(all), why)
	return section.Candidate{Sec: plan.Section{Title: title, Body: b.String()}, Seen: &plan.SeenFile{Path: rel, Whole: whole}, Ranges: rs,
		Redacted: true, Redactions: n}, nil
}

// definitionSections returns the definitions the failure points use
// (defs.Sections: the failing frames' lines, then the failing tests'), after
// the sections in have and within the definitions' budget.
func (g *Gatherer) definitionSections(ctx context.Context, have []section.Candidate, resolved []frames.ResolvedFrame, text string, res *frames.Resolver,
	tree *projfs.Tree, warnings *[]string) []section.Candidate {
	if g.opts.NoDefinitions {
		return nil
	}
	frameAt, testAt := res.Points(ctx, resolved, text, maxFailingTests)
	cands, warns := defs.Sections(ctx, g.files, defs.Request{Frames: frameAt, Tests: testAt, Text: text, Have: have,
		MaxResultBytes: g.opts.MaxResultBytes, MaxTotalBytes: g.opts.MaxTotalBytes, Tree: tree})
	*warnings = append(*warnings, warns...)
	return cands
}

// failingTestSections finds the failing tests named in text, their definitions
// and, by naming convention, the modules under test.
func (g *Gatherer) failingTestSections(ctx context.Context, text string, res *frames.Resolver, warnings *[]string) []section.Candidate {
	tests := frames.FailingTests(text)
	if len(tests) > maxFailingTests {
		tests = tests[:maxFailingTests]
	}
	var out []section.Candidate
	shown := map[string]bool{}
	for _, t := range tests {
		def, ok := res.TestDefinition(ctx, t, text)
		if !ok {
			*warnings = append(*warnings, fmt.Sprintf("failing test %s: definition not found in the project", t.Name))
			continue
		}
		c, err := g.windowSection(def.File, []int{def.Line}, 5, g.opts.WindowLines, "failing test "+t.Name)
		if err == nil {
			out = append(out, c)
		}
		if shown[def.File] {
			continue
		}
		shown[def.File] = true
		mod := ""
		for _, cand := range frames.ModuleUnderTest(def.File) {
			if st, err := g.files.Stat(cand); err == nil && st.Mode().IsRegular() {
				mod = cand
				break
			}
		}
		if mod == "" {
			if cands := frames.ModuleUnderTest(path.Base(def.File)); len(cands) > 0 {
				mod = res.BestSuffix(ctx, cands[0])
			}
		}
		if mod == "" || shown[mod] {
			continue
		}
		shown[mod] = true
		c, err = g.windowSection(mod, []int{1}, 0, 1<<30, "module under test of "+def.File)
		if err == nil {
			out = append(out, c)
		}
	}
	return out
}
