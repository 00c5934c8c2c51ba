// /{site}/shop/{productSlug} — one product: its images, price, stock state and description, and a form that adds
// the chosen variant to the cart (a radio list of variants: works without JavaScript, each with its own price
// and stock). `?variant=` preselects one (the JSON-LD offers link to them). JSON-LD `Product` with an `Offer`
// per variant.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { resolveSiteBySlug } from "~/modules/access/site.server";
import { publicCacheHeaders } from "~/modules/cache/headers";
import { currencyDigits } from "~/modules/commerce/money";
import { productJsonLd, rememberedProductView } from "~/modules/commerce/storefront.server";
import { renderedToText } from "~/modules/sites/markdown.server";
import { mergeCacheHeaders, NOT_CACHEABLE, siteFrameTags } from "~/modules/sites/page-cache";
import { rememberedProfile } from "~/modules/sites/profile.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { withSiteChrome } from "~/site/chrome";
import { siteMeta } from "~/site/meta";
import type { StockState } from "~/modules/commerce/storefront.server";
import { type SubscriptionPlan, planPeriod } from "~/modules/commerce/vocabulary";
import { Price, STOCK_LABELS } from "~/site/shop/price";
import type { RouteHandle } from "~/ui/handle";
import shopCss from "~/styles/site-shop.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: shopCss }];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await resolveSiteBySlug(context.services.db, params.site);
  if (!site) throw new Response(null, { status: 404, statusText: "Not Found" });
  const address = await publicAddressOf(request, context, site.workspace);
  const [view, profile] = await Promise.all([
    rememberedProductView(context.services, site.workspace.id, address.base, params.productSlug ?? ""),
    rememberedProfile(context.services, site.workspace.id),
  ]);
  if (!view) {
    context.request.log.failure = "missing-data";
    throw new Response(null, { status: 404, statusText: "Not Found" });
  }
  const asked = new URL(request.url).searchParams.get("variant");
  const buyable = view.variants.find((v) => v.state !== "sold_out");
  const selected = view.variants.find((v) => v.id === asked) ?? buyable ?? view.variants[0]!;
  const path = `/shop/${view.product.slug}`;
  const url = `${address.origin}${address.finalBase}${path}`;
  const description =
    view.product.seoDescription ||
    renderedToText(view.product.descriptionHtml, 160) ||
    `${view.product.title} from ${site.workspace.name}.`;
  return data(
    {
      name: site.workspace.name,
      base: address.base,
      origin: address.origin,
      finalBase: address.finalBase,
      path,
      currency: profile.currency,
      description,
      product: {
        id: view.product.id,
        title: view.product.title,
        seoTitle: view.product.seoTitle,
        descriptionHtml: view.product.descriptionHtml,
        options: view.product.options,
        vendor: view.product.vendor,
        subscription: view.product.subscription,
      },
      variants: view.variants.map((v) => ({
        id: v.id,
        title: v.title,
        price: v.price,
        compareAtPrice: v.compareAtPrice,
        state: v.state,
        available: v.available,
      })),
      images: view.images,
      selectedId: selected.id,
      jsonLd: productJsonLd(
        { ...view, product: { ...view.product, seoDescription: description } },
        url,
        profile.currency,
        currencyDigits(profile.currency),
        address.origin,
        site.workspace.name,
      ),
    },
    {
      headers: publicCacheHeaders({
        tags: [...siteFrameTags(site.workspace.id), ...view.tags],
        varyQuery: ["variant"],
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
        title: data.product.seoTitle || data.product.title,
        description: data.description,
        image: data.images[0]
          ? {
              url: data.images[0].src,
              width: data.images[0].width,
              height: data.images[0].height,
              alt: data.images[0].alt,
            }
          : null,
        jsonLd: [data.jsonLd],
      })
    : [];
export const meta = withSiteChrome(ownMeta);

export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

/** "/ month", "every 2 weeks": beside a subscription's price. */
const planPer = (plan: SubscriptionPlan) => (plan.every === 1 ? `/ ${plan.interval}` : `every ${planPeriod(plan)}`);

/**
 * A subscription product's "Subscribe": a GET to the billing page, which asks a visitor to sign in first and then
 * shows the plan before Stripe's page. The same for every visitor, so the product page stays cacheable.
 */
function SubscribeForm(props: {
  base: string;
  plan: SubscriptionPlan;
  variants: Array<{ id: string; title: string; price: number; compareAtPrice: number | null; state: StockState }>;
  selectedId: string;
  legend: string;
  currency: string;
}) {
  const { plan, variants } = props;
  const allSoldOut = variants.every((v) => v.state === "sold_out");
  return (
    <form method="get" action={`${props.base}/billing`} className="product__buy product__subscribe">
      <p className="product__plan">
        {plan.trialDays > 0 ? `${plan.trialDays}-day free trial, then charged` : "Charged"} every {planPeriod(plan)}.
        Cancel any time from your account.
      </p>
      {variants.length === 1 ? (
        <input type="hidden" name="subscribe" value={props.selectedId} />
      ) : (
        <fieldset className="product__variants">
          <legend>{props.legend}</legend>
          {variants.map((v) => (
            <label key={v.id} className="product__variant">
              <input
                type="radio"
                name="subscribe"
                value={v.id}
                defaultChecked={v.id === props.selectedId}
                disabled={v.state === "sold_out"}
                required
              />
              <span className="product__variant-name">{v.title}</span>
              <span>
                <Price amount={v.price} compareAt={v.compareAtPrice} currency={props.currency} /> {planPer(plan)}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="product__add">
        <button type="submit" className="site-button" disabled={allSoldOut}>
          {allSoldOut ? "Sold out" : "Subscribe"}
        </button>
      </div>
    </form>
  );
}

export default function ProductPage() {
  const d = useLoaderData<typeof loader>();
  const selected = d.variants.find((v) => v.id === d.selectedId)!;
  const single = d.variants.length === 1;
  const allSoldOut = d.variants.every((v) => v.state === "sold_out");
  const [main, ...more] = d.images;
  const plan = d.product.subscription;
  return (
    <section className="site-section product">
      <div className="site-container product__layout">
        <div className="product__gallery">
          {main ? (
            <img
              className="product__image"
              src={main.src}
              srcSet={main.srcSet}
              sizes="(min-width: 60rem) 36rem, 92vw"
              width={main.width ?? undefined}
              height={main.height ?? undefined}
              alt={main.alt}
            />
          ) : (
            <div className="product__image product__image--empty" aria-hidden="true">
              {d.product.title.slice(0, 1)}
            </div>
          )}
          {more.length > 0 ? (
            <ul className="product__thumbs">
              {more.map((image) => (
                <li key={image.src}>
                  <img
                    src={image.src}
                    srcSet={image.srcSet}
                    sizes="8rem"
                    width={image.width ?? undefined}
                    height={image.height ?? undefined}
                    alt={image.alt}
                    loading="lazy"
                  />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="product__info">
          <p className="product__crumbs">
            <a href={`${d.base}/shop`}>Shop</a>
          </p>
          {d.product.vendor ? <p className="product__vendor">{d.product.vendor}</p> : null}
          <h1 className="product__title">{d.product.title}</h1>
          {single ? (
            <p className="product__price">
              <Price amount={selected.price} compareAt={selected.compareAtPrice} currency={d.currency} />
              {plan ? <span className="product__per"> {planPer(plan)}</span> : null}
            </p>
          ) : null}
          {plan ? (
            <SubscribeForm
              base={d.base}
              plan={plan}
              variants={d.variants}
              selectedId={selected.id}
              legend={d.product.options.map((o) => o.name).join(" / ") || "Choose"}
              currency={d.currency}
            />
          ) : (
            <form method="post" action={`${d.base}/cart`} className="product__buy">
              <input type="hidden" name="intent" value="add" />
              {single ? (
                <>
                  <input type="hidden" name="variant" value={selected.id} />
                  <p className={`shop-stock shop-stock--${selected.state}`}>{STOCK_LABELS[selected.state]}</p>
                </>
              ) : (
                <fieldset className="product__variants">
                  <legend>{d.product.options.map((o) => o.name).join(" / ") || "Choose"}</legend>
                  {d.variants.map((v) => (
                    <label key={v.id} className="product__variant">
                      <input
                        type="radio"
                        name="variant"
                        value={v.id}
                        defaultChecked={v.id === selected.id}
                        disabled={v.state === "sold_out"}
                        required
                      />
                      <span className="product__variant-name">{v.title}</span>
                      <Price amount={v.price} compareAt={v.compareAtPrice} currency={d.currency} />
                      <span className={`shop-stock shop-stock--${v.state}`}>{STOCK_LABELS[v.state]}</span>
                    </label>
                  ))}
                </fieldset>
              )}
              <div className="product__add">
                <label className="product__qty">
                  <span>Quantity</span>
                  <input
                    className="site-input"
                    type="number"
                    name="quantity"
                    defaultValue={1}
                    min={1}
                    max={selected.available ?? 999}
                    inputMode="numeric"
                    required
                  />
                </label>
                <button type="submit" className="site-button" disabled={allSoldOut}>
                  {allSoldOut ? "Sold out" : "Add to cart"}
                </button>
              </div>
            </form>
          )}
          {/* The same for every visitor (the page stays cacheable): one who is not signed in is asked to, then
              offered the save again (ADR 029). */}
          <form
            method="post"
            action={`${d.base}/saved?${new URLSearchParams({ save: `product:${d.product.id}` })}`}
            className="product__save"
          >
            <input type="hidden" name="intent" value="save" />
            <input type="hidden" name="kind" value="product" />
            <input type="hidden" name="ref" value={d.product.id} />
            <button type="submit" className="page-save__button">
              <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                <path
                  d="M6 3h12a1 1 0 0 1 1 1v17l-7-4-7 4V4a1 1 0 0 1 1-1Z"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                />
              </svg>
              Save for later
            </button>
          </form>
          {d.product.descriptionHtml ? (
            <div
              className="site-prose product__description"
              dangerouslySetInnerHTML={{ __html: d.product.descriptionHtml }}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
