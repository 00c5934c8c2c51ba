import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currencyDigits, formatMoney, parseMoney } from "./money";
import { priceCart, type PricingCoupon, type PricingInput, type PricingLine, type Totals } from "./pricing";

/*
 * The reference below is the pricing rules restated in exact integer arithmetic (BigInt), written apart from
 * pricing.ts on purpose: a port would share its mistakes. It rounds with a quotient and remainder instead of
 * floor((2a + b) / 2b), and picks the lines that receive leftover units by counting who outranks each line
 * instead of sorting.
 */

function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return 2n * remainder >= denominator ? quotient + 1n : quotient;
}

function isEligible(line: PricingLine, coupon: PricingCoupon): boolean {
  if (coupon.productIds.length === 0 && coupon.collectionIds.length === 0) return true;
  const collections = new Set(coupon.collectionIds);
  return coupon.productIds.includes(line.productId) || line.collectionIds.some((id) => collections.has(id));
}

function referenceTotals(input: PricingInput): Totals {
  const rate = BigInt(input.taxRateBp);
  const taxOn = (amount: bigint) =>
    input.pricesIncludeTax ? roundHalfUp(amount * rate, 10000n + rate) : roundHalfUp(amount * rate, 10000n);

  const subtotals = input.lines.map((line) => BigInt(line.unitPrice) * BigInt(line.quantity));
  const eligible = input.lines.map((line) => input.coupon !== null && isEligible(line, input.coupon));
  const eligibleSubtotal = subtotals.reduce((sum, s, i) => (eligible[i] ? sum + s : sum), 0n);

  let discount = 0n;
  if (input.coupon?.kind === "percent") discount = roundHalfUp(eligibleSubtotal * BigInt(input.coupon.value), 100n);
  if (input.coupon?.kind === "fixed") {
    const value = BigInt(input.coupon.value);
    discount = value < eligibleSubtotal ? value : eligibleSubtotal;
  }

  // Each eligible line's exact share is discount × subtotal / eligibleSubtotal; all share one denominator, so
  // the fractional parts compare as plain remainders.
  const floors = subtotals.map((s, i) => (eligible[i] && discount > 0n ? (discount * s) / eligibleSubtotal : 0n));
  const remainders = subtotals.map((s, i) => (eligible[i] && discount > 0n ? (discount * s) % eligibleSubtotal : -1n));
  const leftover = discount - floors.reduce((sum, f) => sum + f, 0n);
  const outranking = (i: number) =>
    remainders.filter((r, j) => eligible[j] && (r > remainders[i]! || (r === remainders[i]! && j < i))).length;
  const lineDiscounts = floors.map((f, i) => (eligible[i] && BigInt(outranking(i)) < leftover ? f + 1n : f));

  const lines = input.lines.map((line, i) => {
    const total = subtotals[i]! - lineDiscounts[i]!;
    return {
      key: line.key,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      subtotal: subtotals[i]!,
      discount: lineDiscounts[i]!,
      total,
      tax: taxOn(total),
    };
  });
  const subtotal = subtotals.reduce((sum, s) => sum + s, 0n);
  const shipping = BigInt(input.shipping ?? 0);
  const shippingTax = input.taxShipping ? taxOn(shipping) : 0n;
  const tax = lines.reduce((sum, line) => sum + line.tax, shippingTax);
  const total = subtotal - discount + shipping + (input.pricesIncludeTax ? 0n : tax);
  const weightGrams = input.lines.reduce((sum, line) => sum + BigInt(line.weightGrams) * BigInt(line.quantity), 0n);

  const exact = (n: bigint) => {
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`reference amount ${n} is not a safe integer`);
    return Number(n);
  };
  return {
    lines: lines.map((l) => ({
      key: l.key,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      subtotal: exact(l.subtotal),
      discount: exact(l.discount),
      total: exact(l.total),
      tax: exact(l.tax),
    })),
    subtotal: exact(subtotal),
    discount: exact(discount),
    shipping: exact(shipping),
    shippingTax: exact(shippingTax),
    tax: exact(tax),
    total: exact(total),
    weightGrams: exact(weightGrams),
  };
}

