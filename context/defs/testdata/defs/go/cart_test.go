package shop

import "testing"

func TestTotal(t *testing.T) {
	var c Cart
	c.Add(Item{Name: "tea", Cents: 250, Qty: 2})
	got := Total(&c)
	if got != 500 {
		t.Errorf("Total = %d, want 500", got)
	}
}
