/**
 * Builds the public layout's data (`SiteChrome`, app/site/chrome.ts) for one site: branding, images, profile,
 * structured data and whether the site is hidden from search engines, in one call the `$site` loader makes per
 * request (six small reads, run together). Links and files are under the request's link base; absolute
 * addresses at the site's final address (ADR 025).
 */
import type { AppLoadContext } from "@remix-run/node";
import { now } from "~/lib/clock.server";
import type { Db } from "~db/client";
import { discoverySettingsOf } from "~/modules/discovery/settings.server";
import type { LinkBase } from "~/lib/link-base";
import { mediaSrc, mediaSrcSet, type MediaItem } from "~/modules/files/media.server";
import type { Workspace } from "~/modules/tenancy/workspaces.server";
import type { ChromeImage, SiteChrome } from "~/site/chrome";
import { brandingOf } from "./branding.server";
import { siteNavigation } from "./navigation.server";
import { policyLinks } from "./policies.server";
import {
  addressLines,
  localBusinessJsonLd,
  profileOf,
  todayIn,
  upcomingExceptions,
  weeklyHoursLines,
} from "./profile.server";
import { siteUrl } from "./address.server";
import type { PublicAddress } from "./public-address.server";
import { themeHref } from "./theme.server";
import { nextLocalMidnight, siteFrameTags } from "./page-cache";

function image(base: LinkBase, item: MediaItem | null, width: number | undefined, alt: string): ChromeImage | null {
  if (!item) return null;
  return {
    src: mediaSrc(base, item, width),
    srcSet: width ? mediaSrcSet(base, item) : undefined,
    width: item.width,
    height: item.height,
    alt: item.alt || alt,
    contentType: item.contentType,
  };
}

export interface SiteFrame {
  chrome: SiteChrome;
  /** Until when the frame is right: the site's next local midnight ("today's" opening hours, the year). */
  until: Date;
}

/**
 * The frame of a site's pages, remembered between requests until a write purges one of its tags (ADR 031) or
 * the site's day ends: the same purges that keep cached pages current keep this current. Keyed by everything
 * the frame is built from besides the database: the workspace's name and address, the address it is served at,
 * and whether it is protected.
 */
export function siteFrameOf(
  services: Pick<AppLoadContext["services"], "db" | "pageCache">,
  workspace: Pick<Workspace, "id" | "slug" | "name">,
  address: PublicAddress,
  protectedSite: boolean,
): Promise<SiteFrame> {
  const key = JSON.stringify([
    "site-frame",
    workspace.id,
    workspace.slug,
    workspace.name,
    address.origin,
    address.base,
    address.finalBase,
    protectedSite,
  ]);
  return services.pageCache.remember(
    key,
    siteFrameTags(workspace.id),
    async () => {
      const chrome = await loadSiteChrome(services.db, workspace, address, protectedSite);
      return { chrome, until: nextLocalMidnight(chrome.profile.timeZone, now()) };
    },
    (frame) => frame.until.getTime(),
  );
}

/**
 * `protectedSite`: the site is behind a password (ADR 023), which hides it from search engines as well as its
 * own "hide from search engines" setting (ADR 021) does.
 */
export async function loadSiteChrome(
  db: Db,
  workspace: Pick<Workspace, "id" | "slug" | "name">,
  address: PublicAddress,
  protectedSite: boolean,
): Promise<SiteChrome> {
  const { base, origin, finalBase } = address;
  const brand = brandingOf(db, workspace.id);
  const [branding, profile, navigation, policies, discovery] = await Promise.all([
    brand.get(),
    profileOf(db, workspace.id).get(),
    siteNavigation(db, workspace.id, base),
    policyLinks(db, workspace.id, base),
    discoverySettingsOf(db, workspace.id),
  ]);
  const images = await brand.images(branding);
  const { slug, name } = workspace;
  // Absolute addresses (structured data, the sharing image) are at the site's final address on every host.
  const url = siteUrl({ origin, base: finalBase });
  const absolute = (item: MediaItem | null) => (item ? `${origin}${mediaSrc(finalBase, item)}` : null);
  const logo = image(base, images.logo, 320, `${name} logo`);
  const social = image(finalBase, images.socialImage, undefined, name);
  const socialImage = social && { ...social, src: `${origin}${social.src}` };
  return {
    name,
    slug,
    base,
    origin,
    finalBase,
    noindex: discovery.noindex || protectedSite,
    themeHref: themeHref(base, branding),
    themeColor: branding.colors.brand,
    logo,
    favicon: image(base, images.favicon, undefined, ""),
    socialImage,
    profile: {
      tagline: profile.tagline,
      addressLines: addressLines(profile),
      phone: profile.phone,
      email: profile.email,
      hours: weeklyHoursLines(profile.hours),
      exceptions: upcomingExceptions(profile),
      timeZone: profile.timeZone,
      currency: profile.currency,
    },
    navigation: navigation.header,
    footerLinks: navigation.footer,
    policies,
    year: Number(todayIn(profile.timeZone).slice(0, 4)),
    portal: true,
    // The shop's own: the `$site` layout fills them in (the sites module knows nothing of commerce).
    shop: false,
    cartCount: null,
    assistant: null,
    jsonLd: [
      { "@context": "https://schema.org", "@type": "WebSite", "@id": `${url}#website`, name, url },
      localBusinessJsonLd(profile, {
        name,
        url,
        logo: absolute(images.logo),
        image: socialImage?.src ?? null,
      }),
    ],
  };
}

/**
 * Answers of a site hidden from search engines (`SiteChrome.noindex`): entry.server.tsx sends them with
 * `X-Robots-Tag: noindex`, which holds for every page of the site (contact, policies, the error pages) whatever
 * its route's meta says and whether or not a crawler read the site's robots.txt. Keyed by the request's scope.
 */
const hiddenAnswers = new WeakSet<object>();
export const hideFromSearchEngines = (context: AppLoadContext) => void hiddenAnswers.add(context.request);
export const isHiddenFromSearchEngines = (context: AppLoadContext): boolean => hiddenAnswers.has(context.request);
