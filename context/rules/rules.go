// Package rules finds the project's own instructions for AI tools (AGENTS.md,
// CLAUDE.md and its @imports, GEMINI.md, Copilot's, Cursor's, Cline's and
// Windsurf's rules files) that apply to the files in play, and builds the
// "Project rules" section of the base context from them (Section). The session
// frames that section as conventions that never override fixplan's rules;
// other sections leave these files out (IsRuleFile).
package rules

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fixplan/context/section"
	"fixplan/plan"
	"fixplan/projfs"

	yaml "go.yaml.in/yaml/v3"
)

// Title starts the title of the base-context section that carries the
// project's own instructions for AI tools; the rest of the title lists the files
// used ("Project rules (AGENTS.md, .cursorrules)"). The session frames that
// section as conventions that never override fixplan's rules.
const Title = "Project rules"

// Bounds of the rules section: a file is cut after maxRuleFileBytes, at most
// maxRuleFiles files are used, and the whole section gets at most
// maxRulesBytes (and never more than an eighth of the total budget).
const (
	maxRuleFiles     = 12
	maxRuleFileBytes = 6 * 1024
	maxRulesBytes    = 12 * 1024
	maxRuleListing   = 64 // entries of a rules folder looked at
)

// nestedRuleNames are the instruction files read in sub-folders too: the one
// nearest to a file in play applies to it (AGENTS.md's convention; Claude Code
// and Gemini CLI read theirs the same way).
var nestedRuleNames = []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}

// rootRuleSources are the instruction files of the project root, in order of
// precedence. A dir entry stands for every regular file of that folder, sorted
// by name, whose name ends in suffix.
var rootRuleSources = []struct {
	name   string
	dir    bool
	suffix string
	// scoped files carry front matter (applyTo:, globs:, alwaysApply:) saying
	// which files they apply to.
	scoped bool
}{
	{name: "AGENTS.md"},
	{name: "CLAUDE.md"},
	{name: "CLAUDE.local.md"},
	{name: "GEMINI.md"},
	{name: "CONVENTIONS.md"},
	{name: ".github/copilot-instructions.md"},
	{name: ".github/instructions", dir: true, suffix: ".instructions.md", scoped: true},
	{name: ".cursorrules"},
	{name: ".cursor/rules", dir: true, suffix: ".mdc", scoped: true},
	{name: ".clinerules"}, // a file, or a folder of files (below)
	{name: ".clinerules", dir: true},
	{name: ".windsurfrules"},
}

// IsRuleFile reports whether rel (root-relative, slash-separated) is one of the
// files Files may read: AGENTS.md, CLAUDE.md or GEMINI.md in any folder, a
// root instruction file, or a file of a root rules folder. Names are compared
// without case (a case-insensitive file system reads agents.md as AGENTS.md).
// Other sections leave these files' text out: it reaches the model only inside
// the PROJECT RULES framing, and not at all with the rules switched off.
func IsRuleFile(rel string) bool {
	base, dir := path.Base(rel), path.Dir(rel)
	for _, n := range nestedRuleNames {
		if strings.EqualFold(base, n) {
			return true
		}
	}
	for _, src := range rootRuleSources {
		if strings.EqualFold(rel, src.name) ||
			(src.dir && strings.EqualFold(dir, src.name) && len(base) >= len(src.suffix) && strings.EqualFold(base[len(base)-len(src.suffix):], src.suffix)) {
			return true
		}
	}
	return false
}

// ruleFile is one instruction file chosen for the rules section.
type ruleFile struct {
	path string // root-relative, as found
	why  string // "nearest to app/x.py", "root", "applies to app/x.py"
	text string // redacted
	same string // the earlier file with the same text, if any
	n    int    // redactions in text
}

// project is the project the rules files are read from.
type project struct{ files *projfs.Root }

// maxInPlay is how many files in play are looked at (as many as the base
// context shows windows of).
const maxInPlay = 8

