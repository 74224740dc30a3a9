package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Debian package's /usr/share/doc/fixplan/copyright, in the machine-readable
// format (https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/):
// fixplan's own paragraph, then one per third-party component compiled or bundled
// into the binaries — the Go standard library, every Go module the binaries' build
// info names (their licence files from the module cache) and every npm package the
// window's JavaScript is built from (the production dependencies of
// frontend/package.json, from frontend/package-lock.json, their licence files from
// frontend/node_modules). A component whose licence file cannot be found, or whose
// licence is not one this file recognises, stops the build with its name.

// copyrightInput says where the components and their licence files are.
type copyrightInput struct {
	Go             goBuild // the binaries' build info (readGoBuild)
	GoRoot         string  // the toolchain's GOROOT: its LICENSE covers the standard library
	ModCache       string  // GOMODCACHE
	ModuleRoot     string  // the main module's folder (modules replaced by a local folder are relative to it)
	Frontend       string  // the folder with package.json, package-lock.json and node_modules
	CommonLicenses string  // /usr/share/common-licenses: texts cited by name instead of copied
	Year           int     // of the commit the package is built from
	Contact        string  // Upstream-Contact
	Homepage       string  // Source, when set
}

type installedBinary struct {
	Path   string // the file read for its build info
	Target string // where the package installs it (/usr/bin/fixplan)
}

// component is one paragraph of the copyright file.
type component struct {
	title   string // "Go module golang.org/x/sys v0.47.0"
	name    string
	dir     string // where its licence files are
	files   string // the Files: pattern
	license string // its licence as declared (npm), else recognised from the text
	where   string // where it ends up in the package
}

// ownLicense is fixplan's own licence paragraph. No licence has been chosen
// for fixplan; until one is, none is granted.
const ownLicense = `all-rights-reserved
No licence has been chosen for fixplan yet, so none is granted: the fixplan
authors reserve all rights to fixplan's own code. The components in the
paragraphs below are the work of others, compiled or bundled into fixplan's
binaries, and each keeps its own licence.`

// firstYear is the year fixplan's first commit was made.
const firstYear = 2026

