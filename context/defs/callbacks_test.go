package defs

import "testing"

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
