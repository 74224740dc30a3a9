package shop

// Cart holds the line items of one order.
type Cart struct {
	Items []Item
}

// Item is one line of a cart.
type Item struct {
	Name  string
	Cents int
	Qty   int
}

// Add appends an item.
func (c *Cart) Add(it Item) { c.Items = append(c.Items, it) }
