/**
 * What every public page's frame shows, as the `$site` layout's loader returns it: the site's name and
 * address, its theme stylesheet, logo, favicon and social image, the business profile's public fields
 * (address, contact, opening hours already formatted), and the links of the header and footer. Plain data: the
 * layout renders it and page routes read it through `useRouteLoaderData("routes/$site")` or their meta's
 * `matches`.
 */
import type { MetaDescriptor, MetaFunction } from "@remix-run/node";
import { ogImagePath, ogImageVersion } from "~/modules/og-image/version";
import { imageMeta } from "./meta";

export interface ChromeImage {
  /** Address of the image (or its best variant) under the link base; the social image's is absolute. */
  src: string;
  srcSet?: string;
  width: number | null;
  height: number | null;
  alt: string;
  contentType: string;
}

export interface ChromeLink {
  label: string;
  href: string;
}

export interface ChromeProfile {
  tagline: string;
  addressLines: string[];
  phone: string;
  email: string;
  /** Grouped weekly hours, e.g. { days: "Monday – Friday", hours: "7:00–18:00" }. */
  hours: { days: string; hours: string }[];
  /** Exceptions in the coming weeks, e.g. { label: "Thursday 25 December", hours: "Closed", note: "Christmas" }. */
  exceptions: { date: string; label: string; hours: string; note: string }[];
  timeZone: string;
  currency: string;
}

export interface SiteChrome {
  name: string;
  slug: string;
  /**
   * The prefix of every link and file on this page (ADR 025): `/{slug}` on the deployment's host, "" when the
   * request came in on the site's own domain. The home page's link is `base || "/"`.
   */
  base: string;
  /**
   * The site's final origin, no trailing slash: its verified primary domain (`https://shop.example`) on every
   * host, else the deployment's public origin. Canonical and Open Graph URLs are `origin + finalBase + path`.
   */
  origin: string;
  /** The final address's base path: "" with a primary domain, else `/{slug}`. */
  finalBase: string;
  /**
   * The whole site is hidden from search engines: its "hide from search engines" setting (ADR 021), or a
   * password (ADR 023). Every page's head says `noindex` (`chromeMeta`) and every answer `X-Robots-Tag`.
   */
  noindex: boolean;
  /** `{base}/theme.css?v=<hash>`: immutable for that hash. */
  themeHref: string;
  /** The brand colour, for `<meta name="theme-color">`. */
  themeColor: string;
  logo: ChromeImage | null;
  favicon: ChromeImage | null;
  /** Its `src` is absolute, at the final address (it is only used in Open Graph tags). */
  socialImage: ChromeImage | null;
  profile: ChromeProfile;
  /** Header navigation; filled at merge from the pages module's `siteNavigation`. */
  navigation: ChromeLink[];
  /** Footer links; filled at merge from the pages module's `siteNavigation`. */
  footerLinks: ChromeLink[];
  /** Policy links; filled at merge from the policies module's `policyLinks`. */
  policies: ChromeLink[];
  /** For "© year name", in the site's time zone. */
  year: number;
  /** schema.org objects (WebSite, LocalBusiness) the layout renders as JSON-LD. */
  jsonLd: object[];
  /** The header links the customer portal (`{base}/account`); not on a protected site's unlock page. */
  portal: boolean;
  /** The header links the cart: the shop has something on sale (set by the `$site` layout, ADR 030). */
  shop: boolean;
  /** How many items this visitor's cart holds; null for a visitor without one (every cached answer). */
  cartCount: number | null;
  /**
   * The site assistant's widget (ADR 037), when the business switched it on: its greeting and where a conversation
   * opens. Set by the `$site` layout (the sites module knows nothing of chat); null on the unlock page.
   */
  assistant: { greeting: string; session: string } | null;
}

export const SITE_LAYOUT_ID = "routes/$site";

interface MatchLike {
  id: string;
  data?: unknown;
}

/**
 * The canonical URL of a path this page was routed to (`location.pathname`, always `/{slug}/…` after the custom
 * domain's rewrite): the same site path at the final address.
 */
