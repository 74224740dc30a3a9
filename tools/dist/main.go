// Command dist packages fixplan for `make dist`: the Debian package (nfpm as a
// library, configured by build/linux/nfpm.yaml; with a copyright file covering
// every component compiled into it, copyright.go, a changelog and manual pages,
// debdocs.go), the Linux .tar.gz, the Windows
// resources (icon, manifest, version) linked into fixplan.exe, and SHA256SUMS.
// It lives in its own module (tools/) so that none of this reaches the app's
// dependencies.
//
//	dist deb     -version V -app BIN -cli BIN -src REPO -out DIR   → DIR/fixplan_<debver>_amd64.deb
//	dist tar     -version V -app BIN -cli BIN -src REPO -out DIR   → DIR/fixplan_V_linux_amd64.tar.gz
//	dist syso    -version V -icon ICO -out FILE                    → a .syso for go build (windows/amd64)
//	dist copyright -app BIN -cli BIN -src REPO                     → prints the .deb's copyright file
//	dist sums    -dir DIR                                          → DIR/SHA256SUMS, and lists the artifacts
//	dist version -version V -for deb|windows|file                  → prints the version in that spelling
package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// Maintainer is the Debian Maintainer field unless FIXPLAN_MAINTAINER says otherwise.
const defaultMaintainer = "fixplan <noreply@fixplan.invalid>"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: dist deb|tar|syso|copyright|sums|version [flags]")
	}
	fs := flag.NewFlagSet("dist "+args[0], flag.ContinueOnError)
	ver := fs.String("version", "dev", "the stamped version (git describe)")
	app := fs.String("app", "", "the desktop binary")
	cli := fs.String("cli", "", "the CLI binary")
	src := fs.String("src", ".", "the repository root")
	out := fs.String("out", "dist", "output folder (file for syso)")
	icon := fs.String("icon", "build/windows/icon.ico", "the Windows icon")
	dir := fs.String("dir", "dist", "the folder to checksum")
	spelling := fs.String("for", "deb", "deb, windows (1.2.3.4) or file (artifact names)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "deb":
		p, err := buildDeb(*ver, *app, *cli, *src, *out)
		if err == nil {
			fmt.Fprintln(stdout, "dist: built", p)
		}
		return err
	case "tar":
		p, err := buildTar(*ver, *app, *cli, *src, *out)
		if err == nil {
			fmt.Fprintln(stdout, "dist: built", p)
		}
		return err
	case "syso":
		return buildSyso(*ver, *icon, *out)
	case "copyright":
		in, err := debCopyrightInput(*app, *cli, *src)
		if err != nil {
			return err
		}
		b, err := writeCopyright(in)
		if err == nil {
			_, err = stdout.Write(b)
		}
		return err
	case "sums":
		return writeSums(*dir, stdout)
	case "version":
		switch *spelling {
		case "deb":
			fmt.Fprintln(stdout, debVersion(*ver))
		case "windows":
			fmt.Fprintln(stdout, winVersionString(*ver))
		case "file":
			fmt.Fprintln(stdout, fileVersion(*ver))
		default:
			return fmt.Errorf("-for %q: want deb, windows or file", *spelling)
		}
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// buildDeb packages the two binaries, the .desktop entry, the icon, the README,
// the copyright file, the changelog and the manual pages as described by
// build/linux/nfpm.yaml.
func buildDeb(ver, app, cli, src, outDir string) (string, error) {
	if app == "" || cli == "" {
		return "", errors.New("deb: -app and -cli are required")
	}
	for _, f := range []string{app, cli} {
		if _, err := os.Stat(f); err != nil {
			return "", fmt.Errorf("deb: %w", err)
		}
	}
	absSrc, err := filepath.Abs(src)
	if err != nil {
		return "", err
	}
	gen, err := os.MkdirTemp("", "fixplan-deb-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(gen)
	if err := writeIcons(filepath.Join(absSrc, "build", "appicon.png"), gen, 256, 512); err != nil {
		return "", err
	}
	maintainer := envOr("FIXPLAN_MAINTAINER", defaultMaintainer)
	date := buildTime()
	in, err := debCopyrightInput(app, cli, absSrc)
	if err != nil {
		return "", err
	}
	copyright, err := writeCopyright(in)
	if err != nil {
		return "", fmt.Errorf("deb: %w", err)
	}
	appMan, err := os.ReadFile(filepath.Join(absSrc, "build", "linux", "fixplan.1"))
	if err != nil {
		return "", fmt.Errorf("deb: %w", err)
	}
	cliMan, err := cliManPage(mustAbs(cli), ver, date)
	if err != nil {
		return "", fmt.Errorf("deb: %w", err)
	}
	for name, b := range map[string][]byte{
		"copyright":        copyright,
		"changelog.gz":     debChangelog(ver, maintainer, date),
		"fixplan.1.gz":     appManPage(appMan, ver, date),
		"fixplan-cli.1.gz": cliMan,
	} {
		if err := os.WriteFile(filepath.Join(gen, name), b, 0o644); err != nil {
			return "", err
		}
	}
	vars := map[string]string{
		"FIXPLAN_DEB_VERSION": debVersion(ver),
		"FIXPLAN_APP":         mustAbs(app),
		"FIXPLAN_CLI":         mustAbs(cli),
		"FIXPLAN_SRC":         absSrc,
		"FIXPLAN_GEN":         gen,
		"FIXPLAN_MAINTAINER":  maintainer,
		"FIXPLAN_HOMEPAGE":    os.Getenv("FIXPLAN_HOMEPAGE"),
	}
	cfg, err := nfpm.ParseFileWithEnvMapping(filepath.Join(absSrc, "build", "linux", "nfpm.yaml"), func(k string) string { return vars[k] })
	if err != nil {
		return "", fmt.Errorf("deb: %w", err)
	}
	info, err := cfg.Get("deb")
	if err != nil {
		return "", fmt.Errorf("deb: %w", err)
	}
	info.MTime = date
	info = nfpm.WithDefaults(info)
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", fmt.Errorf("deb: %w", err)
	}
	pkgr, err := nfpm.Get("deb")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", err
	}
	target := filepath.Join(outDir, pkgr.ConventionalFileName(info))
	info.Target = target
	f, err := os.Create(target)
	if err != nil {
		return "", err
	}
	if err := pkgr.Package(info, f); err != nil {
		f.Close()
		os.Remove(target)
		return "", fmt.Errorf("deb: %w", err)
	}
	return target, f.Close()
}

