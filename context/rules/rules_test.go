package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/internal/testtree"
	"fixplan/projfs"
	"fixplan/projfs/projfstest"
)

// update rewrites the golden files under testdata/ (go test -update).
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testMaxTotal is the gatherer's default budget of the whole base context.
const testMaxTotal = 96 * 1024

// TestRulesGolden builds the "Project rules" section for one project per
// convention (and for their precedence) and compares it with the reviewed
// testdata/rules/<name>.golden.txt (title, blank line, body).
func TestRulesGolden(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		inPlay []string
	}{
		{"agents_root", map[string]string{
			"AGENTS.md": "# Agents\nRun `make test` before proposing a change.\nUse tabs.\n",
			"app/x.py":  "x = 1\n",
		}, []string{"app/x.py"}},
		{"agents_nearest_first", map[string]string{
			"AGENTS.md":              "root: use pytest\n",
			"app/AGENTS.md":          "app: use 4 spaces\n",
			"app/billing/AGENTS.md":  "billing: money is integer cents\n",
			"app/billing/invoice.py": "x = 1\n",
			"web/AGENTS.md":          "web: use pnpm (not for the files in play)\n",
		}, []string{"app/billing/invoice.py"}},
		{"agents_two_files_in_play", map[string]string{
			"AGENTS.md":     "root rules\n",
			"api/AGENTS.md": "api rules\n",
			"web/AGENTS.md": "web rules\n",
			"api/h.go":      "package api\n",
			"web/a.ts":      "export {}\n",
		}, []string{"web/a.ts", "api/h.go"}},
		{"claude_and_gemini", map[string]string{
			"CLAUDE.md":       "Claude: prefer small diffs.\n",
			"CLAUDE.local.md": "Local: my tests run with -race.\n",
			"GEMINI.md":       "Gemini: explain the root cause.\n",
			"lib/CLAUDE.md":   "lib: no new dependencies.\n",
			"lib/a.go":        "package lib\n",
		}, []string{"lib/a.go"}},
		{"claude_same_as_agents", map[string]string{
			"AGENTS.md": "Shared rules for every agent.\n",
			"CLAUDE.md": "->AGENTS.md",
			"GEMINI.md": "Shared rules for every agent.\n",
		}, nil},
		{"conventions", map[string]string{
			"CONVENTIONS.md": "- Prefer httpx over requests.\n- Type hints everywhere.\n",
		}, nil},
		{"copilot", map[string]string{
			".github/copilot-instructions.md":            "We use Jest with ts-jest.\n",
			".github/instructions/ts.instructions.md":    "---\napplyTo: \"**/*.ts,**/*.tsx\"\n---\nUse strict null checks.\n",
			".github/instructions/py.instructions.md":    "---\napplyTo: \"**/*.py\"\n---\nPython rule (not in play).\n",
			".github/instructions/web.instructions.md":   "---\napplyTo: \"src/**/*.{tsx,ts}\"\n---\nBraces: web rule.\n",
			".github/instructions/all.instructions.md":   "---\napplyTo: \"**\"\n---\nEvery file: no console.log.\n",
			".github/instructions/plain.instructions.md": "No front matter: applies everywhere.\n",
			".github/instructions/notes.md":              "not an instructions file\n",
			"src/cart.ts":                                "export {}\n",
		}, []string{"src/cart.ts"}},
		{"cursor", map[string]string{
			".cursorrules":              "Legacy cursor rules: prefer functional components.\n",
			".cursor/rules/always.mdc":  "---\ndescription: house style\nglobs:\nalwaysApply: true\n---\nAlways: 2-space indent.\n",
			".cursor/rules/go.mdc":      "---\ndescription: go\nglobs: *.go\nalwaysApply: false\n---\nGo: wrap errors with %w.\n",
			".cursor/rules/manual.mdc":  "---\ndescription: only when asked for\n---\nManual rule (left out).\n",
			".cursor/rules/rust.mdc":    "---\nglobs: src/**/*.rs\n---\nRust rule (not in play).\n",
			"internal/store/db.go":      "package store\n",
			".cursor/rules/.hidden.mdc": "---\nalwaysApply: true\n---\nhidden\n",
		}, []string{"internal/store/db.go"}},
		{"cursor_glob_lists", map[string]string{
			".cursor/rules/block.mdc":   "---\ndescription: block list\nglobs:\n  - \"web/**/*.ts\"\n  - \"*.go\"\n---\nBlock list: matched by *.go.\n",
			".cursor/rules/flow.mdc":    "---\nglobs: [\"docs/**\", \"internal/**/*.go\"]\n---\nFlow list: matched by internal/**/*.go.\n",
			".cursor/rules/comma.mdc":   "---\nglobs: src/**/*.ts, internal/store/**\nalwaysApply: false\n---\nComma string: matched by internal/store/**.\n",
			".cursor/rules/aliasy.mdc":  "---\nglobs: *.rs, *.go\n---\nUnquoted stars (not YAML): matched by *.go.\n",
			".cursor/rules/braces.mdc":  "---\nglobs:\n  - \"**/*.{go,mod}\"\n---\nBraces in a list item.\n",
			".cursor/rules/nomatch.mdc": "---\nglobs:\n  - \"src/**/*.ts\"\n  - \"lib/**\"\n---\nNo file in play matches (left out).\n",
			".cursor/rules/empty.mdc":   "---\nglobs: []\n---\nEmpty list, no alwaysApply (left out).\n",
			".cursor/rules/yes.mdc":     "---\nglobs: []\nalwaysApply: yes\n---\nalwaysApply must be true (left out).\n",
			"internal/store/db.go":      "package store\n",
		}, []string{"internal/store/db.go"}},
		{"copilot_applyto_lists", map[string]string{
			".github/instructions/comma.instructions.md": "---\napplyTo: app/**/*.py, lib/**/*.go\n---\nComma list without quotes.\n",
			".github/instructions/list.instructions.md":  "---\napplyTo:\n  - \"**/*.rs\"\n  - \"lib/**\"\n---\nBlock list.\n",
			".github/instructions/none.instructions.md":  "---\napplyTo: \"docs/**, *.md\"\n---\nNot in play (left out).\n",
			"lib/x/y.go": "package x\n",
		}, []string{"lib/x/y.go"}},
		{"claude_imports", map[string]string{
			"AGENTS.md": "Agents: shared rules.\n",
			"CLAUDE.md": "# Claude\nSee @docs/style.md for style, and @AGENTS.md.\n" +
				"`@docs/code-span.md` and ``x @docs/code-span.md`` are code, not imports.\n" +
				"```\n@docs/fenced.md\n```\n" +
				"Mail me@example.com (not an import). @docs/missing.md does not exist.\n" +
				"- @docs/style.md again (once)\n",
			"docs/style.md":     "Style: gofmt.\nSee @more/deep.md and @../CLAUDE.md (a cycle).\n",
			"docs/more/deep.md": "Depth 2.\n@d3.md\n",
			"docs/more/d3.md":   "Depth 3.\n@d4.md\n",
			"docs/more/d4.md":   "DEPTH-4 (too deep, left out)\n",
			"docs/code-span.md": "CODE-SPAN (left out)\n",
			"docs/fenced.md":    "FENCED (left out)\n",
			"lib/CLAUDE.md":     "lib: see @../docs/lib-notes.md\n",
			"docs/lib-notes.md": "Lib notes, relative to lib/.\n",
			"lib/a.go":          "package lib\n",
			"GEMINI.md":         "Gemini: @docs/fenced.md is not followed (only CLAUDE.md imports).\n",
		}, []string{"lib/a.go"}},
		{"clinerules_file", map[string]string{
			".clinerules": "Cline: never touch generated/.\n",
		}, nil},
		{"clinerules_folder", map[string]string{
			".clinerules/02-tests.md":  "Tests: table-driven.\n",
			".clinerules/01-style.md":  "Style: gofmt.\n",
			".clinerules/10-review.md": "Review: small commits.\n",
		}, nil},
		{"windsurfrules", map[string]string{
			".windsurfrules": "Windsurf: keep functions under 50 lines.\n",
		}, nil},
		{"precedence_all", map[string]string{
			"pkg/AGENTS.md":                   "nearest: pkg rules\n",
			"AGENTS.md":                       "root AGENTS\n",
			"CLAUDE.md":                       "root CLAUDE\n",
			"GEMINI.md":                       "root GEMINI\n",
			"CONVENTIONS.md":                  "root CONVENTIONS\n",
			".github/copilot-instructions.md": "copilot\n",
			".cursorrules":                    "cursorrules\n",
			".clinerules":                     "clinerules\n",
			".windsurfrules":                  "windsurfrules\n",
			"pkg/x.go":                        "package pkg\n",
		}, []string{"pkg/x.go"}},
		{"secrets_redacted_and_long_cut", map[string]string{
			"AGENTS.md": "Deploy with:\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" + strings.Repeat("a rule line that goes on and on\n", 240),
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			testtree.Write(t, root, tt.files)
			proj := projfstest.Open(t, root, projfs.Options{})
			c, ok := Section(proj, tt.inPlay, testMaxTotal)
			got := ""
			if ok {
				got = c.Sec.Title + "\n\n" + c.Sec.Body
			}
			golden := filepath.Join("testdata", "rules", tt.name+".golden.txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run go test -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("rules section differs from %s\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// TestRulesNeverLeaveTheProject: instruction files that are links out of the
// project, secret files, files inside .git, and a rules folder that is a link
// are not read; nothing of their text reaches the section.
func TestRulesNeverLeaveTheProject(t *testing.T) {
	outside := t.TempDir()
	testtree.Write(t, outside, map[string]string{
		"evil.md":          "OUTSIDE-SECRET-TEXT\n",
		"rules/01-evil.md": "OUTSIDE-FOLDER-TEXT\n",
	})
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"AGENTS.md":                       "->" + filepath.Join(outside, "evil.md"),
		"CLAUDE.md":                       "->../" + filepath.Base(outside) + "/evil.md",
		".clinerules":                     "->" + filepath.Join(outside, "rules"),
		".cursor/rules/a.env.mdc":         "---\nalwaysApply: true\n---\nnot a secret name, read\n",
		".github/instructions":            "->" + filepath.Join(outside, "rules"),
		".git/AGENTS.md":                  "GIT-INTERNAL-TEXT\n",
		"secrets/AGENTS.md":               "SECRETS-FOLDER-TEXT\n",
		"secrets/x.py":                    "x = 1\n",
		".windsurfrules":                  "kept: the only readable rules\n",
		".github/copilot-instructions.md": "->/etc/passwd",
	})
	proj := projfstest.Open(t, root, projfs.Options{})
	c, ok := Section(proj, []string{"secrets/x.py", ".git/x"}, testMaxTotal)
	if !ok {
		t.Fatal("no rules section; .windsurfrules should be in it")
	}
	for _, bad := range []string{"OUTSIDE", "GIT-INTERNAL", "SECRETS-FOLDER", "root:x:0:0", "CLAUDE.md", "AGENTS.md"} {
		if strings.Contains(c.Sec.Title+c.Sec.Body, bad) {
			t.Errorf("section shows %q:\n%s\n%s", bad, c.Sec.Title, c.Sec.Body)
		}
	}
	if !strings.Contains(c.Sec.Body, "kept: the only readable rules") {
		t.Errorf("section lacks .windsurfrules:\n%s", c.Sec.Body)
	}
}

// TestRuleFiles lists the files in order of precedence (what `fixplan context
// base` and the app show).
func TestRuleFiles(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"AGENTS.md":     "a\n",
		"a/b/AGENTS.md": "ab\n",
		"a/CLAUDE.md":   "ac\n",
		".clinerules/x": "x\n",
		"a/b/c.go":      "package b\n",
	})
	proj := projfstest.Open(t, root, projfs.Options{})
	got := strings.Join(Files(proj, []string{"a/b/c.go"}), " ")
	if want := "a/b/AGENTS.md a/CLAUDE.md AGENTS.md .clinerules/x"; got != want {
		t.Errorf("RuleFiles = %q, want %q", got, want)
	}
}

