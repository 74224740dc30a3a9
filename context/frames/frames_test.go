package frames

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestParseFramesGolden runs ParseFrames on every trace under testdata/traces
// (at least 5 per format) and compares with the reviewed .golden.json next to it.
func TestParseFramesGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "traces", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	perFormat := map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		perFormat[strings.SplitN(name, "_", 2)[0]]++
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := Parse(string(in))
			if got == nil {
				got = []Frame{}
			}
			b, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, '\n')
			golden := strings.TrimSuffix(f, ".txt") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run go test -update): %v", err)
			}
			if !bytes.Equal(b, want) {
				t.Errorf("frames differ from %s\ngot:\n%s\nwant:\n%s", golden, b, want)
			}
		})
	}
	for _, format := range []string{"python", "pytest", "gopanic", "gotest", "node", "java", "rustpanic", "rustc", "gcc", "msvc", "tsc", "eslint", "make", "webpack", "tsnode", "gotestjson", "jest"} {
		if perFormat[format] < 5 {
			t.Errorf("format %s has %d traces, want at least 5", format, perFormat[format])
		}
	}
}

func TestParseFramesCases(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Frame
	}{
		{"empty", "", nil},
		{"no frames", "everything is fine\nversion 1.2.3:45 at example.com:8080", nil},
		{"dedup keeps first", "a.go:3\nb.go:4\na.go:3", []Frame{{Path: "a.go", Line: 3}, {Path: "b.go", Line: 4}}},
		{"dedup fills column", "x.js:3\nat (x.js:3:7)\nx.js:3:9", []Frame{{Path: "x.js", Line: 3, Column: 7}}},
		{"order of appearance on one line", "x.c:1:2: note: see y.h:7:1", []Frame{{Path: "x.c", Line: 1, Column: 2}, {Path: "y.h", Line: 7, Column: 1}}},
		{"url host is not a file", "GET https://api.example.com/v1/users.json:443 failed", nil},
		{"file url windows", "at file:///C:/proj/app.js:3:9", []Frame{{Path: "C:/proj/app.js", Line: 3, Column: 9}}},
		{"file url escaped", "at file:///home/a/my%20app/x.mjs:1:2", []Frame{{Path: "/home/a/my app/x.mjs", Line: 1, Column: 2}}},
		{"python stdin skipped", `File "<stdin>", line 1, in <module>`, nil},
		{"line zero ignored", "x.go:0: bad", nil},
		{"crlf", "main.go:5 +0x1\r\nother.go:6\r\n", []Frame{{Path: "main.go", Line: 5}, {Path: "other.go", Line: 6}}},
		{"dotnet", `   at Shop.Cart.Total() in C:\src\Shop\Cart.cs:line 42`, []Frame{{Path: `C:\src\Shop\Cart.cs`, Line: 42}}},
		{"php", "PHP Fatal error:  Uncaught Error: x in /var/www/app/index.php on line 12", []Frame{{Path: "/var/www/app/index.php", Line: 12}}},
		{"ruby", "app/models/user.rb:12:in `save'", []Frame{{Path: "app/models/user.rb", Line: 12}}},
		{"java class kept", "\tat com.a.B.c(B.java:3)", []Frame{{Path: "B.java", Line: 3, Class: "com.a.B"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.in)
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("frame %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// FuzzParseFrames checks that any input parses without panicking into frames
// with a path and a positive line, without duplicates, deterministically.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "traces", "*.txt"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("file:///%zz:1:2")
	f.Fuzz(func(t *testing.T, s string) {
		got := Parse(s)
		seen := map[frameKey]bool{}
		for _, fr := range got {
			if fr.Path == "" || fr.Line <= 0 || fr.Column < 0 {
				t.Fatalf("bad frame %+v", fr)
			}
			k := frameKey{fr.Path, fr.Line}
			if seen[k] {
				t.Fatalf("duplicate frame %+v", fr)
			}
			seen[k] = true
		}
		again := Parse(s)
		if len(again) != len(got) {
			t.Fatalf("not deterministic")
		}
	})
}

// BenchmarkParseFrames parses all golden traces, repeated into a ~1 MB log.
func BenchmarkParse(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "traces", "*.txt"))
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		for _, f := range files {
			d, _ := os.ReadFile(f)
			sb.Write(d)
		}
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Parse(text)
	}
}
