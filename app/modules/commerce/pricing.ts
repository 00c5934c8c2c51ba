/**
 * Cart totals from the server's prices (issue 17, ADR 030): one pure function the cart, the checkout, the order
 * and `POST /api/v1/cart/validate` all call, so a total shown is the total charged. Integers in minor units
 * throughout; products of amounts and rates can pass 2^53, so they are computed in BigInt.
 *
 * - A coupon's discount is spread over the lines it applies to in proportion to their subtotals (largest
 *   remainder, so the lines add up to the discount exactly): refunds and taxes are per line.
 * - Tax is per line, after its discount, and on shipping when the shop taxes shipping; with prices that
 *   include tax it is the part of the price that is tax, otherwise it is added on top.
 */

export interface PricingLine {
  /** The variant id; unique per cart. */
  key: string;
  productId: string;
  collectionIds: readonly string[];
  unitPrice: number;
  quantity: number;
  /** Per unit. */
  weightGrams: number;
}

export interface PricingCoupon {
  kind: "percent" | "fixed";
  /** percent: whole percent 1..100; fixed: minor units. */
  value: number;
  /** Scope; both empty = the whole cart. */
  productIds: readonly string[];
  collectionIds: readonly string[];
}

export interface PricingInput {
  lines: readonly PricingLine[];
  coupon: PricingCoupon | null;
  /** Basis points: 2000 = 20 %. */
  taxRateBp: number;
  pricesIncludeTax: boolean;
  /** Null until a shipping rate is chosen (counts as 0). */
  shipping: number | null;
  taxShipping: boolean;
}

export interface PricedLine {
  key: string;
  quantity: number;
  unitPrice: number;
  subtotal: number;
  discount: number;
  total: number;
  tax: number;
}

export interface Totals {
  lines: PricedLine[];
  subtotal: number;
  discount: number;
  shipping: number;
  shippingTax: number;
  tax: number;
  total: number;
  weightGrams: number;
}

/** round(a / b) with halves up, for a ≥ 0 and b > 0. */
function divRound(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

export function couponApplies(coupon: PricingCoupon, line: Pick<PricingLine, "productId" | "collectionIds">): boolean {
  if (coupon.productIds.length === 0 && coupon.collectionIds.length === 0) return true;
  return coupon.productIds.includes(line.productId) || line.collectionIds.some((c) => coupon.collectionIds.includes(c));
}

function taxOn(amount: number, rateBp: number, inclusive: boolean): number {
  if (rateBp === 0 || amount === 0) return 0;
  const a = BigInt(amount) * BigInt(rateBp);
  return Number(divRound(a, inclusive ? 10000n + BigInt(rateBp) : 10000n));
}

/** Splits `amount` over `weights` in proportion, largest remainder first (ties: the earlier weight). */
function allocate(amount: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (sum === 0n || amount === 0) return weights.map(() => 0);
  const total = BigInt(amount);
  const shares = weights.map((w) => (total * BigInt(w)) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (total * BigInt(w)) % sum }));
  let left = Number(total - shares.reduce((s, x) => s + x, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0) break;
    shares[i]! += 1n;
    left -= 1;
  }
  return shares.map(Number);
}

export function priceCart(input: PricingInput): Totals {
  const subtotals = input.lines.map((l) => Number(BigInt(l.unitPrice) * BigInt(l.quantity)));
  const subtotal = subtotals.reduce((s, x) => s + x, 0);
  const coupon = input.coupon;
  const eligible = input.lines.map((l) => (coupon ? couponApplies(coupon, l) : false));
  const eligibleSubtotal = subtotals.reduce((s, x, i) => (eligible[i] ? s + x : s), 0);

  let discount = 0;
  if (coupon && eligibleSubtotal > 0) {
    discount =
      coupon.kind === "percent"
        ? Number(divRound(BigInt(eligibleSubtotal) * BigInt(coupon.value), 100n))
        : Math.min(coupon.value, eligibleSubtotal);
  }
  const shares = allocate(
    discount,
    subtotals.map((x, i) => (eligible[i] ? x : 0)),
  );

  const lines = input.lines.map((l, i): PricedLine => {
    const total = subtotals[i]! - shares[i]!;
    return {
      key: l.key,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      subtotal: subtotals[i]!,
      discount: shares[i]!,
      total,
      tax: taxOn(total, input.taxRateBp, input.pricesIncludeTax),
    };
  });
  const shipping = input.shipping ?? 0;
  const shippingTax = input.taxShipping ? taxOn(shipping, input.taxRateBp, input.pricesIncludeTax) : 0;
  const tax = lines.reduce((s, l) => s + l.tax, 0) + shippingTax;
  return {
    lines,
    subtotal,
    discount,
    shipping,
    shippingTax,
    tax,
    total: subtotal - discount + shipping + (input.pricesIncludeTax ? 0 : tax),
    weightGrams: input.lines.reduce((s, l) => s + l.weightGrams * l.quantity, 0),
  };
}
