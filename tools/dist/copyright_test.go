package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// Licence texts for the fakes: short, but holding the sentences recognise and the
// common-licence match look for.
const (
	mitText = `MIT License

Copyright (c) 2013 TOML authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software, to deal in the Software without restriction.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.`
	bsd3Text = `Copyright (c) 2009 The Go Authors. All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:
   * Neither the name of Google Inc. nor the names of its
contributors may be used to endorse or promote products derived from
this software without specific prior written permission.`
	// fakeApache stands for /usr/share/common-licenses/Apache-2.0: terms, their
	// end, the appendix.
	fakeApache = `
                                 Apache License
                           Version 2.0, January 2004
                        http://www.apache.org/licenses/

   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION

   1. Definitions. "License" shall mean the terms and conditions for use.

   4. Redistribution. You may reproduce and distribute copies provided that
      You meet the following conditions:

      (a) You must give any other recipients a copy of this License; and

      (c) You must retain, in the Source form of any Derivative Works
          that You distribute, all copyright notices.

   END OF TERMS AND CONDITIONS

   APPENDIX: How to apply the Apache License to your work.

   Copyright [yyyy] [name of copyright owner]

   Licensed under the Apache License, Version 2.0 (the "License");
   limitations under the License.
`
	fakeMPL = "Mozilla Public License Version 2.0\n\n1. Definitions\n\n1.1. \"Contributor\" means each individual.\n"
)

type fakeTree struct {
	t    *testing.T
	root string
}

