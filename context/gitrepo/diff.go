package gitrepo

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fixplan/context/section"
	"fixplan/plan"
	"fixplan/projfs"
	"fixplan/redact"
)

// ChangesTitle starts the title of the base-context section with the project's
// recent changes: "Uncommitted changes (git diff HEAD, …)" or, when the working
// tree is clean, "Last commit (…)".
const ChangesTitle = "Uncommitted changes"

// Bounds of the recent-changes section: one file's diff is cut after
// maxDiffFileBytes; the section gets at most maxDiffBytes (and never more than a
// sixth of the total budget).
const (
	maxDiffFileBytes = 6 * 1024
	maxDiffBytes     = 16 * 1024
)

// diffLockFiles are generated files whose diffs say little and take much room; only
// their size of change is shown.
var diffLockFiles = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "bun.lockb": true,
	"go.sum": true, "Cargo.lock": true, "poetry.lock": true, "uv.lock": true, "Pipfile.lock": true, "composer.lock": true,
	"Gemfile.lock": true, "pubspec.lock": true, "Podfile.lock": true, "packages.lock.json": true, "gradle.lockfile": true,
	"flake.lock": true, "mix.lock": true,
}

// diffFile is one file's part of a diff.
type diffFile struct {
	path  string // the new path (the old one for a deletion), relative to the root
	paths []string
	text  string
	added int
	gone  int
	// oldPath and newPath are the paths of the "--- a/" and "+++ b/" lines; ""
	// for /dev/null (an added or a deleted file) or when the diff has none.
	oldPath, newPath string
	link             bool // a symbolic link's diff (mode 120000): its "content" is the target
}

// ChangesOptions tune Changes.
type ChangesOptions struct {
	// MaxTotalBytes is the whole base context's budget: the section gets at
	// most a sixth of it (and never more than maxDiffBytes).
	MaxTotalBytes int
	// IsRuleFile reports whether rel is a project rules file (rules.IsRuleFile):
	// its diff is never shown, only named (unless RulesOff). nil: none is.
	IsRuleFile func(rel string) bool
	// RulesOff leaves the rules files out altogether (the user switched the
	// project's rules off).
	RulesOff bool
}

