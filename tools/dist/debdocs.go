package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// The Debian package's documentation besides the copyright file: the changelog
// (Debian's format; a native package has no upstream one) and the manual pages,
// gzipped as `gzip -9n` would: best compression, no name or time in the header.

// debChangelog is /usr/share/doc/fixplan/changelog.gz: one entry for the version
// being packaged, dated by the commit it is built from, so the same commit gives
// the same bytes.
func debChangelog(ver, maintainer string, date time.Time) []byte {
	date = date.UTC()
	text := fmt.Sprintf("fixplan (%s) unstable; urgency=medium\n\n"+
		"  * fixplan %s, built from the commit of %s.\n\n"+
		" -- %s  %s\n",
		debVersion(ver), strings.TrimSpace(ver), date.Format("2006-01-02"),
		maintainer, date.Format("Mon, 02 Jan 2006 15:04:05 -0700"))
	return gzipBest([]byte(text))
}

// gzipBest compresses b as `gzip -9n` does: maximum compression (lintian checks
// the header says so), no file name, no time stamp, made on Unix.
func gzipBest(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Header.OS = 3 // Unix, as gzip writes it on Linux
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// appManPage is fixplan(1): build/linux/fixplan.1 with its date and version.
func appManPage(src []byte, ver string, date time.Time) []byte {
	return gzipBest([]byte(strings.NewReplacer("${FIXPLAN_DATE}", date.UTC().Format("2006-01-02"),
		"${FIXPLAN_VERSION}", roffText(strings.TrimSpace(ver))).Replace(string(src))))
}

// cliManPage is fixplan-cli(1), made from what the installed CLI prints for -h
// and for each of its commands' -h: the same text, set as a manual page.
func cliManPage(cli, ver string, date time.Time) ([]byte, error) {
	help := func(args ...string) (string, error) {
		out, err := exec.Command(cli, args...).CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 2) { // the flag package's -h exits 0 or 2
			return "", fmt.Errorf("man page: %s %s: %v: %s", cli, strings.Join(args, " "), err, out)
		}
		return strings.TrimRight(string(out), "\n"), nil
	}
	top, err := help("-h")
	if err != nil {
		return nil, err
	}
	usage, rest, _ := strings.Cut(top, "\n\n")
	type command struct{ name, summary, help string }
	var cmds []command
	var after []string
	inCommands := false
	for _, l := range strings.Split(rest, "\n") {
		switch {
		case l == "commands:":
			inCommands = true
		case inCommands && strings.HasPrefix(l, "  "):
			name, summary, _ := strings.Cut(strings.TrimSpace(l), " ")
			cmds = append(cmds, command{name: name, summary: strings.TrimSpace(summary)})
		case strings.TrimSpace(l) == "":
			inCommands = false
		default:
			after = append(after, l)
		}
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("man page: %s -h lists no commands:\n%s", cli, top)
	}
	for i := range cmds {
		if cmds[i].help, err = help(cmds[i].name, "-h"); err != nil {
			return nil, err
		}
	}
	// The CLI is "fixplan" when built from the repository and fixplan-cli installed.
	words := []string{"COMMAND", "--version"}
	for _, c := range cmds {
		words = append(words, regexp.QuoteMeta(c.name))
	}
	reCall := regexp.MustCompile(`\bfixplan( \[--root DIR\])? (` + strings.Join(words, "|") + `)\b`)
	rename := func(s string) string { return reCall.ReplaceAllString(s, "fixplan-cli$1 $2") }
	var b strings.Builder
	fmt.Fprintf(&b, ".TH FIXPLAN-CLI 1 %s %s \"User Commands\"\n", roffQuote(date.UTC().Format("2006-01-02")), roffQuote("fixplan "+strings.TrimSpace(ver)))
	b.WriteString(".SH NAME\nfixplan-cli \\- fix plans for your code from an OpenAI-compatible model, on the command line\n")
	synopsis := strings.Split(strings.TrimPrefix(usage, "usage: "), "\n")
	for i, l := range synopsis {
		synopsis[i] = strings.TrimSpace(l)
	}
	b.WriteString(".SH SYNOPSIS\n.nf\n" + roffText(rename(strings.Join(synopsis, "\n"))) + "\n.fi\n")
	b.WriteString(".SH DESCRIPTION\n" +
		"Paste an error or a failing test: fixplan gathers the code it points at, asks the model\n" +
		"for one strict fix plan and shows every change as a diff. Nothing changes until the plan\n" +
		"is applied, as one journaled transaction that can be undone.\n" +
		".PP\nThe desktop app is\n.BR fixplan (1);\nthis is its command-line interface. Each section below is what\n" +
		".B fixplan-cli\n.I COMMAND\n.B \\-h\nprints.\n")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range cmds {
		b.WriteString(".TP\n.B " + roffText(c.name) + "\n" + roffText(c.summary) + "\n")
	}
	for _, l := range after {
		if s := strings.TrimSpace(l); s != "" {
			b.WriteString(".PP\n" + roffText(rename(s)) + "\n")
		}
	}
	for _, c := range cmds {
		b.WriteString(".SS " + roffQuote("fixplan-cli "+c.name) + "\n.nf\n" + roffText(rename(c.help)) + "\n.fi\n")
	}
	b.WriteString(".SH SEE ALSO\n.BR fixplan (1)\n")
	return gzipBest([]byte(b.String())), nil
}

// roffText escapes text for a manual page: backslashes, a leading dot or
// apostrophe (which would be a request), and dashes as minus signs (options).
func roffText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.ReplaceAll(l, `\`, `\e`)
		l = strings.ReplaceAll(l, "-", `\-`)
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			l = `\&` + l
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

func roffQuote(s string) string {
	return `"` + strings.ReplaceAll(roffText(s), `"`, `""`) + `"`
}