export function canonicalOf(chrome: Pick<SiteChrome, "slug" | "origin" | "finalBase">, pathname: string): string {
  const prefix = `/${chrome.slug}`;
  const sitePath =
    pathname === prefix || pathname === `${prefix}/`
      ? ""
      : pathname.startsWith(`${prefix}/`)
        ? pathname.slice(prefix.length)
        : pathname;
  return `${chrome.origin}${chrome.finalBase}${sitePath}` || `${chrome.origin}/`;
}

/** The layout's data from a meta function's `matches`. */
export function chromeOf(matches: readonly MatchLike[]): SiteChrome | undefined {
  return matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
}

const isRobots = (tag: MetaDescriptor) => "name" in tag && tag.name === "robots";

/**
 * The head tags every public page needs besides its own (`own`, `siteMeta`'s): favicon and theme colour, and
 * `robots: noindex` when the whole site is hidden from search engines — unless `own` already has a robots tag
 * (a noindex page, the unlock page), so the head never says it twice. A page route's `meta` replaces the
 * layout's, so each one adds these: `[...own, ...chromeMeta(matches, own)]`.
 */
export function chromeMeta(matches: readonly MatchLike[], own: readonly MetaDescriptor[] = []): MetaDescriptor[] {
  const chrome = chromeOf(matches);
  if (!chrome) return [];
  const tags: MetaDescriptor[] = [{ name: "theme-color", content: chrome.themeColor }];
  if (chrome.noindex && !own.some(isRobots)) tags.push({ name: "robots", content: "noindex" });
  if (chrome.favicon) {
    tags.push({ tagName: "link", rel: "icon", href: chrome.favicon.src, type: chrome.favicon.contentType });
    tags.push({ tagName: "link", rel: "apple-touch-icon", href: chrome.favicon.src });
  } else {
    // No icon of its own yet: an empty one, so browsers do not ask for /favicon.ico (a 404 at the root).
    tags.push({ tagName: "link", rel: "icon", href: "data:," });
  }
  return tags;
}

/**
 * The share image of a page without one of its own and a site without a social image: the site's generated
 * og-image for the page's title (ADR 022), at the site's final address (`origin` + `finalBase`: its verified
 * custom domain's root, else the deployment's `/{slug}`), the one social networks are given for the page.
 */
export function generatedImage(
  chrome: SiteChrome,
  title: string,
): { url: string; width: number; height: number; alt: string } {
  const version = ogImageVersion(chrome.themeHref, chrome.logo?.src ?? null, chrome.name);
  return {
    url: `${chrome.origin}${chrome.finalBase}${ogImagePath(title, version)}`,
    width: 1200,
    height: 630,
    alt: title && title !== chrome.name ? `${title} · ${chrome.name}` : chrome.name,
  };
}

/**
 * A public page's `meta`: the page's own tags (`siteMeta`), then for its share image the page's own, else the
 * site's social image (the operator chose it), else the generated og-image with the page's title; and
 * `chromeMeta`. A page route's `meta` replaces the layout's, so each public page exports
 * `meta = withSiteChrome(ownMeta)` and loses nothing the layout would have said.
 */
export function withSiteChrome<Loader>(own: MetaFunction<Loader>): MetaFunction<Loader> {
  return (args) => {
    const tags = own(args) ?? [];
    const chrome = chromeOf(args.matches);
    const hasImage = tags.some((tag) => "property" in tag && tag.property === "og:image");
    if (hasImage || !chrome) return [...tags, ...chromeMeta(args.matches, tags)];
    const ogTitle = tags.find((tag) => "property" in tag && tag.property === "og:title");
    const title =
      ogTitle && "content" in ogTitle && typeof ogTitle.content === "string" ? ogTitle.content : chrome.name;
    const image = chrome.socialImage
      ? {
          url: chrome.socialImage.src,
          width: chrome.socialImage.width,
          height: chrome.socialImage.height,
          alt: chrome.socialImage.alt,
        }
      : generatedImage(chrome, title);
    return [
      ...tags.filter((tag) => !("name" in tag && tag.name === "twitter:card")),
      ...imageMeta(chrome.origin, image),
      ...chromeMeta(args.matches, tags),
    ];
  };
}