func writeCopyright(in copyrightInput) ([]byte, error) {
	comps := goComponents(in)
	npm, err := npmComponents(in.Frontend)
	if err != nil {
		return nil, err
	}
	comps = append(comps, npm...)
	common, err := loadCommonLicenses(in.CommonLicenses)
	if err != nil {
		return nil, err
	}

	var out bytes.Buffer
	writeField(&out, "Format", "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
	writeField(&out, "Upstream-Name", "fixplan")
	if in.Contact != "" {
		writeField(&out, "Upstream-Contact", in.Contact)
	}
	if in.Homepage != "" {
		writeField(&out, "Source", in.Homepage)
	}
	writeField(&out, "Comment", "Written by tools/dist when the package was built, from the build info of\n"+
		"the binaries (Go modules) and frontend/package-lock.json (the npm packages\n"+
		"bundled into the window's JavaScript). The paths of Go modules are where\n"+
		"`go mod vendor` would put them.")
	out.WriteString("\n")
	years := fmt.Sprint(firstYear)
	if in.Year > firstYear {
		years += fmt.Sprintf("-%d", in.Year)
	}
	writeField(&out, "Files", "*")
	writeField(&out, "Copyright", years+" the fixplan authors")
	writeField(&out, "License", ownLicense)

	cited := map[string]bool{}
	var errs []error
	for _, c := range comps {
		p, err := componentParagraph(c, common, cited)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.WriteString("\n")
		out.Write(p)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("copyright: %w", errors.Join(errs...))
	}
	for _, l := range common {
		if cited[l.name] {
			out.WriteString("\n")
			writeField(&out, "License", l.name+"\nOn Debian systems, the complete text of the "+l.title+"\ncan be found in /usr/share/common-licenses/"+l.name+".")
		}
	}
	if !utf8.Valid(out.Bytes()) {
		return nil, errors.New("copyright: a licence file is not UTF-8")
	}
	return out.Bytes(), nil
}

// componentParagraph is c's Files paragraph. A licence text Debian ships in
// /usr/share/common-licenses is cited by name (cited records which), not copied.
func componentParagraph(c component, common []commonLicense, cited map[string]bool) ([]byte, error) {
	label := c.title
	licenses, notices, err := licenseFiles(c.dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	if len(licenses) == 0 {
		return nil, fmt.Errorf("%s: no licence file (LICENSE, LICENCE, COPYING, UNLICENSE) in %s", label, c.dir)
	}
	var holders, names, cites []string
	var texts, besides []string
	for _, f := range licenses {
		text := f.text
		var here []string
		for _, l := range common {
			if rest, ok := l.cut(text); ok {
				here = append(here, l.name)
				text = rest
			}
		}
		holders = append(holders, copyrightLines(text)...) // not the quoted licence's "(c) You must retain"
		cites = append(cites, here...)
		names = append(names, here...)
		kinds := recognise(text)
		if len(here) > 0 && !hasOther(kinds, here) {
			// what is left is how to apply the licence, a notice: a comment
			if text != "" {
				besides = append(besides, "Besides the "+strings.Join(here, " and ")+" text, "+f.name+" says:\n\n"+text)
			}
			continue
		}
		if len(kinds) == 0 && c.license == "" {
			return nil, fmt.Errorf("%s: the licence in %s is not one tools/dist recognises (licenseMarks in tools/dist/copyright.go): read it, then add it there", label, filepath.Join(c.dir, f.name))
		}
		names = append(names, kinds...)
		if len(licenses) > 1 {
			text = f.name + ":\n\n" + text
		}
		texts = append(texts, text)
	}
	license := c.license
	if license == "" {
		license = strings.Join(uniq(names), " and ")
	}
	if len(texts) == 0 {
		// the paragraph has no text of its own: each licence it names must be cited
		for _, n := range strings.Fields(strings.NewReplacer(" and ", " ", " or ", " ").Replace(license)) {
			if !slices.Contains(cites, n) {
				return nil, fmt.Errorf("%s: declares the licence %s, but its licence files hold only %s", label, license, strings.Join(uniq(cites), " and "))
			}
		}
	}
	for _, n := range cites {
		cited[n] = true
	}
	for _, f := range notices {
		holders = append(holders, copyrightLines(f.text)...)
	}
	holders = uniq(holders)
	if len(holders) == 0 {
		holders = []string{"the authors of " + c.name}
	}
	comment := c.title + ",\n" + c.where + "."
	for _, b := range besides {
		comment += "\n\n" + b
	}
	for _, f := range notices {
		comment += "\n\n" + f.name + ":\n\n" + f.text
	}
	var p bytes.Buffer
	writeField(&p, "Files", c.files)
	writeField(&p, "Copyright", strings.Join(holders, "\n"))
	writeField(&p, "Comment", comment)
	if len(texts) > 0 {
		license += "\n" + strings.Join(texts, "\n\n")
	}
	writeField(&p, "License", license)
	return p.Bytes(), nil
}

// writeField writes a deb822 field: the value's first line after the name, the
// others indented by one space, blank lines as " .".
func writeField(w *bytes.Buffer, name, value string) {
	lines := strings.Split(value, "\n")
	w.WriteString(name + ": " + lines[0] + "\n")
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			w.WriteString(" .\n")
		} else {
			w.WriteString(" " + l + "\n")
		}
	}
}

type textFile struct{ name, text string }

var (
	reLicenseFile = regexp.MustCompile(`(?i)^(un)?licen[cs]e([-._].*)?$|^copying([-._].*)?$|^[a-z0-9]+[-_]licen[cs]e(\..*)?$`)
	reNoticeFile  = regexp.MustCompile(`(?i)^(notice|patents)([-._].*)?$`)
)