// TestRuleImportsNeverLeaveTheProject: CLAUDE.md's @path imports go through
// the same confinement as every read: an import climbing out with .., a link out
// of the project, .git/config, .fixplan state, secret files and home paths are
// not read, and nothing of their text reaches the section; the file that
// imports them and the readable import are used.
func TestRuleImportsNeverLeaveTheProject(t *testing.T) {
	parent := t.TempDir()
	outside := filepath.Join(parent, "outside")
	root := filepath.Join(parent, "proj")
	testtree.Write(t, outside, map[string]string{"evil.md": "OUTSIDE-TEXT\n"})
	testtree.Write(t, root, map[string]string{
		"CLAUDE.md": "Imports:\n@../outside/evil.md\n@link-out.md\n@linkdir/evil.md\n@.git/config\n" +
			"@.fixplan/settings.json\n@secrets/k.md\n@.env\n@~/.ssh/id_rsa\n@" + filepath.Join(outside, "evil.md") + "\n@ok.md\n",
		"link-out.md":            "->" + filepath.Join(outside, "evil.md"),
		"linkdir":                "->" + outside,
		".git/config":            "[remote] GIT-CONFIG-TEXT\n",
		".fixplan/settings.json": "FIXPLAN-STATE-TEXT\n",
		"secrets/k.md":           "SECRETS-FOLDER-TEXT\n",
		".env":                   "DOTENV-TEXT=1\n",
		"ok.md":                  "kept: the readable import\n",
	})
	proj := projfstest.Open(t, root, projfs.Options{})
	c, ok := Section(proj, nil, testMaxTotal)
	if !ok {
		t.Fatal("no rules section; CLAUDE.md should be in it")
	}
	all := c.Sec.Title + "\n" + c.Sec.Body
	for _, bad := range []string{"OUTSIDE-TEXT", "GIT-CONFIG", "FIXPLAN-STATE", "SECRETS-FOLDER", "DOTENV"} {
		if strings.Contains(all, bad) {
			t.Errorf("section shows %q:\n%s", bad, all)
		}
	}
	if n := strings.Count(c.Sec.Body, "(imported by"); n != 1 {
		t.Errorf("%d imported files, want only ok.md:\n%s", n, c.Sec.Body)
	}
	if want := "Project rules (CLAUDE.md, ok.md)"; c.Sec.Title != want {
		t.Errorf("title = %q, want %q", c.Sec.Title, want)
	}
	if !strings.Contains(c.Sec.Body, "--- ok.md (imported by CLAUDE.md) ---\nkept: the readable import") {
		t.Errorf("section lacks the readable import:\n%s", c.Sec.Body)
	}
}

