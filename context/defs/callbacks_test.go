package defs

import (
	"strings"
	"testing"
)

// links calls feed on a LinkExtractor, which derives from the standard
// library's HTMLParser: the library calls LinkExtractor's handle_starttag
// back, which is shown (and _href, which it calls); TitleExtractor's
// handle_starttag, of a class nothing on the path makes, is not.
func TestDefinitionsPythonLibraryCallbacks(t *testing.T) {
	root, problem := typedFixture(t, "pycallback")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File page/extract.py", "definition of handle_starttag"); !ok {
		t.Errorf("LinkExtractor.handle_starttag (called back by HTMLParser.feed) not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("File page/extract.py", "definition of _href"); !ok {
		t.Errorf("_href (called by the callback) not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("File page/titles.py"); ok {
		t.Errorf("TitleExtractor shown though nothing on the path makes one; sections:\n%s", got.titles())
	}
}

// A unittest test class derives from the library's TestCase and its failing
// line calls self.assertEqual, a library method: the runner calls the class's
// other test methods, not the failing one, so they are not shown — the
// function under test is.
func TestDefinitionsPythonTestCaseIsNotACallbackClass(t *testing.T) {
	root, problem := typedFixture(t, "pytestcase")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File num/parse.py", "definition of parse_int"); !ok {
		t.Errorf("parse_int (called on the failing line) not shown; sections:\n%s", got.titles())
	}
	for _, other := range []string{"test_decimal", "test_hex_prefix", "test_negative"} {
		if _, ok := got.find("definition of " + other); ok {
			t.Errorf("the test class's other test method %s was shown as a callback; sections:\n%s", other, got.titles())
		}
	}
}

// out.append(self._row(x)) appends what _row returns: the call runs now, it
// registers nothing for later, so _row is followed like any call and the
// helper it calls (where the bug is) is shown.
func TestDefinitionsPythonAppendedCallIsFollowed(t *testing.T) {
	root, problem := typedFixture(t, "pyappend")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File rep/pad.py", "definition of pad_left"); !ok {
		t.Errorf("pad_left (called by _row, whose result render appends) not shown; sections:\n%s", got.titles())
	}
}

// count feeds a Counter, whose callbacks the library calls back; the failing
// test is named test_count_comment, so handle_comment (where the bug is,
// last in the file) ranks before the callbacks the name does not mention.
func TestDefinitionsPythonCallbacksTheTestNames(t *testing.T) {
	root, problem := typedFixture(t, "pycallbackname")
	got := sectionsFor(t, root, problem, Request{})
	comment := got.rank("handle_comment")
	if comment < 0 {
		t.Fatalf("handle_comment (a callback the test's name mentions) not shown; sections:\n%s", got.titles())
	}
	for _, other := range []string{"reset", "handle_starttag", "handle_data", "handle_charref"} {
		if r := got.rank(other); r >= 0 && r < comment {
			t.Errorf("%s ranks before handle_comment; sections:\n%s", other, got.titles())
		}
	}
}

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		name string
		want string
	}{
		{"test_noname_tag", "test noname tag"},
		{"TestParseStartTag", "test parse start tag"},
		{"testV2Format", "test v2 format"},
	} {
		if got := strings.Join(nameWords(c.name), " "); got != c.want {
			t.Errorf("nameWords(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
