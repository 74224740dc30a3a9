package main

import (
	"regexp"
	"strconv"
	"strings"
)

// The version fixplan is stamped with comes from `git describe --tags --always
// --dirty` (Makefile): "v1.2.3", "v1.2.3-rc1", "v1.2.3-4-gabc1234",
// "v1.2.3-4-gabc1234-dirty", a bare "abc1234[-dirty]" before the first tag, or
// "dev" outside a git checkout. Packages need their own spelling of it.

var (
	reDescribe = regexp.MustCompile(`^(.*)-([0-9]+)-g([0-9a-f]+)$`)
	reTag      = regexp.MustCompile(`^v?([0-9]+)\.([0-9]+)(?:\.([0-9]+))?(?:-([0-9A-Za-z.-]+))?$`)
	reHash     = regexp.MustCompile(`^[0-9a-f]{4,40}$`)
	reDebSafe  = regexp.MustCompile(`[^0-9A-Za-z.+~]+`)
)

type parsed struct {
	nums    [3]uint16 // from the tag; zero without one
	tagged  bool
	pre     string // pre-release of the tag ("rc1")
	commits int    // commits since the tag
	hash    string // abbreviated commit ("" on a tag)
	dirty   bool
}

func parseVersion(v string) parsed {
	var p parsed
	v = strings.TrimSpace(v)
	if s, ok := strings.CutSuffix(v, "-dirty"); ok {
		v, p.dirty = s, true
	}
	if m := reDescribe.FindStringSubmatch(v); m != nil {
		v, p.hash = m[1], m[3]
		p.commits, _ = strconv.Atoi(m[2])
	}
	if m := reTag.FindStringSubmatch(v); m != nil {
		p.tagged = true
		for i := range 3 {
			n, _ := strconv.Atoi(m[i+1])
			p.nums[i] = uint16(min(n, 65535))
		}
		p.pre = m[4]
		return p
	}
	if reHash.MatchString(v) {
		p.hash = v
	}
	return p
}

// debVersion is a Debian package version that sorts the way the builds do:
// 1.2.3~rc1 < 1.2.3 < 1.2.3+4.gabc1234; untagged builds are 0.0.0~git.<hash>.
func debVersion(v string) string {
	p := parseVersion(v)
	var b strings.Builder
	if p.tagged {
		b.WriteString(strconv.Itoa(int(p.nums[0])) + "." + strconv.Itoa(int(p.nums[1])) + "." + strconv.Itoa(int(p.nums[2])))
		if p.pre != "" {
			b.WriteString("~" + reDebSafe.ReplaceAllString(strings.ReplaceAll(p.pre, "-", "."), "."))
		}
		if p.hash != "" {
			b.WriteString("+" + strconv.Itoa(p.commits) + ".g" + p.hash)
		}
	} else if p.hash != "" {
		b.WriteString("0.0.0~git." + p.hash)
	} else {
		b.WriteString("0.0.0~dev")
	}
	switch {
	case !p.dirty:
	case strings.Contains(b.String(), "+"):
		b.WriteString(".dirty")
	case p.tagged:
		b.WriteString("+0.dirty") // after the tag, before the next commit
	default:
		b.WriteString("+dirty")
	}
	return b.String()
}

// winVersion is the four numbers of a Windows version resource and of NSIS'
// VIProductVersion: the tag's three and the commits since it.
func winVersion(v string) [4]uint16 {
	p := parseVersion(v)
	return [4]uint16{p.nums[0], p.nums[1], p.nums[2], uint16(min(p.commits, 65535))}
}

func winVersionString(v string) string {
	w := winVersion(v)
	return strconv.Itoa(int(w[0])) + "." + strconv.Itoa(int(w[1])) + "." + strconv.Itoa(int(w[2])) + "." + strconv.Itoa(int(w[3]))
}

func mustRegexp(p string) *regexp.Regexp { return regexp.MustCompile(p) }
