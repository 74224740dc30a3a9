package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const repo = "../.." // the fixplan repository root, seen from tools/dist

func TestDebVersion(t *testing.T) {
	for _, c := range []struct{ in, deb, win string }{
		{"v1.2.3", "1.2.3", "1.2.3.0"},
		{"1.2.3", "1.2.3", "1.2.3.0"},
		{"v1.2", "1.2.0", "1.2.0.0"},
		{"v1.2.3-rc1", "1.2.3~rc1", "1.2.3.0"},
		{"v1.2.3-4-gabc1234", "1.2.3+4.gabc1234", "1.2.3.4"},
		{"v1.2.3-4-gabc1234-dirty", "1.2.3+4.gabc1234.dirty", "1.2.3.4"},
		{"v1.2.3-rc.1-4-gabc1234", "1.2.3~rc.1+4.gabc1234", "1.2.3.4"},
		{"v1.2.3-dirty", "1.2.3+0.dirty", "1.2.3.0"},
		{"c900502", "0.0.0~git.c900502", "0.0.0.0"},
		{"c900502-dirty", "0.0.0~git.c900502+dirty", "0.0.0.0"},
		{"dev", "0.0.0~dev", "0.0.0.0"},
		{"", "0.0.0~dev", "0.0.0.0"},
	} {
		if got := debVersion(c.in); got != c.deb {
			t.Errorf("debVersion(%q) = %q, want %q", c.in, got, c.deb)
		}
		if got := winVersionString(c.in); got != c.win {
			t.Errorf("winVersion(%q) = %q, want %q", c.in, got, c.win)
		}
	}
	// Debian must order them as the builds were made.
	if _, err := exec.LookPath("dpkg"); err == nil {
		order := []string{"c900502", "v0.9.0", "v1.0.0-rc1", "v1.0.0", "v1.0.0-dirty", "v1.0.0-2-gabc1234", "v1.0.1"}
		for i := 1; i < len(order); i++ {
			a, b := debVersion(order[i-1]), debVersion(order[i])
			if err := exec.Command("dpkg", "--compare-versions", a, "lt", b).Run(); err != nil {
				t.Errorf("dpkg does not order %s (%s) before %s (%s)", a, order[i-1], b, order[i])
			}
		}
	}
}

// fakeBinaries writes two small executables to package.
func fakeBinaries(t *testing.T) (app, cli string) {
	d := t.TempDir()
	app, cli = filepath.Join(d, "app"), filepath.Join(d, "cli")
	os.WriteFile(app, []byte("#!/bin/sh\necho app\n"), 0o755)
	os.WriteFile(cli, []byte("#!/bin/sh\necho cli\n"), 0o755)
	return app, cli
}

// fakeSource is the repository's packaging files (build/, README.md) with a
// frontend of one npm package.
func fakeSource(t *testing.T) string {
	f := fakeTree{t, t.TempDir()}
	for _, name := range []string{"build", "README.md"} {
		abs, _ := filepath.Abs(filepath.Join(repo, name))
		if err := os.Symlink(abs, filepath.Join(f.root, name)); err != nil {
			t.Fatal(err)
		}
	}
	f.write("frontend/package-lock.json", `{"lockfileVersion": 3, "packages": {"": {"dependencies": {"left-pad": "1"}},
  "node_modules/left-pad": {"version": "1.3.0", "license": "WTFPL"}}}`)
	f.write("frontend/node_modules/left-pad/COPYING", "DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE")
	return f.root
}

