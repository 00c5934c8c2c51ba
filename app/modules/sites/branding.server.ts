/**
 * A workspace's branding: logo, favicon and social image (files of the workspace, by id), four colours, a
 * heading and a body font from the shipped set, and a corner style. The public theme (theme.server.ts) is made
 * from it; the console page and `/api/editor/branding` both save through `brandingOf(...).save`, the one
 * implementation.
 *
 * A workspace that never saved its branding has no row and gets `DEFAULT_BRANDING`: a site looks designed from
 * its first request. Colours are checked for contrast when saved (WCAG 2.x): body text on the background must
 * reach 4.5:1 or the save is refused next to the field; button text is chosen for the brand and accent colours
 * (white or near-black, whichever reads better), and links take the brand colour only when it reads on the
 * background, a darker shade of it otherwise. So a site cannot be saved into an unreadable state, and a light
 * brand colour (a yellow) is still allowed for buttons and bands.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import type { SiteBrandingTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { invalid, type FieldIssue } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { mediaOf, type MediaItem } from "~/modules/files/media.server";
import { contrastRatio, normalizeHex, type Hex } from "./contrast";
import { contrastChecks, MIN_TEXT_CONTRAST, type BrandColors } from "./palette";

export {
  contrastChecks,
  MIN_TEXT_CONTRAST,
  paletteOf,
  type BrandColors,
  type ContrastCheck,
  type Palette,
} from "./palette";
import { FONT_KEYS, FONTS, type FontKey } from "./fonts";
import { CORNER_STYLES, FAVICON_TYPES, LOGO_TYPES, SOCIAL_IMAGE_TYPES, type CornerStyle } from "./branding-options";

export { CORNER_STYLES, FAVICON_TYPES, LOGO_TYPES, SOCIAL_IMAGE_TYPES, type CornerStyle } from "./branding-options";

export interface Branding {
  logoId: string | null;
  faviconId: string | null;
  socialImageId: string | null;
  colors: BrandColors;
  headingFont: FontKey;
  bodyFont: FontKey;
  corners: CornerStyle;
  /** Null until the workspace has a branding row: its first save, or (with the defaults) its first brand import started. */
  updatedAt: string | null;
}

export const DEFAULT_BRANDING: Branding = {
  logoId: null,
  faviconId: null,
  socialImageId: null,
  colors: { brand: "#1f4d3f", accent: "#e8b04a", background: "#fbfaf7", text: "#1c2321" },
  headingFont: "fraunces",
  bodyFont: "inter",
  corners: "soft",
  updatedAt: null,
};

const color = (label: string) =>
  z.string({ message: `Choose a ${label}` }).transform((value, ctx) => {
    const hex = normalizeHex(value);
    if (hex) return hex;
    ctx.addIssue({ code: "custom", message: `Give the ${label} as a hex colour such as #1f4d3f` });
    return z.NEVER;
  });
const fileId = z
  .string()
  .trim()
  .max(64, "Choose a file from the media library")
  .nullable()
  .optional()
  .transform((v) => v || null);
const font = (label: string) =>
  z.enum(FONT_KEYS as [FontKey, ...FontKey[]], { message: `Choose a ${label} from the list` });

/** What the console form and the editor API send: the whole branding, every time. */
export const BrandingInput = z.object({
  logoId: fileId,
  faviconId: fileId,
  socialImageId: fileId,
  colors: z.object({
    brand: color("brand colour"),
    accent: color("accent colour"),
    background: color("background colour"),
    text: color("text colour"),
  }),
  headingFont: font("heading font"),
  bodyFont: font("body font"),
  corners: z.enum(CORNER_STYLES, { message: "Choose square, soft or round corners" }),
});
export type BrandingInput = z.input<typeof BrandingInput>;

function toBranding(row: SiteBrandingTable | undefined): Branding {
  if (!row) return DEFAULT_BRANDING;
  const fontOr = (key: string, fallback: FontKey): FontKey => (Object.hasOwn(FONTS, key) ? (key as FontKey) : fallback);
  return {
    logoId: row.logo_file_id,
    faviconId: row.favicon_file_id,
    socialImageId: row.social_image_file_id,
    colors: {
      brand: row.brand_color as Hex,
      accent: row.accent_color as Hex,
      background: row.background_color as Hex,
      text: row.text_color as Hex,
    },
    headingFont: fontOr(row.heading_font, DEFAULT_BRANDING.headingFont),
    bodyFont: fontOr(row.body_font, DEFAULT_BRANDING.bodyFont),
    corners: (CORNER_STYLES as readonly string[]).includes(row.corner_style)
      ? (row.corner_style as CornerStyle)
      : "soft",
    updatedAt: row.updated_at,
  };
}

export interface BrandingImages {
  logo: MediaItem | null;
  favicon: MediaItem | null;
  socialImage: MediaItem | null;
}

