import { cartTotal as total, Item } from "../src/cart";
import formatPrice from "../src/format";
import { describe, expect, test } from "vitest";

describe("checkout", () => {
  test("total", () => {
    const items: Item[] = [{ name: "tea", cents: 150, qty: 2 }];
    expect(formatPrice(total(items))).toBe("$3.00");
  });
});
