// /{site}/cart — the visitor's cart (ADR 030): its lines with the server's current prices and stock, quantities
// to change, a coupon, the totals with tax (estimated for the business's country until an address is given), and
// the way to checkout. POST `intent=add` (from a product page) starts the cart and its cookie when there is none.
// Never cached: it is this visitor's.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { siteOfPath } from "~/modules/access/site.server";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { Quantity, cartForWriting, cartOfRequest, cartsOf } from "~/modules/commerce/cart.server";
import { quoteOfCart } from "~/modules/commerce/quote.server";
import { readCustomerSession } from "~/modules/customers/sessions.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { mediaOf } from "~/modules/files/media.server";
import { linkBase } from "~/modules/sites/address.server";
import { publicImage } from "~/modules/sites/pages.server";
import { profileOf } from "~/modules/sites/profile.server";
import { invalid } from "~/lib/errors";
import { formatMoney } from "~/modules/commerce/money";
import { withSiteChrome, SITE_LAYOUT_ID, type SiteChrome } from "~/site/chrome";
import { FormNotice } from "~/site/portal";
import { TotalsSummary, taxLabelOf } from "~/site/shop/summary";
import type { RouteHandle } from "~/ui/handle";
import shopCss from "~/styles/site-shop.css?url";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: portalCss },
  { rel: "stylesheet", href: shopCss },
];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await siteOfPath(context.services.db, params.site);
  const { db } = context.services;
  const base = linkBase(context, site.workspace.slug);
  const [cart, profile] = await Promise.all([
    cartOfRequest(request, context, site.workspace),
    profileOf(db, site.workspace.id).get(),
  ]);
  const live = cart && !cart.orderId ? cart : null;
  const quote = live
    ? await quoteOfCart(db, site.workspace.id, live, { fallbackCountry: profile.address.country || null })
    : null;
  const images = quote
    ? await mediaOf(db, site.workspace.id).byIds(quote.lines.flatMap((l) => (l.imageFileId ? [l.imageFileId] : [])))
    : new Map();
  // Shown once: the customer has now seen the new prices, which the next visit takes as known.
  const changed = quote?.problems.filter((p) => p.code === "price_changed") ?? [];
  if (live && changed.length)
    await cartsOf(db, site.workspace.id).acknowledgePrices(
      live.id,
      changed.map((p) => ({ variantId: p.variantId!, price: p.price! })),
    );
  const gone = live ? live.lines.filter((l) => !quote!.lines.some((q) => q.variantId === l.variantId)) : [];
  return data(
    {
      base,
      currency: quote?.currency ?? profile.currency,
      quote: quote && {
        lines: quote.lines.map((l) => {
          const item = l.imageFileId ? images.get(l.imageFileId) : undefined;
          return { ...l, image: item ? publicImage(base, item, 320) : null };
        }),
        totals: quote.totals,
        pricesIncludeTax: quote.pricesIncludeTax,
        coupon: quote.coupon?.code ?? null,
        couponAsked: live?.couponCode ?? null,
        taxLabel: taxLabelOf(quote.taxRate),
        estimated: quote.estimated,
        problems: quote.problems,
        ready: quote.problems.every((p) => !p.blocking) && quote.lines.length > 0,
      },
      gone: gone.map((l) => ({ variantId: l.variantId, title: l.title })),
    },
    { headers: PRIVATE },
  );
});