// Changes is the recent-changes section: the uncommitted changes under
// the root (`git diff HEAD`, staged and unstaged, tracked files only), or, when
// there are none, the last commit that touched the root (`git log -1 -p`) —
// recent edits are the usual cause of a new failure. git runs only as the
// recent-files section runs it (Status: a checked repository whose own config
// names no program, no fsmonitor, no hooks), here also without external diff
// drivers or textconv programs. The output is redacted whole; files inside
// .git/.hg/.fixplan and secret files (unless allowed) are left out; the diffs of
// the files in play come first, lock files are summarised, each file's diff is
// cut to a few KiB and the section to its own budget. ok is false when git is
// missing or not run, there is no repository or commit, or nothing changed.
func (g *Git) Changes(ctx context.Context, inPlay []string, o ChangesOptions) (section.Candidate, bool) {
	git, err := g.opts.LookPath("git")
	if err != nil {
		return section.Candidate{}, false
	}
	repo, ok := g.gitRepo()
	if !ok || len(repo.programs) > 0 || repo.unreadable != "" || repo.untrusted != "" {
		return section.Candidate{}, false
	}
	// the user's own diff.noprefix, diff.mnemonicPrefix or color.ui must not change
	// what is parsed below
	safe := []string{"--no-ext-diff", "--no-textconv", "--no-color", "--relative", "--ignore-submodules=all", "-U3",
		"--src-prefix=a/", "--dst-prefix=b/"}
	// the files changed first (no contents diffed): git diffs only as many as
	// can be shown, and the others are named
	names, namesCut, err := g.runGit(ctx, git, repo, append(append([]string{"diff"}, safe...), "HEAD", "--name-only", "-z", "--", ".")...)
	if err != nil {
		return section.Candidate{}, false
	}
	rev := "HEAD"
	diffArgs := append([]string{"diff"}, safe...)
	title := ChangesTitle + " (git diff HEAD"
	intro := "Changes not committed yet (staged and unstaged, tracked files; new files are in Recent files), relative to the project root:\n"
	// the two sides of the diff, whose whole contents are Redacted: HEAD and the
	// working tree ("")
	sides := diffSides{old: "HEAD"}
	if names == "" && !namesCut {
		// the last commit that touched the root, pinned by its hash: the diff
		// of some of its files must not find an older commit
		names, namesCut, err = g.runGit(ctx, git, repo, append(append([]string{"log", "-1", "--no-notes", "--format=%H", "--name-only", "-z"}, safe...), "HEAD", "--", ".")...)
		hash, rest, _ := strings.Cut(names, "\x00")
		if err != nil || !validHash(hash) {
			return section.Candidate{}, false
		}
		names, rev = strings.TrimPrefix(rest, "\n"), hash
		diffArgs = append([]string{"log", "-1", "-p", "--no-notes", "--no-show-signature",
			"--format=%H%ncommit %h%nDate: %cs%nSubject: %s%n"}, safe...)
	}
	spec, skipped := patchScope(names, namesCut, inPlay)
	out, cut, err := g.runGit(ctx, git, repo, append(append(diffArgs, rev, "--"), spec...)...)
	if err != nil {
		return section.Candidate{}, false
	}
	if rev != "HEAD" {
		if strings.TrimSpace(out) == "" {
			return section.Candidate{}, false
		}
		hash, rest, _ := strings.Cut(out, "\n")
		if !validHash(hash) {
			return section.Candidate{}, false
		}
		out = rest
		sides = diffSides{old: hash + "^", new: hash}
		title = "Last commit (the working tree is clean; git log -1 -p"
		intro = "No uncommitted changes; the last commit that touched the project:\n"
	}
	head, files := splitDiff(out, cut)
	head, n := redact.Text(head)
	files = g.allowedDiffFiles(files)
	// the files not diffed are named, the same ones left out
	var notDiffed []diffFile
	notShown := map[string]bool{}
	for _, p := range skipped {
		notDiffed = append(notDiffed, diffFile{path: p, paths: []string{p}})
		notShown[p] = true
	}
	notDiffed = g.allowedDiffFiles(notDiffed)
	files = append(files, notDiffed...)
	// the project's rules files: their text goes only into the rules section
	// (framed as project conventions), never here, and nowhere with the rules off
	var rulesChanged []string
	kept := files[:0]
	for _, f := range files {
		isRule := false
		for _, p := range f.paths {
			isRule = isRule || (o.IsRuleFile != nil && o.IsRuleFile(p))
		}
		switch {
		case !isRule:
			kept = append(kept, f)
		case !o.RulesOff:
			rulesChanged = append(rulesChanged, f.path)
		}
	}
	files = kept
	if len(files) == 0 && len(rulesChanged) == 0 {
		return section.Candidate{}, false
	}
	// the files in play first, then the others in git's order
	var first, rest []diffFile
	for _, f := range files {
		if inFiles(f.paths, inPlay) {
			first = append(first, f)
		} else {
			rest = append(rest, f)
		}
	}
	files = append(first, rest...)
	// room is left for the line naming the files left out
	const trailer = 512
	limit := min(maxDiffBytes, o.MaxTotalBytes/6) - trailer
	var b strings.Builder
	b.WriteString(intro)
	b.WriteString(head)
	for _, p := range rulesChanged {
		fmt.Fprintf(&b, "%s: changed (a project rules file: its text is given only in Project rules, when it applies)\n", p)
	}
	blobs := g.prefetchBlobs(ctx, git, repo, files, sides)
	var left []string
	for _, f := range files {
		body := f.text
		if notShown[f.path] {
			left = append(left, f.path) // not diffed (patchScope)
			continue
		}
		if diffLockFiles[path.Base(f.path)] {
			body = fmt.Sprintf("%s (lock file: +%d -%d lines, not shown)\n", f.path, f.added, f.gone)
		} else if b.Len() >= limit-256 {
			left = append(left, f.path) // not Redacted: it will not be shown
			continue
		} else {
			text, k, why := g.redactDiffFile(ctx, git, repo, f, sides, blobs)
			if why != "" {
				body = fmt.Sprintf("%s: changed; the diff is not shown (%s)\n", f.path, why)
			} else {
				body = section.Cap(text, maxDiffFileBytes)
				if !strings.HasSuffix(body, "\n") {
					body += "\n"
				}
				n += k
			}
		}
		if b.Len()+len(body) > limit {
			if room := limit - b.Len(); room >= 1024 && len(left) == 0 {
				body = section.Cap(body, room-128) + "\n"
			} else {
				left = append(left, f.path)
				continue
			}
		}
		b.WriteString(body)
	}
	if len(left) > 0 {
		line := fmt.Sprintf("…[diffs of %d more files not shown: %s", len(left), section.List(left, 10))
		if len(line) > trailer-64 {
			line = strings.ToValidUTF8(line[:trailer-64], "") + "…"
		}
		b.WriteString(line + "]\n")
	}
	if cut || namesCut {
		b.WriteString("…[the diff is longer; the rest was not read]\n")
	}
	title += fmt.Sprintf(", %d file%s)", len(files)+len(rulesChanged), plural(len(files)+len(rulesChanged)))
	return section.Candidate{Sec: plan.Section{Title: title, Body: b.String()}, Redacted: true, Redactions: n}, true
}

