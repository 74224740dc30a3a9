package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// genVersion names the generator's output: a tree kept from an earlier run is
// used again only when it was made by the same generator.
const genVersion = "speed-tree-2"

// The generated project: a monorepo of Go services, TypeScript/JavaScript
// front ends and Python packages, nested four to six folders deep, with a
// vendor folder (committed, as Go vendoring is), a node_modules folder, Python
// caches and build output (all ignored by the .gitignore, never committed),
// and one failure: a pytest run whose traceback ends in a Python module deep
// in the tree, quoting the message that module raises.
const (
	failModule = "py/acme/billing/invoice.py"
	failTest   = "py/acme/tests/test_invoice.py"
	// failMessage is written by failModule alone: what ripgrep searches for.
	failMessage = "invoice total must not be negative"
	// failFunc is the function of failModule that raises it, failTestFunc
	// the failing test (the failing line last in both).
	failFunc = `def compute_total(items, discount=0):
    """The invoice's total after the discount."""
    total = 0
    for item in items:
        total += line_total(item)
    total = apply_discount(total, discount)
    if total < 0:
        raise ValueError("` + failMessage + `, got %s" % total)
`
	failTestFunc = `def test_compute_total():
    items = [Item(price=5, qty=2), Item(price=-20, qty=1)]
    # refunds are negative lines: the total may go below zero
    assert compute_total(items) == -10
`
)