function line(
  key: string,
  productId: string,
  collectionIds: string[],
  unitPrice: number,
  quantity: number,
  weightGrams = 0,
): PricingLine {
  return { key, productId, collectionIds, unitPrice, quantity, weightGrams };
}

/** Checks both the code under test and the reference against the hand-computed answer. */
function expectPriced(input: PricingInput, expected: Totals) {
  expect(referenceTotals(input)).toEqual(expected);
  expect(priceCart(input)).toEqual(expected);
}

describe("priceCart, hand-computed", () => {
  it("JPY (no decimals): 15 % off one collection, 10 % tax on top, taxed shipping", () => {
    const input: PricingInput = {
      lines: [
        line("sencha", "p-sencha", ["c-tea"], 1280, 3, 200), // 3840
        line("yunomi", "p-yunomi", ["c-ceramics"], 2450, 1, 350), // 2450, not in c-tea
        line("matcha", "p-matcha", ["c-gifts", "c-tea"], 995, 2, 100), // 1990
      ],
      coupon: { kind: "percent", value: 15, productIds: [], collectionIds: ["c-tea"] },
      taxRateBp: 1000,
      pricesIncludeTax: false,
      shipping: 750,
      taxShipping: true,
    };
    // eligible = 3840 + 1990 = 5830; 5830 × 15 / 100 = 874.5 → 875 (half rounds up)
    // sencha: 875 × 3840 = 3 360 000 = 576 × 5830 + 1920
    // matcha: 875 × 1990 = 1 741 250 = 298 × 5830 + 3910
    // floors 576 + 298 = 874, 1 unit left → matcha (remainder 3910 > 1920) → 299
    // taxes: 3264 × 10 % = 326.4 → 326; 2450 → 245; 1691 → 169.1 → 169; shipping 750 → 75; Σ 815
    // total = 8280 − 875 + 750 + 815 = 8970; weight = 600 + 350 + 200 = 1150
    expectPriced(input, {
      lines: [
        { key: "sencha", quantity: 3, unitPrice: 1280, subtotal: 3840, discount: 576, total: 3264, tax: 326 },
        { key: "yunomi", quantity: 1, unitPrice: 2450, subtotal: 2450, discount: 0, total: 2450, tax: 245 },
        { key: "matcha", quantity: 2, unitPrice: 995, subtotal: 1990, discount: 299, total: 1691, tax: 169 },
      ],
      subtotal: 8280,
      discount: 875,
      shipping: 750,
      shippingTax: 75,
      tax: 815,
      total: 8970,
      weightGrams: 1150,
    });
  });

  it("KWD (three decimals): a fixed coupon above the eligible subtotal, 5 % tax included, taxed shipping", () => {
    const input: PricingInput = {
      lines: [
        line("oud", "p-oud", ["c-perfume"], 12_345, 2, 150), // 24.690 KWD, in scope by collection
        line("bag", "p-bag", ["c-leather"], 8_750, 1, 900), // 8.750 KWD, in scope by product
        line("dates", "p-dates", ["c-food"], 1_500, 4, 1000), // 6.000 KWD, out of scope
      ],
      coupon: { kind: "fixed", value: 40_000, productIds: ["p-bag"], collectionIds: ["c-perfume"] },
      taxRateBp: 500,
      pricesIncludeTax: true,
      shipping: 2_250,
      taxShipping: true,
    };
    // eligible = 24 690 + 8 750 = 33 440 < 40 000, so discount = 33 440 and each eligible line is free:
    // 33 440 × 24 690 / 33 440 = 24 690 exactly, 8 750 likewise, nothing left over.
    // dates: 6000 × 500 = 3 000 000 = 285 × 10 500 + 7 500; 2 × 7 500 ≥ 10 500 → 286
    // shipping: 2250 × 500 = 1 125 000 = 107 × 10 500 + 1 500 → 107; tax = 286 + 107 = 393
    // total = 39 440 − 33 440 + 2 250 = 8 250 (tax is inside the prices); weight = 300 + 900 + 4000
    expectPriced(input, {
      lines: [
        { key: "oud", quantity: 2, unitPrice: 12_345, subtotal: 24_690, discount: 24_690, total: 0, tax: 0 },
        { key: "bag", quantity: 1, unitPrice: 8_750, subtotal: 8_750, discount: 8_750, total: 0, tax: 0 },
        { key: "dates", quantity: 4, unitPrice: 1_500, subtotal: 6_000, discount: 0, total: 6_000, tax: 286 },
      ],
      subtotal: 39_440,
      discount: 33_440,
      shipping: 2_250,
      shippingTax: 107,
      tax: 393,
      total: 8_250,
      weightGrams: 5_200,
    });
  });

  it("EUR, 19 % included: 10 % off the whole cart, the leftover unit goes to the largest remainder", () => {
    const input: PricingInput = {
      lines: [
        line("lamp", "p-lamp", [], 1999, 1, 500),
        line("mugs", "p-mug", ["c-kitchen"], 333, 3, 120), // 999
        line("chair", "p-chair", ["c-furniture"], 2499, 1, 800),
      ],
      coupon: { kind: "percent", value: 10, productIds: [], collectionIds: [] },
      taxRateBp: 1900,
      pricesIncludeTax: true,
      shipping: 495,
      taxShipping: false,
    };
    // subtotal = 5497; 5497 × 10 = 54 970 = 549 × 100 + 70; 140 ≥ 100 → 550
    // lamp:  550 × 1999 = 1 099 450 = 200 × 5497 + 50
    // mugs:  550 × 999  =   549 450 =  99 × 5497 + 5247
    // chair: 550 × 2499 = 1 374 450 = 250 × 5497 + 200
    // floors 549, 1 unit left → mugs (not the largest line, the largest remainder) → 100
    // tax contained: lamp 1799 × 1900 = 3 418 100 = 287 × 11 900 + 2 800 → 287
    //                mugs  899 × 1900 = 1 708 100 = 143 × 11 900 + 6 400; 12 800 ≥ 11 900 → 144
    //                chair 2249 × 1900 = 4 273 100 = 359 × 11 900 + 1 000 → 359
    // shipping untaxed; tax = 790; total = 5497 − 550 + 495 = 5442; weight = 500 + 360 + 800
    expectPriced(input, {
      lines: [
        { key: "lamp", quantity: 1, unitPrice: 1999, subtotal: 1999, discount: 200, total: 1799, tax: 287 },
        { key: "mugs", quantity: 3, unitPrice: 333, subtotal: 999, discount: 100, total: 899, tax: 144 },
        { key: "chair", quantity: 1, unitPrice: 2499, subtotal: 2499, discount: 250, total: 2249, tax: 359 },
      ],
      subtotal: 5497,
      discount: 550,
      shipping: 495,
      shippingTax: 0,
      tax: 790,
      total: 5442,
      weightGrams: 1660,
    });
  });

  it("gives tied remainders' units to the earlier lines", () => {
    const input: PricingInput = {
      lines: [line("c", "p-c", [], 1000, 1), line("a", "p-a", [], 1000, 1), line("b", "p-b", [], 1000, 1)],
      coupon: { kind: "fixed", value: 200, productIds: [], collectionIds: [] },
      taxRateBp: 0,
      pricesIncludeTax: false,
      shipping: null,
      taxShipping: false,
    };
    // 200 × 1000 = 200 000 = 66 × 3000 + 2000 for each line; 2 units left → the first two lines, by position
    expectPriced(input, {
      lines: [
        { key: "c", quantity: 1, unitPrice: 1000, subtotal: 1000, discount: 67, total: 933, tax: 0 },
        { key: "a", quantity: 1, unitPrice: 1000, subtotal: 1000, discount: 67, total: 933, tax: 0 },
        { key: "b", quantity: 1, unitPrice: 1000, subtotal: 1000, discount: 66, total: 934, tax: 0 },
      ],
      subtotal: 3000,
      discount: 200,
      shipping: 0,
      shippingTax: 0,
      tax: 0,
      total: 2800,
      weightGrams: 0,
    });
  });

  it.each<[string, PricingCoupon]>([
    ["percent", { kind: "percent", value: 10, productIds: [], collectionIds: [] }],
    ["fixed", { kind: "fixed", value: 500, productIds: [], collectionIds: [] }],
  ])("prices an empty cart at zero with a %s coupon (no division by an empty eligible subtotal)", (_, coupon) => {
    const input: PricingInput = {
      lines: [],
      coupon,
      taxRateBp: 2000,
      pricesIncludeTax: false,
      shipping: null,
      taxShipping: true,
    };
    expectPriced(input, {
      lines: [],
      subtotal: 0,
      discount: 0,
      shipping: 0,
      shippingTax: 0,
      tax: 0,
      total: 0,
      weightGrams: 0,
    });
  });

  it("discounts nothing when the coupon's scope matches no line", () => {
    const input: PricingInput = {
      lines: [line("shirt", "p-shirt", ["c-summer"], 2500, 2, 200), line("cap", "p-cap", [], 1234, 1, 80)],
      coupon: { kind: "percent", value: 50, productIds: ["p-gone"], collectionIds: ["c-winter"] },
      taxRateBp: 2000,
      pricesIncludeTax: false,
      shipping: null,
      taxShipping: true,
    };
    // shirt 5000 × 20 % = 1000; cap 1234 × 2000 = 2 468 000 = 246 × 10 000 + 8 000 → 247
    // total = 6234 + 1247 = 7481; no shipping chosen yet, so none is taxed
    expectPriced(input, {
      lines: [
        { key: "shirt", quantity: 2, unitPrice: 2500, subtotal: 5000, discount: 0, total: 5000, tax: 1000 },
        { key: "cap", quantity: 1, unitPrice: 1234, subtotal: 1234, discount: 0, total: 1234, tax: 247 },
      ],
      subtotal: 6234,
      discount: 0,
      shipping: 0,
      shippingTax: 0,
      tax: 1247,
      total: 7481,
      weightGrams: 480,
    });
  });

  it("rounds exactly where amount × rate passes 2^53", () => {
    const input: PricingInput = {
      lines: [line("vault", "p-vault", [], 9_999_999_035, 9999)],
      coupon: null,
      taxRateBp: 1000,
      pricesIncludeTax: false,
      shipping: null,
      taxShipping: false,
    };
    // 9 999 999 035 × 9999 = 99 999 990 350 000 − 9 999 999 035 = 99 989 990 350 965
    // × 10 % = 9 998 999 035 096.5 exactly → 9 998 999 035 097; in doubles 99 989 990 350 965 × 1000 is not
    // representable and the half is lost (…096).
    expectPriced(input, {
      lines: [
        {
          key: "vault",
          quantity: 9999,
          unitPrice: 9_999_999_035,
          subtotal: 99_989_990_350_965,
          discount: 0,
          total: 99_989_990_350_965,
          tax: 9_998_999_035_097,
        },
      ],
      subtotal: 99_989_990_350_965,
      discount: 0,
      shipping: 0,
      shippingTax: 0,
      tax: 9_998_999_035_097,
      total: 109_988_989_386_062,
      weightGrams: 0,
    });
  });
});

