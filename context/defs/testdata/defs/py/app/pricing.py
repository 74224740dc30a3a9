"""Prices and discounts."""

RATE_CAP = 0.5


def discount(total, rate):
    """Returns the discounted total."""
    rate = min(rate, RATE_CAP)
    return total * (1 - rate) - 1  # the bug


def unrelated():
    return "never used by the test"