// pytestShows is how pytest shows a function in a failure: indented four
// spaces, its last (failing) line marked with ">".
func pytestShows(fn string) string {
	lines := strings.Split(strings.TrimSuffix(fn, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if i == len(lines)-1 {
			b.WriteString(">   " + l + "\n")
		} else {
			b.WriteString("    " + l + "\n")
		}
	}
	return b.String()
}

var words = strings.Fields(`account address alert archive asset audit batch billing blob bucket
cache cart catalog channel chart check client cluster config console contract coupon cursor customer
daemon dataset delivery device digest discount dispatch document domain draft event export feature
feed filter folder gateway graph group handler health import index inventory invoice job journal
key label ledger limit listing locale lock log mailer manifest market media member message meter
metric mirror model module monitor node notice order owner package page panel parcel partner
payment peer permit pipeline plan policy pool portal preview price printer profile project promo
quota queue rate receipt record region release report request resource review role route rule
sample schedule schema scope search secretary segment sensor server session setting shard shipment
signal sketch slot snapshot source space stage status stock store stream summary supplier survey
task template tenant ticket timer token topic tracker transfer trigger upload usage user vault
vendor version view voucher wallet warehouse webhook widget worker workflow zone`)

var verbs = strings.Fields(`apply build check clean close compute convert copy count create decode
delete encode export fetch filter find flush format group handle import index load lock merge move
normalize open parse prepare publish push read refresh register release render reset resolve save
scan schedule send sort split start stop store sync trim update upload validate verify write`)

// genTree writes a project of about n committed files into dir (made fresh)
// and returns the failure output of its failing test.
func genTree(dir string, n int) (string, error) {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	g := &gen{r: r, dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	g.write(".gitignore", "node_modules/\ndist/\n__pycache__/\n*.log\n.cache/\n")
	g.write("go.mod", "module example.com/acme\n\ngo 1.22\n")
	g.write("package.json", `{"name": "acme-web", "private": true, "scripts": {"test": "jest"}}`+"\n")
	g.write("pyproject.toml", "[project]\nname = \"acme\"\nversion = \"0.1.0\"\n")
	g.write("README.md", "# acme\n\nServices, web front ends and Python packages of the acme monorepo.\n")
	goN, tsN, pyN, vendorN := n*45/100, n*30/100, n*22/100, n*2/100
	docsN := max(n-goN-tsN-pyN-vendorN-5, 1)
	g.area("go", goN, 10, ".go", g.goFile)
	g.area("web", tsN, 8, "", g.tsFile)
	g.area("py/acme", pyN, 9, ".py", g.pyFile)
	g.area("vendor/github.com/ext", vendorN, 12, ".go", g.goFile)
	g.area("docs", docsN, 20, ".md", g.mdFile)
	// not committed: ignored by .gitignore or skipped by fixplan and git alike
	g.area("node_modules", max(n/10, 1), 15, ".js", g.tsFile)
	g.area("dist", max(n/100, 1), 25, ".js", g.tsFile)
	g.area("py/acme/__pycache__", max(n/100, 1), 50, ".pyc", func(string) string { return "\x00\x0d\x0d\x0a" + strings.Repeat("\x00\x01", 300) })
	g.write("build.log", strings.Repeat("building...\n", 100))
	// the failure
	module := `"""Invoices: totals, taxes and discounts."""

from dataclasses import dataclass


@dataclass
class Item:
    price: int
    qty: int


def line_total(item):
    return item.price * item.qty


def apply_discount(total, discount):
    if discount < 0:
        raise ValueError("discount must not be negative")
    return total - discount


` + failFunc + "    return total\n"
	test := "from acme.billing.invoice import Item, compute_total\n\n\n" +
		"def test_compute_total_empty():\n    assert compute_total([]) == 0\n\n\n" + failTestFunc
	g.write(failModule, module)
	g.write(failTest, test)
	if g.err != nil {
		return "", g.err
	}
	abs := "/home/runner/work/acme/acme/" + failModule
	return `============================= test session starts ==============================
platform linux -- Python 3.11.6, pytest-7.4.3, pluggy-1.3.0
rootdir: /home/runner/work/acme/acme
collected 2 items

` + failTest + ` .F                                       [100%]

=================================== FAILURES ===================================
______________________________ test_compute_total ______________________________

` + pytestShows(failTestFunc) + `
` + failTest + ":" + strconv.Itoa(strings.Count(test, "\n")) + `: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

items = [Item(price=5, qty=2), Item(price=-20, qty=1)], discount = 0

` + pytestShows(failFunc) + `E           ValueError: ` + failMessage + `, got -10

` + abs + ":" + strconv.Itoa(strings.Count(module, "\n")-1) + `: ValueError
=========================== short test summary info ============================
FAILED ` + failTest + `::test_compute_total - ValueError: ` + failMessage + `, got -10
========================= 1 failed, 1 passed in 0.04s ==========================
`, nil
}

// gen writes the files of one generated tree.
type gen struct {
	r   *rand.Rand
	dir string
	err error
}

func (g *gen) write(rel, content string) {
	if g.err != nil {
		return
	}
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.err = err
		return
	}
	g.err = os.WriteFile(p, []byte(content), 0o644)
}

func (g *gen) word() string { return words[g.r.IntN(len(words))] }
func (g *gen) verb() string { return verbs[g.r.IntN(len(verbs))] }

// camel is "accountStore" (upper: "AccountStore").
func camel(upper bool, ws ...string) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 || upper {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// area writes n files under prefix, perDir to a folder, in a tree of folders
// eight wide (so 100,000 files nest five or six folders deep); ext "" picks
// .ts, .tsx or .js.
func (g *gen) area(prefix string, n, perDir int, ext string, content func(pkg string) string) {
	leaves := (n + perDir - 1) / perDir
	depth := 1
	for w := 8; w < leaves; w *= 8 {
		depth++
	}
	written := 0
	for leaf := 0; leaf < leaves && g.err == nil; leaf++ {
		parts := []string{prefix}
		x := leaf
		for range depth {
			parts = append(parts, fmt.Sprintf("%s%d", words[(x%8*37+len(parts)*11)%len(words)], x%8))
			x /= 8
		}
		dir := strings.Join(parts, "/")
		pkg := strings.TrimRight(parts[len(parts)-1], "0123456789")
		for i := 0; i < perDir && written < n; i++ {
			e := ext
			if e == "" {
				e = []string{".ts", ".ts", ".tsx", ".js"}[g.r.IntN(4)]
			}
			name := fmt.Sprintf("%s_%s%d%s", g.word(), g.verb(), i, e)
			if e == ".py" && i == 0 {
				name = "test_" + name // a test module in most folders
			}
			g.write(dir+"/"+name, content(pkg))
			written++
		}
	}
}

// size is how many functions a file gets: mostly a few, now and then many.
func (g *gen) size() int {
	if g.r.IntN(10) == 0 {
		return 20 + g.r.IntN(40)
	}
	return 2 + g.r.IntN(8)
}

func (g *gen) goFile(pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"strings\"\n)\n\n", pkg)
	typ := camel(true, g.word(), g.word())
	fmt.Fprintf(&b, "// %s keeps the %s of one %s.\ntype %s struct {\n\tName  string\n\tCount int\n\tItems []string\n}\n\n", typ, g.word(), g.word(), typ)
	for range g.size() {
		fn, noun, other := camel(true, g.verb(), g.word()), g.word(), camel(false, g.verb(), g.word())
		fmt.Fprintf(&b, "// %s %ss the %s.\nfunc (x *%s) %s(in string) (string, error) {\n", fn, g.verb(), noun, typ, fn)
		fmt.Fprintf(&b, "\tif in == \"\" {\n\t\treturn \"\", errors.New(\"%s: cannot %s an empty %s\")\n\t}\n", pkg, g.verb(), noun)
		fmt.Fprintf(&b, "\tout := strings.TrimSpace(in)\n\tfor i, item := range x.Items {\n\t\tif item == out {\n\t\t\treturn \"\", fmt.Errorf(\"%s %%q already in %s %%d\", out, i)\n\t\t}\n\t}\n", noun, g.word())
		fmt.Fprintf(&b, "\tx.Count++\n\treturn %s(out, x.Count), nil\n}\n\n", other)
		fmt.Fprintf(&b, "func %s(s string, n int) string {\n\treturn fmt.Sprintf(\"%%s-%%d\", s, n)\n}\n\n", other)
	}
	return b.String()
}

func (g *gen) tsFile(string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "import { %s } from \"../%s\";\n\n", camel(false, g.verb(), g.word()), g.word())
	for range g.size() {
		fn, noun := camel(false, g.verb(), g.word()), g.word()
		fmt.Fprintf(&b, "export function %s(items, limit) {\n  if (!items || items.length === 0) {\n    throw new Error(\"cannot %s an empty %s list\");\n  }\n", fn, g.verb(), noun)
		fmt.Fprintf(&b, "  const out = [];\n  for (const item of items) {\n    if (out.length >= limit) break;\n    out.push({ ...item, %s: item.%s ?? \"%s\" });\n  }\n  return out;\n}\n\n", noun, noun, g.word())
	}
	return b.String()
}

func (g *gen) pyFile(string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"%s and %s helpers.\"\"\"\n\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\n", camel(true, g.word()), g.word())
	cls := camel(true, g.word(), g.word())
	fmt.Fprintf(&b, "class %s:\n    def __init__(self, name, limit=10):\n        self.name = name\n        self.limit = limit\n\n\n", cls)
	for range g.size() {
		fn, noun := g.verb()+"_"+g.word(), g.word()
		fmt.Fprintf(&b, "def %s(%s, items):\n    if not items:\n        raise ValueError(\"cannot %s an empty %s list\")\n", fn, noun, g.verb(), noun)
		fmt.Fprintf(&b, "    out = []\n    for item in items:\n        if len(out) >= %s.limit:\n            log.warning(\"%s limit reached for %%s\", %s.name)\n            break\n        out.append(item)\n    return out\n\n\n", noun, g.word(), noun)
	}
	return b.String()
}

func (g *gen) mdFile(string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", camel(true, g.word(), g.word()))
	for range g.size() {
		fmt.Fprintf(&b, "The %s %ss every %s before the %s is %sed.\n\n", g.word(), g.verb(), g.word(), g.word(), g.verb())
	}
	return b.String()
}
