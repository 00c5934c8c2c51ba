/**
 * The per-site stylesheet (`/{site}/theme.css`): the branding as the CSS variables every public page uses
 * (`--site-*`, the contract between the layout, blocks and forms) and the @font-face rules of its two fonts.
 * It is a separate file, not a `<style>` in the page, because public pages' CSP refuses inline styles.
 *
 * The layout links it as `/{site}/theme.css?v=<hash>`, the hash of the CSS itself: a page always names the
 * stylesheet of the branding it was rendered with, so that address can be cached forever, and a save gives
 * every page a new address at its next request.
 */
import type { LinkBase } from "~/lib/link-base";
import { createHash } from "node:crypto";
import type { Branding } from "./branding.server";
import { paletteOf } from "./branding.server";
import { fontFaces, fontStack } from "./fonts";

const RADII = { square: "0", soft: "0.5rem", round: "1.25rem" } as const;

/** The stylesheet's text for a branding. */
export function themeCss(branding: Branding): string {
  const p = paletteOf(branding.colors);
  const vars: Record<string, string> = {
    "--site-brand": p.brand,
    "--site-on-brand": p.onBrand,
    "--site-accent": p.accent,
    "--site-on-accent": p.onAccent,
    "--site-bg": p.background,
    "--site-surface": p.surface,
    "--site-text": p.text,
    "--site-muted": p.muted,
    "--site-border": p.border,
    "--site-link": p.link,
    "--site-font-body": fontStack(branding.bodyFont),
    "--site-font-heading": fontStack(branding.headingFont),
    "--site-radius": RADII[branding.corners],
    "--site-width": "72rem",
  };
  const body = Object.entries(vars)
    .map(([name, value]) => `  ${name}: ${value};`)
    .join("\n");
  return `${fontFaces([branding.headingFont, branding.bodyFont])}\n:root {\n${body}\n}\n`;
}

/** A short hash naming the stylesheet's content (the `v` of its address). */
export function themeHash(css: string): string {
  return createHash("sha256").update(css).digest("base64url").slice(0, 16);
}

export function themeHref(base: LinkBase, branding: Branding): string {
  return `${base}/theme.css?v=${themeHash(themeCss(branding))}`;
}

/**
 * The console's live preview: the same variables, scoped to `.brand-preview`, from colours and fonts that may
 * not be saved yet (read from a query string; anything invalid falls back to the saved value's default).
 * A stylesheet rather than inline styles because the console's CSP refuses those too.
 */
export function previewCss(branding: Branding): string {
  return themeCss(branding).replace(":root {", ".brand-preview {");
}
