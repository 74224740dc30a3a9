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
			// Pricer.price in a section of its own, or in its class's
			// (constructing the Pricer in Cart's __init__ shows the class)
			pricer, shipping := 0, 0
			for _, sec := range got.sections {
				if !strings.HasPrefix(sec.Sec.Title, "File "+c.pricing) {
					continue
				}
				if strings.Contains(sec.Sec.Body, "n * 2") {
					pricer++
				}
				if strings.Contains(sec.Sec.Body, "return 5") {
					shipping++
				}
			}
			if pricer != 1 || shipping != 0 {
				t.Errorf("Pricer.price shown %d times, Shipping.price %d times, want once and never; sections:\n%s", pricer, shipping, got.titles())
			}
		})
	}
}