// licenseFiles reads dir's licence and notice files (and those in a LICENSES folder),
// in name order, their text tidied for the copyright file.
func licenseFiles(dir string) (licenses, notices []textFile, err error) {
	read := func(sub string) error {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			return err
		}
		for _, e := range ents {
			lic, not := reLicenseFile.MatchString(e.Name()), reNoticeFile.MatchString(e.Name())
			if sub != "" {
				lic = true // every file of LICENSES/ is a licence
			}
			if !e.Type().IsRegular() || !lic && !not {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, sub, e.Name()))
			if err != nil {
				return err
			}
			f := textFile{path.Join(filepath.ToSlash(sub), e.Name()), tidy(string(b))}
			if f.text == "" {
				continue
			}
			if lic {
				licenses = append(licenses, f)
			} else {
				notices = append(notices, f)
			}
		}
		return nil
	}
	if err := read(""); err != nil {
		return nil, nil, err
	}
	if st, err := os.Stat(filepath.Join(dir, "LICENSES")); err == nil && st.IsDir() {
		if err := read("LICENSES"); err != nil {
			return nil, nil, err
		}
	}
	return licenses, notices, nil
}

// tidy makes a text fit a deb822 field: LF line ends, tabs expanded, no trailing
// spaces, no blank lines at either end.
func tidy(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	s = strings.TrimPrefix(s, "\ufeff")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, "\t") {
			var b strings.Builder
			for _, r := range l {
				if r == '\t' {
					b.WriteString(strings.Repeat(" ", 8-utf8.RuneCountInString(b.String())%8))
				} else {
					b.WriteRune(r)
				}
			}
			l = b.String()
		}
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// reHolder matches a copyright statement: "Copyright" followed by ©, (c) or a
// year, or a line starting with © or with (c) and a year — not the licence
// texts' "copyright notice", "COPYRIGHT HOLDERS", a clause "(c)" or Apache's
// "Copyright [yyyy] [name of copyright owner]".
var reHolder = regexp.MustCompile(`(?i)^(copyright\s*:?\s*(\(c\)|©|[0-9]{4})|\(c\)\s*[0-9]{4}|©)`)

func copyrightLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.Join(strings.Fields(l), " ")
		if reHolder.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// licenseMarks recognise a licence by a sentence of its text (the text
// lower-cased, its spaces and quotes made plain). A licence not here stops the
// build: read it, then add it.
var licenseMarks = []struct {
	name string
	re   *regexp.Regexp
}{
	{"Apache-2.0", regexp.MustCompile(`apache license,? version 2\.0`)},
	{"MPL-2.0", regexp.MustCompile(`mozilla public license,? (version|v\.?) ?2\.0`)},
	{"MIT", regexp.MustCompile(`permission is hereby granted, free of charge, to any person obtaining a copy`)},
	{"ISC", regexp.MustCompile(`permission to use, copy, modify, and(/or)? distribute this software for any purpose with or without fee is hereby granted`)},
	{"BSD-4-Clause", regexp.MustCompile(`redistribution and use in source and binary forms.*all advertising materials mentioning features`)},
	{"BSD-3-Clause", regexp.MustCompile(`redistribution and use in source and binary forms.*(may|shall)( not)? be used to endorse or promote products derived`)},
	{"BSD-2-Clause", regexp.MustCompile(`redistribution and use in source and binary forms`)},
	{"Unlicense", regexp.MustCompile(`this is free and unencumbered software released into the public domain`)},
	{"CC0-1.0", regexp.MustCompile(`cc0 1\.0 universal`)},
}

var plainQuotes = strings.NewReplacer("“", `"`, "”", `"`, "‘", "'", "’", "'")