// maxPatchFiles is how many files' diffs git is asked for: of a change of more
// (a commit of thousands of generated files), git diffs the files in play and
// the first others only, and the rest are named as not shown — the section
// holds a few dozen at most.
const maxPatchFiles = 64

// patchScope is the pathspec of the diff to run over names (git's -z list of
// the changed files, cut when git wrote more than was read) and the files
// left out of it: "." when all of them fit, else the files in play and then
// the first others, each a literal path.
func patchScope(names string, cut bool, inPlay []string) (spec, skipped []string) {
	var list []string
	for _, n := range strings.Split(names, "\x00") {
		if n != "" {
			list = append(list, n)
		}
	}
	if cut && len(list) > 0 {
		list = list[:len(list)-1] // the last name may be partial
	}
	if len(list) <= maxPatchFiles && !cut {
		return []string{"."}, nil
	}
	var first, rest []string
	for _, n := range list {
		if slices.Contains(inPlay, n) {
			first = append(first, n)
		} else {
			rest = append(rest, n)
		}
	}
	list = append(first, rest...)
	for _, n := range list[:min(len(list), maxPatchFiles)] {
		spec = append(spec, ":(literal)"+n)
	}
	return spec, list[min(len(list), maxPatchFiles):]
}

// diffSides names the two versions a diff compares, as git revisions: old is
// "HEAD" or "<commit>^", new is "<commit>", or "" for the working tree.
type diffSides struct{ old, new string }

// validHash reports whether s is a full hexadecimal object name (git's %H).
func validHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// redactDiffFile redacts one file's diff from the whole files it compares, as
// every other file the model sees is redacted (a hunk inside a private key has
// no BEGIN or END line, so the diff text alone does not show it is one): the old
// version (`git cat-file blob <rev>:<path>`, with every git guard of runGit) and
// the new one (the working tree read through the root, or the commit's blob) are
// redacted whole, and each diff line — added, removed or context — that falls in
// a redacted line of its side (by the hunk headers' line numbers) is replaced by
// that side's redacted line. The diff text is then redacted too. why says, when
// it is not "", why the diff cannot be shown: one side could not be read whole.
func (g *Git) redactDiffFile(ctx context.Context, git string, repo gitRepo, f diffFile, sides diffSides, blobs map[string]string) (text string, n int, why string) {
	if f.link || !strings.Contains(f.text, "\n@@ ") {
		text, n = redact.Text(f.text) // no lines of content: binary, a mode change, a link target
		return text, n, ""
	}
	var oldLines, newLines []string
	var oldRed, newRed redact.Lines
	blob := func(rev, p string) ([]string, redact.Lines, string) {
		if out, ok := blobs[rev+":./"+p]; ok {
			red, lines := redact.Whole(p, out)
			return projfs.SplitLines([]byte(red)), lines, ""
		}
		out, cut, err := g.runGit(ctx, git, repo, "cat-file", "blob", rev+":./"+p)
		switch {
		case err != nil:
			return nil, nil, "git could not read " + p + " at " + shortRev(rev) + " to redact it whole"
		case cut:
			return nil, nil, p + " at " + shortRev(rev) + " is too big to redact it whole"
		}
		red, lines := redact.Whole(p, out)
		return projfs.SplitLines([]byte(red)), lines, ""
	}
	if f.oldPath != "" {
		if oldLines, oldRed, why = blob(sides.old, f.oldPath); why != "" {
			return "", 0, why
		}
	}
	if f.newPath != "" {
		if sides.new == "" {
			ft, err := g.files.ReadText(f.newPath)
			if err != nil {
				return "", 0, "the file could not be read whole to redact it: " + projfs.Reason(err)
			}
			newLines, newRed = ft.Lines, ft.Red
		} else if newLines, newRed, why = blob(sides.new, f.newPath); why != "" {
			return "", 0, why
		}
	}
	touched := map[[2]int]bool{} // (side, redaction) pairs shown
	// mask returns side's redacted line ln when a redaction covers it
	mask := func(side int, lines []string, red redact.Lines, ln int) (string, bool) {
		for i, r := range red {
			if r.From <= ln && ln <= r.To {
				touched[[2]int{side, i}] = true
				if ln-1 < len(lines) {
					return lines[ln-1], true
				}
				return "[REDACTED]", true
			}
		}
		return "", false
	}
	var b strings.Builder
	inHunk := false
	oldLn, newLn := 0, 0
	for _, l := range strings.SplitAfter(f.text, "\n") {
		if l == "" {
			continue
		}
		if o, nw, ok := hunkStart(l); ok {
			inHunk, oldLn, newLn = true, o, nw
			b.WriteString(hunkHeading(l, oldLines, newLines))
			continue
		}
		if !inHunk || (l[0] != ' ' && l[0] != '+' && l[0] != '-') {
			b.WriteString(l)
			continue
		}
		var repl string
		var hit bool
		switch l[0] {
		case '+':
			repl, hit = mask(1, newLines, newRed, newLn)
			newLn++
		case '-':
			repl, hit = mask(0, oldLines, oldRed, oldLn)
			oldLn++
		default:
			if repl, hit = mask(1, newLines, newRed, newLn); !hit {
				repl, hit = mask(0, oldLines, oldRed, oldLn)
			}
			oldLn++
			newLn++
		}
		if hit {
			l = l[:1] + repl + "\n"
		}
		b.WriteString(l)
	}
	text, n = redact.Text(b.String())
	return text, n + len(touched), ""
}