// TestRuleImportsCountAgainstTheCaps: imports are files of the section like the
// others: at most maxRuleFiles files in all, each cut at maxRuleFileBytes, and a
// secret inside an imported file is redacted.
func TestRuleImportsCountAgainstTheCaps(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	var imports strings.Builder
	for i := range 20 {
		fmt.Fprintf(&imports, "@r/%02d.md\n", i)
		files[fmt.Sprintf("r/%02d.md", i)] = fmt.Sprintf("rule %02d\n", i) + strings.Repeat("a long imported rule line\n", 400)
	}
	files["CLAUDE.md"] = imports.String()
	files["r/00.md"] = "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" + strings.Repeat("a long imported rule line\n", 400)
	testtree.Write(t, root, files)
	proj := projfstest.Open(t, root, projfs.Options{})
	rf := (project{proj}).ruleFiles(nil)
	if len(rf) != maxRuleFiles {
		t.Errorf("%d rules files used, want the cap %d", len(rf), maxRuleFiles)
	}
	for _, r := range rf {
		if len(r.text) > maxRuleFileBytes+64 {
			t.Errorf("%s: %d bytes, not cut at %d", r.path, len(r.text), maxRuleFileBytes)
		}
	}
	c, ok := Section(proj, nil, testMaxTotal)
	if !ok {
		t.Fatal("no section")
	}
	shown := 0 // the rules' text, without the one-line notes of files left out
	for _, l := range strings.SplitAfter(c.Sec.Body, "\n") {
		if !strings.Contains(l, "left out, the rules budget is spent") {
			shown += len(l)
		}
	}
	if shown > maxRulesBytes {
		t.Errorf("section shows %d bytes of rules, over the cap %d", shown, maxRulesBytes)
	}
	if !strings.Contains(c.Sec.Body, "r/10.md (imported by CLAUDE.md): left out, the rules budget is spent") {
		t.Errorf("the last import within the file cap is not named as left out:\n%s", c.Sec.Body)
	}
	if strings.Contains(c.Sec.Body, "wJalrXUtnFEMI") || c.Redactions == 0 {
		t.Errorf("the key in an imported file is not redacted (%d redactions)", c.Redactions)
	}
}

// TestIsRuleFile: the files Files may read, and no others.
func TestIsRuleFile(t *testing.T) {
	for p, want := range map[string]bool{
		"AGENTS.md": true, "app/sub/CLAUDE.md": true, "agents.md": true, "GEMINI.md": true, "CLAUDE.local.md": true,
		".github/copilot-instructions.md": true, ".github/instructions/py.instructions.md": true,
		".cursorrules": true, ".cursor/rules/x.mdc": true, ".clinerules": true, ".clinerules/01-style.md": true,
		".windsurfrules": true, "CONVENTIONS.md": true,
		"README.md": false, "app/CONVENTIONS.md": false, ".cursor/rules/x.md": false, "app/.cursorrules": false,
		".github/instructions/notes.md": false, "calc.py": false,
	} {
		if got := IsRuleFile(p); got != want {
			t.Errorf("IsRuleFile(%q) = %v, want %v", p, got, want)
		}
	}
}