// buildTar writes fixplan_<version>_linux_amd64.tar.gz with one folder holding both
// binaries and the README.
func buildTar(ver, app, cli, src, outDir string) (string, error) {
	if app == "" || cli == "" {
		return "", errors.New("tar: -app and -cli are required")
	}
	base := "fixplan_" + fileVersion(ver) + "_linux_amd64"
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", err
	}
	target := filepath.Join(outDir, base+".tar.gz")
	f, err := os.Create(target)
	if err != nil {
		return "", err
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	mtime := buildTime()
	add := func(from, name string, mode int64) error {
		b, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		h := &tar.Header{Name: base + "/" + name, Mode: mode, Size: int64(len(b)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	}
	err = errors.Join(
		tw.WriteHeader(&tar.Header{Name: base + "/", Mode: 0o755, ModTime: mtime, Typeflag: tar.TypeDir, Format: tar.FormatPAX}),
		add(app, "fixplan", 0o755),
		add(cli, "fixplan-cli", 0o755),
		add(filepath.Join(src, "README.md"), "README.md", 0o644),
		tw.Close(), gz.Close(), f.Close())
	if err != nil {
		os.Remove(target)
		return "", fmt.Errorf("tar: %w", err)
	}
	return target, nil
}

// buildSyso writes the Windows resources Wails' own build would link into the
// app: the icon (taskbar, shortcuts, Explorer), a manifest with per-monitor DPI
// awareness and common controls v6, and the version shown in the file's
// properties.
func buildSyso(ver, iconPath, out string) error {
	f, err := os.Open(iconPath)
	if err != nil {
		return err
	}
	defer f.Close()
	ico, err := winres.LoadICO(f)
	if err != nil {
		return fmt.Errorf("syso: %s: %w", iconPath, err)
	}
	rs := winres.ResourceSet{}
	if err := rs.SetIcon(winres.Name("APPICON"), ico); err != nil {
		return err
	}
	wv := winVersion(ver)
	rs.SetManifest(winres.AppManifest{
		Identity:            winres.AssemblyIdentity{Name: "fixplan", Version: wv},
		Description:         "fixplan",
		Compatibility:       winres.Win10AndAbove,
		ExecutionLevel:      winres.AsInvoker,
		DPIAwareness:        winres.DPIPerMonitorV2,
		UseCommonControlsV6: true,
	})
	vi := version.Info{FileVersion: wv, ProductVersion: wv}
	for k, v := range map[string]string{
		version.ProductName: "fixplan", version.FileDescription: "fixplan", version.ProductVersion: ver,
		version.FileVersion: ver, version.OriginalFilename: "fixplan.exe", version.InternalName: "fixplan",
	} {
		if err := vi.Set(version.LangDefault, k, v); err != nil {
			return err
		}
	}
	rs.SetVersionInfo(vi)
	o, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := rs.WriteObject(o, winres.ArchAMD64); err != nil {
		o.Close()
		os.Remove(out)
		return fmt.Errorf("syso: %w", err)
	}
	return o.Close()
}

// writeSums writes SHA256SUMS (the format `sha256sum -c` reads) for every file
// in dir and prints each artifact with its size.
func writeSums(dir string, stdout io.Writer) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && e.Name() != "SHA256SUMS" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fmt.Errorf("sums: no artifacts in %s", dir)
	}
	var sums strings.Builder
	for _, n := range names {
		f, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		h := sha256.New()
		size, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), n)
		fmt.Fprintf(stdout, "%10s  %s\n", humanSize(size), filepath.Join(dir, n))
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644)
}