// Small pools so that coupon scopes actually hit lines; amounts mix everyday prices with the contract's limits so
// that intermediate products pass 2^53.
const productIds = ["p1", "p2", "p3", "p4", "p5"];
const collectionIds = ["c1", "c2", "c3", "c4"];

const lineArb = fc.record({
  productId: fc.constantFrom(...productIds),
  collectionIds: fc.subarray(collectionIds),
  unitPrice: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 0, max: 5_000 }),
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.integer({ min: 0, max: 100_000_000_00 }),
  ),
  quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 9999 })),
  weightGrams: fc.integer({ min: 0, max: 50_000 }),
});

const couponArb: fc.Arbitrary<PricingCoupon> = fc
  .record({
    kind: fc.constantFrom("percent" as const, "fixed" as const),
    percent: fc.oneof(fc.constantFrom(1, 10, 15, 33, 50, 99, 100), fc.integer({ min: 1, max: 100 })),
    fixed: fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 1_000_000_000_000 })),
    productIds: fc.subarray(productIds, { maxLength: 2 }),
    collectionIds: fc.subarray(collectionIds, { maxLength: 2 }),
  })
  .map(({ kind, percent, fixed, ...scope }) => ({ kind, value: kind === "percent" ? percent : fixed, ...scope }));

const inputArb: fc.Arbitrary<PricingInput> = fc.record({
  lines: fc
    .oneof(fc.array(lineArb, { maxLength: 6, size: "max" }), fc.array(lineArb, { maxLength: 100, size: "max" }))
    .map((lines) => lines.map((l, i) => ({ key: `v${i}`, ...l }))),
  coupon: fc.option(couponArb, { freq: 4 }),
  taxRateBp: fc.oneof(fc.constantFrom(0, 500, 1000, 1900, 2000, 10000), fc.integer({ min: 0, max: 10000 })),
  pricesIncludeTax: fc.boolean(),
  shipping: fc.option(fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 100_000_000_00 }))),
  taxShipping: fc.boolean(),
});