// prefetchBlobs reads, in one `git cat-file --batch` (run like every git call,
// runGitInput), the old and new blobs of the first files whose diffs have hunks
// (up to maxPrefetch, and as much as maxGitOutput holds), keyed "rev:./path";
// redactDiffFile reads the ones missing here one by one. Paths are given
// relative to the repository (batch input has no working folder).
func (g *Git) prefetchBlobs(ctx context.Context, git string, repo gitRepo, files []diffFile, sides diffSides) map[string]string {
	const maxPrefetch = 40
	prefix := ""
	if rel, err := filepath.Rel(repo.top, g.root); err == nil && rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	var keys []string
	var in strings.Builder
	for _, f := range files {
		if len(keys) >= maxPrefetch {
			break
		}
		if f.link || diffLockFiles[path.Base(f.path)] || !strings.Contains(f.text, "\n@@ ") {
			continue
		}
		for _, side := range []struct{ rev, p string }{{sides.old, f.oldPath}, {sides.new, f.newPath}} {
			if side.rev == "" || side.p == "" || strings.ContainsAny(side.p, "\n\r") {
				continue
			}
			keys = append(keys, side.rev+":./"+side.p)
			in.WriteString(side.rev + ":" + prefix + side.p + "\n")
		}
	}
	if len(keys) == 0 {
		return nil
	}
	out, _, err := g.runGitInput(ctx, git, repo, in.String(), "cat-file", "--batch")
	if err != nil && out == "" {
		return nil
	}
	got := map[string]string{}
	for _, k := range keys {
		// "<oid> blob <size>\n<content>\n", or "<name> missing\n"
		head, rest, ok := strings.Cut(out, "\n")
		if !ok {
			break
		}
		fields := strings.Fields(head)
		if len(fields) != 3 {
			out = rest
			continue
		}
		size, err := strconv.Atoi(fields[2])
		if err != nil || size < 0 || len(rest) < size+1 {
			break // cut at maxGitOutput: the rest are read one by one
		}
		if fields[1] == "blob" {
			got[k] = rest[:size]
		}
		out = rest[size+1:]
	}
	return got
}

// hunkStart parses a hunk header "@@ -o[,c] +n[,c] @@": the first old and new
// line numbers.
func hunkStart(l string) (oldLn, newLn int, ok bool) {
	rest, found := strings.CutPrefix(l, "@@ -")
	if !found {
		return 0, 0, false
	}
	o, rest, found := strings.Cut(rest, " +")
	if !found {
		return 0, 0, false
	}
	nw, _, found := strings.Cut(rest, " @@")
	if !found {
		return 0, 0, false
	}
	num := func(s string) (int, bool) {
		s, _, _ = strings.Cut(s, ",")
		v, err := strconv.Atoi(s)
		return v, err == nil && v >= 0
	}
	a, ok1 := num(o)
	c, ok2 := num(nw)
	return a, c, ok1 && ok2
}