// recognise names the licences text holds, in licenseMarks' order; the BSD
// variants exclude each other.
func recognise(text string) []string {
	flat := plainQuotes.Replace(strings.ToLower(strings.Join(strings.Fields(text), " ")))
	var names []string
	bsd := false
	for _, m := range licenseMarks {
		if strings.HasPrefix(m.name, "BSD-") && bsd {
			continue
		}
		if m.re.MatchString(flat) {
			names = append(names, m.name)
			bsd = bsd || strings.HasPrefix(m.name, "BSD-")
		}
	}
	return names
}

// commonLicense is a text of /usr/share/common-licenses, cited by name in the
// copyright file instead of copied (Debian policy 12.5; lintian's
// copyright-file-contains-full-apache-2-license).
type commonLicense struct {
	name, title string
	words       []string // the text's words, lower-cased
	terms       int      // how many of them a file must hold, in order, to be this licence
}

// The common licences a component may be under; their terms end before "END OF
// TERMS AND CONDITIONS" (the appendix that follows is how to apply them).
var commonLicenseTitles = []struct{ name, title string }{
	{"Apache-2.0", "Apache License, Version 2.0"},
	{"MPL-2.0", "Mozilla Public License, Version 2.0"},
}

func loadCommonLicenses(dir string) ([]commonLicense, error) {
	var out []commonLicense
	for _, t := range commonLicenseTitles {
		b, err := os.ReadFile(filepath.Join(dir, t.name))
		if err != nil {
			return nil, fmt.Errorf("copyright: %w (Debian's base-files package has the common licences)", err)
		}
		words := textWords(string(b))
		terms := len(words)
		for i := 0; i+5 <= len(words); i++ {
			if strings.Join(wordTexts(words[i:i+5]), " ") == "end of terms and conditions" {
				terms = i // some copies end without that line
				break
			}
		}
		out = append(out, commonLicense{name: t.name, title: t.title, words: wordTexts(words), terms: terms})
	}
	return out, nil
}

type word struct {
	text       string
	start, end int // byte offsets
}

// textWords splits s into lower-cased words of letters and digits, leaving out
// single letters (copies of a licence differ in "http" and "https", and some lost
// the "(a)", "(b)" of its clauses along with their formatting).
func textWords(s string) []word {
	var out []word
	start := -1
	for i, r := range s + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := strings.ToLower(s[start:i])
			if w == "https" {
				w = "http"
			}
			if utf8.RuneCountInString(w) > 1 || unicode.IsDigit(rune(w[0])) {
				out = append(out, word{w, start, i})
			}
			start = -1
		}
	}
	return out
}

func wordTexts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// cut finds l's text in text — word for word, whatever the line breaks and
// punctuation, at least up to the end of its terms (the appendix on how to apply
// it may be missing or filled in) — and returns text without it.
func (l commonLicense) cut(text string) (string, bool) {
	ws := textWords(text)
	for i := range ws {
		n := 0
		for n < len(l.words) && i+n < len(ws) && ws[i+n].text == l.words[n] {
			n++
		}
		if n < l.terms {
			continue
		}
		start := ws[i].start
		if ls := strings.LastIndexByte(text[:start], '\n') + 1; strings.TrimSpace(text[ls:start]) == "" {
			start = ls // from the start of its line
		}
		end := len(text)
		if i+n < len(ws) {
			// up to the line of the first word that differs (or follows), kept whole
			end = max(strings.LastIndexByte(text[:ws[i+n].start], '\n')+1, start)
		}
		return tidy(text[:start] + text[end:]), true
	}
	return text, false
}

// hasOther says whether names has one not in cited.
func hasOther(names, cited []string) bool {
	for _, n := range names {
		if !slices.Contains(cited, n) {
			return true
		}
	}
	return false
}