export const action = page("public", async ({ request, params, context }: ActionFunctionArgs) => {
  assertSameOrigin(request, context);
  const site = await siteOfPath(context.services.db, params.site);
  const base = linkBase(context, site.workspace.slug);
  const carts = cartsOf(context.services.db, site.workspace.id);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    const back = (cookie: string | null = null) =>
      redirect(`${base}/cart`, { status: 303, headers: { ...PRIVATE, ...(cookie ? { "Set-Cookie": cookie } : {}) } });
    if (values.intent === "add") {
      const session = await readCustomerSession(context, request, site.workspace);
      const quantity = Quantity.safeParse(values.quantity ?? "1");
      if (!quantity.success || quantity.data < 1)
        throw invalid("Choose a quantity from 1 to 999", [
          { field: "quantity", message: "Choose a quantity from 1 to 999" },
        ]);
      if (!values.variant)
        throw invalid("Choose an option first", [{ field: "variant", message: "Choose an option first" }]);
      const { cart, setCookie } = await cartForWriting(request, context, site.workspace, session?.customer.id ?? null);
      await carts.add(cart.id, values.variant, quantity.data);
      return back(setCookie);
    }
    const cart = await cartOfRequest(request, context, site.workspace);
    if (!cart || cart.orderId) return back();
    if (values.intent === "update") {
      for (const line of cart.lines) {
        const asked = values[`qty.${line.variantId}`];
        if (asked === undefined) continue;
        const quantity = Quantity.safeParse(asked);
        if (!quantity.success)
          throw invalid(`Check the quantity of “${line.title}”`, [
            { field: `qty.${line.variantId}`, message: quantity.error.issues[0]!.message },
          ]);
        if (quantity.data !== line.quantity) await carts.setQuantity(cart.id, line.variantId, quantity.data);
      }
      return back();
    }
    if (values.intent === "remove") {
      await carts.setQuantity(cart.id, values.variant ?? "", 0);
      return back();
    }
    if (values.intent === "coupon") {
      const code = (values.code ?? "").trim().slice(0, 40);
      await carts.update(cart.id, { couponCode: code || null });
      return back();
    }
    if (values.intent === "remove-coupon") {
      await carts.update(cart.id, { couponCode: null });
      return back();
    }
    throw invalid("Unknown action");
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Cart · ${chrome.name}` : "Cart" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function CartPage() {
  const { base, currency, quote, gone } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const money = (n: number) => formatMoney(n, currency);
  const empty = !quote || (quote.lines.length === 0 && gone.length === 0);
  const problemOf = (variantId: string) => quote?.problems.filter((p) => p.variantId === variantId) ?? [];
  const couponProblem = quote?.problems.find((p) => p.field === "couponCode");
  return (
    <section className="site-section shop-cart">
      <div className="site-container">
        <h1>Your cart</h1>
        <FormNotice result={result} />
        {empty ? (
          <div className="portal-empty">
            <p>Your cart is empty.</p>
            <p>
              <a className="site-button" href={`${base}/shop`}>
                Browse the shop
              </a>
            </p>
          </div>
        ) : (
          <div className="shop-cart__layout">
            <div>
              {gone.length > 0 ? (
                <ul className="site-notice shop-gone" aria-label="No longer available">
                  {gone.map((g) => (
                    <li key={g.variantId}>
                      <span>“{g.title}” is no longer available.</span>
                      <form method="post">
                        <input type="hidden" name="variant" value={g.variantId} />
                        <button type="submit" name="intent" value="remove" className="portal__link-button">
                          Remove it
                        </button>
                      </form>
                    </li>
                  ))}
                </ul>
              ) : null}
              <form method="post" id="cart-lines">
                <ul className="shop-lines" aria-label="Items in your cart">
                  {quote.lines.map((line) => (
                    <li key={line.variantId} className="shop-line">
                      <div className="shop-line__media">
                        {line.image ? (
                          <img
                            src={line.image.src}
                            alt=""
                            width={line.image.width ?? undefined}
                            height={line.image.height ?? undefined}
                          />
                        ) : (
                          <span aria-hidden="true">{line.title.slice(0, 1)}</span>
                        )}
                      </div>
                      <div className="shop-line__info">
                        <a href={`${base}/shop/${line.productSlug}`} className="shop-line__title">
                          {line.title}
                        </a>
                        {line.variantTitle ? <span className="portal-muted">{line.variantTitle}</span> : null}
                        <span className="portal-muted">{money(line.unitPrice)} each</span>
                        {problemOf(line.variantId).map((p) => (
                          <span
                            key={p.code}
                            className={p.blocking ? "site-error" : "shop-line__note"}
                            role={p.blocking ? "alert" : undefined}
                          >
                            {p.message}
                          </span>
                        ))}
                      </div>
                      <label className="shop-line__qty">
                        <span className="visually-hidden">
                          Quantity of {line.title} {line.variantTitle}
                        </span>
                        <input
                          className="site-input"
                          type="number"
                          name={`qty.${line.variantId}`}
                          defaultValue={line.quantity}
                          min={0}
                          max={999}
                          inputMode="numeric"
                        />
                      </label>
                      <span className="shop-line__total">{money(line.subtotal)}</span>
                      <button
                        type="submit"
                        form={`remove-${line.variantId}`}
                        className="portal__link-button shop-line__remove"
                      >
                        Remove<span className="visually-hidden"> {line.title}</span>
                      </button>
                    </li>
                  ))}
                </ul>
                <input type="hidden" name="intent" value="update" />
                <button type="submit" className="site-button site-button--secondary">
                  Update quantities
                </button>
              </form>
              {quote.lines.map((line) => (
                <form key={line.variantId} method="post" id={`remove-${line.variantId}`} hidden>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="variant" value={line.variantId} />
                </form>
              ))}
            </div>
            <aside className="shop-cart__summary" aria-label="Order summary">
              <h2>Summary</h2>
              <form method="post" className="shop-coupon">
                <label className="site-label" htmlFor="coupon-code">
                  Discount code
                </label>
                <div className="shop-coupon__row">
                  <input
                    id="coupon-code"
                    className="site-input"
                    name="code"
                    defaultValue={quote.couponAsked ?? ""}
                    autoComplete="off"
                    aria-invalid={couponProblem ? true : undefined}
                    aria-describedby={couponProblem ? "coupon-error" : undefined}
                  />
                  <button type="submit" name="intent" value="coupon" className="site-button site-button--secondary">
                    Apply
                  </button>
                </div>
                {couponProblem ? (
                  <p className="site-error" id="coupon-error">
                    {couponProblem.message}{" "}
                    <button type="submit" name="intent" value="remove-coupon" className="portal__link-button">
                      Remove the code
                    </button>
                  </p>
                ) : quote.coupon ? (
                  <p className="shop-ok">Code {quote.coupon} applied.</p>
                ) : null}
              </form>
              <TotalsSummary
                totals={quote.totals}
                currency={currency}
                pricesIncludeTax={quote.pricesIncludeTax}
                couponCode={quote.coupon}
                taxLabel={quote.taxLabel}
                shippingLabel={null}
              />
              {quote.estimated && quote.totals.tax > 0 ? (
                <p className="portal-muted">Tax is estimated until you give your address.</p>
              ) : null}
              {quote.ready ? (
                <a className="site-button shop-cart__checkout" href={`${base}/checkout`}>
                  Check out
                </a>
              ) : (
                <p className="site-error">Fix the items marked above to check out.</p>
              )}
              <a href={`${base}/shop`} className="shop-cart__continue">
                Continue shopping
              </a>
            </aside>
          </div>
        )}
      </div>
    </section>
  );
}
