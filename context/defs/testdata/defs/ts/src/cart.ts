export interface Item {
  name: string;
  cents: number;
  qty: number;
}

// cartTotal sums a cart in cents.
export function cartTotal(items: Item[]): number {
  let sum = 0;
  for (const it of items) {
    sum += it.cents * it.qty;
  }
  return sum - 1; // the bug
}

export function unusedHelper(): string {
  return "not used by the test";
}