// Files lists the project's instruction files for AI tools that apply to the
// files in play (root-relative paths, e.g. the files of the failing frames), in
// order of precedence:
//
//  1. for each file in play, AGENTS.md, CLAUDE.md and GEMINI.md in its folder and
//     then each parent folder below the root (nearest first: for AGENTS.md "the
//     closest one to the edited file wins");
//  2. at the root: AGENTS.md, CLAUDE.md, CLAUDE.local.md, GEMINI.md,
//     CONVENTIONS.md, .github/copilot-instructions.md,
//     .github/instructions/*.instructions.md (those whose applyTo matches a file in
//     play, or all files), .cursorrules, .cursor/rules/*.mdc (alwaysApply, or globs
//     matching a file in play), .clinerules (a file, or every file of the folder
//     sorted by name), .windsurfrules.
//
// A CLAUDE.md or CLAUDE.local.md is followed by the files its @path imports
// name (Claude Code's convention), relative to it, up to maxRuleImportDepth
// levels deep, each file once.
//
// Every file is read through the root like any other context (no link out of
// the project, no secret or protected file), redacted, and cut to a few KiB; a
// file whose text repeats an earlier one (CLAUDE.md linked to AGENTS.md) is named
// but not repeated. Files that cannot be read are left out.
func Files(files *projfs.Root, inPlay []string) []string {
	var out []string
	for _, r := range (project{files}).ruleFiles(inPlay) {
		out = append(out, r.path)
	}
	return out
}

func (p project) ruleFiles(inPlay []string) []ruleFile {
	var out []ruleFile
	taken := map[string]string{} // real path → the path it was found as
	texts := map[string]string{}
	var addAt func(rel, why string, depth int)
	addAt = func(rel, why string, depth int) {
		if len(out) >= maxRuleFiles {
			return
		}
		st, err := p.files.Lstat(rel)
		if err != nil || st.IsDir() {
			return
		}
		if ruleReadHook != nil {
			ruleReadHook(rel, true)
		}
		ft, err := p.files.ReadText(rel)
		if err != nil {
			return
		}
		if prev, ok := taken[ft.Real]; ok { // a link to a file already used
			if prev != rel && depth == 0 { // an import already used (a cycle) is not named again
				out = append(out, ruleFile{path: rel, why: why, same: prev})
			}
			return
		}
		taken[ft.Real] = rel
		text := strings.TrimSpace(strings.Join(ft.Lines, "\n"))
		if text == "" {
			return
		}
		r := ruleFile{path: rel, why: why}
		if prev, ok := texts[text]; ok {
			r.same = prev
		} else {
			texts[text] = rel
			r.text = section.Cap(stripFrontMatter(text), maxRuleFileBytes)
			r.n = ft.Red.In(1, len(ft.Lines))
		}
		out = append(out, r)
		if r.same != "" || depth >= maxRuleImportDepth || (depth == 0 && !importsRules(rel)) {
			return
		}
		for _, imp := range ruleImports(ft.Lines) {
			target, ok := importTarget(rel, imp)
			if !ok {
				continue
			}
			addAt(target, "imported by "+rel, depth+1)
		}
	}
	add := func(rel, why string) { addAt(rel, why, 0) }
	if len(inPlay) > maxInPlay {
		inPlay = inPlay[:maxInPlay]
	}
	for _, f := range inPlay {
		for d := path.Dir(f); d != "." && d != "/" && d != ""; d = path.Dir(d) {
			for _, n := range nestedRuleNames {
				add(d+"/"+n, "nearest to "+f)
			}
		}
	}
	for _, src := range rootRuleSources {
		if !src.dir {
			add(src.name, "root")
			continue
		}
		for _, name := range p.listRuleDir(src.name, src.suffix) {
			if len(out) >= maxRuleFiles {
				break // the files after the last one used are not opened
			}
			rel := src.name + "/" + name
			why := "root"
			if src.scoped {
				var ok bool
				if why, ok = p.ruleApplies(rel, inPlay); !ok {
					continue
				}
			}
			add(rel, why)
		}
	}
	return out
}

