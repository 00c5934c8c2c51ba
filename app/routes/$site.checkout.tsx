// /{site}/checkout — from cart to order (ADR 030) in two steps on one page, without JavaScript: who you are and
// where it goes (a signed-in customer's details filled in; a guest may sign in or go on as a guest), then the
// delivery option and the way to pay, with the totals recomputed by the server at each step and again when the
// order is placed. Placing it answers the order's page (a guest gets a manage cookie for it); a refusal (sold
// out meanwhile, a coupon used up) is shown here with nothing taken.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { parseForm, runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { manageCookie } from "~/modules/access/customer.server";
import { siteOfPath } from "~/modules/access/site.server";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { Address, cartOfRequest, cartsOf } from "~/modules/commerce/cart.server";
import { Contact, placeOrder } from "~/modules/commerce/checkout.server";
import { formatMoney } from "~/modules/commerce/money";
import { countryName, isHosted } from "~/modules/commerce/vocabulary";
import { paymentMethods, paymentSetupOf } from "~/modules/commerce/payments.server";
import { hostedCheckoutFor } from "~/modules/commerce/hosted-checkout.server";
import { quoteOfCart } from "~/modules/commerce/quote.server";
import { issueManageToken } from "~/modules/customers/manage-tokens.server";
import { GUEST_ORDER_LINK_DAYS } from "~/modules/commerce/notify.server";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { readCustomerSession } from "~/modules/customers/sessions.server";
import { linkBase } from "~/modules/sites/address.server";
import { countryList, profileOf } from "~/modules/sites/profile.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { Field, FormNotice } from "~/site/portal";
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
  const cart = await cartOfRequest(request, context, site.workspace);
  if (!cart || cart.lines.length === 0) throw redirect(`${base}/cart`, { status: 303, headers: PRIVATE });
  if (cart.orderId) throw redirect(`${base}/orders/${cart.orderId}`, { status: 303, headers: PRIVATE });
  const [session, profile, setup] = await Promise.all([
    readCustomerSession(context, request, site.workspace),
    profileOf(db, site.workspace.id).get(),
    paymentSetupOf(db, site.workspace.id),
  ]);
  const customer = session?.customer ?? null;
  const quote = await quoteOfCart(db, site.workspace.id, cart, {
    fallbackCountry: profile.address.country || null,
    buyer: customer ? `customer:${customer.id}` : cart.email ? `email:${cart.email}` : null,
    withShipping: true,
  });
  const pickupOnly = cart.address === null && cart.shippingRateId !== null;
  const detailsDone = !!cart.email && !!cart.name && (!quote.requiresShipping || cart.address !== null || pickupOnly);
  return data(
    {
      base,
      currency: quote.currency,
      signedIn: customer ? { email: customer.email, name: customer.name } : null,
      contact: {
        email: cart.email ?? customer?.email ?? "",
        name: cart.name ?? customer?.name ?? "",
        phone: cart.phone ?? customer?.phone ?? "",
      },
      address: cart.address,
      defaultCountry: cart.address?.country ?? profile.address.country ?? "",
      countries: countryList(),
      detailsDone,
      requiresShipping: quote.requiresShipping,
      hasPickup: quote.rates.some((r) => r.kind === "pickup"),
      rates: quote.rates.map((r) => ({
        id: r.id,
        name: r.name,
        kind: r.kind,
        amount: r.amount,
        instructions: r.instructions,
      })),
      shippingRateId: quote.shippingRate?.id ?? null,
      methods: paymentMethods(setup),
      paymentMethod: cart.paymentMethod,
      lines: quote.lines.map((l) => ({
        variantId: l.variantId,
        title: l.title,
        variantTitle: l.variantTitle,
        quantity: l.quantity,
        subtotal: l.subtotal,
      })),
      totals: quote.totals,
      pricesIncludeTax: quote.pricesIncludeTax,
      coupon: quote.coupon?.code ?? null,
      taxLabel: taxLabelOf(quote.taxRate),
      problems: quote.problems.filter((p) => p.blocking),
    },
    { headers: PRIVATE },
  );
});

const Details = z.object({ collect: z.enum(["on"]).optional() }).passthrough();