func uniq(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// goBuild is what the binaries' build info says they were made from.
type goBuild struct {
	goVersions []string   // of the toolchain
	targets    []string   // the binaries, as installed
	modules    []goModule // after replacements, each once, in path order
}

type goModule struct {
	path, version string
	local         string   // the folder a replace directive put in its place
	in            []string // the binaries it is compiled into
}

func readGoBuild(bins []installedBinary) (goBuild, error) {
	var g goBuild
	at := map[string]int{}
	for _, b := range bins {
		info, err := buildinfo.ReadFile(b.Path)
		if err != nil {
			return g, fmt.Errorf("copyright: the build info of %s: %w", b.Path, err)
		}
		g.goVersions = uniq(append(g.goVersions, info.GoVersion))
		g.targets = append(g.targets, b.Target)
		for _, d := range info.Deps {
			m := goModule{path: d.Path, version: d.Version}
			if r := d.Replace; r != nil && r.Version == "" {
				m = goModule{path: d.Path, local: r.Path}
			} else if r != nil {
				m = goModule{path: r.Path, version: r.Version}
			}
			key := m.path + "@" + m.version + "@" + m.local
			i, ok := at[key]
			if !ok {
				i = len(g.modules)
				at[key] = i
				g.modules = append(g.modules, m)
			}
			g.modules[i].in = append(g.modules[i].in, b.Target)
		}
	}
	slices.SortFunc(g.modules, func(a, b goModule) int {
		return strings.Compare(a.path+"@"+a.version, b.path+"@"+b.version)
	})
	return g, nil
}

// goComponents are the Go standard library (its licence in GOROOT) and the
// modules (theirs in the module cache, or the local folder one was replaced by).
func goComponents(in copyrightInput) []component {
	if len(in.Go.targets) == 0 {
		return nil
	}
	out := []component{{
		title: "The Go standard library and runtime, " + strings.Join(in.Go.goVersions, ", "), name: "Go",
		dir: in.GoRoot, files: "vendor/std/*", where: compiledInto(in.Go.targets),
	}}
	for _, m := range in.Go.modules {
		dir := filepath.Join(in.ModCache, escapeModule(m.path)+"@"+escapeModule(m.version))
		title := "Go module " + m.path + " " + m.version
		if m.local != "" {
			dir = m.local
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(in.ModuleRoot, dir)
			}
			title = "Go module " + m.path + " (replaced by " + m.local + ")"
		}
		out = append(out, component{
			title: title, name: m.path, dir: dir,
			files: "vendor/" + m.path + "/*", where: compiledInto(m.in),
		})
	}
	return out
}

func compiledInto(targets []string) string {
	return "compiled into " + strings.Join(uniq(targets), " and ")
}

