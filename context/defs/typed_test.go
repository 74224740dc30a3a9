package defs

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"fixplan/internal/testtree"
)

// typedFixture writes the txtar mini-module testdata/typed/name.txtar to a
// temporary folder and returns it with its failure output (the "problem" file).
func typedFixture(t *testing.T, name string) (root, problem string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "typed", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		if f.Name == "problem" {
			problem = string(f.Data)
			continue
		}
		files[f.Name] = string(f.Data)
	}
	root = t.TempDir()
	testtree.Write(t, root, files)
	return root, problem
}

// A strings.Builder's String is not the project's: the failing lines' b.String()
// shows none of the project's String methods, while it.Label() (of Item, a
// project type) is shown.
func TestDefinitionsGoTypedReceiverOfAnotherPackage(t *testing.T) {
	root, problem := typedFixture(t, "builder")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File render.go", "definition of Label"); !ok {
		t.Errorf("Item.Label not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("definition of String"); ok {
		t.Errorf("a project String method shown for strings.Builder's String; sections:\n%s", got.titles())
	}
}

// A *testing.T field's Errorf is the testing package's: the project's Logger.Errorf
// is not shown for c.test.Errorf, and Sum (what the test checks) is.
func TestDefinitionsGoTypedFieldOfAnotherPackage(t *testing.T) {
	root, problem := typedFixture(t, "testfield")
	got := sectionsFor(t, root, problem, Request{})
	if _, ok := got.find("File sum.go", "definition of Sum"); !ok {
		t.Errorf("Sum not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("File log.go", "definition of Errorf"); ok {
		t.Errorf("Logger.Errorf shown for a *testing.T's Errorf; sections:\n%s", got.titles())
	}
}

// router.ServeHTTP in a test whose file has a handler with its own ServeHTTP:
// the receiver's type (a *Router from NewRouter) leads to Router.ServeHTTP and
// on through Router.Match to Route.Match, the broken function.
func TestDefinitionsGoTypedChainPastATestHelper(t *testing.T) {
	root, problem := typedFixture(t, "router")
	got := sectionsFor(t, root, problem, Request{})
	want := [][]string{
		{"File mux.go", "definition of ServeHTTP", "used at mux_test.go:"},
		{"File mux.go", "definition of Match", "used by ServeHTTP"},
		{"File route.go", "definition of Match", "used by Match"},
	}
	for _, parts := range want {
		if _, ok := got.find(parts...); !ok {
			t.Errorf("no section %q; sections:\n%s", parts, got.titles())
		}
	}
}

// The error text the failure shows is formatted by SyntaxError.Error and its
// column computed by the lexer's errorAt, neither of which the parser's call
// path reaches before the budget is spent on the parser's own helpers: both
// are shown, ranked with what the failing lines use.
func TestDefinitionsGoProducerOfAWrongValue(t *testing.T) {
	root, problem := typedFixture(t, "producer")
	got := sectionsFor(t, root, problem, Request{MaxResultBytes: 2500, MaxTotalBytes: 6000})
	for _, parts := range [][]string{
		{"File errors.go", "definition of Error"},
		{"File lexer.go", "definition of errorAt"},
	} {
		if _, ok := got.find(parts...); !ok {
			t.Errorf("no section %q; sections:\n%s", parts, got.titles())
		}
	}
}

// s.Get of an imported project package's *Store is Store.Get, found by type
// from that package's declarations (checked without function bodies), not the
// Cache.Get of the same package; and each Go file of the module is parsed
// once, its tree shared by definitions, uses and the type checks — the store
// package's two files again, with their bodies, when the hop into Store.Get
// reads its uses.
func TestDefinitionsGoTypedImportedPackageParsedOnce(t *testing.T) {
	root, problem := typedFixture(t, "imported")
	before := defParsed.Load()
	got := sectionsFor(t, root, problem, Request{})
	if parsed := defParsed.Load() - before; parsed > 4+2 {
		t.Errorf("%d Go files parsed for a module of 4 (2 of them in play for a hop)", parsed)
	}
	if _, ok := got.find("File store/store.go lines 11-14", "definition of Get"); !ok {
		t.Errorf("Store.Get not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("File store/cache.go", "definition of Get"); ok {
		t.Errorf("Cache.Get shown for a *Store's Get; sections:\n%s", got.titles())
	}
}

// A call through a standard interface (next.ServeHTTP on an http.Handler)
// runs the project's own implementations: the middleware chain is followed to
// hello's ServeHTTP, while a strings.Builder's WriteString (a concrete type of
// another package) still shows no project method of that name.
func TestDefinitionsGoStandardInterface(t *testing.T) {
	root, problem := typedFixture(t, "stdhandler")
	got := sectionsFor(t, root, problem, Request{})
	found := false
	for _, c := range got.sections {
		if strings.Contains(c.Sec.Title, "definition of ServeHTTP") && strings.Contains(c.Sec.Body, "StatusInternalServerError") {
			found = true
		}
	}
	if !found {
		t.Errorf("hello.ServeHTTP (reached through http.Handler) not shown; sections:\n%s", got.titles())
	}
	if _, ok := got.find("definition of WriteString"); ok {
		t.Errorf("Page.WriteString shown for a strings.Builder's WriteString; sections:\n%s", got.titles())
	}
}

// A call through an interface eight project types implement: which String runs
// is not known, so the implementations rank after what the chain the failing
// lines follow leads to (usageLine, then unquote), and they do not take the
// room before it.
func TestDefinitionsGoManyImplementationsRankLast(t *testing.T) {
	root, problem := typedFixture(t, "manyimpls")
	got := sectionsFor(t, root, problem, Request{MaxResultBytes: 2000, MaxTotalBytes: 4000})
	for _, name := range []string{"usageLine", "unquote"} {
		if _, ok := got.find("File usage.go", "definition of "+name); !ok {
			t.Errorf("%s not shown; sections:\n%s\nwarnings: %v", name, got.titles(), got.warnings)
		}
	}
}

// A function registered as a method value (reg.Register(1, r.renderLink)) by
// the implementation of an interface the code under test calls
// (nr.RegisterFuncs) is in the base context, though nothing calls it by name:
// the implementation is found although its package was written against the
// interface's package as imported, and the package in play is a second check
// of it.
func TestDefinitionsGoMethodValueThroughInterface(t *testing.T) {
	root, problem := typedFixture(t, "registered")
	got := sectionsFor(t, root, problem, Request{})
	for _, parts := range [][]string{
		{"File render/html/html.go", "definition of RegisterFuncs", "used by Render"},
		{"File render/html/html.go", "definition of renderLink"},
	} {
		if _, ok := got.find(parts...); !ok {
			t.Errorf("no section %q; sections:\n%s", parts, got.titles())
		}
	}
}

// A call through a function value (f(r, w, n) of a RenderFunc taken from a
// map) runs one of the functions registered as values elsewhere (two calls
// away): of the six whose signature fits, those that write what the failing
// test expects (renderLink's "<a>", renderParagraph's "</p>") are followed
// from the call; the others are reached only through the registration.
func TestDefinitionsGoCallThroughFunctionValue(t *testing.T) {
	root, problem := typedFixture(t, "funcvalue")
	got := sectionsFor(t, root, problem, Request{})
	for _, name := range []string{"renderLink", "renderParagraph"} {
		if _, ok := got.find("File html.go", "definition of "+name, "used by walk"); !ok {
			t.Errorf("%s not shown as what walk's call runs; sections:\n%s\nwarnings: %v", name, got.titles(), got.warnings)
		}
	}
	for _, name := range []string{"renderCode", "renderHeading", "renderEmphasis", "renderImage"} {
		if _, ok := got.find("definition of "+name, "used by walk"); ok {
			t.Errorf("%s shown as what walk's call runs, though it writes nothing the failure shows; sections:\n%s", name, got.titles())
		}
	}
}

// A call through an interface eight types implement, with a value the
// failing line builds (newV5 returns a *v5): v5's String is the one that runs,
// shown before the chain's next links, and the other seven wait until after
// them.
func TestDefinitionsGoImplementationBuiltInPlay(t *testing.T) {
	root, problem := typedFixture(t, "builtimpl")
	got := sectionsFor(t, root, problem, Request{MaxResultBytes: 2000, MaxTotalBytes: 4000})
	if c, ok := got.find("File values.go", "definition of String", "used by Usage"); !ok || !strings.Contains(c.Sec.Body, "v5") {
		t.Errorf("v5's String (the value the test builds) not shown first; sections:\n%s", got.titles())
	}
	for _, name := range []string{"usageLine", "unquote"} {
		if _, ok := got.find("File usage.go", "definition of "+name); !ok {
			t.Errorf("%s not shown; sections:\n%s\nwarnings: %v", name, got.titles(), got.warnings)
		}
	}
	n := 0
	for _, c := range got.sections {
		if strings.Contains(c.Sec.Title, "definition of String") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d String methods shown, want v5's alone in this room; sections:\n%s", n, got.titles())
	}
}
