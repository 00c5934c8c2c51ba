/**
 * The colours a site's pages use, derived from the four the operator picks, and the contrast report the
 * console shows. Pure (no server imports): the console recomputes the report live as colours change, and the
 * server checks the same numbers when saving.
 */
import { contrastRatio, mix, readableOn, textOn, type Hex } from "./contrast";

export interface BrandColors {
  brand: Hex;
  accent: Hex;
  background: Hex;
  text: Hex;
}

/** At least this ratio between body text and the background, or the save is refused. */
export const MIN_TEXT_CONTRAST = 4.5;

export interface ContrastCheck {
  /** The field the operator changes to fix it. */
  field: "colors.text" | "colors.brand" | "colors.accent";
  label: string;
  foreground: Hex;
  background: Hex;
  ratio: number;
  /** AA for normal text. */
  passes: boolean;
  /** What the site does about it, when it adjusts a colour itself. */
  note?: string;
}

/** The derived colours every public page uses (theme.server.ts turns them into CSS variables). */
export interface Palette {
  brand: Hex;
  onBrand: Hex;
  accent: Hex;
  onAccent: Hex;
  background: Hex;
  surface: Hex;
  text: Hex;
  muted: Hex;
  border: Hex;
  link: Hex;
}

export function paletteOf(colors: BrandColors): Palette {
  const { brand, accent, background, text } = colors;
  // Muted text is a mix of text into the background that still reads at 4.5:1.
  let muted = mix(text, background, 0.35);
  if (contrastRatio(muted, background) < MIN_TEXT_CONTRAST) muted = readableOn(muted, background);
  return {
    brand,
    onBrand: textOn(brand),
    accent,
    onAccent: textOn(accent),
    background,
    surface: mix(background, text, 0.04),
    text,
    muted,
    border: mix(background, text, 0.16),
    link: readableOn(brand, background),
  };
}

/** The pairs the console shows with their ratios; only the first can refuse a save. */
export function contrastChecks(colors: BrandColors): ContrastCheck[] {
  const palette = paletteOf(colors);
  const check = (
    field: ContrastCheck["field"],
    label: string,
    foreground: Hex,
    background: Hex,
    note?: string,
  ): ContrastCheck => {
    const ratio = contrastRatio(foreground, background);
    return { field, label, foreground, background, ratio, passes: ratio >= MIN_TEXT_CONTRAST, note };
  };
  const linkRatio = contrastRatio(colors.brand, colors.background);
  return [
    check("colors.text", "Body text on the background", colors.text, colors.background),
    check("colors.brand", "Button text on the brand colour", palette.onBrand, colors.brand),
    check("colors.accent", "Text on the accent colour", palette.onAccent, colors.accent),
    linkRatio >= MIN_TEXT_CONTRAST
      ? check("colors.brand", "Links (brand colour) on the background", colors.brand, colors.background)
      : check(
          "colors.brand",
          "Links (brand colour) on the background",
          palette.link,
          colors.background,
          `The brand colour reads at only ${(Math.floor(linkRatio * 10) / 10).toFixed(1)}:1 on the background, so links use the darker ${palette.link}.`,
        ),
  ];
}
