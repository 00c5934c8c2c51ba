// /shop/orders/{id} — one order (ADR 030): what was bought, the totals, the customer and address, its timeline
// and payments, and what can be done next — mark it paid, send it (all or part), complete it, refund it (full or
// part) — with its carrier and tracking number, or a label bought through EasyPost (ADR 034) — follow its packages,
// complete it, refund it (full or part), cancel it, e-mail the confirmation again, print a packing slip
// (`?slip=1`). Every act is recorded on
// the timeline and in the audit log; editors act, every member reads.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney, moneyInput, parseMoney } from "~/modules/commerce/money";
import { invoicesOf } from "~/modules/commerce/invoices.server";
import { connectionStatesOf } from "~/modules/commerce/connections.server";
import { type LabelRate, buyLabel, labelRates } from "~/modules/commerce/easypost.server";
import { manualPackage, shipmentsOf } from "~/modules/commerce/shipments.server";
import { refundThroughProvider, releaseHostedCheckout } from "~/modules/commerce/hosted-checkout.server";
import { ordersOf } from "~/modules/commerce/orders.server";
import {
  CARRIERS,
  ORDER_STATUS_LABELS,
  PAYMENT_PROVIDER_NAMES,
  countryName,
  isHosted,
  providerName,
} from "~/modules/commerce/vocabulary";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { SHOP_TABS } from "~/console/shop";
import { ConfirmForm } from "~/ui/confirm-form";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { PackageList } from "~/ui/packages";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Order #${data.order.number}` : "Order"} · Atrium` },
];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const EVENT_LABELS: Record<string, string> = {
  placed: "Order placed",
  paid: "Marked as paid",
  partially_fulfilled: "Part sent",
  fulfilled: "Sent",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
  confirmation_resent: "Confirmation e-mailed again",
  late_payment_refunded: "A payment arrived after the order was released; refunded automatically",
  duplicate_payment_refunded: "A second payment arrived for this paid order; refunded automatically",
};

