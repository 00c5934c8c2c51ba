/**
 * The shop's words and shapes that pages render as well as modules use (ADR 030): product and order states, and
 * how a variant is named by its option values. Plain data and functions, no server imports: components import it.
 */

export const PRODUCT_STATUSES = ["draft", "active", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const ORDER_STATUSES = [
  "pending",
  "paid",
  "partially_fulfilled",
  "fulfilled",
  "completed",
  "cancelled",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Awaiting payment",
  paid: "Paid",
  partially_fulfilled: "Partly sent",
  fulfilled: "Sent",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/** Variants are told apart by their option values; the empty key is a product without options. */
export const optionKey = (values: readonly string[]) => values.join(" / ");

/** Every combination of the options' values, in the order a shop owner reads them. */
export function combinations(options: ReadonlyArray<{ values: readonly string[] }>): string[][] {
  return options.reduce<string[][]>((acc, o) => acc.flatMap((prefix) => o.values.map((v) => [...prefix, v])), [[]]);
}

let regions: Intl.DisplayNames | undefined;

/** A country's name in English for an address ("GB" → "United Kingdom"); the code itself if Intl has none. */
export function countryName(code: string): string {
  regions ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The one-time sorts a collection's manual order can start from (the console's "Sort once by"). */
export const ARRANGEMENTS = ["title", "newest", "price"] as const;
export type Arrangement = (typeof ARRANGEMENTS)[number];