export const action = page("public", async ({ request, params, context }: ActionFunctionArgs) => {
  assertSameOrigin(request, context);
  const site = await siteOfPath(context.services.db, params.site);
  const { db } = context.services;
  const base = linkBase(context, site.workspace.slug);
  const cart = await cartOfRequest(request, context, site.workspace);
  if (!cart || cart.lines.length === 0) return redirect(`${base}/cart`, { status: 303, headers: PRIVATE });
  if (cart.orderId) return redirect(`${base}/orders/${cart.orderId}`, { status: 303, headers: PRIVATE });
  const carts = cartsOf(db, site.workspace.id);
  const session = await readCustomerSession(context, request, site.workspace);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    const again = () => redirect(`${base}/checkout`, { status: 303, headers: PRIVATE });
    if (values.intent === "details") {
      const contact = parseForm(Contact, values);
      const collect = Details.parse(values).collect === "on";
      let address: Address | null = null;
      if (!collect) {
        const parsed = Address.safeParse({
          line1: values["address.line1"],
          line2: values["address.line2"],
          city: values["address.city"],
          postalCode: values["address.postalCode"],
          region: values["address.region"],
          country: values["address.country"],
        });
        if (!parsed.success)
          throw invalid(
            "Check the delivery address",
            parsed.error.issues.map((i) => ({ field: `address.${String(i.path[0])}`, message: i.message })),
          );
        address = parsed.data;
      }
      await carts.update(cart.id, {
        email: contact.email,
        name: contact.name,
        phone: contact.phone || null,
        address,
        shippingRateId: null,
        customerId: session?.customer.id ?? null,
      });
      if (collect) {
        const pickup = (
          await quoteOfCart(db, site.workspace.id, { ...cart, address: null }, { fallbackCountry: null })
        ).rates.find((r) => r.kind === "pickup");
        if (pickup) await carts.update(cart.id, { shippingRateId: pickup.id });
      }
      return again();
    }
    if (values.intent === "edit") {
      await carts.update(cart.id, { address: null, shippingRateId: null, email: null });
      return again();
    }
    if (values.intent === "delivery") {
      if (!values.shippingRateId)
        throw invalid("Choose how it reaches you", [{ field: "shippingRateId", message: "Choose a delivery option" }]);
      await carts.update(cart.id, { shippingRateId: values.shippingRateId });
      return again();
    }
    if (values.intent === "change-delivery") {
      await carts.update(cart.id, { shippingRateId: null });
      return again();
    }
    if (values.intent === "place") {
      // Delivery is the one the customer chose in its step (and saw in the total); payment is chosen here.
      const shippingRateId = cart.shippingRateId;
      const paymentMethod = values.paymentMethod ?? "";
      await carts.update(cart.id, { paymentMethod });
      // A refusal (sold out meanwhile, a coupon used up) is a 409 that runForm shows above the form.
      const { order } = await placeOrder(db, site.workspace.id, {
        cartId: cart.id,
        contact: { email: cart.email ?? "", name: cart.name ?? "", phone: cart.phone ?? "" },
        address: cart.address,
        shippingRateId,
        paymentMethod,
        customerId: session?.customer.id ?? null,
        origin: await mailOrigin(request, context),
      });
      const headers: Record<string, string> = { ...PRIVATE };
      if (!session) {
        // The guest sees their order at once, as the e-mailed link would show it.
        const token = await issueManageToken(db, site.workspace.id, {
          subjectType: "order",
          subjectId: order.id,
          actions: ["view", "cancel"],
          email: order.email,
          days: GUEST_ORDER_LINK_DAYS,
        });
        headers["Set-Cookie"] = manageCookie(context, site.workspace.slug, token);
      }
      const placedAt = `${base}/orders/${order.id}?placed=1`;
      if (isHosted(order.paymentProvider) && order.status === "pending") {
        // Straight to the provider's page; if it cannot open it now, the order's page says so and offers "Pay".
        const origin = await mailOrigin(request, context);
        const url = await hostedCheckoutFor(context.services, site.workspace.id, order, {
          orderUrl: `${origin}${base}/orders/${order.id}`,
          cancelUrl: `${origin}${placedAt}`,
          origin,
          site: site.workspace.slug,
          brand: site.workspace.name,
        }).catch((error: unknown) => {
          context.services.logger.warn({ err: error, order: order.id }, "the provider's checkout could not be opened");
          return null;
        });
        if (url) return redirect(url, { status: 303, headers });
      }
      return redirect(placedAt, { status: 303, headers });
    }
    throw invalid("Unknown action");
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [
    { title: chrome ? `Checkout · ${chrome.name}` : "Checkout" },
    { name: "robots", content: "noindex, nofollow" },
  ];
};
export const meta = withSiteChrome(ownMeta);

export default function Checkout() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.fieldErrors ?? {};
  const money = (n: number) => formatMoney(n, d.currency);
  const chosenRate = d.rates.find((r) => r.id === d.shippingRateId);
  // Without an address only pickup can be chosen.
  const offered = d.rates.filter((r) => (d.address ? true : r.kind === "pickup"));
  return (
    <section className="site-section checkout">
      <div className="site-container">
        <h1>Checkout</h1>
        <FormNotice result={result} />
        {d.problems.length > 0 ? (
          <div className="portal-notice portal-notice--error" role="alert">
            {d.problems.map((p) => (
              <p key={`${p.code}-${p.variantId ?? p.field}`}>{p.message}</p>
            ))}
            <a href={`${d.base}/cart`}>Back to the cart</a>
          </div>
        ) : null}
        <div className="checkout__layout">
          <div className="checkout__steps">
            <section className="checkout__step" aria-labelledby="checkout-details">
              <h2 id="checkout-details">1. Your details</h2>
              {d.detailsDone ? (
                <div className="checkout__done">
                  <p>
                    {d.contact.name} · {d.contact.email}
                    {d.address ? (
                      <>
                        <br />
                        {d.address.line1}, {d.address.postalCode} {d.address.city}, {countryName(d.address.country)}
                      </>
                    ) : (
                      <>
                        <br />
                        You collect it
                      </>
                    )}
                  </p>
                  <form method="post">
                    <button type="submit" name="intent" value="edit" className="portal__link-button">
                      Change
                    </button>
                  </form>
                </div>
              ) : (
                <form method="post" noValidate>
                  {d.signedIn ? (
                    <p className="portal-muted">Signed in as {d.signedIn.email}.</p>
                  ) : (
                    <p className="portal-muted">
                      Have an account?{" "}
                      <a href={`${d.base}/login?${new URLSearchParams({ next: `${d.base}/checkout` })}`}>Sign in</a> to
                      see this order in it later — or go on as a guest.
                    </p>
                  )}
                  <div className="checkout__grid">
                    <Field label="E-mail" name="email" error={errors.email} hint="Your confirmation goes here.">
                      {(p) => (
                        <input {...p} type="email" autoComplete="email" defaultValue={d.contact.email} required />
                      )}
                    </Field>
                    <Field label="Full name" name="name" error={errors.name}>
                      {(p) => <input {...p} autoComplete="name" defaultValue={d.contact.name} required />}
                    </Field>
                    <Field label="Phone (optional)" name="phone" error={errors.phone}>
                      {(p) => <input {...p} type="tel" autoComplete="tel" defaultValue={d.contact.phone} />}
                    </Field>
                  </div>
                  {d.requiresShipping ? (
                    <fieldset className="checkout__choices">
                      <legend>Delivery address</legend>
                      {d.hasPickup ? (
                        <label className="checkout__choice">
                          <input type="checkbox" name="collect" value="on" />
                          <span className="checkout__choice-name">I will collect it</span>
                          <span className="checkout__choice-detail">No address needed.</span>
                        </label>
                      ) : null}
                      <div className="checkout__grid">
                        <div className="checkout__wide">
                          <Field label="Street and number" name="address.line1" error={errors["address.line1"]}>
                            {(p) => <input {...p} autoComplete="address-line1" defaultValue={d.address?.line1 ?? ""} />}
                          </Field>
                        </div>
                        <div className="checkout__wide">
                          <Field
                            label="Apartment, floor (optional)"
                            name="address.line2"
                            error={errors["address.line2"]}
                          >
                            {(p) => <input {...p} autoComplete="address-line2" defaultValue={d.address?.line2 ?? ""} />}
                          </Field>
                        </div>
                        <Field label="Postal code" name="address.postalCode" error={errors["address.postalCode"]}>
                          {(p) => (
                            <input {...p} autoComplete="postal-code" defaultValue={d.address?.postalCode ?? ""} />
                          )}
                        </Field>
                        <Field label="Town or city" name="address.city" error={errors["address.city"]}>
                          {(p) => <input {...p} autoComplete="address-level2" defaultValue={d.address?.city ?? ""} />}
                        </Field>
                        <Field label="State or region (if any)" name="address.region" error={errors["address.region"]}>
                          {(p) => <input {...p} autoComplete="address-level1" defaultValue={d.address?.region ?? ""} />}
                        </Field>
                        <Field label="Country" name="address.country" error={errors["address.country"]}>
                          {(p) => (
                            <select {...p} autoComplete="country" defaultValue={d.defaultCountry}>
                              <option value="">Choose…</option>
                              {d.countries.map((c) => (
                                <option key={c.code} value={c.code}>
                                  {c.name}
                                </option>
                              ))}
                            </select>
                          )}
                        </Field>
                      </div>
                    </fieldset>
                  ) : null}
                  <button type="submit" name="intent" value="details" className="site-button">
                    Continue
                  </button>
                </form>
              )}
            </section>

            {d.requiresShipping ? (
              <section className="checkout__step" aria-labelledby="checkout-delivery">
                <h2 id="checkout-delivery">2. Delivery</h2>
                {!d.detailsDone ? (
                  <p className="portal-muted">First tell us where it goes.</p>
                ) : chosenRate ? (
                  <div className="checkout__done">
                    <p>
                      {chosenRate.name} · {chosenRate.amount === 0 ? "Free" : money(chosenRate.amount)}
                      {chosenRate.instructions ? (
                        <>
                          <br />
                          <span className="portal-muted">{chosenRate.instructions}</span>
                        </>
                      ) : null}
                    </p>
                    <form method="post">
                      <button type="submit" name="intent" value="change-delivery" className="portal__link-button">
                        Change
                      </button>
                    </form>
                  </div>
                ) : (
                  <form method="post">
                    <fieldset className="checkout__choices">
                      <legend className="visually-hidden">Delivery options</legend>
                      {offered.length === 0 ? (
                        <p className="site-error">
                          We do not deliver to this address yet. Change the address, or contact us.
                        </p>
                      ) : null}
                      {offered.map((r, i) => (
                        <label key={r.id} className="checkout__choice">
                          <input type="radio" name="shippingRateId" value={r.id} defaultChecked={i === 0} required />
                          <span className="checkout__choice-name">{r.name}</span>
                          <span>{r.amount === 0 ? "Free" : money(r.amount)}</span>
                          {r.instructions ? <span className="checkout__choice-detail">{r.instructions}</span> : null}
                        </label>
                      ))}
                    </fieldset>
                    {offered.length > 0 ? (
                      <button type="submit" name="intent" value="delivery" className="site-button">
                        Continue
                      </button>
                    ) : null}
                  </form>
                )}
              </section>
            ) : null}

            <section className="checkout__step" aria-labelledby="checkout-pay">
              <h2 id="checkout-pay">{d.requiresShipping ? "3." : "2."} Payment</h2>
              {!d.detailsDone || (d.requiresShipping && !chosenRate) ? (
                <p className="portal-muted">
                  {d.requiresShipping ? "First choose how it reaches you." : "First tell us who you are."}
                </p>
              ) : (
                <form method="post">
                  <fieldset className="checkout__choices">
                    <legend className="visually-hidden">How you pay</legend>
                    {d.methods.length === 0 ? (
                      <p className="site-error">This shop cannot take orders online yet.</p>
                    ) : null}
                    {d.methods.map((m, i) => (
                      <label key={m.id} className="checkout__choice">
                        <input
                          type="radio"
                          name="paymentMethod"
                          value={m.id}
                          defaultChecked={d.paymentMethod ? d.paymentMethod === m.id : i === 0}
                          required
                        />
                        <span className="checkout__choice-name">{m.label}</span>
                        <span />
                        <span className="checkout__choice-detail">{m.description}</span>
                      </label>
                    ))}
                  </fieldset>
                  <button
                    type="submit"
                    name="intent"
                    value="place"
                    className="site-button checkout__place"
                    disabled={d.methods.length === 0 || d.problems.length > 0}
                  >
                    {`Place order · ${money(d.totals.total)}`}
                  </button>
                  <p className="portal-muted">Nothing is charged now: you pay as the option you chose says.</p>
                </form>
              )}
            </section>
          </div>
          <aside className="checkout__summary" aria-label="Order summary">
            <h2>Your order</h2>
            <ul className="checkout__lines">
              {d.lines.map((l) => (
                <li key={l.variantId}>
                  <span>
                    {l.quantity} × {l.title}
                    {l.variantTitle ? ` (${l.variantTitle})` : ""}
                  </span>
                  <span>{money(l.subtotal)}</span>
                </li>
              ))}
            </ul>
            <TotalsSummary
              totals={d.totals}
              currency={d.currency}
              pricesIncludeTax={d.pricesIncludeTax}
              couponCode={d.coupon}
              taxLabel={d.taxLabel}
              shippingLabel={chosenRate ? chosenRate.name : d.requiresShipping ? null : "none needed"}
            />
            <a href={`${d.base}/cart`}>Edit the cart</a>
          </aside>
        </div>
      </div>
    </section>
  );
}
