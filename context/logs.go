package codectx

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fixplan/plan"
	"fixplan/projfs"
	"fixplan/redact"
)

// maxLogTail is how many bytes from the end of a log file are read for its last lines.
const maxLogTail = 1 << 20

// allLogs returns the logs of in, then the log paths configured in the project
// memory (.fixplan/project.json, project.log_paths) whose source in does not name.
func (g *Gatherer) allLogs(in plan.ProblemInput) []plan.LogSource {
	out := append([]plan.LogSource(nil), in.Logs...)
	have := map[string]bool{}
	for _, l := range in.Logs {
		have[l.Source] = true
	}
	_, paths := g.projectMemory()
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !have[k] {
			out = append(out, plan.LogSource{Source: k, Path: paths[k]})
		}
	}
	return out
}

// Logs returns the last n lines of every log of the given source, each under a
// label line: text the app captured (e.g. "verification"), a file the user
// attached (an absolute path, which may be outside the root), or a configured log
// path (a relative path, confined to the root). Each log is redacted whole before
// its last lines are taken. It fails with a reason the model can read when no log
// has that source or a log cannot be read.
func (g *Gatherer) Logs(in plan.ProblemInput, source string, n int) (string, error) {
	text, _, err := g.logs(in, source, n)
	return text, err
}

// logs is Logs that also returns the number of redactions.
func (g *Gatherer) logs(in plan.ProblemInput, source string, n int) (string, int, error) {
	if n <= 0 {
		n = g.opts.LogLastN
	}
	var b strings.Builder
	found, redactions := false, 0
	for _, l := range g.allLogs(in) {
		if !strings.EqualFold(l.Source, source) {
			continue
		}
		found = true
		text, from, err := g.logText(l)
		if err != nil {
			return "", 0, err
		}
		red, k := redactedTail(text, n)
		redactions += k
		fmt.Fprintf(&b, "logs %s (%s): last %d of %d lines\n", l.Source, from, len(red.lines), red.total)
		for _, ln := range red.lines {
			b.WriteString(ln)
			b.WriteByte('\n')
		}
	}
	if !found {
		return "", 0, projfs.Refuse(plan.ErrNotFound, "no log source %q; available: %s", source, strings.Join(g.logSources(in), ", "))
	}
	return b.String(), redactions, nil
}

// tail is the last lines of a redacted log.
type tail struct {
	lines []string
	total int // lines in the log
}

// redactedTail redacts a log's text whole, then keeps its last n lines, and
// returns the number of redactions in them.
func redactedTail(text string, n int) (tail, int) {
	text, red := redact.Whole("", text)
	lines, total := lastLines(text, n)
	return tail{lines: lines, total: total}, red.In(total-len(lines)+1, total)
}

// logText returns a log's text (for files: at most its last maxLogTail bytes)
// and a description of where it came from.
func (g *Gatherer) logText(l plan.LogSource) (string, string, error) {
	switch {
	case l.Path == "":
		return l.Text, "captured output", nil
	case filepath.IsAbs(l.Path):
		f, st, err := projfs.OpenPath(l.Path, "the attached log "+filepath.Base(l.Path))
		if err != nil {
			return "", "", err
		}
		defer f.Close()
		return tailText(f, st, "attached log "+filepath.Base(l.Path), filepath.Base(l.Path))
	default:
		rel, err := projfs.CleanRel(l.Path)
		if err != nil {
			return "", "", err
		}
		if rel, err = g.files.Resolve(rel); err != nil {
			return "", "", err
		}
		f, st, err := g.files.OpenRooted(rel, fmt.Sprintf("the configured log %q", rel))
		if err != nil {
			return "", "", err
		}
		defer f.Close()
		if err := g.files.CheckLinks(rel, rel, f, st); err != nil {
			return "", "", err
		}
		return tailText(f, st, "configured log "+rel, rel)
	}
}

// tailText reads the last maxLogTail bytes of the regular file f (st its
// information, OpenPath or OpenRooted opened it).
func tailText(f *os.File, st fs.FileInfo, from, name string) (string, string, error) {
	off := int64(0)
	if st.Size() > maxLogTail {
		off = st.Size() - maxLogTail
	}
	data, err := projfs.ReadBounded(io.NewSectionReader(f, off, maxLogTail), maxLogTail, "the log "+name)
	if err != nil {
		return "", "", err
	}
	if projfs.IsBinary(data) {
		return "", "", projfs.Refuse(plan.ErrBinaryContent, "the log %s is binary, not text", name)
	}
	if off > 0 { // drop the partial first line
		if i := strings.IndexByte(string(data), '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	return string(data), from, nil
}

// lastLines returns the last n lines of text and the number of lines it has.
func lastLines(text string, n int) ([]string, int) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil, 0
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	if len(lines) > n {
		return lines[len(lines)-n:], len(lines)
	}
	return lines, len(lines)
}

// projectMemory reads the project's engineering memory (.fixplan/project.json)
// and returns its project preferences (default test/lint/format/build commands)
// and configured log paths. A missing or unreadable file gives empty maps. Both
// flat ("project.default_test_command": ...) and nested ("project": {...}) forms
// are understood.
func (g *Gatherer) projectMemory() (prefs, logPaths map[string]string) {
	prefs, logPaths = map[string]string{}, map[string]string{}
	f, _, err := g.files.OpenRooted(".fixplan/project.json", ".fixplan/project.json")
	if err != nil {
		return
	}
	data, err := projfs.ReadBounded(f, 1<<20, ".fixplan/project.json")
	f.Close()
	if err != nil {
		return
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return
	}
	flat := map[string]json.RawMessage{}
	var walk func(prefix string, m map[string]json.RawMessage)
	walk = func(prefix string, m map[string]json.RawMessage) {
		for k, v := range m {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			var sub map[string]json.RawMessage
			if key != plan.KeyLogPaths && json.Unmarshal(v, &sub) == nil && strings.Count(key, ".") < 2 {
				walk(key, sub)
				continue
			}
			flat[key] = v
		}
	}
	walk("", raw)
	for _, k := range []string{plan.KeyDefaultTestCommand, plan.KeyDefaultLintCommand, plan.KeyDefaultFormatCommand, plan.KeyDefaultBuildCommand, plan.KeyNotes} {
		var s string
		if v, ok := flat[k]; ok && json.Unmarshal(v, &s) == nil && s != "" {
			prefs[k] = s
		}
	}
	if v, ok := flat[plan.KeyLogPaths]; ok {
		var all map[string]string
		_ = json.Unmarshal(v, &all)
		// The project file is untrusted: its log paths must name files inside
		// the project (only paths the user attaches may be anywhere).
		for name, p := range all {
			clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
			if plan.PathProblem(p) == "" && filepath.IsLocal(filepath.FromSlash(clean)) && !plan.InProtectedFolder(clean) {
				logPaths[name] = clean
			}
		}
	}
	return
}

// logSources lists the names of the logs available for in, sorted.
func (g *Gatherer) logSources(in plan.ProblemInput) []string {
	set := map[string]bool{}
	for _, l := range g.allLogs(in) {
		set[l.Source] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"no logs were attached or configured"}
	}
	return out
}
