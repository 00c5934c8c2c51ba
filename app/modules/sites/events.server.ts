/**
 * The website's event families (ADR 027): `/api/webhooks/branding`, `/settings` and `/pages`. Each applies an
 * event through the same module function the console and the editor API call (`brandingOf(...).save`,
 * `profileOf(...).save`, `policiesOf(...).save`, `siteAccessOf(...)`, `discoveryOf(...).saveSite`,
 * `pagesOf(...).publish/unpublish`), so the write and the purge of what it changes happen once, in one place.
 * Partial updates are merged over the saved record here and the whole record saved, as the console does.
 */
import { z } from "zod";
import { CORNER_STYLES } from "./branding-options";
import { FONT_KEYS, type FontKey } from "./fonts";
import { brandingOf } from "./branding.server";
import { pagesOf } from "./pages.server";
import { policiesOf } from "./policies.server";
import { POLICY_KINDS, type PolicyKind } from "./policy-kinds";
import { ProfileInput, profileInputOf, profileOf } from "./profile.server";
import { discoveryOf } from "~/modules/discovery/discovery.server";
import { writeTogether } from "~/modules/cache/purge.server";
import { defineEventFamily, eventEnvelope } from "~/modules/events/family";
import { siteAccessOf } from "~/modules/site-access/visibility.server";

/** Events carry no operator: the module functions record no operator audit event; the event log is the record. */
const NO_ACTOR = { userId: null, ip: null };

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Give a hex colour such as #1f4d3f");
const fileRef = z.string().max(64).nullable();

const BrandingUpdated = eventEnvelope(
  "branding.updated",
  z
    .object({
      colors: z
        .object({ brand: hex, accent: hex, background: hex, text: hex })
        .partial()
        .describe("Only the colours that change"),
      headingFont: z.enum(FONT_KEYS as [FontKey, ...FontKey[]]),
      bodyFont: z.enum(FONT_KEYS as [FontKey, ...FontKey[]]),
      corners: z.enum(CORNER_STYLES),
      logoId: fileRef,
      faviconId: fileRef,
      socialImageId: fileRef,
    })
    .partial()
    .describe("The fields that change; the others keep their saved value"),
);

export const brandingEvents = defineEventFamily({
  family: "branding",
  schema: BrandingUpdated,
  tags: ["branding"],
  describe: {
    summary: "Brand or theme saved: colours, fonts, corners, logo, favicon, sharing image",
    description:
      "Merges the given fields over the saved branding and saves it as the console's Branding page does (the " +
      "same checks: text contrast at least 4.5:1, images of this workspace). Every public page shows the change " +
      "from the next request.",
    example: {
      type: "branding.updated",
      workspace: "01JB6Z0000000000000000000",
      data: { colors: { brand: "#7a1f3d" }, corners: "round" },
    },
  },
  async apply({ db }, workspace, event) {
    const brand = brandingOf(db, workspace.id);
    const current = await brand.get();
    const { colors, ...rest } = event.data;
    await brand.save(null, {
      logoId: current.logoId,
      faviconId: current.faviconId,
      socialImageId: current.socialImageId,
      headingFont: current.headingFont,
      bodyFont: current.bodyFont,
      corners: current.corners,
      ...rest,
      colors: { ...current.colors, ...colors },
    });
  },
});

const text = (max: number) => z.string().max(max);
/**
 * The profile fields an event may change, taken from the console's own input schema (so the two cannot drift:
 * the same limits, time zone and currency lists, phone and e-mail checks). Its defaults are unwrapped: a field
 * absent from the event keeps its saved value instead of being reset to "".
 */
const profileField = ProfileInput.shape;
const addressField = profileField.address.unwrap().shape;
const ProfileChange = z
  .object({
    tagline: profileField.tagline.unwrap(),
    timeZone: profileField.timeZone,
    currency: profileField.currency,
    phone: profileField.phone.unwrap(),
    email: profileField.email.unwrap(),
    address: z
      .object({
        street: addressField.street.unwrap(),
        locality: addressField.locality.unwrap(),
        region: addressField.region.unwrap(),
        postalCode: addressField.postalCode.unwrap(),
        country: addressField.country.unwrap(),
      })
      .partial(),
  })
  .partial();

const SettingsUpdated = eventEnvelope(
  "settings.updated",
  z
    .object({
      profile: ProfileChange.describe("Business profile fields that change (opening hours are edited in the console)"),
      policies: z
        .partialRecord(
          z.enum(POLICY_KINDS as [PolicyKind, ...PolicyKind[]]),
          z.object({ title: text(120), markdown: text(50_000), published: z.boolean() }),
        )
        .describe("Policies to save whole, by kind"),
      visibility: z
        .enum(["public"])
        .describe("`public` lifts a site password (protecting a site needs the console: it sets a password)"),
      noindex: z.boolean().describe("Hide the whole site from search engines"),
    })
    .partial(),
);

export const settingsEvents = defineEventFamily({
  family: "settings",
  schema: SettingsUpdated,
  tags: ["settings"],
  describe: {
    summary: "Workspace settings saved: business profile, policies, site visibility, search indexing",
    description:
      "Each part present is saved through the console's own function, with its checks (a time zone or currency " +
      "from the list, policies in Markdown): `profile` merged over the saved profile, `policies` saved whole by " +
      "kind, `visibility: public` lifts a site password, `noindex` hides the site from search engines.",
    example: {
      type: "settings.updated",
      workspace: "01JB6Z0000000000000000000",
      data: { profile: { tagline: "Fresh bread every morning", phone: "+44 20 7946 0000" }, noindex: false },
    },
  },
  async apply({ db }, workspace, event) {
    const { profile, policies, visibility, noindex } = event.data;
    // All parts or none: a policy the module refuses leaves the profile saved before it unsaved too.
    await writeTogether(db, async (trx) => {
      if (profile) {
        const repo = profileOf(trx, workspace.id);
        const current = profileInputOf(await repo.get());
        await repo.save(null, {
          ...current,
          ...profile,
          address: { ...current.address, ...profile.address } as typeof current.address,
        });
      }
      for (const [kind, policy] of Object.entries(policies ?? {})) {
        if (policy) await policiesOf(trx, workspace.id).save(null, kind as PolicyKind, policy);
      }
      if (visibility === "public") await siteAccessOf(trx, workspace.id).makePublic(null);
      if (noindex !== undefined) await discoveryOf(trx, workspace.id).saveSite(NO_ACTOR, { noindex });
    });
  },
});

const pageRef = z.object({ pageId: z.string().min(1).max(64) });
const PageEvent = z.discriminatedUnion("type", [
  eventEnvelope("page.published", pageRef),
  eventEnvelope("page.unpublished", pageRef),
]);

export const pagesEvents = defineEventFamily({
  family: "pages",
  schema: PageEvent,
  tags: ["page", "pages", "navigation"],
  describe: {
    summary: "Page published or unpublished",
    description:
      "`page.published` publishes the page's saved draft (as the editor's Publish); `page.unpublished` takes it " +
      "off the site. An unknown page id is refused with 404 and changes nothing.",
    example: {
      type: "page.published",
      workspace: "01JB6Z0000000000000000000",
      data: { pageId: "01JB70000000000000000000" },
    },
  },
  async apply({ db }, workspace, event) {
    const pages = pagesOf(db, workspace.id);
    if (event.type === "page.published") await pages.publish(NO_ACTOR, event.data.pageId);
    else await pages.unpublish(NO_ACTOR, event.data.pageId);
  },
});
