/**
 * The fonts a site can use: a small set shipped with the project (the @fontsource-variable packages), served
 * from our own origin with the build's hashed, immutable asset addresses. No font CDN: a visitor's browser
 * talks only to the site, the CSP stays `default-src 'self'`, and a site looks the same offline.
 *
 * Each is a variable font (one file for every weight). Only the Latin and Latin Extended subsets, upright, and
 * the Latin italic are served; `unicode-range` lets the browser fetch the extended file only when a page uses
 * those characters. Plain data plus asset addresses: the console (font pickers) and the theme stylesheet read it.
 */
import inter_latin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import inter_latinExt from "@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2?url";
import inter_italic from "@fontsource-variable/inter/files/inter-latin-wght-italic.woff2?url";
import dm_sans_latin from "@fontsource-variable/dm-sans/files/dm-sans-latin-wght-normal.woff2?url";
import dm_sans_latinExt from "@fontsource-variable/dm-sans/files/dm-sans-latin-ext-wght-normal.woff2?url";
import dm_sans_italic from "@fontsource-variable/dm-sans/files/dm-sans-latin-wght-italic.woff2?url";
import work_sans_latin from "@fontsource-variable/work-sans/files/work-sans-latin-wght-normal.woff2?url";
import work_sans_latinExt from "@fontsource-variable/work-sans/files/work-sans-latin-ext-wght-normal.woff2?url";
import work_sans_italic from "@fontsource-variable/work-sans/files/work-sans-latin-wght-italic.woff2?url";
import fraunces_latin from "@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?url";
import fraunces_latinExt from "@fontsource-variable/fraunces/files/fraunces-latin-ext-wght-normal.woff2?url";
import fraunces_italic from "@fontsource-variable/fraunces/files/fraunces-latin-wght-italic.woff2?url";
import playfair_display_latin from "@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2?url";
import playfair_display_latinExt from "@fontsource-variable/playfair-display/files/playfair-display-latin-ext-wght-normal.woff2?url";
import playfair_display_italic from "@fontsource-variable/playfair-display/files/playfair-display-latin-wght-italic.woff2?url";
import source_serif_4_latin from "@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2?url";
import source_serif_4_latinExt from "@fontsource-variable/source-serif-4/files/source-serif-4-latin-ext-wght-normal.woff2?url";
import source_serif_4_italic from "@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-italic.woff2?url";

export type FontKind = "sans" | "serif";

export interface SiteFont {
  label: string;
  /** The CSS font-family name used in @font-face. */
  family: string;
  kind: FontKind;
  description: string;
  files: { latin: string; latinExt: string; italic: string };
}

export const FONTS = {
  inter: {
    label: "Inter",
    family: "Inter Variable",
    kind: "sans",
    description: "Clear and neutral; reads well at every size",
    files: { latin: inter_latin, latinExt: inter_latinExt, italic: inter_italic },
  },
  "dm-sans": {
    label: "DM Sans",
    family: "DM Sans Variable",
    kind: "sans",
    description: "Friendly and geometric",
    files: { latin: dm_sans_latin, latinExt: dm_sans_latinExt, italic: dm_sans_italic },
  },
  "work-sans": {
    label: "Work Sans",
    family: "Work Sans Variable",
    kind: "sans",
    description: "Plain-spoken, slightly wide",
    files: { latin: work_sans_latin, latinExt: work_sans_latinExt, italic: work_sans_italic },
  },
  fraunces: {
    label: "Fraunces",
    family: "Fraunces Variable",
    kind: "serif",
    description: "Warm, old-style serif with character",
    files: { latin: fraunces_latin, latinExt: fraunces_latinExt, italic: fraunces_italic },
  },
  "playfair-display": {
    label: "Playfair Display",
    family: "Playfair Display Variable",
    kind: "serif",
    description: "High-contrast display serif for headings",
    files: { latin: playfair_display_latin, latinExt: playfair_display_latinExt, italic: playfair_display_italic },
  },
  "source-serif-4": {
    label: "Source Serif 4",
    family: "Source Serif 4 Variable",
    kind: "serif",
    description: "Calm book serif for long reading",
    files: { latin: source_serif_4_latin, latinExt: source_serif_4_latinExt, italic: source_serif_4_italic },
  },
} as const satisfies Record<string, SiteFont>;

export type FontKey = keyof typeof FONTS;

export const FONT_KEYS = Object.keys(FONTS) as FontKey[];

export function isFontKey(value: string): value is FontKey {
  return Object.hasOwn(FONTS, value);
}

/** The fallback stack after the web font, matched to its kind so the page reads well while it loads. */
export function fontStack(key: FontKey): string {
  const font: SiteFont = FONTS[key];
  const fallback =
    font.kind === "serif"
      ? 'Georgia, "Iowan Old Style", "Times New Roman", serif'
      : 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
  return `"${font.family}", ${fallback}`;
}

export const LATIN_RANGE =
  "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD";
export const LATIN_EXT_RANGE =
  "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF";

/** @font-face rules for the given fonts (each once). */
export function fontFaces(keys: readonly FontKey[]): string {
  const rules: string[] = [];
  for (const key of new Set(keys)) {
    const font: SiteFont = FONTS[key];
    const face = (style: string, url: string, range: string) =>
      `@font-face{font-family:"${font.family}";font-style:${style};font-display:swap;font-weight:100 900;` +
      `src:url(${url}) format("woff2-variations"),url(${url}) format("woff2");unicode-range:${range}}`;
    rules.push(
      face("normal", font.files.latin, LATIN_RANGE),
      face("normal", font.files.latinExt, LATIN_EXT_RANGE),
      face("italic", font.files.italic, LATIN_RANGE),
    );
  }
  return rules.join("\n");
}