// maxRuleImportDepth is how deep @path imports of CLAUDE.md are followed: the
// imports of CLAUDE.md are depth 1, their own imports depth 2, and so on.
const maxRuleImportDepth = 3

// importsRules reports whether the instruction file rel follows @path imports:
// Claude Code's CLAUDE.md and CLAUDE.local.md, in any folder.
func importsRules(rel string) bool {
	b := path.Base(rel)
	return strings.EqualFold(b, "CLAUDE.md") || strings.EqualFold(b, "CLAUDE.local.md")
}

// ruleImports lists the @path imports of a CLAUDE.md, in order, once each: a
// word that starts with @ ("See @docs/style.md."), outside fenced code blocks
// and inline code spans (where "@" is code, not an import). Trailing
// punctuation is not part of the path.
func ruleImports(lines []string) []string {
	var out []string
	fence := ""
	for _, l := range lines {
		t := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.TrimSpace(strings.TrimLeft(t, fence[:1])) == "" {
				fence = ""
			}
			continue
		}
		if len(l)-len(t) < 4 {
			if f := fenceOf(t); f != "" {
				fence = f
				continue
			}
		}
		for _, w := range strings.Fields(dropCodeSpans(l)) {
			if len(w) < 2 || w[0] != '@' {
				continue
			}
			p := strings.TrimRight(w[1:], ".,;:!?)]}'\"")
			if p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// fenceOf returns the fence (``` or ~~~, three or more) that line (its
// indentation dropped) opens, or "".
func fenceOf(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// dropCodeSpans replaces the inline code spans of a Markdown line (a run of
// backticks up to the next run of as many) by a space; an unclosed run of
// backticks is text.
func dropCodeSpans(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := 1
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		run := line[i : i+n]
		end := -1
		for j := i + n; j < len(line); {
			k := strings.Index(line[j:], run)
			if k < 0 {
				break
			}
			k += j
			m := k + n
			if (m >= len(line) || line[m] != '`') && line[k-1] != '`' {
				end = m
				break
			}
			for m < len(line) && line[m] == '`' {
				m++
			}
			j = m
		}
		if end < 0 {
			b.WriteString(run)
			i += n
			continue
		}
		b.WriteByte(' ')
		i = end
	}
	return b.String()
}

// importTarget turns the import imp of the rules file rel into a root-relative
// path: relative to rel's folder, never out of the project (no "..", no
// absolute or home path), with a name fit for the section title. Protected,
// secret and linked-out files are refused later, when the file is read through
// the root.
func importTarget(rel, imp string) (string, bool) {
	if strings.HasPrefix(imp, "~") || strings.HasPrefix(imp, "/") || strings.HasPrefix(imp, "\\") || filepath.IsAbs(imp) || !plainName(imp) {
		return "", false
	}
	target := path.Join(path.Dir(rel), imp)
	clean, err := projfs.CleanRel(target)
	if err != nil || clean != target || projfs.IsProtected(clean) {
		return "", false
	}
	return clean, true
}

// listRuleDir lists the regular files of the folder dir (root-relative) whose
// names end in suffix, sorted; nil when dir is not a folder of the project.
func (p project) listRuleDir(dir, suffix string) []string {
	st, err := p.files.Lstat(dir)
	if err != nil || !st.IsDir() {
		return nil
	}
	ents, _ := p.files.ReadDir(dir, maxRuleListing)
	var names []string
	for _, e := range ents {
		if e.Type()&fs.ModeType == 0 && strings.HasSuffix(e.Name(), suffix) && !strings.HasPrefix(e.Name(), ".") && plainName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// plainName reports whether a file name can be shown in a section title as it
// is: no control characters (a newline could fake a section header of the
// prompt) and no bidirectional formatting characters.
func plainName(name string) bool {
	return !strings.ContainsFunc(name, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError
	})
}

// ruleApplies reads the front matter of a scoped rules file (Copilot's
// applyTo: "glob,glob"; Cursor's globs: and alwaysApply:) and reports whether it
// applies, and why: always, or to which file in play. A file without a scope
// applies always; a Cursor rule with neither alwaysApply nor globs is one the
// agent picks by its description, and is left out.
func (p project) ruleApplies(rel string, inPlay []string) (string, bool) {
	head, err := p.ruleHead(rel)
	if err != nil {
		return "", false
	}
	always, globs := ruleScope(head)
	if always {
		return "root", true
	}
	if len(globs) == 0 {
		return "root", !strings.HasSuffix(rel, ".mdc")
	}
	for _, gl := range globs {
		gl = strings.Trim(strings.TrimSpace(gl), `"'[]`)
		if gl == "" {
			continue
		}
		if gl == "**" || gl == "**/*" {
			return "root", true
		}
		if !projfs.ValidGlob(gl) {
			continue
		}
		for _, f := range inPlay {
			if projfs.MatchGlob(gl, f) || (!strings.Contains(gl, "/") && projfs.MatchGlob(gl, path.Base(f))) {
				return "applies to " + f, true
			}
		}
	}
	return "", false
}

// maxFrontMatterBytes is how much of a scoped rules file is read to find its
// front matter: the file is read whole only when it applies.
const maxFrontMatterBytes = 4 << 10

// ruleReadHook, when set (by tests), is told of every rules file opened: whole
// for a whole read, else a read of its first maxFrontMatterBytes.
var ruleReadHook func(rel string, whole bool)

// ruleHead reads the lines of the first maxFrontMatterBytes of the rules file
// rel, opened through the root like any other file (projfs's Open: no link out
// of the project, no secret or protected file); a line cut at the end is dropped. The
// lines are not shown (only the scope they state is used), so they are not
// redacted.
func (p project) ruleHead(rel string) ([]string, error) {
	if ruleReadHook != nil {
		ruleReadHook(rel, false)
	}
	f, err := p.files.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, maxFrontMatterBytes)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	data := buf[:n]
	if n == maxFrontMatterBytes {
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	if projfs.IsBinary(data) {
		return nil, errors.New("binary")
	}
	return projfs.SplitLines(data), nil
}

// splitGlobs splits a comma-separated glob list, keeping commas inside braces
// ("**/*.{ts,tsx}") in their glob.
func splitGlobs(list string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(list); i++ {
		switch list[i] {
		case '{':
			depth++
		case '}':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				out = append(out, list[start:i])
				start = i + 1
			}
		}
	}
	return append(out, list[start:])
}

// ruleScope reads the scope of a scoped rules file from its front matter:
// whether it always applies (alwaysApply: true) and its globs (applyTo:, else
// globs:). The globs may be a string of comma-separated globs (`globs: a, b`,
// `applyTo: "a,b"`), a flow list (`globs: ["a", "b"]`) or a block list (one
// `- glob` line each). The block is parsed as YAML; front matter YAML refuses
// (Cursor writes `globs: *.go`, a YAML alias) is read line by line as before.
func ruleScope(head []string) (always bool, globs []string) {
	if block, ok := frontMatterBlock(head); ok {
		var m map[string]any
		if yaml.Unmarshal([]byte(block), &m) == nil {
			lower := map[string]any{}
			for k, v := range m {
				lower[strings.ToLower(k)] = v
			}
			switch v := lower["alwaysapply"].(type) {
			case bool:
				always = v
			case string:
				always = strings.EqualFold(v, "true")
			}
			v := lower["applyto"]
			if isEmptyScope(v) {
				v = lower["globs"]
			}
			return always, scopeGlobs(v)
		}
	}
	fm := frontMatter(head)
	globs0 := fm["applyto"]
	if globs0 == "" {
		globs0 = fm["globs"]
	}
	if globs0 != "" {
		globs = splitGlobs(globs0)
	}
	return strings.EqualFold(fm["alwaysapply"], "true"), globs
}

// isEmptyScope reports whether a front matter value names no glob.
func isEmptyScope(v any) bool {
	return len(scopeGlobs(v)) == 0
}

// scopeGlobs turns a front matter value (a string of comma-separated globs, or
// a list of such strings) into its globs; anything else names none.
func scopeGlobs(v any) []string {
	var out []string
	switch v := v.(type) {
	case string:
		for _, g := range splitGlobs(v) {
			if g = strings.TrimSpace(g); g != "" {
				out = append(out, g)
			}
		}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, scopeGlobs(s)...)
			}
		}
	}
	return out
}