func (f fakeTree) write(rel, text string) {
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// fakeCopyrightInput is a module cache, a GOROOT, common licences and a frontend
// with every case the generator handles.
func fakeCopyrightInput(t *testing.T) (copyrightInput, fakeTree) {
	f := fakeTree{t, t.TempDir()}
	f.write("goroot/LICENSE", bsd3Text)
	f.write("goroot/PATENTS", "Additional IP Rights Grant (Patents)")
	f.write("common/Apache-2.0", fakeApache)
	f.write("common/MPL-2.0", fakeMPL)
	// upper case in the path is escaped in the cache
	f.write("mod/github.com/!burnt!sushi/toml@v1.4.0/LICENSE", mitText)
	// Apache's text reworded by line breaks, "https", lost clause letters, a filled-in
	// appendix; a NOTICE
	apache := strings.NewReplacer("http:", "https:", "(a) ", "", "(c) ", "", "      You meet", "You\nmeet",
		"[yyyy] [name of copyright owner]", "2020 Example Corp").Replace(fakeApache)
	f.write("mod/example.com/apache@v1.0.0/LICENSE.txt", apache)
	f.write("mod/example.com/apache@v1.0.0/NOTICE", "Example Apache thing\nCopyright 2020-2021 Example Corp")
	// two licence files
	f.write("mod/example.com/multi@v0.1.0/LICENSE-MIT", strings.Replace(mitText, "2013 TOML authors", "2021 Multi", 1))
	f.write("mod/example.com/multi@v0.1.0/LICENSE-BSD", bsd3Text)
	f.write("mod/example.com/multi@v0.1.0/README.md", "not a licence")
	// a module replaced by a local folder
	f.write("src/third_party/local/COPYING", strings.Replace(mitText, "2013 TOML authors", "2022 Local", 1))

	// frontend: a (prod) needs b, resolved to a's own nested copy; the top-level b,
	// dev-only and an optional package that is not installed are not bundled.
	f.write("src/frontend/package-lock.json", `{
  "name": "x", "lockfileVersion": 3,
  "packages": {
    "": {"name": "x", "dependencies": {"a": "^1.0.0"}, "devDependencies": {"dev-only": "1", "b": "2"}},
    "node_modules/a": {"version": "1.0.0", "license": "MIT", "dependencies": {"b": "^1.0.0"}, "optionalDependencies": {"opt": "1"}},
    "node_modules/a/node_modules/b": {"version": "1.2.0", "license": "(MIT OR Apache-2.0)", "peerDependencies": {"a": "1"}},
    "node_modules/b": {"version": "2.0.0", "license": "MIT", "dev": true},
    "node_modules/dev-only": {"version": "1.0.0", "license": "WTFPL", "dev": true},
    "node_modules/opt": {"version": "1.0.0", "license": "MIT", "optional": true}
  }
}`)
	f.write("src/frontend/node_modules/a/LICENSE", strings.Replace(mitText, "2013 TOML authors", "2015 A Person", 1))
	f.write("src/frontend/node_modules/a/node_modules/b/LICENSE-MIT", strings.Replace(mitText, "2013 TOML authors", "2016 B", 1))
	f.write("src/frontend/node_modules/a/node_modules/b/LICENSE-APACHE", fakeApache)
	f.write("src/frontend/node_modules/b/LICENSE", mitText)
	f.write("src/frontend/node_modules/dev-only/LICENSE", "do what you want")

	in := copyrightInput{
		Go: goBuild{
			goVersions: []string{"go1.26.0"},
			targets:    []string{"/usr/bin/fixplan", "/usr/bin/fixplan-cli"},
			modules: []goModule{
				{path: "example.com/apache", version: "v1.0.0", in: []string{"/usr/bin/fixplan"}},
				{path: "example.com/local", local: "./third_party/local", in: []string{"/usr/bin/fixplan", "/usr/bin/fixplan-cli"}},
				{path: "example.com/multi", version: "v0.1.0", in: []string{"/usr/bin/fixplan-cli"}},
				{path: "github.com/BurntSushi/toml", version: "v1.4.0", in: []string{"/usr/bin/fixplan", "/usr/bin/fixplan-cli"}},
			},
		},
		GoRoot:         filepath.Join(f.root, "goroot"),
		ModCache:       filepath.Join(f.root, "mod"),
		ModuleRoot:     filepath.Join(f.root, "src"),
		Frontend:       filepath.Join(f.root, "src", "frontend"),
		CommonLicenses: filepath.Join(f.root, "common"),
		Year:           2027,
		Contact:        "fixplan <noreply@fixplan.invalid>",
	}
	return in, f
}

// paragraphs parses a deb822 file: each paragraph's fields, values with their
// continuation lines (leading space removed, " ." as an empty line).
func paragraphs(t *testing.T, b []byte) []map[string]string {
	t.Helper()
	var out []map[string]string
	for _, block := range strings.Split(strings.TrimSpace(string(b)), "\n\n") {
		p := map[string]string{}
		last := ""
		for _, l := range strings.Split(block, "\n") {
			if strings.HasPrefix(l, " ") {
				if last == "" {
					t.Fatalf("continuation line before any field: %q", l)
				}
				l = strings.TrimPrefix(l, " ")
				if l == "." {
					l = ""
				}
				p[last] += "\n" + l
				continue
			}
			name, value, ok := strings.Cut(l, ": ")
			if !ok {
				name, value, ok = strings.Cut(l, ":")
			}
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				t.Fatalf("not a field: %q", l)
			}
			if _, dup := p[name]; dup {
				t.Fatalf("field %s twice in a paragraph", name)
			}
			p[name], last = value, name
		}
		out = append(out, p)
	}
	return out
}

func byFiles(ps []map[string]string, files string) map[string]string {
	for _, p := range ps {
		if p["Files"] == files {
			return p
		}
	}
	return nil
}