// hunkHeading is the hunk header l with the heading git adds after its second
// "@@" (the line of the enclosing function, taken from the old file) kept only
// when a redacted line of either side starts with it: a heading taken from inside
// a private key is dropped.
func hunkHeading(l string, oldLines, newLines []string) string {
	i := strings.Index(l[2:], "@@")
	if i < 0 {
		return l
	}
	end := 2 + i + 2
	heading := strings.TrimSpace(l[end:])
	if heading == "" {
		return l
	}
	for _, lines := range [][]string{oldLines, newLines} {
		for _, x := range lines {
			if strings.HasPrefix(strings.TrimSpace(x), heading) {
				return l
			}
		}
	}
	return l[:end] + "\n"
}

// shortRev words a revision for a message: an object name is cut to 12 digits.
func shortRev(rev string) string {
	if len(rev) > 12 && validHash(strings.TrimSuffix(rev, "^")) {
		return rev[:12] + strings.Repeat("^", strings.Count(rev, "^"))
	}
	return rev
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// inFiles reports whether one of paths is one of files.
func inFiles(paths, files []string) bool {
	for _, p := range paths {
		for _, f := range files {
			if p == f {
				return true
			}
		}
	}
	return false
}

// allowedDiffFiles drops the diffs of files the model may not read: inside
// .git/.hg/.fixplan, secret files unless allowed, and paths that are not clean
// and relative (a diff names both sides of a rename; either one counts).
func (g *Git) allowedDiffFiles(files []diffFile) []diffFile {
	out := files[:0]
	for _, f := range files {
		ok := len(f.paths) > 0
		for _, p := range f.paths {
			ok = ok && g.files.MayRead(p)
		}
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// splitDiff splits git's output into what comes before the first file (a
// commit's header) and one diffFile per "diff --git" block. When cut is set the
// last block may be partial and is dropped.
func splitDiff(out string, cut bool) (head string, files []diffFile) {
	var cur *diffFile
	var text strings.Builder
	inHunk := false
	flush := func() {
		if cur != nil {
			cur.text = text.String()
			files = append(files, *cur)
		}
		text.Reset()
	}
	for _, l := range strings.SplitAfter(out, "\n") {
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "diff --git ") {
			flush()
			cur, inHunk = &diffFile{}, false
		}
		if cur == nil {
			head += l
			continue
		}
		text.WriteString(l)
		line := strings.TrimRight(l, "\n")
		if inHunk {
			switch line[0] {
			case '+':
				cur.added++
			case '-':
				cur.gone++
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case strings.HasPrefix(line, "diff --git "):
			// "diff --git a/X b/X": exact when both halves name the same file
			rest := strings.TrimPrefix(line, "diff --git ")
			if n := len(rest); n%2 == 1 {
				a, b := rest[:n/2], rest[n/2+1:]
				if strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
					cur.path = a[2:]
					cur.paths = append(cur.paths, cur.path)
				}
			}
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			p := unquoteGitPath(line[4:])
			if p == "/dev/null" || len(p) < 3 || (p[:2] != "a/" && p[:2] != "b/") {
				continue
			}
			if line[0] == '-' {
				cur.oldPath = p[2:]
			} else {
				cur.newPath = p[2:]
			}
			cur.paths = appendNew(cur.paths, p[2:])
			if line[0] == '+' || cur.path == "" {
				cur.path = p[2:]
			}
		case strings.HasSuffix(line, " 120000") && (strings.HasPrefix(line, "index ") || strings.Contains(line, " mode ")):
			cur.link = true
		default:
			for _, pre := range []string{"rename from ", "rename to ", "copy from ", "copy to "} {
				if p, ok := strings.CutPrefix(line, pre); ok {
					p = unquoteGitPath(p)
					cur.paths = appendNew(cur.paths, p)
					if strings.HasSuffix(pre, "to ") || cur.path == "" {
						cur.path = p
					}
				}
			}
		}
	}
	if !cut {
		flush()
	}
	return head, files
}

func appendNew(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// unquoteGitPath undoes git's C-style quoting of a path ("a/\303\251.go");
// text that is not quoted is returned as is.
func unquoteGitPath(p string) string {
	if len(p) < 2 || p[0] != '"' || p[len(p)-1] != '"' {
		return p
	}
	s := p[1 : len(p)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; {
		case e >= '0' && e <= '7' && i+2 < len(s):
			v := (int(e-'0') << 6) | (int(s[i+1]-'0') << 3) | int(s[i+2]-'0')
			b.WriteByte(byte(v))
			i += 2
		case e == 'n':
			b.WriteByte('\n')
		case e == 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}
