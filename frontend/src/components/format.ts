// Numbers as the window words them (shared by the main chunk and the plan view).

/** formatCost shows a cost at the prices set in Settings (no currency is assumed). */
export function formatCost(c: number): string {
  return c >= 0.01 ? c.toFixed(2) : c.toPrecision(2);
}

/** formatCount shows a count with thousands separators: 12,345. */
export function formatCount(n: number): string {
  return n.toLocaleString("en");
}