func TestCopyrightFromFakeModuleCache(t *testing.T) {
	in, _ := fakeCopyrightInput(t)
	b, err := writeCopyright(in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := writeCopyright(in)
	if err != nil || !bytes.Equal(b, again) {
		t.Fatalf("a second run wrote other bytes (%v)", err)
	}
	ps := paragraphs(t, b)
	if ps[0]["Format"] != "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" || ps[0]["Upstream-Name"] != "fixplan" {
		t.Errorf("header: %v", ps[0])
	}
	for _, p := range ps[1:] {
		if p["License"] == "" || (p["Files"] != "") != (p["Copyright"] != "") {
			t.Errorf("a paragraph needs License, and Files with Copyright or neither: %v", p)
		}
	}
	own := ps[1]
	if own["Files"] != "*" || own["Copyright"] != "2026-2027 the fixplan authors" ||
		!strings.HasPrefix(own["License"], "all-rights-reserved\nNo licence has been chosen") {
		t.Errorf("fixplan's own paragraph: %v", own)
	}
	want := []string{"*", "vendor/std/*", "vendor/example.com/apache/*", "vendor/example.com/local/*",
		"vendor/example.com/multi/*", "vendor/github.com/BurntSushi/toml/*",
		"frontend/node_modules/a/*", "frontend/node_modules/a/node_modules/b/*", ""}
	var got []string
	for _, p := range ps[1:] {
		got = append(got, p["Files"])
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paragraphs for\n%q\nwant\n%q", got, want)
	}

	std := byFiles(ps, "vendor/std/*")
	if std["Copyright"] != "Copyright (c) 2009 The Go Authors. All rights reserved." || !strings.HasPrefix(std["License"], "BSD-3-Clause\n") ||
		!strings.Contains(std["Comment"], "go1.26.0,\ncompiled into /usr/bin/fixplan and /usr/bin/fixplan-cli.") ||
		!strings.Contains(std["Comment"], "PATENTS:\n\nAdditional IP Rights Grant") {
		t.Errorf("standard library: %v", std)
	}
	toml := byFiles(ps, "vendor/github.com/BurntSushi/toml/*")
	if toml["Copyright"] != "Copyright (c) 2013 TOML authors" || toml["License"] != "MIT\n"+mitText ||
		!strings.HasPrefix(toml["Comment"], "Go module github.com/BurntSushi/toml v1.4.0,") {
		t.Errorf("toml (escaped path in the cache): %v", toml)
	}
	// The Apache text is cited, not copied; the rest of its file and the NOTICE are kept.
	ap := byFiles(ps, "vendor/example.com/apache/*")
	if ap["License"] != "Apache-2.0" || ap["Copyright"] != "Copyright 2020 Example Corp\nCopyright 2020-2021 Example Corp" ||
		!strings.Contains(ap["Comment"], "compiled into /usr/bin/fixplan.") ||
		!strings.Contains(ap["Comment"], "Besides the Apache-2.0 text, LICENSE.txt says:\n\n   Copyright 2020 Example Corp") ||
		!strings.Contains(ap["Comment"], "NOTICE:\n\nExample Apache thing") {
		t.Errorf("apache: %v", ap)
	}
	if bytes.Contains(b, []byte("TERMS AND CONDITIONS")) {
		t.Error("the Apache licence's text was copied (lintian: copyright-file-contains-full-apache-2-license)")
	}
	last := ps[len(ps)-1]
	if last["License"] != "Apache-2.0\nOn Debian systems, the complete text of the Apache License, Version 2.0\ncan be found in /usr/share/common-licenses/Apache-2.0." {
		t.Errorf("the cited licence's paragraph: %v", last)
	}
	if bytes.Contains(b, []byte("License: MPL-2.0")) {
		t.Error("MPL-2.0 has a paragraph though nothing cites it")
	}
	multi := byFiles(ps, "vendor/example.com/multi/*")
	if !strings.HasPrefix(multi["License"], "BSD-3-Clause and MIT\nLICENSE-BSD:\n\nCopyright (c) 2009") ||
		!strings.Contains(multi["License"], "\n\nLICENSE-MIT:\n\nMIT License") || strings.Contains(multi["License"], "not a licence") ||
		multi["Copyright"] != "Copyright (c) 2009 The Go Authors. All rights reserved.\nCopyright (c) 2021 Multi" {
		t.Errorf("two licence files: %v", multi)
	}
	if local := byFiles(ps, "vendor/example.com/local/*"); local["Copyright"] != "Copyright (c) 2022 Local" ||
		!strings.HasPrefix(local["Comment"], "Go module example.com/local (replaced by ./third_party/local),\n") {
		t.Errorf("a module replaced by a local folder: %v", local)
	}
	a := byFiles(ps, "frontend/node_modules/a/*")
	if a["License"] != "MIT\n"+strings.Replace(mitText, "2013 TOML authors", "2015 A Person", 1) ||
		a["Comment"] != "npm package a 1.0.0,\nbundled into the window's JavaScript (in /usr/bin/fixplan)." {
		t.Errorf("npm a: %v", a)
	}
	// The lock's SPDX expression in the copyright format's spelling; the MIT text
	// copied, the Apache one cited.
	nb := byFiles(ps, "frontend/node_modules/a/node_modules/b/*")
	if !strings.HasPrefix(nb["License"], "MIT or Apache-2.0\n") || !strings.Contains(nb["License"], "Copyright (c) 2016 B") {
		t.Errorf("npm a/node_modules/b: %v", nb)
	}
	for _, no := range []string{"dev-only", "WTFPL", "node_modules/opt", "README"} {
		if bytes.Contains(b, []byte(no)) {
			t.Errorf("the copyright file mentions %q", no)
		}
	}
}

func TestCopyrightRefusesGaps(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(in *copyrightInput, f fakeTree)
		want  []string
	}{
		{"a module without a licence file", func(in *copyrightInput, f fakeTree) {
			f.write("mod/example.com/bare@v1.0.0/README", "no licence")
			f.write("mod/example.com/bare2@v2.0.0/NOTICE", "a notice is not a licence")
			in.Go.modules = append(in.Go.modules, goModule{path: "example.com/bare", version: "v1.0.0"}, goModule{path: "example.com/bare2", version: "v2.0.0"})
		}, []string{"Go module example.com/bare v1.0.0: no licence file", "Go module example.com/bare2 v2.0.0: no licence file"}},
		{"a module missing from the cache", func(in *copyrightInput, f fakeTree) {
			in.Go.modules = append(in.Go.modules, goModule{path: "example.com/gone", version: "v1.0.0"})
		}, []string{"Go module example.com/gone v1.0.0"}},
		{"a licence not recognised", func(in *copyrightInput, f fakeTree) {
			f.write("mod/example.com/odd@v1.0.0/LICENSE", "You may use this if you are nice.")
			in.Go.modules = append(in.Go.modules, goModule{path: "example.com/odd", version: "v1.0.0"})
		}, []string{"Go module example.com/odd v1.0.0: the licence in", "not one tools/dist recognises"}},
		{"no licence of the standard library", func(in *copyrightInput, f fakeTree) {
			os.Remove(filepath.Join(in.GoRoot, "LICENSE"))
		}, []string{"The Go standard library and runtime, go1.26.0: no licence file"}},
		{"an npm package without a licence file", func(in *copyrightInput, f fakeTree) {
			os.Remove(filepath.Join(in.Frontend, "node_modules/a/LICENSE"))
		}, []string{"npm package a 1.0.0: no licence file"}},
		{"a declared licence whose text is missing", func(in *copyrightInput, f fakeTree) {
			os.Remove(filepath.Join(in.Frontend, "node_modules/a/node_modules/b/LICENSE-MIT"))
		}, []string{"npm package b 1.2.0: declares the licence MIT or Apache-2.0, but its licence files hold only Apache-2.0"}},
		{"an npm package not installed", func(in *copyrightInput, f fakeTree) {
			os.RemoveAll(filepath.Join(in.Frontend, "node_modules/a"))
		}, []string{"npm package node_modules/a is not installed", "npm ci"}},
		{"an npm dependency not in the lock", func(in *copyrightInput, f fakeTree) {
			f.write("src/frontend/package-lock.json", `{"lockfileVersion": 3, "packages": {"": {"dependencies": {"left-pad": "1"}}}}`)
		}, []string{"npm package left-pad (needed by package.json) is not in package-lock.json"}},
		{"an old lock file", func(in *copyrightInput, f fakeTree) {
			f.write("src/frontend/package-lock.json", `{"lockfileVersion": 1, "dependencies": {}}`)
		}, []string{"package-lock.json is version 1"}},
		{"no common licences", func(in *copyrightInput, f fakeTree) {
			in.CommonLicenses = filepath.Join(f.root, "nowhere")
		}, []string{"Apache-2.0", "base-files"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, f := fakeCopyrightInput(t)
			c.spoil(&in, f)
			_, err := writeCopyright(in)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestCommonLicenseCut(t *testing.T) {
	f := fakeTree{t, t.TempDir()}
	f.write("Apache-2.0", fakeApache)
	f.write("MPL-2.0", fakeMPL)
	ls, err := loadCommonLicenses(f.root)
	if err != nil {
		t.Fatal(err)
	}
	apache := ls[0]
	for _, c := range []struct {
		name, text, rest string
		ok               bool
	}{
		{"verbatim", fakeApache, "", true},
		{"with a heading and copyright before it", "fancy lib\nCopyright 2019 Somebody\n" + fakeApache, "fancy lib\nCopyright 2019 Somebody", true},
		{"reflowed into long lines", strings.Join(strings.Fields(fakeApache), " "), "", true},
		{"ending before END OF TERMS", fakeApache[:strings.Index(fakeApache, "   END OF TERMS")], "", true},
		{"appendix filled in", strings.Replace(fakeApache, "[yyyy] [name of copyright owner]", "2018 Sourced", 1),
			"   Copyright 2018 Sourced\n\n   Licensed under the Apache License, Version 2.0 (the \"License\");\n   limitations under the License.", true},
		{"a clause changed", strings.Replace(fakeApache, "You must give any other", "You need not give", 1), "", false},
		{"the terms cut short", fakeApache[:strings.Index(fakeApache, "   4. Redistribution")], "", false},
	} {
		rest, ok := apache.cut(c.text)
		if ok != c.ok || ok && rest != c.rest {
			t.Errorf("%s: cut = %v, %q; want %v, %q", c.name, ok, rest, c.ok, c.rest)
		}
	}
}

func TestRecognise(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{mitText, []string{"MIT"}},
		{bsd3Text, []string{"BSD-3-Clause"}},
		{"Redistribution and use in source and binary forms, with or without modification, are permitted.", []string{"BSD-2-Clause"}},
		{"Permission to use, copy, modify, and/or distribute this software for any purpose\nwith or without fee is hereby granted", []string{"ISC"}},
		{"Licensed under the Apache License, Version 2.0 (the “License”)\n" + mitText, []string{"Apache-2.0", "MIT"}},
		{"This is free and unencumbered software released into the public domain.", []string{"Unlicense"}},
		{"All yours.", nil},
	} {
		if got := recognise(c.text); !slices.Equal(got, c.want) {
			t.Errorf("recognise(%.40q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestCopyrightLines(t *testing.T) {
	text := "Copyright (c) 2015, Dave\ncopyright notice and this permission notice\nCOPYRIGHT HOLDERS BE LIABLE\n" +
		"   Copyright 2009 The Go Authors.\nCopyright [yyyy] [name of copyright owner]\n(c) You must retain\n© 2020 Someone\n(C) 2019 Other\nCopyright: 2021 Colon"
	want := []string{"Copyright (c) 2015, Dave", "Copyright 2009 The Go Authors.", "© 2020 Someone", "(C) 2019 Other", "Copyright: 2021 Colon"}
	if got := copyrightLines(text); !slices.Equal(got, want) {
		t.Errorf("copyrightLines = %q, want %q", got, want)
	}
}

func TestEscapeModule(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/BurntSushi/toml": "github.com/!burnt!sushi/toml",
		"golang.org/x/sys":           "golang.org/x/sys",
		"v1.0.0-RC1":                 "v1.0.0-!r!c1",
	} {
		if got := escapeModule(in); got != want {
			t.Errorf("escapeModule(%q) = %q, want %q", in, got, want)
		}
	}
}

// The build info of this test binary names the modules tools/dist is built with.
func TestReadGoBuild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g, err := readGoBuild([]installedBinary{{exe, "/usr/bin/a"}, {exe, "/usr/bin/b"}})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := debug.ReadBuildInfo()
	if !slices.Equal(g.goVersions, []string{info.GoVersion}) || !slices.Equal(g.targets, []string{"/usr/bin/a", "/usr/bin/b"}) {
		t.Errorf("go %v, targets %v", g.goVersions, g.targets)
	}
	var nfpm *goModule
	for i, m := range g.modules {
		if i > 0 && g.modules[i-1].path >= m.path {
			t.Errorf("modules out of order: %s before %s", g.modules[i-1].path, m.path)
		}
		if m.path == "github.com/goreleaser/nfpm/v2" {
			nfpm = &g.modules[i]
		}
	}
	var want string
	for _, d := range info.Deps {
		if d.Path == "github.com/goreleaser/nfpm/v2" {
			want = d.Version
		}
	}
	if nfpm == nil || want == "" || nfpm.version != want || !slices.Equal(nfpm.in, []string{"/usr/bin/a", "/usr/bin/b"}) {
		t.Errorf("nfpm: %+v, want version %q", nfpm, want)
	}
	if _, err := readGoBuild([]installedBinary{{filepath.Join(repo, "README.md"), "/x"}}); err == nil || !strings.Contains(err.Error(), "README.md") {
		t.Errorf("a file without build info: %v", err)
	}
}
