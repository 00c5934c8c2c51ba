/**
 * What the public page routes (`/{site}` and `/{site}/{page}`) load, in one place: the site (ADR 005's site
 * resolution), the published page, its images, and the site's final address for the page's head. Three small
 * queries: the site, the page row (its content rendered at save time), the images it shows. Links and images
 * are under the request's link base, so a visitor on the site's own domain stays there (ADR 025).
 */
import { data, type AppLoadContext } from "@remix-run/node";
import { atBase, type LinkBase } from "~/lib/link-base";
import { resolveSiteBySlug, resolveSitePage } from "~/modules/access/site.server";
import { headSeoOf, redirectFor, redirectLocation, type HeadSeo } from "~/modules/discovery/public.server";
import { discoverySettingsOf } from "~/modules/discovery/settings.server";
import { linkBase } from "./address.server";
import type { PageContent, PublicImage, PublicImages } from "./blocks";
import { imagesOf, pageSitePath, publishedPage } from "./pages.server";
import { publicAddressOf } from "./public-address.server";
import { pageOwnTags } from "./page-cache";
import { publicCacheHeaders } from "~/modules/cache/headers";

export interface PublicPageData {
  siteName: string;
  siteSlug: string;
  /** The request's link base: `/{slug}`, or "" on the site's own domain. */
  base: LinkBase;
  /** The site's final origin (its primary domain's, else the deployment's), for the head's absolute URLs. */
  origin: string;
  /** The page's path at that origin: the final base and the page's site path (`/harbor/about`, or `/about`). */
  path: string;
  /** The home page's absolute URL at the final address (structured data's `isPartOf`). */
  homeUrl: string;
  page: { id: string; title: string; description: string; content: PageContent; publishedAt: string } | null;
  images: PublicImages;
  /** The page's first image, for Open Graph. */
  shareImage: PublicImage | null;
  /** Its search settings and language versions (discovery, ADR 021); null for the welcome of an empty site. */
  seo: HeadSeo | null;
}

/** Shared caches may keep a public page, and ask again before each use (an edit shows at the next request). */
export const PUBLIC_CACHE = "public, max-age=0, must-revalidate";

/**
 * A redirect the site answers (the operator's, or a page's slug to the home page): not kept by a shared cache
 * (ADR 026: only a 200 is cached, and it is tagged), and not for ever by a browser (a 301 without Cache-Control
 * is): tomorrow the address may be a page again.
 */
const REDIRECT_CACHE = "no-store";

const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });

/**
 * The answer for a site path no route or page serves (`/{site}/old/page.html`, `/{site}/Old-Page`): the
 * operator's redirect from it (discovery, ADR 021), with the visitor's query; otherwise the site's 404. Throws.
 */
export async function redirectOrNotFound(
  request: Request,
  context: AppLoadContext,
  siteSlug: string | undefined,
): Promise<never> {
  context.request.log.callerType = "public";
  const { db } = context.services;
  const site = await resolveSitePage(db, siteSlug);
  if (site && "workspace" in site) {
    const url = new URL(request.url);
    const sitePath = url.pathname.slice(1 + site.workspace.slug.length) || "/";
    const moved = await redirectFor(db, site.workspace.id, sitePath);
    if (moved) {
      throw new Response(null, {
        status: moved.status,
        headers: {
          Location: redirectLocation(
            moved.target,
            site.workspace.slug,
            linkBase(context, site.workspace.slug),
            url.search,
          ),
          "Cache-Control": REDIRECT_CACHE,
        },
      });
    }
  }
  context.request.log.failure = "missing-data";
  throw notFound();
}

/** A published page's data, or the site's home (`page: null` when none is published yet). Throws the 404s. */
export async function loadPublicPage(
  request: Request,
  context: AppLoadContext,
  siteSlug: string | undefined,
  pageSlug: string | null,
) {
  context.request.log.callerType = "public";
  const { db } = context.services;
  const site = await resolveSiteBySlug(db, siteSlug);
  if (!site) {
    context.request.log.failure = "missing-data";
    throw notFound();
  }
  const { workspace } = site;
  const [found, resolved] = await Promise.all([
    publishedPage(db, workspace.id, pageSlug === null ? { home: true } : { slug: pageSlug }),
    publicAddressOf(request, context, workspace),
  ]);
  // An unpublished or unknown page, or the home page asked for by its slug (it lives at `/{site}`).
  if (pageSlug !== null && (!found || found.isHome)) {
    // With a lifetime: a 301 without one is kept by browsers for ever, and tomorrow another page may be the
    // home page and this address a page again. The query (a campaign's utm_* tags) goes along.
    if (found?.isHome)
      throw new Response(null, {
        status: 301,
        headers: {
          Location: `${atBase(resolved.base)}${new URL(request.url).search}`,
          "Cache-Control": REDIRECT_CACHE,
        },
      });
    // No page answers: a redirect the operator set up from this address (discovery, ADR 021) may.
    const moved = await redirectFor(db, workspace.id, `/${pageSlug}`);
    if (moved)
      throw new Response(null, {
        status: moved.status,
        headers: {
          Location: redirectLocation(moved.target, workspace.slug, resolved.base, new URL(request.url).search),
          "Cache-Control": REDIRECT_CACHE,
        },
      });
    context.request.log.failure = "missing-data";
    throw notFound();
  }
  // Discovery's part of the head: the page's search settings and translations, at the site's final address.
  const discovery = await discoverySettingsOf(db, workspace.id);
  const address = {
    origin: resolved.origin,
    base: resolved.finalBase,
    fromRequest: resolved.fromRequest,
  };
  const seo = found
    ? await headSeoOf(db, workspace, found.id, address, discovery)
    : discovery.noindex
      ? { title: null, description: null, canonical: null, noindex: true, locale: null, alternates: [] }
      : null;
  const images = found ? await imagesOf(db, workspace.id, resolved.base, found.content.blocks) : {};
  const firstImageId = found?.content.blocks.flatMap((b) =>
    b.type === "hero" || b.type === "image" ? (b.imageId ? [b.imageId] : []) : b.type === "gallery" ? b.imageIds : [],
  )[0];
  const shareImage = (firstImageId && images[firstImageId]) || null;
  const body: PublicPageData = {
    siteName: workspace.name,
    siteSlug: workspace.slug,
    base: resolved.base,
    origin: resolved.origin,
    path: atBase(resolved.finalBase, found ? pageSitePath(found) : ""),
    homeUrl: `${resolved.origin}${atBase(resolved.finalBase)}`,
    page: found
      ? {
          id: found.id,
          title: found.content.title,
          description: found.content.description,
          content: found.content,
          publishedAt: found.publishedAt,
        }
      : null,
    images,
    // At the final address, absolute: it is only used in Open Graph tags.
    shareImage: shareImage
      ? { ...shareImage, src: `${resolved.origin}${resolved.finalBase}${shareImage.src.slice(resolved.base.length)}` }
      : null,
    seo,
  };
  // Its own tags, merged with the layout's by the route (ADR 026): the page; on the home address also the
  // list of pages, as which page is home (or the welcome, while none is published) changes with it.
  const tags = pageOwnTags(workspace.id, found?.id ?? null, pageSlug === null);
  return data(body, {
    // Also without PUBLIC_URL: the request's own origin, which the answer then names, is part of the cache's key.
    headers: publicCacheHeaders({ tags }),
  });
}