// escapeModule is a module path or version as the module cache spells it: each
// upper-case letter as '!' and its lower case.
func escapeModule(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

type lockPackage struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	License              json.RawMessage   `json:"license"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	PeerDependenciesMeta map[string]struct {
		Optional bool `json:"optional"`
	} `json:"peerDependenciesMeta"`
	Optional bool   `json:"optional"`
	Link     bool   `json:"link"`
	Resolved string `json:"resolved"`
}

// npmComponents are the packages the window's JavaScript can contain: the
// production dependencies of package.json and theirs, resolved as node does
// (the nearest node_modules up the tree) through package-lock.json's packages.
// Optional ones not installed are left out; a missing required one is an error.
func npmComponents(frontend string) ([]component, error) {
	if frontend == "" {
		return nil, nil
	}
	b, err := os.ReadFile(filepath.Join(frontend, "package-lock.json"))
	if err != nil {
		return nil, fmt.Errorf("copyright: %w", err)
	}
	var lock struct {
		LockfileVersion int                    `json:"lockfileVersion"`
		Packages        map[string]lockPackage `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("copyright: package-lock.json: %w", err)
	}
	if lock.LockfileVersion < 2 || lock.Packages == nil {
		return nil, fmt.Errorf("copyright: package-lock.json is version %d; npm 7 or later writes the version 2 or 3 this reads", lock.LockfileVersion)
	}
	root, ok := lock.Packages[""]
	if !ok {
		return nil, errors.New("copyright: package-lock.json has no root package")
	}
	resolve := func(from, name string) (string, bool) {
		for loc := from; ; {
			cand := "node_modules/" + name
			if loc != "" {
				cand = loc + "/" + cand
			}
			if _, ok := lock.Packages[cand]; ok {
				return cand, true
			}
			if loc == "" {
				return "", false
			}
			if i := strings.LastIndex(loc, "/node_modules/"); i >= 0 {
				loc = loc[:i]
			} else {
				loc = ""
			}
		}
	}
	seen := map[string]bool{}
	var errs []error
	var walk func(from string, p lockPackage)
	walk = func(from string, p lockPackage) {
		type dep struct {
			name     string
			optional bool
		}
		var deps []dep
		for n := range p.Dependencies {
			deps = append(deps, dep{n, false})
		}
		for n := range p.OptionalDependencies {
			deps = append(deps, dep{n, true})
		}
		for n := range p.PeerDependencies {
			deps = append(deps, dep{n, p.PeerDependenciesMeta[n].Optional})
		}
		slices.SortFunc(deps, func(a, b dep) int { return strings.Compare(a.name, b.name) })
		for _, d := range deps {
			loc, ok := resolve(from, d.name)
			if !ok {
				if !d.optional {
					errs = append(errs, fmt.Errorf("npm package %s (needed by %s) is not in package-lock.json", d.name, orRoot(from)))
				}
				continue
			}
			if seen[loc] {
				continue
			}
			seen[loc] = true
			q, at := lock.Packages[loc], loc
			if q.Link && q.Resolved != "" { // a workspace: its entry is at the folder linked to
				q, at = lock.Packages[q.Resolved], q.Resolved
			}
			walk(at, q)
		}
	}
	walk("", root)
	if len(errs) > 0 {
		return nil, fmt.Errorf("copyright: %w", errors.Join(errs...))
	}
	var locs []string
	for l := range seen {
		locs = append(locs, l)
	}
	slices.Sort(locs)
	var out []component
	for _, loc := range locs {
		p := lock.Packages[loc]
		dir := filepath.Join(frontend, filepath.FromSlash(loc))
		if p.Link && p.Resolved != "" {
			dir = filepath.Join(frontend, filepath.FromSlash(p.Resolved))
			p = lock.Packages[p.Resolved]
		}
		if _, err := os.Stat(dir); err != nil {
			if p.Optional {
				continue // not installed on this platform, so not bundled
			}
			errs = append(errs, fmt.Errorf("npm package %s is not installed in %s (npm ci)", loc, frontend))
			continue
		}
		name := p.Name
		if name == "" {
			name = loc[strings.LastIndex(loc, "node_modules/")+len("node_modules/"):]
		}
		out = append(out, component{
			title: "npm package " + name + " " + p.Version, name: name, dir: dir,
			files:   path.Join(filepath.ToSlash(filepath.Base(frontend)), loc) + "/*",
			license: spdxToDep5(lockLicense(p.License)),
			where:   "bundled into the window's JavaScript (in /usr/bin/fixplan)",
		})
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("copyright: %w", errors.Join(errs...))
	}
	return out, nil
}

func orRoot(loc string) string {
	if loc == "" {
		return "package.json"
	}
	return loc
}

// lockLicense is a lock entry's licence: an SPDX expression, or (old packages)
// {"type": …}.
func lockLicense(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.Type
	}
	return ""
}

// spdxToDep5 spells an SPDX expression the copyright format's way: "(MIT OR
// Apache-2.0)" → "MIT or Apache-2.0".
func spdxToDep5(s string) string {
	s = strings.NewReplacer("(", " ", ")", " ").Replace(s)
	f := strings.Fields(s)
	for i, w := range f {
		if w == "OR" || w == "AND" {
			f[i] = strings.ToLower(w)
		}
	}
	return strings.Join(f, " ")
}