const PROVIDER_NAMES: Record<string, string> = { ...PAYMENT_PROVIDER_NAMES, manual: "recorded by hand" };

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const orders = ordersOf(db, workspace.id);
  const order = await orders.byId(params.orderId ?? "");
  const [lines, events, payments, profile, members, invoice] = await Promise.all([
    orders.linesOf(order.id),
    orders.eventsOf(order.id),
    orders.paymentsOf(order.id),
    profileOf(db, workspace.id).get(),
    db
      .selectFrom("users")
      .innerJoin("workspace_members as m", "m.user_id", "users.id")
      .select(["users.id", "users.email"])
      .where("m.workspace_id", "=", workspace.id)
      .execute(),
    invoicesOf(db, workspace.id).forOrder(order.id),
  ]);
  const [shipments, easypost, unsentGrams] = await Promise.all([
    shipmentsOf(db, workspace.id).ofOrder(order.id),
    connectionStatesOf(db, workspace.id).get("easypost"),
    orders.unsentWeightGrams(order.id),
  ]);
  const who = new Map(members.map((m) => [m.id, m.email]));
  const when = (iso: string) =>
    new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: profile.timeZone }).format(
      new Date(iso),
    );
  const money = (n: number) => formatMoney(n, order.currency);
  return {
    canEdit: roleAtLeast(role, "editor"),
    slip: new URL(request.url).searchParams.has("slip"),
    invoice: invoice && { number: invoice.number },
    done: new URL(request.url).searchParams.get("done"),
    business: { name: workspace.name, address: profile.address },
    order: { ...order, placed: when(order.createdAt) },
    money: {
      subtotal: money(order.subtotal),
      discount: money(order.discount),
      shipping: money(order.shipping),
      tax: money(order.tax),
      total: money(order.total),
      refunded: money(order.refunded),
      refundable: moneyInput(order.total - order.refunded, order.currency),
    },
    lines: lines.map((l) => ({ ...l, unit: money(l.unitPrice), amount: money(l.unitPrice * l.quantity) })),
    labels: easypost?.status === "connected",
    carriers: CARRIERS.map((c) => ({ id: c.id, name: c.name })),
    // The parcel's weight to start from: what is left to send, as the catalogue weighs it.
    unsentKg: String(Math.round(unsentGrams / 10) / 100 || ""),
    shipments: shipments.map((s) => ({
      ...s,
      sent: when(s.createdAt),
      cost: s.labelCost !== null && s.labelCurrency ? formatMoney(s.labelCost, s.labelCurrency) : null,
      steps: s.steps.map((t) => ({ ...t, at: when(t.occurredAt) })),
    })),
    events: events.map((e) => ({
      id: e.id,
      label:
        e.kind === "paid" && e.detail.provider === "stripe"
          ? "Paid by card through Stripe"
          : e.kind === "paid" && e.detail.provider === "paypal"
            ? "Paid through PayPal"
            : e.kind === "refunded" && !e.actorUserId && isHosted(order.paymentProvider)
              ? `Refunded in ${providerName(order.paymentProvider)}`
              : (EVENT_LABELS[e.kind] ?? e.kind),
      at: when(e.createdAt),
      by: e.actorUserId
        ? (who.get(e.actorUserId) ?? "A former member")
        : e.kind === "placed"
          ? "Customer"
          : e.kind === "cancelled" && e.detail.by === "system"
            ? "Automatically: no payment in time"
            : e.detail.by === "customer"
              ? "Customer"
              : null,
    })),
    payments: payments.map((p) => ({
      id: p.id,
      kind: p.kind,
      amount: money(p.amount),
      provider: p.provider,
      note: p.note,
      at: when(p.created_at),
    })),
    paymentLabel:
      order.paymentMethod === "manual:pay_on_pickup"
        ? "Pay on pickup"
        : order.paymentMethod === "manual:bank_transfer"
          ? "Bank transfer"
          : order.paymentMethod === "stripe:card"
            ? "Card (Stripe)"
            : order.paymentMethod === "paypal:wallet"
              ? "PayPal"
              : order.paymentMethod,
  };
});

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const orders = ordersOf(db, workspace.id);
  const id = params.orderId ?? "";
  const actor = session.user.id;
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    const origin = await publicOrigin(request, context);
    const order = await orders.byId(id);
    const done = (notice: string) => {
      context.services.jobRunner.wake();
      return redirect(`/shop/orders/${id}?done=${notice}`, 303);
    };
    switch (values.intent) {
      case "paid": {
        // The manual provider's payment is the order itself: marking it twice (a double click, two members at
        // once) finds the first and changes nothing.
        await orders.finalisePayment(id, {
          provider: "manual",
          reference: `manual:${id}`,
          amount: order.total,
          currency: order.currency,
          actorUserId: actor,
          note: (values.note ?? "").slice(0, 200),
          origin,
        });
        return done("paid");
      }
      case "fulfil": {
        const lines = await orders.linesOf(id);
        const quantities: Record<string, number> = {};
        for (const line of lines) {
          const asked = values[`qty.${line.id}`];
          if (asked === undefined) continue;
          const n = Number(asked);
          if (!Number.isInteger(n) || n < 0)
            throw invalid(`Check the quantity of “${line.title}”`, [
              { field: `qty.${line.id}`, message: "A whole number, 0 or more" },
            ]);
          quantities[line.id] = n;
        }
        const chosen = Object.keys(quantities).length ? quantities : null;
        // With a carrier or a tracking number the lines leave in a package the customer can follow.
        if (values.carrier || values.trackingNumber) {
          const record = manualPackage(values, 0);
          await shipmentsOf(db, workspace.id).ship(id, chosen, record, actor, origin);
        } else await orders.fulfil(id, chosen, actor, origin);
        return done("sent");
      }
      case "rates": {
        const number = (field: string, scale: number) => {
          const n = Number((values[field] ?? "").replace(",", "."));
          if (!Number.isFinite(n) || n <= 0)
            throw invalid("Give the parcel's weight and size", [{ field, message: "A number above 0" }]);
          return n * scale;
        };
        const quote = await labelRates(
          context.services,
          workspace.id,
          id,
          {
            weightGrams: number("weightKg", 1000),
            lengthCm: number("lengthCm", 1),
            widthCm: number("widthCm", 1),
            heightCm: number("heightCm", 1),
          },
          workspace.name,
        );
        return { ok: true, intent: "rates", message: "", ...quote } as FormResult;
      }
      case "buy-label":
        await buyLabel(
          context.services,
          workspace.id,
          { orderId: id, shipmentId: values.shipmentId ?? "", rateId: values.rateId ?? "", quantities: null },
          actor,
          origin,
        );
        return done("labelled");
      case "delivered":
        await shipmentsOf(db, workspace.id).markDelivered(values.shipmentId ?? "");
        return done("delivered");
      case "complete":
        await orders.complete(id, actor);
        return done("completed");
      case "cancel": {
        const byProvider = isHosted(order.paymentProvider);
        // Unpaid: its provider's page is closed first (paid meanwhile: the payment stands). Paid: the money goes
        // back through the provider before the cancellation records that refund.
        if (
          byProvider &&
          order.status === "pending" &&
          !(await releaseHostedCheckout(context.services, workspace.id, order, origin))
        )
          return done("paid");
        const refundReference =
          byProvider && order.status === "paid"
            ? await refundThroughProvider(context.services, workspace.id, order, order.total - order.refunded)
            : undefined;
        await orders.cancel(
          id,
          { userId: actor },
          {
            reason: (values.reason ?? "").slice(0, 200),
            restock: values.restock === "on",
            origin,
            refundReference,
            from: order.status,
          },
        );
        return done("cancelled");
      }
      case "refund": {
        const amount = parseMoney(values.amount ?? "", order.currency);
        if (amount === null || amount === 0)
          throw invalid("Enter the amount to refund", [{ field: "amount", message: `An amount in ${order.currency}` }]);
        // A provider's payment is paid back through it first; its refund's id makes the record once.
        const reference = isHosted(order.paymentProvider)
          ? await refundThroughProvider(context.services, workspace.id, order, amount)
          : undefined;
        await orders.refund(id, amount, actor, {
          note: (values.note ?? "").slice(0, 200),
          restock: values.restock === "on",
          origin,
          reference,
        });
        return done("refunded");
      }
      case "resend":
        await orders.resendConfirmation(id, actor, origin);
        return done("resent");
      default:
        throw invalid("Unknown action");
    }
  });
});

