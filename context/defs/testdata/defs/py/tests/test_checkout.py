from app.pricing import discount
from app import tax


def test_total():
    order = make_order(100)
    net = discount(order.total, 0.1)
    assert net * (1 + tax.rate("NL")) == 108.9
