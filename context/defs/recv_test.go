package defs

import (
	"strings"
	"testing"
)

// classCases are the Python and TS/JS fixtures of recv.go's rules: the same
// project shape in each language.
var classCases = []struct{ name, cart, invoice, base, pricing string }{
	{"pyclass", "shop/cart.py", "shop/invoice.py", "shop/base.py", "shop/pricing.py"},
	{"tsclass", "src/cart.ts", "src/invoice.ts", "src/base.ts", "src/pricing.ts"},
}

// A method called on a variable made by a constructor is that class's: the
// failing line's cart.total() shows Cart.total, and not the total of another
// class the test file imports (Invoice) or of Cart's base class (overridden).
func TestDefinitionsClassOfAVariable(t *testing.T) {
	for _, c := range classCases {
		t.Run(c.name, func(t *testing.T) {
			root, problem := typedFixture(t, c.name)
			got := sectionsFor(t, root, problem, Request{})
			s, ok := got.find("File "+c.cart, "definition of total")
			if !ok {
				t.Fatalf("Cart.total not shown; sections:\n%s", got.titles())
			}
			if !strings.Contains(s.Sec.Body, "discount()") {
				t.Errorf("the section of Cart.total is not Cart's:\n%s", s.Sec.Body)
			}
			if _, ok := got.find("File "+c.invoice, "definition of total", "used at "); ok {
				t.Errorf("Invoice.total shown for cart.total(); sections:\n%s", got.titles())
			}
			if _, ok := got.find("File "+c.base, "definition of total", "used at "); ok {
				t.Errorf("BaseCart.total shown although Cart overrides it; sections:\n%s", got.titles())
			}
		})
	}
}

// Following Cart.total: self._sum()/this.sum() is its own class's method,
// self.discount()/this.discount() its base class's (in another module), and
// self.pricer.price()/this.pricer.price() the Pricer's — the class the
// attribute is assigned or declared with, not Shipping, which has a price too.
func TestDefinitionsClassOfSelfAndAttributes(t *testing.T) {
	for _, c := range classCases {
		t.Run(c.name, func(t *testing.T) {
			root, problem := typedFixture(t, c.name)
			got := sectionsFor(t, root, problem, Request{})
			if _, ok := got.find("File "+c.base, "definition of discount"); !ok {
				t.Errorf("BaseCart.discount (inherited) not shown; sections:\n%s", got.titles())
			}
			s, ok := got.find("File "+c.pricing, "definition of price")
			if !ok {
				t.Fatalf("Pricer.price not shown; sections:\n%s", got.titles())
			}
			if !strings.Contains(s.Sec.Body, "n * 2") || strings.Contains(s.Sec.Body, "return 5") {
				t.Errorf("the price shown is not Pricer's:\n%s", s.Sec.Body)
			}
			if n := strings.Count(got.titles(), "definition of price"); n != 1 {
				t.Errorf("%d sections of a price, want Pricer's only; sections:\n%s", n, got.titles())
			}
		})
	}
}