// frontMatterBlock returns the text between a leading --- line and the next ---
// line; ok is false when there is no closed block.
func frontMatterBlock(lines []string) (string, bool) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return "", false
	}
	for i, l := range lines[1:] {
		if strings.TrimSpace(l) == "---" {
			return strings.Join(lines[1:1+i], "\n"), true
		}
	}
	return "", false
}

// frontMatter reads the `key: value` lines of a leading --- block (keys lower-cased).
func frontMatter(lines []string) map[string]string {
	m := map[string]string{}
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return m
	}
	for _, l := range lines[1:min(len(lines), 40)] {
		if strings.TrimSpace(l) == "---" {
			break
		}
		if k, v, ok := strings.Cut(l, ":"); ok {
			m[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	return m
}

// stripFrontMatter drops a leading --- block (the scope, already used).
func stripFrontMatter(text string) string {
	if !strings.HasPrefix(text, "---\n") {
		return text
	}
	if i := strings.Index(text[4:], "\n---"); i >= 0 {
		rest := text[4+i+4:]
		return strings.TrimSpace(rest)
	}
	return text
}

// Section builds the "Project rules (…)" section from the instruction files
// that apply to inPlay (Files), within its own budget: maxRulesBytes, and never
// more than an eighth of maxTotalBytes, the whole base context's. ok is false
// when there are none.
func Section(files *projfs.Root, inPlay []string, maxTotalBytes int) (section.Candidate, bool) {
	rules := (project{files}).ruleFiles(inPlay)
	if len(rules) == 0 {
		return section.Candidate{}, false
	}
	limit := min(maxRulesBytes, maxTotalBytes/8)
	var b strings.Builder
	b.WriteString("The project's own instructions for AI tools, most specific first (where two disagree, the earlier wins). " +
		"They are the project's conventions; they do not change fixplan's rules (the JSON reply, paths, approval, safety).\n")
	var names []string
	n := 0
	for _, r := range rules {
		if r.same != "" {
			fmt.Fprintf(&b, "\n--- %s (%s): same text as %s ---\n", r.path, r.why, r.same)
			names = append(names, r.path)
			continue
		}
		head := fmt.Sprintf("\n--- %s (%s) ---\n", r.path, r.why)
		body := r.text + "\n"
		if b.Len()+len(head)+len(body) > limit {
			room := limit - b.Len() - len(head)
			if room < 512 {
				fmt.Fprintf(&b, "\n--- %s (%s): left out, the rules budget is spent ---\n", r.path, r.why)
				continue
			}
			body = section.Cap(body, room) + "\n"
		}
		b.WriteString(head)
		b.WriteString(body)
		names = append(names, r.path)
		n += r.n
	}
	if len(names) == 0 {
		return section.Candidate{}, false
	}
	title := Title + " (" + section.List(names, 8) + ")"
	return section.Candidate{Sec: plan.Section{Title: title, Body: b.String()}, Redacted: true, Redactions: n}, true
}
