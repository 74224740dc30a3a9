package defs

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"fixplan/plan"
	"fixplan/projfs"
)

// Bounds of the definitions step: a project file may be anything (a generated
// 20,000-line module, sixty 4 MiB Go files in one package), and the heuristics
// and go/parser must not turn it into minutes of work or gigabytes of syntax
// trees.
//
//   - a file over defFileCap is not read for definitions (a generated file is
//     not where a fix goes, and its definitions are rarely what a failure uses);
//
//   - the files the step reads together stay within defReadBudget bytes; the
//     files asked for after that are not read (the nearest ones are asked for
//     first: the failing file, its imports and folder, then further hops);
//
//   - a block end is searched at most maxBlockLines lines below its first line
//     (more than is shown of a definition, maxDefLines, or scanned for names
//     around a failing line, maxUseSpan), so finding the definitions of a file
//     is linear in its lines even when its brackets never close;
//
//   - Go files are parsed without comments (doc comments are found on the lines
//     above a declaration), once, into one file set shared by definitions,
//     uses and type checks; the trees of files outside the packages in play
//     keep only the braces of their function bodies (gotypes.go's goSyntax), so
//     a file is parsed at most twice (again with its bodies when a hop brings
//     its package into play).
//
//   - the hops read the uses of definitions whose lines hold at most
//     defHopBudget bytes in all (the lines of a real base context's hops hold
//     up to ~200 KB; eight definitions of a megabyte line each took
//     seconds): the definitions past it are not expanded.
//
// A warning names the files left out by the first two bounds, and the
// definitions the last one leaves unexpanded.
var (
	defFileCap    int64 = 1 << 20 // bytes of one file read for definitions
	defReadBudget int64 = 8 << 20 // bytes of all the files one Base call reads for definitions
	defHopBudget  int64 = 1 << 20 // bytes of the definitions' lines the hops read the uses of
)

// maxBlockLines is how far below its first line a definition's end is searched.
const maxBlockLines = 2 * maxUseSpan

// Work counters, read by tests to assert the work done (not the time taken).
var (
	defScanned     atomic.Int64 // lines visited by the block-end scanners
	defParsed      atomic.Int64 // Go files parsed whole
	defWalks       atomic.Int64 // walks of the whole tree (walk.go)
	reexportVisits atomic.Int64 // files looked at for a re-exported name (defs.go's addFrom)
	goIndexReads   atomic.Int64 // functions and types of the checked packages read by the typed lookups (gocache.go)
	targetHits     atomic.Int64 // definitions typed uses added (gocache.go's fewTargets)
	generatorTries atomic.Int64 // files looked up as a generated file's generator (generated.go)
)

// maxLimitNames is how many file names a limit warning lists.
const maxLimitNames = 5

// readDef reads a project file for definitions: projfs's ReadRaw checks, plus the
// per-file cap and the step's read budget (a file left out is noted for the
// warning).
func (d *defFinder) readDef(rel string) ([]byte, error) {
	f, err := d.proj.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := f.Size
	limit := min(d.proj.MaxFileBytes(), defFileCap)
	if size > limit {
		d.tooBig = append(d.tooBig, rel)
		return nil, projfs.Refuse(plan.ErrInvalidInput, "file %q is too big to read for definitions", rel)
	}
	if d.readBytes+size > defReadBudget {
		d.overBudget = append(d.overBudget, rel)
		return nil, projfs.Refuse(plan.ErrInvalidInput, "file %q is past the definitions' read budget", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	d.readBytes += int64(len(data))
	if err != nil || int64(len(data)) > limit || projfs.IsBinary(data) {
		return nil, projfs.Refuse(plan.ErrInvalidInput, "file %q cannot be read as text", rel)
	}
	return data, nil
}

// limitWarnings says which files the definitions step left out because of its
// bounds, and what to do about it.
func (d *defFinder) limitWarnings() []string {
	var out []string
	if len(d.tooBig) > 0 {
		out = append(out, fmt.Sprintf("%d files over %s not read for definitions: %s (read them with a context request if the fix is there)",
			len(d.tooBig), sizeText(defFileCap), limitNames(d.tooBig)))
	}
	if len(d.hopUnread) > 0 {
		out = append(out, fmt.Sprintf("the uses of %d definitions not looked up (the hops' budget of %s of definitions' lines was reached): %s",
			len(d.hopUnread), sizeText(defHopBudget), limitNames(d.hopUnread)))
	}
	if len(d.overBudget) > 0 {
		out = append(out, fmt.Sprintf("%d files not read for definitions (the definitions' read budget of %s was reached): %s",
			len(d.overBudget), sizeText(defReadBudget), limitNames(d.overBudget)))
	}
	return out
}

func limitNames(names []string) string {
	if len(names) <= maxLimitNames {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxLimitNames], ", ") + fmt.Sprintf(", and %d more", len(names)-maxLimitNames)
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// docStart is the first line of the doc comment right above line n (1-based):
// the `//` lines, or a `/* … */` block, that end on the line before it; n when
// there is none.
func docStart(lines []string, n int) int {
	k := n
	for k > 1 {
		t := strings.TrimSpace(lines[k-2])
		switch {
		case strings.HasPrefix(t, "//"):
			k--
			continue
		case strings.HasSuffix(t, "*/"):
			j := k - 1
			for j >= 1 && j > k-maxBlockLines && !strings.Contains(lines[j-1], "/*") {
				j--
			}
			if j >= 1 && strings.HasPrefix(strings.TrimSpace(lines[j-1]), "/*") {
				k = j
				continue
			}
		}
		break
	}
	return k
}

// hopRead reports whether the hops read the uses of s, a definition of f,
// within defHopBudget, and counts its lines; a definition past the budget is
// noted for the warning.
func (d *defFinder) hopRead(f *defFile, s defSpan) bool {
	var n int64
	for i := max(s.from, 1); i <= min(s.to, len(f.lines)); i++ {
		n += int64(len(f.lines[i-1]) + 1)
	}
	if d.hopBytes+n > defHopBudget {
		d.hopUnread = append(d.hopUnread, s.name)
		return false
	}
	d.hopBytes += n
	return true
}