/** The contract speaks of numbers; carts whose total cannot be one exactly are outside it. */
function withinSafeIntegers(input: PricingInput): boolean {
  try {
    referenceTotals(input);
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("priceCart, properties", () => {
  it("equals the exact recomputation for random carts, and leaves its input alone", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        fc.pre(withinSafeIntegers(input));
        expect(priceCart(deepFreeze(input))).toEqual(referenceTotals(input));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps its books balanced: parts sum to totals, discounts stay within what they discount, all integers", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        fc.pre(withinSafeIntegers(input));
        const totals = priceCart(input);
        const amounts = [
          totals.subtotal,
          totals.discount,
          totals.shipping,
          totals.shippingTax,
          totals.tax,
          totals.total,
          totals.weightGrams,
          ...totals.lines.flatMap((l) => [l.subtotal, l.discount, l.total, l.tax]),
        ];
        for (const amount of amounts) expect(Number.isSafeInteger(amount)).toBe(true);

        const eligible = input.lines.map((l) => input.coupon !== null && isEligible(l, input.coupon));
        const eligibleSubtotal = input.lines.reduce(
          (sum, l, i) => (eligible[i] ? sum + l.unitPrice * l.quantity : sum),
          0,
        );

        expect(totals.lines.map((l) => l.key)).toEqual(input.lines.map((l) => l.key));
        expect(totals.lines.reduce((sum, l) => sum + l.discount, 0)).toBe(totals.discount);
        expect(totals.lines.reduce((sum, l) => sum + l.tax, totals.shippingTax)).toBe(totals.tax);
        expect(totals.lines.reduce((sum, l) => sum + l.subtotal, 0)).toBe(totals.subtotal);
        expect(totals.discount).toBeGreaterThanOrEqual(0);
        expect(totals.discount).toBeLessThanOrEqual(eligibleSubtotal);
        expect(totals.total).toBeGreaterThanOrEqual(0);
        expect(totals.shipping).toBe(input.shipping ?? 0);
        if (!input.taxShipping) expect(totals.shippingTax).toBe(0);

        totals.lines.forEach((priced, i) => {
          expect(priced.discount).toBeGreaterThanOrEqual(0);
          expect(priced.discount).toBeLessThanOrEqual(priced.subtotal);
          if (!eligible[i]) expect(priced.discount).toBe(0);
          expect(priced.total).toBe(priced.subtotal - priced.discount);
          expect(priced.tax).toBeGreaterThanOrEqual(0);
          // Largest-remainder allocation never strays a whole unit from the exact proportional share.
          if (eligible[i] && eligibleSubtotal > 0) {
            const exactShare = (BigInt(totals.discount) * BigInt(priced.subtotal)) / BigInt(eligibleSubtotal);
            expect(BigInt(priced.discount) - exactShare).toBeGreaterThanOrEqual(0n);
            expect(BigInt(priced.discount) - exactShare).toBeLessThanOrEqual(1n);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("money", () => {
  const intl = (minor: number, code: string, locale = "en") =>
    new Intl.NumberFormat(locale, { style: "currency", currency: code }).format(minor / 10 ** currencyDigits(code));

  it("takes each currency's decimals from Intl", () => {
    expect(currencyDigits("JPY")).toBe(0);
    expect(currencyDigits("EUR")).toBe(2);
    expect(currencyDigits("KWD")).toBe(3);
    for (const code of ["USD", "GBP", "CHF", "KRW", "BHD", "TND", "CLP"]) {
      const digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
        .maximumFractionDigits;
      expect(currencyDigits(code), code).toBe(digits);
    }
  });

  it.each<[string, string, number | null]>([
    ["12.50", "EUR", 1250],
    ["12.5", "EUR", 1250],
    ["12", "EUR", 1200],
    ["0", "EUR", 0],
    [" 12.50 ", "EUR", 1250],
    // Values whose × 100 in doubles lands just under the integer (0.29 × 100 = 28.999…).
    ["0.29", "EUR", 29],
    ["1.15", "EUR", 115],
    ["4.35", "EUR", 435],
    ["12.5", "KWD", 12500],
    ["0.001", "KWD", 1],
    ["1000", "JPY", 1000],
    ["10.5", "JPY", null],
    ["1.234", "EUR", null],
    ["1.2345", "KWD", null],
    ["1,234.50", "EUR", null],
    ["1,000", "JPY", null],
    ["-1", "EUR", null],
    ["-0.01", "EUR", null],
    ["", "EUR", null],
    ["   ", "EUR", null],
    ["NaN", "EUR", null],
    ["Infinity", "EUR", null],
    ["1e3", "EUR", null],
    ["1E3", "JPY", null],
    ["abc", "EUR", null],
    // The ceiling is 10^12 minor units, whatever the currency's decimals.
    ["10000000000.00", "EUR", 1_000_000_000_000],
    ["10000000000.01", "EUR", null],
    ["1000000000000", "JPY", 1_000_000_000_000],
    ["1000000000001", "JPY", null],
    ["1000000000.001", "KWD", null],
    ["99999999999999999999", "EUR", null],
  ])("parseMoney(%j, %s) = %s", (text, code, expected) => {
    expect(parseMoney(text, code)).toBe(expected);
  });

  it("reads back any amount written as a plain decimal, and refuses one with a digit too many", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("JPY", "EUR", "KWD"),
        fc.integer({ min: 0, max: 1_000_000_000_000 }),
        fc.nat(3),
        fc.integer({ min: 1, max: 9 }),
        (code, minor, drop, extra) => {
          const digits = currencyDigits(code);
          const whole = String(Math.floor(minor / 10 ** digits));
          const fraction = digits === 0 ? "" : String(minor % 10 ** digits).padStart(digits, "0");
          // Trailing zeros may be left out ("12.5" EUR), so write between none and all of them.
          let shown = fraction;
          for (let k = 0; k < drop && shown.endsWith("0"); k++) shown = shown.slice(0, -1);
          expect(parseMoney(shown === "" ? whole : `${whole}.${shown}`, code)).toBe(minor);
          expect(parseMoney(`${whole}.${fraction}${extra}`, code)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("formats with Intl in the currency's own decimals", () => {
    expect(formatMoney(1250, "EUR")).toBe(intl(1250, "EUR"));
    expect(formatMoney(1250, "EUR")).toMatch(/12\.50/);
    expect(formatMoney(1000, "JPY")).toBe(intl(1000, "JPY"));
    expect(formatMoney(1000, "JPY")).toMatch(/1,000(?![.\d])/);
    expect(formatMoney(12500, "KWD")).toBe(intl(12500, "KWD"));
    expect(formatMoney(12500, "KWD")).toMatch(/12\.500/);
    expect(formatMoney(999_999_999_999, "EUR")).toMatch(/9,999,999,999\.99/);
    expect(formatMoney(0, "KWD")).toMatch(/0\.000/);
  });

  it("formats in the locale asked for", () => {
    expect(formatMoney(123456, "EUR", "de")).toBe(intl(123456, "EUR", "de"));
    expect(formatMoney(123456, "EUR", "de")).toMatch(/1\.234,56/);
    expect(formatMoney(12500, "KWD", "fr")).toBe(intl(12500, "KWD", "fr"));
  });
});
