class Order:
    def __init__(self, total):
        self.total = total


def make_order(total):
    return Order(total)
