/**
 * Builds the public layout's data (`SiteChrome`, app/site/chrome.ts) for one site: branding, images, profile
 * and structured data, in one call the `$site` loader makes per request (five small reads, run together).
 */
import type { Db } from "~db/client";
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
import { themeHref } from "./theme.server";

function image(slug: string, item: MediaItem | null, width: number | undefined, alt: string): ChromeImage | null {
  if (!item) return null;
  return {
    src: mediaSrc(slug, item, width),
    srcSet: width ? mediaSrcSet(slug, item) : undefined,
    width: item.width,
    height: item.height,
    alt: item.alt || alt,
    contentType: item.contentType,
  };
}

export async function loadSiteChrome(
  db: Db,
  workspace: Pick<Workspace, "id" | "slug" | "name">,
  origin: string,
): Promise<SiteChrome> {
  const brand = brandingOf(db, workspace.id);
  const [branding, profile, navigation, policies] = await Promise.all([
    brand.get(),
    profileOf(db, workspace.id).get(),
    siteNavigation(db, workspace.id),
    policyLinks(db, workspace.id, workspace.slug),
  ]);
  const images = await brand.images(branding);
  const { slug, name } = workspace;
  const url = `${origin}/${slug}`;
  const logo = image(slug, images.logo, 320, `${name} logo`);
  const socialImage = image(slug, images.socialImage, undefined, name);
  const absolute = (src: string | undefined) => (src ? new URL(src, `${origin}/`).toString() : null);
  return {
    name,
    slug,
    origin,
    themeHref: themeHref(slug, branding),
    themeColor: branding.colors.brand,
    logo,
    favicon: image(slug, images.favicon, undefined, ""),
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
    jsonLd: [
      { "@context": "https://schema.org", "@type": "WebSite", "@id": `${url}#website`, name, url },
      localBusinessJsonLd(profile, {
        name,
        url,
        logo: absolute(images.logo ? mediaSrc(slug, images.logo) : undefined),
        image: absolute(socialImage?.src),
      }),
    ],
  };
}
