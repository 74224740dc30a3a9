const CURRENCY = "$";

export default function formatPrice(cents: number): string {
  return `${CURRENCY}${(cents / 100).toFixed(2)}`;
}
