package plan

import (
	"strings"
	"unicode/utf8"
)

// Protected names: folders whose files decide what tools run (a nested .git/config
// can set core.fsmonitor or hooks; .hg/hgrc sets hooks) and fixplan's own state.
// No plan writes them at any depth, in any spelling an OS treats as the same name.
var protectedNames = map[string]bool{".git": true, ".hg": true, ".fixplan": true}

// shortAliases are the 8.3 short names Windows gives the protected folders.
var shortAliases = map[string]bool{"git~1": true, "hg~1": true, "fixpla~1": true}

// hfsIgnored are code points HFS+ drops when it compares names, so ".g\u200cit"
// is .git on a Mac (the list git itself uses).
func hfsIgnored(r rune) bool {
	switch {
	case r == 0x200c, r == 0x200d, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
		return true
	}
	return false
}

// NormalName is how a path segment compares on the most permissive file system
// fixplan runs on: case folded, HFS+-ignored code points removed, an NTFS stream
// suffix (":stream", "::$DATA") cut off, and trailing dots and spaces trimmed
// (Win32 drops them, so ".git." and ".git " open .git).
func NormalName(seg string) string {
	if !isASCII(seg) { // the code points HFS+ ignores are not ASCII
		if !utf8.ValidString(seg) {
			seg = strings.ToValidUTF8(seg, "\uFFFD")
		}
		seg = strings.Map(func(r rune) rune {
			if hfsIgnored(r) {
				return -1
			}
			return r
		}, seg)
	}
	if i := strings.IndexByte(seg, ':'); i >= 0 {
		seg = seg[:i]
	}
	seg = strings.TrimRight(seg, ". ")
	return strings.ToLower(seg)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// windowsDevices are names Win32 maps to devices in every folder, with any extension.
var windowsDevices = map[string]bool{"con": true, "prn": true, "aux": true, "nul": true, "conin$": true, "conout$": true}

// isDevice reports a Windows reserved device name (CON, NUL.txt, COM1, LPT9.log, COM¹...).
func isDevice(norm string) bool {
	stem := norm
	if i := strings.IndexByte(stem, '.'); i >= 0 {
		stem = stem[:i]
	}
	stem = strings.TrimRight(stem, " ")
	if windowsDevices[stem] {
		return true
	}
	if len(stem) >= 4 && (strings.HasPrefix(stem, "com") || strings.HasPrefix(stem, "lpt")) {
		switch stem[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// looksShort reports an 8.3 short name ("PROGRA~1", "GIT~1", "FIXPLA~2.JSO"): on
// Windows it can alias a longer name, so fixplan cannot tell what it opens.
func looksShort(norm string) bool {
	stem, ext, _ := strings.Cut(norm, ".")
	i := strings.LastIndexByte(stem, '~')
	if i < 1 || i > 6 || i == len(stem)-1 || len(ext) > 3 {
		return false
	}
	for _, c := range stem[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// SegmentProblem says why one path segment must not be created or written by a
// plan, or returns "": a protected name (.git, .hg, .fixplan in any spelling), a
// Windows device name, an 8.3 short name, or an NTFS stream.
func SegmentProblem(seg string) string {
	n := NormalName(seg)
	switch {
	case protectedNames[n] || shortAliases[n]:
		return "names " + protectedLabel(n) + ", which fixplan never changes"
	case strings.Contains(seg, ":"):
		return "names an NTFS alternate data stream (\":\" in a file name)"
	case isDevice(n):
		return "is a Windows device name (CON, PRN, AUX, NUL, COM1–9, LPT1–9)"
	case looksShort(n):
		return "looks like a Windows 8.3 short name, which can alias another file"
	case seg != strings.TrimRight(seg, ". "):
		return "ends in a dot or a space, which Windows drops"
	}
	return ""
}

func protectedLabel(n string) string {
	switch n {
	case ".fixplan", "fixpla~1":
		return "fixplan's own state folder (.fixplan)"
	case ".hg", "hg~1":
		return "a Mercurial folder (.hg)"
	}
	return "a git folder (.git)"
}

// ProtectedProblem checks every segment of a slash-separated relative path and
// returns the first problem as "segment …", or "".
func ProtectedProblem(rel string) string {
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || seg == "." {
			continue
		}
		if why := SegmentProblem(seg); why != "" {
			return "\"" + seg + "\" " + why
		}
	}
	return ""
}

// InProtectedFolder reports whether any segment of rel is a protected name (.git,
// .hg, .fixplan) in any spelling; reads use it to never look inside those folders.
func InProtectedFolder(rel string) bool {
	for seg := range strings.SplitSeq(rel, "/") {
		n := NormalName(seg)
		if protectedNames[n] || shortAliases[n] {
			return true
		}
	}
	return false
}