const DONE: Record<string, string> = {
  paid: "Marked as paid. The customer is e-mailed a receipt.",
  sent: "Marked as sent. The customer is e-mailed.",
  labelled: "Label bought and the order marked as sent. The customer is e-mailed the tracking link.",
  delivered: "Marked as delivered.",
  completed: "Order completed.",
  cancelled: "Order cancelled. The customer is e-mailed.",
  refunded: "Refund recorded. The customer is e-mailed.",
  resent: "The confirmation is on its way again.",
};

export default function OrderDetail() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult & { shipmentId?: string; rates?: LabelRate[] }>();
  const quote =
    result?.ok && result.intent === "rates" && result.rates && result.shipmentId
      ? { rates: result.rates, shipmentId: result.shipmentId }
      : null;
  const { order } = d;
  const done = d.done;
  const errors = result?.fieldErrors ?? {};
  const canSend = order.status === "paid" || order.status === "partially_fulfilled";
  const byCard = isHosted(order.paymentProvider);
  const through = providerName(order.paymentProvider);
  const to = order.paymentProvider === "paypal" ? "PayPal account" : "card";
  const canRefund = ["paid", "partially_fulfilled", "fulfilled", "completed"].includes(order.status);
  const canCancel = order.status === "pending" || order.status === "paid";

  if (d.slip) {
    return (
      <article className="panel packing-slip">
        <p className="no-print">
          <Link to={`/shop/orders/${order.id}`}>← Back to the order</Link> · Print this page (Ctrl/⌘ P).
        </p>
        <h1>Packing slip · Order #{order.number}</h1>
        <p>
          From {d.business.name}
          {d.business.address.locality ? `, ${d.business.address.locality}` : ""} · Placed {order.placed}
        </p>
        <h2>Ship to</h2>
        {order.address ? (
          <address>
            {order.name}
            <br />
            {order.address.line1}
            {order.address.line2 ? <>, {order.address.line2}</> : null}
            <br />
            {order.address.postalCode} {order.address.city} {order.address.region}
            <br />
            {countryName(order.address.country)}
          </address>
        ) : (
          <p>
            {order.name} — {order.shippingMethod}
          </p>
        )}
        <table className="customer-table order-lines-table">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">SKU</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {d.lines.map((l) => (
              <tr key={l.id}>
                <td>
                  {l.title}
                  {l.variantTitle ? ` · ${l.variantTitle}` : ""}
                </td>
                <td>{l.sku ?? "—"}</td>
                <td>{l.quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>
    );
  }

  return (
    <>
      <p className="back-link">
        <Link to="/shop/orders">← Orders</Link>
      </p>
      <div className="page-header">
        <h1>Order #{order.number}</h1>
        <div className="page-actions">
          <span className={`status-pill status-pill--${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
          <Link className="button secondary" to={`/shop/orders/${order.id}?slip=1`}>
            Packing slip
          </Link>
          {d.invoice ? (
            <a className="button secondary" href={`/shop/orders/${order.id}/invoice.pdf`}>
              Invoice {d.invoice.number} (PDF)
            </a>
          ) : null}
        </div>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <FormMessage message={done ? DONE[done] : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <div className="order-layout">
        <div>
          <section className="panel" aria-labelledby="items-heading">
            <h2 id="items-heading">Items</h2>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Items">
              <table className="customer-table order-lines-table">
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Price</th>
                    <th scope="col">Quantity</th>
                    <th scope="col">Sent</th>
                    <th scope="col">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {d.lines.map((l) => (
                    <tr key={l.id}>
                      <td>
                        <span className="customer-name">{l.title}</span>
                        <span className="customer-email">
                          {l.variantTitle}
                          {l.sku ? ` · SKU ${l.sku}` : ""}
                        </span>
                      </td>
                      <td>{l.unit}</td>
                      <td>{l.quantity}</td>
                      <td>{l.fulfilledQuantity}</td>
                      <td>{l.amount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <dl className="order-totals">
              <div>
                <dt>Subtotal</dt>
                <dd>{d.money.subtotal}</dd>
              </div>
              {order.discount > 0 ? (
                <div>
                  <dt>Discount{order.couponCode ? ` (${order.couponCode})` : ""}</dt>
                  <dd>−{d.money.discount}</dd>
                </div>
              ) : null}
              <div>
                <dt>Delivery · {order.shippingMethod}</dt>
                <dd>{d.money.shipping}</dd>
              </div>
              <div>
                <dt>{order.pricesIncludeTax ? "Including tax" : "Tax"}</dt>
                <dd>{d.money.tax}</dd>
              </div>
              <div className="total">
                <dt>Total</dt>
                <dd>{d.money.total}</dd>
              </div>
              {order.refunded > 0 ? (
                <div>
                  <dt>Refunded</dt>
                  <dd>−{d.money.refunded}</dd>
                </div>
              ) : null}
            </dl>
          </section>

          {d.shipments.length > 0 ? (
            <section className="panel" aria-labelledby="packages-heading">
              <h2 id="packages-heading">Packages</h2>
              <PackageList
                packages={d.shipments}
                action={(p) => {
                  const s = d.shipments.find((x) => x.id === p.id);
                  return (
                    <div className="package-actions">
                      {s?.labelUrl ? (
                        <a href={s.labelUrl} target="_blank" rel="noreferrer noopener">
                          Print the label{s.cost ? ` (${s.cost})` : ""}
                        </a>
                      ) : null}
                      {d.canEdit && s?.provider === "manual" && s.status !== "delivered" ? (
                        <Form method="post">
                          <input type="hidden" name="shipmentId" value={p.id} />
                          <button type="submit" name="intent" value="delivered" className="text-button">
                            Mark as delivered
                          </button>
                        </Form>
                      ) : null}
                    </div>
                  );
                }}
              />
            </section>
          ) : null}
          <section className="panel" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">Timeline</h2>
            <ol className="timeline">
              {d.events.map((e) => (
                <li key={e.id}>
                  <time>{e.at}</time>
                  <span>
                    <strong>{e.label}</strong>
                    {e.by ? <span className="hint"> · {e.by}</span> : null}
                  </span>
                </li>
              ))}
            </ol>
            {d.payments.length > 0 ? (
              <>
                <h3>Payments</h3>
                <ul className="timeline">
                  {d.payments.map((p) => (
                    <li key={p.id}>
                      <time>{p.at}</time>
                      <span>
                        <strong>
                          {p.kind === "refund" ? "Refund" : "Payment"} {p.amount}
                        </strong>{" "}
                        <span className="hint">
                          · {PROVIDER_NAMES[p.provider] ?? p.provider}
                          {p.note ? ` · ${p.note}` : ""}
                        </span>
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
        </div>

        <div>
          <section className="panel" aria-labelledby="customer-heading">
            <h2 id="customer-heading">Customer</h2>
            <p>
              {order.customerId ? <Link to={`/customers/${order.customerId}`}>{order.name}</Link> : order.name}
              <br />
              <a href={`mailto:${order.email}`}>{order.email}</a>
              {order.phone ? (
                <>
                  <br />
                  {order.phone}
                </>
              ) : null}
            </p>
            <h3>{order.address ? "Delivery address" : "Delivery"}</h3>
            {order.address ? (
              <address>
                {order.address.line1}
                {order.address.line2 ? <>, {order.address.line2}</> : null}
                <br />
                {order.address.postalCode} {order.address.city} {order.address.region}
                <br />
                {countryName(order.address.country)}
              </address>
            ) : null}
            <p className="hint">
              {order.shippingMethod} · {d.paymentLabel}
            </p>
          </section>

          {d.canEdit ? (
            <section className="panel order-actions" aria-labelledby="actions-heading">
              <h2 id="actions-heading">Next steps</h2>
              {order.status === "pending" ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="paid" />
                  <Field
                    label="Payment note (optional)"
                    name="note"
                    hint="e.g. the transfer's reference or date"
                    error={errors.note}
                  />
                  <button type="submit">Mark as paid · {d.money.total}</button>
                </Form>
              ) : null}
              {canSend && d.labels && order.address ? (
                <section aria-labelledby="label-heading" className="label-panel">
                  <h3 id="label-heading">Buy a label</h3>
                  {quote ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="buy-label" />
                      <input type="hidden" name="shipmentId" value={quote.shipmentId} />
                      <fieldset className="rate-choices">
                        <legend>Choose a rate (everything left to send goes in this parcel)</legend>
                        {quote.rates.map((r, i) => (
                          <label key={r.id}>
                            <input type="radio" name="rateId" value={r.id} defaultChecked={i === 0} />
                            <span>
                              {r.carrier} {r.service}
                              {r.days ? (
                                <span className="hint"> · {r.days === 1 ? "1 day" : `${r.days} days`}</span>
                              ) : null}
                            </span>
                            <span className="amount">{formatMoney(r.amount, r.currency)}</span>
                          </label>
                        ))}
                      </fieldset>
                      <button type="submit">Buy label and mark as sent</button> <Link to=".">Change the parcel</Link>
                    </Form>
                  ) : (
                    <Form method="post" className="inline-fields">
                      <input type="hidden" name="intent" value="rates" />
                      <Field label="Weight (kg)" name="weightKg" defaultValue={d.unsentKg} error={errors.weightKg} />
                      <Field label="Length (cm)" name="lengthCm" defaultValue="30" error={errors.lengthCm} />
                      <Field label="Width (cm)" name="widthCm" defaultValue="20" error={errors.widthCm} />
                      <Field label="Height (cm)" name="heightCm" defaultValue="10" error={errors.heightCm} />
                      <button type="submit" className="secondary">
                        Get rates
                      </button>
                    </Form>
                  )}
                </section>
              ) : null}
              {canSend ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="fulfil" />
                  {order.address ? (
                    <div className="inline-fields">
                      <DescribedField id="field-carrier" label="Carrier" error={errors.carrier}>
                        {(describedBy) => (
                          <select id="field-carrier" name="carrier" defaultValue="" aria-describedby={describedBy}>
                            <option value="">No tracking</option>
                            {d.carriers.map((c) => (
                              <option key={c.id} value={c.id}>
                                {c.name}
                              </option>
                            ))}
                          </select>
                        )}
                      </DescribedField>
                      <Field label="Tracking number" name="trackingNumber" error={errors.trackingNumber} />
                    </div>
                  ) : null}
                  {order.address ? (
                    <details>
                      <summary>Another carrier</summary>
                      <Field
                        label="Carrier's name"
                        name="carrierName"
                        hint="With Carrier set to Other"
                        error={errors.carrierName}
                      />
                      <Field
                        label="Tracking link"
                        name="trackingUrl"
                        hint="https://… where the customer follows the parcel"
                        error={errors.trackingUrl}
                      />
                    </details>
                  ) : null}
                  <button type="submit">
                    {order.status === "partially_fulfilled" ? "Send the rest" : "Mark as sent"}
                  </button>
                  <details>
                    <summary>Send only part</summary>
                    {d.lines.map((l) => (
                      <Field
                        key={l.id}
                        label={`${l.title}${l.variantTitle ? ` · ${l.variantTitle}` : ""} (of ${l.quantity - l.fulfilledQuantity})`}
                        name={`qty.${l.id}`}
                        type="number"
                        defaultValue={String(l.quantity - l.fulfilledQuantity)}
                        error={errors[`qty.${l.id}`] ?? errors[l.id]}
                      />
                    ))}
                  </details>
                </Form>
              ) : null}
              {order.status === "fulfilled" ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="complete" />
                  <button type="submit" className="secondary">
                    Mark as completed
                  </button>
                </Form>
              ) : null}
              {canRefund ? (
                <details>
                  <summary>Refund</summary>
                  <Form method="post">
                    <input type="hidden" name="intent" value="refund" />
                    <Field
                      label={`Amount (${order.currency})`}
                      name="amount"
                      defaultValue={d.money.refundable}
                      error={errors.amount}
                      hint={
                        byCard
                          ? `At most ${d.money.refundable}. Paid back to the customer's ${to} through ${through}; the customer is e-mailed.`
                          : `At most ${d.money.refundable}. Pay it back yourself; this records it and tells the customer.`
                      }
                    />
                    <Field label="Note (optional)" name="note" />
                    <label>
                      <input type="checkbox" name="restock" /> Put unsent items back in stock
                    </label>
                    <button type="submit" className="secondary">
                      {byCard ? `Refund through ${through}` : "Record refund"}
                    </button>
                  </Form>
                </details>
              ) : null}
              <Form method="post">
                <input type="hidden" name="intent" value="resend" />
                <button type="submit" className="secondary">
                  E-mail the confirmation again
                </button>
              </Form>
              {canCancel ? (
                <details>
                  <summary>Cancel order</summary>
                  <ConfirmForm
                    confirm={`Cancel order #${order.number}?${order.status === "paid" ? (byCard ? ` The full amount is refunded to the customer's ${to}.` : " The full amount is recorded as refunded.") : ""}`}
                    fields={{ intent: "cancel" }}
                  >
                    <p className="hint">
                      {order.status === "paid"
                        ? byCard
                          ? `The customer is told, and the whole payment goes back to their ${to} through ${through}.`
                          : "The customer is told; the whole payment is recorded as refunded — pay it back yourself."
                        : "Its items go back on sale and the customer is told."}
                    </p>
                    {order.status === "paid" ? (
                      <label>
                        <input type="checkbox" name="restock" defaultChecked /> Put the items back in stock
                      </label>
                    ) : null}
                    <button type="submit" className="danger">
                      Cancel order #{order.number}
                    </button>
                  </ConfirmForm>
                </details>
              ) : null}
            </section>
          ) : null}
        </div>
      </div>
    </>
  );
}
