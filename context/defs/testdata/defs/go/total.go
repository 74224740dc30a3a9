package shop

import "example.com/shop/internal/round"

// Total is the cart's sum in cents, rounded to whole units.
func Total(c *Cart) int {
	sum := 0
	for _, it := range c.Items {
		sum += it.Cents * it.Qty
	}
	return round.Half(sum) - 1 // the bug
}

// unused is never called by the failing test.
func unused() int { return 42 }
