package redact

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The redaction corpus (testdata/corpus.json) holds texts with secrets:
// up to 8 of the true-positive examples of each rule of gitleaks' default
// configuration (gitleaks v8.30.1's rule generators, their examples written
// out as data), the string literals of this package's tests, and hand-made
// texts (several secrets in .env, JSON, YAML, shell and URL forms, private key
// blocks at a text's start and end, CRLF lines, keywords in mixed case, invalid
// UTF-8). corpusVariants puts each text in ~20 surroundings.
//
// testdata/corpus-golden.json is what the engine redacted at commit 1c8f08b,
// before its rules were compiled lazily (d332235) and its keyword trie was
// replaced by keywordSet (7b927dc): it was generated ONCE, by copying this file
// into a worktree of 1c8f08b and running there
//
//	REDACT_CORPUS_GOLDEN=$PWD/testdata/corpus-golden.json go test -run TestRedactCorpusGolden ./redact
//
// Do not regenerate it from the current code: it is the old engine's answer,
// and TestRedactCorpusGolden asserts the current engine redacts at least
// every byte the old one did.

type corpusEntry struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Text string `json:"text"`
	B64  string `json:"b64"` // a text that is not valid UTF-8
}

func loadCorpus(t testing.TB, file string) []corpusEntry {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var es []corpusEntry
	if err := json.Unmarshal(b, &es); err != nil {
		t.Fatal(err)
	}
	for i := range es {
		if es[i].B64 != "" {
			raw, err := base64.StdEncoding.DecodeString(es[i].B64)
			if err != nil {
				t.Fatal(err)
			}
			es[i].Text, es[i].B64 = string(raw), ""
		}
	}
	return es
}

// corpusVariants is the entry's text alone and in other surroundings: inside
// lines, JSON, YAML, .env, shell and URLs, twice in a row, upper and lower
// case, CRLF lines, a long line, invalid UTF-8 around it.
func corpusVariants(e corpusEntry) []corpusEntry {
	t := e.Text
	q, _ := json.Marshal(t)
	indented := "    " + strings.ReplaceAll(t, "\n", "\n    ")
	vs := []struct{ name, text string }{
		{"", t},
		{"lines", "first line of the log\n" + t + "\nlast line"},
		{"trail", t + " and more words after it"},
		{"json", `{"config": {"value": ` + string(q) + "}}"},
		{"yaml", "config:\n  value: |\n" + indented + "\n"},
		{"env", "SOME_SETTING=" + t},
		{"shell", `export SOME_SETTING="` + t + "\"\n"},
		{"url", "https://example.com/cb?state=" + url.QueryEscape(t) + "&x=1"},
		{"urlraw", "https://example.com/cb?state=" + t},
		{"b64", base64.StdEncoding.EncodeToString([]byte(t))},
		{"twice", t + t},
		{"twice-nl", t + "\n" + t},
		{"twice-sp", t + " " + t},
		{"upper", strings.ToUpper(t)},
		{"lower", strings.ToLower(t)},
		{"crlf", "line one\r\n" + strings.ReplaceAll(t, "\n", "\r\n") + "\r\n"},
		{"long", strings.Repeat("lorem ipsum ", 500) + t + strings.Repeat(" dolor sit", 600)},
		{"longnosp", strings.Repeat("x", 5000) + t + strings.Repeat("y", 5000)},
		{"utf8", "\xff\xfe" + t + "\xc3"},
		{"utf8-lines", "\x80 line\n" + t + "\n\xe2\x82 end"},
	}
	out := make([]corpusEntry, len(vs))
	for i, v := range vs {
		path := e.Path
		if path == "" { // File of a path: gitleaks' path rules and allowlists, code files
			path = corpusPaths[(len(e.Name)+i)%len(corpusPaths)]
		}
		out[i] = corpusEntry{Name: e.Name + "#" + v.name, Path: path, Text: v.text}
	}
	return out
}

// corpusPaths are the paths a variant without its own is redacted as a file of.
var corpusPaths = []string{"main.go", "app/settings.py", ".env", "config/database.yml", "deploy/k8s/secret.yaml",
	"package-lock.json", "vendor/github.com/x/y/z.go", "node_modules/lib/index.js", "docs/@octokit/auth-token/README.md",
	"src/App.java", "terraform/main.tf", "NuGet.Config", "web/index.php", "notes.txt", "go.sum", "README.md"}

// spanString writes spans as "s-e,s-e".
func spanString(ss []secretSpan) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = strconv.Itoa(s.s) + "-" + strconv.Itoa(s.e)
	}
	return strings.Join(parts, ",")
}

func parseSpans(t testing.TB, s string) [][2]int {
	t.Helper()
	var out [][2]int
	for _, p := range strings.Split(s, ",") {
		if p == "" {
			continue
		}
		a, b, ok := strings.Cut(p, "-")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad span %q", p)
		}
		out = append(out, [2]int{x, y})
	}
	return out
}