func TestDebPackage(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Fatal("dpkg-deb is needed (Debian's dpkg package)")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1795762259") // 2026-11-27 06:50:59 UTC
	// Go binaries (their build info names what the copyright file covers); the app
	// has a tail so the two differ.
	cli := fakeCLI(t)
	b, _ := os.ReadFile(cli)
	app := filepath.Join(t.TempDir(), "app")
	os.WriteFile(app, append(b, "fake app"...), 0o755)
	out := t.TempDir()
	deb, err := buildDeb("v1.2.3-4-gabc1234", app, cli, fakeSource(t), out)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(deb) != "fixplan_1.2.3+4.gabc1234_amd64.deb" {
		t.Errorf("file name %s", filepath.Base(deb))
	}
	field := func(name string) string {
		b, err := exec.Command("dpkg-deb", "--field", deb, name).Output()
		if err != nil {
			t.Fatalf("dpkg-deb --field %s: %v", name, err)
		}
		return strings.TrimSpace(string(b))
	}
	for name, want := range map[string]string{"Package": "fixplan", "Version": "1.2.3+4.gabc1234", "Architecture": "amd64"} {
		if got := field(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	deps := strings.Split(field("Depends"), ", ")
	for _, d := range []string{"libgtk-3-0", "libwebkit2gtk-4.1-0"} {
		if !slices.Contains(deps, d) {
			t.Errorf("Depends %v lacks %s", deps, d)
		}
	}
	list, err := exec.Command("dpkg-deb", "--contents", deb).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"-rwxr-xr-x root/root .* ./usr/bin/fixplan$",
		"-rwxr-xr-x root/root .* ./usr/bin/fixplan-cli$",
		"-rw-r--r-- root/root .* ./usr/share/applications/fixplan.desktop$",
		"-rw-r--r-- root/root .* ./usr/share/icons/hicolor/256x256/apps/fixplan.png$",
		"-rw-r--r-- root/root .* ./usr/share/icons/hicolor/512x512/apps/fixplan.png$",
		"-rw-r--r-- root/root .* 2026-11-27 06:50 ./usr/share/doc/fixplan/copyright$",
		"-rw-r--r-- root/root .* ./usr/share/doc/fixplan/changelog.gz$",
		"-rw-r--r-- root/root .* ./usr/share/man/man1/fixplan.1.gz$",
		"-rw-r--r-- root/root .* ./usr/share/man/man1/fixplan-cli.1.gz$",
	} {
		if !matchLine(string(list), want) {
			t.Errorf("the package has no line matching %q:\n%s", want, list)
		}
	}
	x := t.TempDir()
	if b, err := exec.Command("dpkg-deb", "-x", deb, x).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if got, _ := os.ReadFile(filepath.Join(x, "usr/bin/fixplan-cli")); !bytes.Equal(got, b) {
		t.Error("/usr/bin/fixplan-cli is not the CLI")
	}
	copyright, _ := os.ReadFile(filepath.Join(x, "usr/share/doc/fixplan/copyright"))
	for _, want := range []string{
		"Files: *\nCopyright: 2026 the fixplan authors\nLicense: all-rights-reserved\n",
		"Files: vendor/std/*\n",
		"compiled into /usr/bin/fixplan and /usr/bin/fixplan-cli.",
		"Files: frontend/node_modules/left-pad/*\n",
		"License: WTFPL\n DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE\n",
	} {
		if !bytes.Contains(copyright, []byte(want)) {
			t.Errorf("the copyright file lacks %q:\n%s", want, copyright)
		}
	}
	changelog, _ := os.ReadFile(filepath.Join(x, "usr/share/doc/fixplan/changelog.gz"))
	if want := debChangelog("v1.2.3-4-gabc1234", defaultMaintainer, time.Unix(1795762259, 0)); !bytes.Equal(changelog, want) {
		t.Error("the changelog is not the one of the version and SOURCE_DATE_EPOCH")
	}
	for _, page := range []string{"fixplan.1.gz", "fixplan-cli.1.gz"} {
		b, _ := os.ReadFile(filepath.Join(x, "usr/share/man/man1", page))
		if _, text := gunzip(t, b); !bytes.Contains(text, []byte(`"fixplan v1.2.3\-4\-gabc1234" "User Commands"`)) {
			t.Errorf("%s:\n%s", page, text)
		}
	}
	if v, err := exec.LookPath("desktop-file-validate"); err == nil {
		if b, err := exec.Command(v, filepath.Join(x, "usr/share/applications/fixplan.desktop")).CombinedOutput(); err != nil || len(b) > 0 {
			t.Errorf("desktop-file-validate: %v %s", err, b)
		}
	}
}

func matchLine(text, pattern string) bool {
	re := mustRegexp(pattern)
	for _, l := range strings.Split(text, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

func TestTarAndSums(t *testing.T) {
	app, cli := fakeBinaries(t)
	out := t.TempDir()
	p, err := buildTar("v1.2.3", app, cli, repo, out)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "fixplan_1.2.3_linux_amd64.tar.gz" {
		t.Errorf("file name %s", p)
	}
	f, _ := os.Open(p)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	got := map[string]int64{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got[h.Name] = h.Mode
	}
	for name, mode := range map[string]int64{
		"fixplan_1.2.3_linux_amd64/fixplan": 0o755, "fixplan_1.2.3_linux_amd64/fixplan-cli": 0o755, "fixplan_1.2.3_linux_amd64/README.md": 0o644,
	} {
		if got[name] != mode {
			t.Errorf("%s: mode %o, want %o (entries %v)", name, got[name], mode, got)
		}
	}

	os.WriteFile(filepath.Join(out, "other.exe"), []byte("MZ"), 0o644)
	var listing bytes.Buffer
	if err := writeSums(out, &listing); err != nil {
		t.Fatal(err)
	}
	sums, _ := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	lines := strings.Split(strings.TrimSpace(string(sums)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "  fixplan_1.2.3_linux_amd64.tar.gz") || !strings.HasSuffix(lines[1], "  other.exe") {
		t.Fatalf("SHA256SUMS:\n%s", sums)
	}
	sum := sha256.Sum256([]byte("MZ"))
	if !strings.HasPrefix(lines[1], hex.EncodeToString(sum[:])) {
		t.Errorf("wrong sum: %s", lines[1])
	}
	if !strings.Contains(listing.String(), "KiB") || !strings.Contains(listing.String(), "other.exe") {
		t.Errorf("listing:\n%s", listing.String())
	}
	// A second run does not checksum its own SHA256SUMS.
	if err := writeSums(out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(filepath.Join(out, "SHA256SUMS")); !bytes.Equal(again, sums) {
		t.Errorf("SHA256SUMS changed on a second run:\n%s", again)
	}
}

func TestSyso(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res_windows_amd64.syso")
	if err := buildSyso("v1.2.3-4-gabc1234", filepath.Join(repo, "build/windows/icon.ico"), out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// A COFF object for AMD64 (machine 0x8664) holding the resources.
	if len(b) < 1000 || b[0] != 0x64 || b[1] != 0x86 || !bytes.Contains(b, []byte(".rsrc")) {
		t.Fatalf("not an AMD64 COFF resource object (%d bytes, % x)", len(b), b[:min(len(b), 8)])
	}
}