func humanSize(n int64) string {
	if n < 1<<20 {
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// fileVersion is the version as it appears in artifact names.
func fileVersion(v string) string {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if v == "" {
		return "dev"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == '_' {
			return '-'
		}
		return r
	}, v)
}

// buildTime honours SOURCE_DATE_EPOCH (reproducible builds), else now.
func buildTime() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now().UTC().Truncate(time.Second)
}

// debCopyrightInput finds what the copyright file is made from: the binaries'
// build info, the Go toolchain and module cache (go env) and the frontend.
func debCopyrightInput(app, cli, src string) (copyrightInput, error) {
	if app == "" || cli == "" {
		return copyrightInput{}, errors.New("-app and -cli are required")
	}
	out, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		return copyrightInput{}, fmt.Errorf("go env: %w", err)
	}
	env := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(env) != 2 {
		return copyrightInput{}, fmt.Errorf("go env GOROOT GOMODCACHE said %q", out)
	}
	g, err := readGoBuild([]installedBinary{{app, "/usr/bin/fixplan"}, {cli, "/usr/bin/fixplan-cli"}})
	if err != nil {
		return copyrightInput{}, err
	}
	return copyrightInput{
		Go:             g,
		GoRoot:         env[0],
		ModCache:       env[1],
		ModuleRoot:     src,
		Frontend:       filepath.Join(src, "frontend"),
		CommonLicenses: envOr("FIXPLAN_COMMON_LICENSES", "/usr/share/common-licenses"),
		Year:           buildTime().Year(),
		Contact:        envOr("FIXPLAN_MAINTAINER", defaultMaintainer),
		Homepage:       os.Getenv("FIXPLAN_HOMEPAGE"),
	}, nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}