/** One workspace's branding. */
export function brandingOf(db: Db, workspaceId: string) {
  const row = () => db.selectFrom("site_branding").selectAll().where("workspace_id", "=", workspaceId);

  async function checkImages(input: z.output<typeof BrandingInput>) {
    const media = await mediaOf(db, workspaceId).byIds(
      [input.logoId, input.faviconId, input.socialImageId].filter((v): v is string => !!v),
    );
    const issues: FieldIssue[] = [];
    const need = (field: string, id: string | null, types: ReadonlySet<string>, what: string) => {
      if (!id) return;
      const item = media.get(id);
      if (!item) issues.push({ field, message: "That file is not in this workspace's media library" });
      else if (!types.has(item.contentType)) issues.push({ field, message: what });
    };
    need("logoId", input.logoId, LOGO_TYPES, "A logo must be an image (PNG, JPEG, WebP, GIF, AVIF or SVG)");
    need("faviconId", input.faviconId, FAVICON_TYPES, "A favicon must be an image or an .ico file");
    need(
      "socialImageId",
      input.socialImageId,
      SOCIAL_IMAGE_TYPES,
      "Social networks show PNG, JPEG or WebP images only; choose one of those",
    );
    return issues;
  }

  return {
    async get(): Promise<Branding> {
      return toBranding(await row().executeTakeFirst());
    },

    /** The branding's images as media items (absent if a file was deleted since). */
    async images(branding?: Branding): Promise<BrandingImages> {
      const b = branding ?? toBranding(await row().executeTakeFirst());
      const ids = [b.logoId, b.faviconId, b.socialImageId].filter((v): v is string => !!v);
      const media = await mediaOf(db, workspaceId).byIds(ids);
      const pick = (id: string | null) => (id ? (media.get(id) ?? null) : null);
      return { logo: pick(b.logoId), favicon: pick(b.faviconId), socialImage: pick(b.socialImageId) };
    },

    /**
     * Validates and saves the whole branding, with an audit event, in one transaction. Refuses (changing
     * nothing) a colour that is not one, body text under 4.5:1, an unknown font, or a file id that is not an
     * image of this workspace.
     */
    async save(actorUserId: string | null, input: unknown): Promise<Branding> {
      const parsed = BrandingInput.safeParse(input);
      if (!parsed.success) {
        throw invalid(
          "Check the highlighted fields",
          parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message })),
        );
      }
      const value = parsed.data;
      const issues = await checkImages(value);
      const textRatio = contrastRatio(value.colors.text, value.colors.background);
      if (textRatio < MIN_TEXT_CONTRAST) {
        issues.push({
          field: "colors.text",
          message: `Text on this background reads at ${(Math.floor(textRatio * 10) / 10).toFixed(1)}:1; it needs at least 4.5:1. Darken the text or lighten the background.`,
        });
      }
      if (issues.length > 0) throw invalid("Check the highlighted fields", issues);
      const at = isoNow();
      const columns = {
        logo_file_id: value.logoId,
        favicon_file_id: value.faviconId,
        social_image_file_id: value.socialImageId,
        brand_color: value.colors.brand,
        accent_color: value.colors.accent,
        background_color: value.colors.background,
        text_color: value.colors.text,
        heading_font: value.headingFont,
        body_font: value.bodyFont,
        corner_style: value.corners,
        updated_at: at,
      };
      // Every page of the site shows its brand (theme.css, logo, favicon, sharing image): ADR 026.
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.branding(workspaceId));
        await trx
          .insertInto("site_branding")
          .values({ workspace_id: workspaceId, ...columns, import_status: "none", import_progress: 0 })
          .onConflict((oc) => oc.column("workspace_id").doUpdateSet(columns))
          .execute();
        if (actorUserId) {
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "site.branding.updated",
            actorUserId,
            detail: { colors: value.colors, headingFont: value.headingFont, bodyFont: value.bodyFont },
          });
        }
      });
      return toBranding(await row().executeTakeFirst());
    },

    /** Where a file is used by the branding, for the media library's "where used" (files' registry). */
    async usesOf(fileId: string): Promise<{ label: string; href: string }[]> {
      const b = toBranding(await row().executeTakeFirst());
      const uses: { label: string; href: string }[] = [];
      if (b.logoId === fileId) uses.push({ label: "Branding: logo", href: "/website/branding" });
      if (b.faviconId === fileId) uses.push({ label: "Branding: favicon", href: "/website/branding" });
      if (b.socialImageId === fileId) uses.push({ label: "Branding: social image", href: "/website/branding" });
      return uses;
    },
  };
}

/** For files' "where used" registry: `registerFileUsage("branding", brandingFileUsage)`. */
export const brandingFileUsage = (db: Db, workspaceId: string, fileId: string) =>
  brandingOf(db, workspaceId).usesOf(fileId);

/** The branding as the editor API shows it: plain JSON with the contrast report. */
export function brandingView(branding: Branding) {
  return { ...branding, contrast: contrastChecks(branding.colors) };
}
