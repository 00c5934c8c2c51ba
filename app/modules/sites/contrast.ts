/**
 * Colour arithmetic for site themes: WCAG 2.x relative luminance and contrast ratio, the best text colour on a
 * given background, and the nearest darker (or lighter) shade that reaches a ratio. Pure functions, so the
 * console's contrast check, the theme stylesheet and the tests agree on every number.
 */

export type Hex = `#${string}`;

export const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** `#abc`, `#AABBCC`, ` #aabbcc ` → `#aabbcc`; anything else → null. */
export function normalizeHex(value: string): Hex | null {
  const v = value.trim().toLowerCase();
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}`;
  if (HEX_COLOR.test(v)) return v as Hex;
  return null;
}

export function rgbOf(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function hexOf([r, g, b]: readonly number[]): Hex {
  const part = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, "0");
  return `#${part(r!)}${part(g!)}${part(b!)}`;
}

/** WCAG 2.x relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio, 1–21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Rounded down to one decimal, as checkers show it: 4.49 is "4.4", never "4.5". */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}

export const NEAR_WHITE = "#ffffff";
export const NEAR_BLACK = "#161412";

/** White or near-black, whichever reads better on `background`. */
export function textOn(background: string): Hex {
  return contrastRatio(NEAR_WHITE, background) >= contrastRatio(NEAR_BLACK, background) ? NEAR_WHITE : NEAR_BLACK;
}

/** `a` moved `amount` (0–1) of the way to `b`. */
export function mix(a: string, b: string, amount: number): Hex {
  const [x, y] = [rgbOf(a), rgbOf(b)];
  return hexOf(x.map((v, i) => v + (y[i]! - v) * amount));
}

/**
 * `color` itself if it reaches `ratio` on `background`; otherwise the first shade towards black (or white, on
 * a dark background) that does. Used for links, which take the brand colour unless it is too light to read.
 */
export function readableOn(color: string, background: string, ratio = 4.5): Hex {
  const hex = normalizeHex(color) ?? (NEAR_BLACK as Hex);
  if (contrastRatio(hex, background) >= ratio) return hex;
  const toward = luminance(background) > 0.18 ? "#000000" : "#ffffff";
  for (let step = 1; step <= 20; step++) {
    const shade = mix(hex, toward, step / 20);
    if (contrastRatio(shade, background) >= ratio) return shade;
  }
  return toward as Hex;
}
