/**
 * Money (DESIGN: an integer in minor units with an ISO 4217 currency). How many minor units a currency has comes
 * from `Intl`, never a table of our own: JPY has none, EUR two, KWD three. Parsing refuses what a shop owner did
 * not mean (more decimals than the currency has, a thousands separator that could be a decimal comma, a sign),
 * rather than rounding it silently.
 */

/** The largest amount accepted anywhere (minor units): far above any real price, far below 2^53. */
export const MAX_MINOR = 1_000_000_000_000;

const digitsCache = new Map<string, number>();

export function currencyDigits(code: string): number {
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
      .maximumFractionDigits as number;
    digitsCache.set(code, digits);
  }
  return digits;
}

/** Whether `code` is a currency `Intl` knows (an ISO 4217 code). */
export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    return (Intl.supportedValuesOf("currency") as string[]).includes(code);
  } catch {
    return false;
  }
}

/** "12.50" in EUR → 1250; null for anything that is not a plain non-negative amount in `code`. */
export function parseMoney(text: string, code: string): number | null {
  const trimmed = text.trim();
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(trimmed);
  if (!match) return null;
  const digits = currencyDigits(code);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(minor) && minor <= MAX_MINOR ? minor : null;
}

// Making an Intl.NumberFormat costs far more than formatting with one: a page of prices reuses them.
const formats = new Map<string, Intl.NumberFormat>();

/** 1250 in EUR → "€12.50" (in `locale`, English by default). */
export function formatMoney(minor: number, code: string, locale = "en"): string {
  const digits = currencyDigits(code);
  const key = `${locale}|${code}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  return format.format(minor / 10 ** digits);
}

/** The plain decimal a form field shows: 1250 EUR → "12.50", 1000 JPY → "1000". */
export function moneyInput(minor: number, code: string): string {
  const digits = currencyDigits(code);
  if (digits === 0) return String(minor);
  const whole = Math.floor(minor / 10 ** digits);
  const fraction = String(minor % 10 ** digits).padStart(digits, "0");
  return `${whole}.${fraction}`;
}
