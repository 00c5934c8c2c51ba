// /{site}/shop — the shop: its collections as filters, its active products as cards (newest first, or a
// collection's own order), 24 a page. `?collection=` and `?page=` are the only queries the cache keeps apart.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { resolveSiteBySlug } from "~/modules/access/site.server";
import { publicCacheHeaders } from "~/modules/cache/headers";
import { shopListing } from "~/modules/commerce/storefront.server";
import { mergeCacheHeaders, NOT_CACHEABLE, siteFrameTags } from "~/modules/sites/page-cache";
import { profileOf } from "~/modules/sites/profile.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { withSiteChrome } from "~/site/chrome";
import { siteMeta } from "~/site/meta";
import { Price } from "~/site/shop/price";
import type { RouteHandle } from "~/ui/handle";
import shopCss from "~/styles/site-shop.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: shopCss }];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await resolveSiteBySlug(context.services.db, params.site);
  if (!site) throw new Response(null, { status: 404, statusText: "Not Found" });
  const url = new URL(request.url);
  const pageNumber = Math.min(10_000, Math.max(1, Math.floor(Number(url.searchParams.get("page"))) || 1));
  const collectionSlug = url.searchParams.get("collection")?.slice(0, 100) || null;
  const address = await publicAddressOf(request, context, site.workspace);
  const [listing, profile] = await Promise.all([
    shopListing(context.services.db, site.workspace.id, address.base, { collectionSlug, page: pageNumber }),
    profileOf(context.services.db, site.workspace.id).get(),
  ]);
  if (listing.unknownCollection || (pageNumber > 1 && pageNumber > listing.pages)) {
    throw new Response(null, { status: 404, statusText: "Not Found" });
  }
  const path = `/shop${collectionSlug ? `?collection=${encodeURIComponent(collectionSlug)}` : ""}`;
  return data(
    {
      name: site.workspace.name,
      base: address.base,
      origin: address.origin,
      finalBase: address.finalBase,
      path,
      currency: profile.currency,
      page: pageNumber,
      ...listing,
    },
    {
      headers: publicCacheHeaders({
        tags: [...siteFrameTags(site.workspace.id), ...listing.tags],
        varyQuery: ["collection", "page"],
      }),
    },
  );
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? siteMeta({
        siteName: data.name,
        origin: data.origin,
        path: `${data.finalBase}${data.path}`,
        title: data.collection ? data.collection.title : "Shop",
        description: data.collection?.description || `Everything ${data.name} sells online: ${data.total} products.`,
        image: data.cards[0]?.image ? { url: data.cards[0].image.src, alt: data.cards[0].image.alt } : null,
      })
    : [];
export const meta = withSiteChrome(ownMeta);

export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

export default function Shop() {
  const d = useLoaderData<typeof loader>();
  const query = (next: Record<string, string | number | null>) => {
    const params = new URLSearchParams();
    const collection = "collection" in next ? next.collection : d.collection?.slug;
    if (collection) params.set("collection", String(collection));
    if (next.page && next.page !== 1) params.set("page", String(next.page));
    const text = params.toString();
    return `${d.base}/shop${text ? `?${text}` : ""}`;
  };
  return (
    <section className="site-section shop">
      <div className="site-container">
        <header className="shop__header">
          <h1>{d.collection ? d.collection.title : "Shop"}</h1>
          {d.collection?.description ? <p className="site-lead">{d.collection.description}</p> : null}
        </header>
        {d.collections.length > 0 ? (
          <nav className="shop-collections" aria-label="Collections">
            <a href={query({ collection: null })} aria-current={d.collection ? undefined : "page"}>
              All products
            </a>
            {d.collections.map((c) => (
              <a
                key={c.slug}
                href={query({ collection: c.slug })}
                aria-current={d.collection?.slug === c.slug ? "page" : undefined}
              >
                {c.title}
              </a>
            ))}
          </nav>
        ) : null}
        {d.cards.length === 0 ? (
          <p className="site-notice">
            {d.collection
              ? "Nothing in this collection yet."
              : `${d.name} has nothing for sale online yet. Please come back soon.`}
          </p>
        ) : (
          <ul className="shop-grid">
            {d.cards.map((c) => (
              <li key={c.id} className="shop-card">
                <a href={`${d.base}/shop/${c.slug}`} className="shop-card__link">
                  <div className="shop-card__media">
                    {c.image ? (
                      <img
                        src={c.image.src}
                        srcSet={c.image.srcSet}
                        sizes="(min-width: 60rem) 22rem, (min-width: 40rem) 45vw, 90vw"
                        width={c.image.width ?? undefined}
                        height={c.image.height ?? undefined}
                        alt=""
                        loading="lazy"
                      />
                    ) : (
                      <span className="shop-card__placeholder" aria-hidden="true">
                        {c.title.slice(0, 1)}
                      </span>
                    )}
                    {c.soldOut ? (
                      <span className="shop-badge">Sold out</span>
                    ) : c.compareAtPrice && c.compareAtPrice > c.price ? (
                      <span className="shop-badge shop-badge--sale">Sale</span>
                    ) : null}
                  </div>
                  <h2 className="shop-card__title">{c.title}</h2>
                  <Price amount={c.price} compareAt={c.compareAtPrice} currency={d.currency} from={c.priceVaries} />
                </a>
              </li>
            ))}
          </ul>
        )}
        {d.pages > 1 ? (
          <nav className="shop-pager" aria-label="Shop pages">
            {d.page > 1 ? (
              <a href={query({ page: d.page - 1 })} rel="prev">
                Previous
              </a>
            ) : (
              <span />
            )}
            <span>
              Page {d.page} of {d.pages}
            </span>
            {d.page < d.pages ? (
              <a href={query({ page: d.page + 1 })} rel="next">
                Next
              </a>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </div>
    </section>
  );
}