// corpusGolden maps a variant's name to its redacted spans: "t" as Text
// (no path), "f" as File of the entry's path; "n" is the text's length (a
// changed variant is caught, not misread).
type corpusGolden map[string]struct {
	N int    `json:"n"`
	T string `json:"t,omitempty"`
	F string `json:"f,omitempty"`
}

// corpusDigest is one variant's outputs through the package's API, hashed,
// for the one-off differential between two commits (REDACT_CORPUS_DIGEST).
func corpusDigest(v corpusEntry) string {
	h := sha256.New()
	out, n := Text(v.Text)
	fmt.Fprintf(h, "%d\x00%s\x00", n, out)
	out, n = File(v.Path, v.Text)
	fmt.Fprintf(h, "%d\x00%s\x00", n, out)
	out, lines := Whole(v.Path, v.Text)
	fmt.Fprintf(h, "%v\x00%s", lines, out)
	return hex.EncodeToString(h.Sum(nil))
}

// Every byte the engine redacted at 1c8f08b in the corpus (the golden) is
// still redacted. REDACT_CORPUS (another corpus), REDACT_CORPUS_GOLDEN
// (write the golden instead of checking it) and REDACT_CORPUS_DIGEST (write
// each variant's spans and a hash of its Text/File/Whole outputs) serve the
// one-off comparisons between commits.
func TestRedactCorpusGolden(t *testing.T) {
	file := os.Getenv("REDACT_CORPUS")
	if file == "" {
		file = "testdata/corpus.json"
	}
	es := loadCorpus(t, file)
	if w := os.Getenv("REDACT_CORPUS_DIGEST"); w != "" {
		type rec struct{ T, F, D string }
		out := map[string]rec{}
		for _, e := range es {
			for _, v := range corpusVariants(e) {
				out[v.Name] = rec{T: spanString(scanSpans(v.Text, "")), F: spanString(scanSpans(v.Text, v.Path)), D: corpusDigest(v)}
			}
		}
		writeJSON(t, w, out)
		return
	}
	if w := os.Getenv("REDACT_CORPUS_GOLDEN"); w != "" {
		g := corpusGolden{}
		for _, e := range es {
			for _, v := range corpusVariants(e) {
				x := g[v.Name]
				x.N, x.T, x.F = len(v.Text), spanString(scanSpans(v.Text, "")), spanString(scanSpans(v.Text, v.Path))
				if x.T != "" || x.F != "" { // (a variant redacted nowhere has nothing to check)
					g[v.Name] = x
				}
			}
		}
		writeJSON(t, w, g)
		return
	}
	b, err := os.ReadFile("testdata/corpus-golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g corpusGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	checked, bytes := 0, 0
	for ei, e := range es {
		for vi, v := range corpusVariants(e) {
			want, ok := g[v.Name]
			if !ok || testing.Short() && vi != 0 && (ei+vi)%5 != 0 { // -short: each text alone and a fifth of the rest
				continue
			}
			if want.N != len(v.Text) {
				t.Fatalf("%s: another text than the golden's (%d bytes, golden %d)", v.Name, len(v.Text), want.N)
			}
			for _, m := range []struct{ path, golden string }{{"", want.T}, {v.Path, want.F}} {
				old := parseSpans(t, m.golden)
				if len(old) == 0 {
					continue
				}
				now := scanSpans(v.Text, m.path)
				for _, o := range old {
					if missed, ok := uncovered(o, now); ok {
						t.Errorf("%s (path %q): bytes %d-%d %q were redacted at 1c8f08b, not now (spans now %s)",
							v.Name, m.path, missed[0], missed[1], v.Text[missed[0]:missed[1]], spanString(now))
						break
					}
					bytes += o[1] - o[0]
				}
				checked++
			}
		}
	}
	if len(g) < 10000 || checked < 5000 || !testing.Short() && checked < 20000 {
		t.Fatalf("only %d redacted texts checked", checked)
	}
	t.Logf("%d texts with redactions at 1c8f08b, %d redacted bytes, all still redacted", checked, bytes)
}

// uncovered returns the first part of o no span of now (sorted, merged)
// covers.
func uncovered(o [2]int, now []secretSpan) ([2]int, bool) {
	i := sort.Search(len(now), func(i int) bool { return now[i].e > o[0] })
	pos := o[0]
	for ; i < len(now) && pos < o[1]; i++ {
		if now[i].s > pos {
			return [2]int{pos, min(now[i].s, o[1])}, true
		}
		pos = max(pos, now[i].e)
	}
	if pos < o[1] {
		return [2]int{pos, o[1]}, true
	}
	return [2]int{}, false
}

func writeJSON(t testing.TB, file string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
