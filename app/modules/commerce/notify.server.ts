/**
 * An order's e-mails (ADR 030), sent by a job queued in the transaction that changed the order, so a mail server
 * that is down delays them and loses none, and a retry sends each once (the mailer's idempotency key is the
 * order event's id):
 *
 * - placed: the confirmation with what was bought, the totals and how to pay — to the customer; and a notice to
 *   the members who want new orders (member settings);
 * - paid, fulfilled, cancelled, refunded, resent: to the customer.
 *
 * A signed-in customer's e-mail links to the order in their portal; a guest's carries a manage link (ADR 029)
 * that opens this order only, to view it or cancel it while that is allowed.
 */
import type { AppServices } from "~/lib/context";
import type { JobHandler } from "~/modules/jobs/jobs.server";
import { issueManageToken } from "~/modules/customers/manage-tokens.server";
import { memberNotificationsOf } from "~/modules/customers/member-notifications.server";
import { type MailAttachment, withTokensHidden } from "~/modules/mail/mail.server";
import { siteAddressOf, siteUrl } from "~/modules/sites/address.server";
import { invoiceFileName, invoicesOf } from "./invoices.server";
import { formatMoney } from "./money";
import { ordersOf, type Order, type OrderLine, type OrderMailPayload } from "./orders.server";
import { paymentSetupOf, providerOf } from "./payments.server";
import { shipmentsOf } from "./shipments.server";
import { countryName } from "./vocabulary";

/** How long a guest's link to their order works. */
export const GUEST_ORDER_LINK_DAYS = 90;

const SUBJECTS: Record<OrderMailPayload["kind"], (n: number, shop: string) => string> = {
  placed: (n, shop) => `Your order #${n} at ${shop}`,
  resent: (n, shop) => `Your order #${n} at ${shop}`,
  paid: (n) => `Payment received for order #${n}`,
  fulfilled: (n) => `Order #${n} is on its way`,
  cancelled: (n) => `Order #${n} was cancelled`,
  refunded: (n) => `Refund for order #${n}`,
};

export function summaryLines(order: Order, lines: readonly OrderLine[]): string[] {
  const money = (n: number) => formatMoney(n, order.currency);
  return [
    ...lines.map(
      (l) =>
        `${l.quantity} × ${l.title}${l.variantTitle ? ` (${l.variantTitle})` : ""} — ${money(l.unitPrice * l.quantity)}`,
    ),
    "",
    `Subtotal: ${money(order.subtotal)}`,
    ...(order.discount
      ? [`Discount${order.couponCode ? ` (${order.couponCode})` : ""}: −${money(order.discount)}`]
      : []),
    `Delivery (${order.shippingMethod}): ${money(order.shipping)}`,
    order.pricesIncludeTax ? `Including tax: ${money(order.tax)}` : `Tax: ${money(order.tax)}`,
    `Total: ${money(order.total)}`,
  ];
}

export function orderMailHandler(services: AppServices): JobHandler {
  const { db, mailer } = services;
  return async (job) => {
    const workspaceId = job.workspace_id;
    if (!workspaceId) return;
    const payload = JSON.parse(job.payload) as OrderMailPayload;
    const orders = ordersOf(db, workspaceId);
    const order = await orders.byId(payload.orderId).catch(() => undefined);
    // Deleted, or its customer erased before the job ran: nobody to write to.
    if (!order || order.erased) return;
    const workspace = await db
      .selectFrom("workspaces")
      .select(["id", "name", "slug"])
      .where("id", "=", workspaceId)
      .executeTakeFirst();
    if (!workspace) return;
    const lines = await orders.linesOf(order.id);
    const address = await siteAddressOf(services, workspace, { origin: payload.origin, fromRequest: false });
    const site = address ?? { origin: payload.origin, base: `/${workspace.slug}` as const };

    if (payload.kind === "placed") {
      const recipients = await memberNotificationsOf(db, workspaceId).recipients("newOrders");
      const text = [
        `${order.name} <${order.email}> placed order #${order.number} on ${workspace.name}'s site.`,
        "",
        ...summaryLines(order, lines),
        "",
        `Open it in the console: ${payload.origin}/shop/orders/${order.id}`,
      ].join("\n");
      for (const email of recipients) {
        await mailer.send({
          workspaceId,
          to: email,
          subject: `New order #${order.number} — ${formatMoney(order.total, order.currency)}`,
          text,
          idempotencyKey: `order:${payload.eventId}:member:${email}`,
        });
      }
    }

    let link: string;
    let guest = false;
    if (order.customerId) {
      link = siteUrl(site, `/orders/${order.id}`);
    } else {
      guest = true;
      const token = await issueManageToken(db, workspaceId, {
        subjectType: "order",
        subjectId: order.id,
        actions: ["view", "cancel"],
        email: order.email,
        days: GUEST_ORDER_LINK_DAYS,
      });
      link = `${site.origin}/portal/callback?token=${token}`;
    }
    const setup = await paymentSetupOf(db, workspaceId);
    const money = (n: number) => formatMoney(n, order.currency);
    const body: string[] = [];
    const attachments: MailAttachment[] = [];
    switch (payload.kind) {
      case "placed":
      case "resent": {
        body.push(
          `Thank you, ${order.name}. ${workspace.name} has your order #${order.number}.`,
          "",
          ...summaryLines(order, lines),
        );
        if (order.status === "pending") {
          const start = providerOf(order.paymentMethod)?.start(order, setup);
          if (start?.kind === "instructions") body.push("", start.title, start.text);
          if (start?.kind === "hosted") body.push("", start.title, `${start.text} Pay from your order's page: ${link}`);
        }
        if (order.address)
          body.push(
            "",
            "Delivering to:",
            order.name,
            order.address.line1,
            ...(order.address.line2 ? [order.address.line2] : []),
            `${order.address.postalCode} ${order.address.city}`,
            countryName(order.address.country),
          );
        break;
      }
      case "paid": {
        // The invoice goes with the receipt; a shop whose order has none (paid before invoices existed) says where
        // the order is instead.
        const invoice = await invoicesOf(db, workspaceId).pdfIfIssued(order.id, workspace.name);
        if (invoice)
          attachments.push({
            filename: invoiceFileName(invoice.invoice),
            contentType: "application/pdf",
            content: invoice.bytes,
          });
        body.push(
          `${workspace.name} received your payment of ${money(order.total)} for order #${order.number}. We will let you know when it is on its way.`,
          "",
          attachments.length
            ? `Your invoice (${attachments[0]!.filename}) is attached, and on your order's page.`
            : "Your order's page is below.",
        );
        break;
      }
      case "fulfilled":
        body.push(
          order.status === "fulfilled"
            ? `Everything in order #${order.number} has been sent.`
            : `Part of order #${order.number} has been sent; the rest follows.`,
          "",
          ...lines
            .filter((l) => l.fulfilledQuantity > 0)
            .map((l) => `${l.fulfilledQuantity} × ${l.title}${l.variantTitle ? ` (${l.variantTitle})` : ""}`),
        );
        {
          const shipment = await shipmentsOf(db, workspaceId).ofOrderEvent(payload.eventId);
          if (shipment)
            body.push(
              "",
              `Carrier: ${shipment.carrier}${shipment.service ? ` (${shipment.service})` : ""}`,
              ...(shipment.trackingNumber ? [`Tracking number: ${shipment.trackingNumber}`] : []),
              ...(shipment.trackingUrl ? [`Follow your parcel: ${shipment.trackingUrl}`] : []),
            );
        }
        break;
      case "cancelled":
        body.push(
          order.cancelReason === "expired"
            ? `Order #${order.number} was cancelled because no payment arrived in time. If you still want it, you are welcome to order again.`
            : `Order #${order.number} was cancelled.`,
          ...(order.refunded > 0 ? ["", `${money(order.refunded)} is being refunded to you.`] : []),
        );
        break;
      case "refunded":
        body.push(
          `${workspace.name} refunded ${money(order.refunded)} of order #${order.number} (total ${money(order.total)}).`,
        );
        break;
    }
    body.push(
      "",
      guest ? `See your order (this link works for ${GUEST_ORDER_LINK_DAYS} days): ${link}` : `See your order: ${link}`,
    );
    const text = body.join("\n");
    await mailer.send({
      workspaceId,
      to: order.email,
      subject: SUBJECTS[payload.kind](order.number, workspace.name),
      text,
      ...(guest ? { storedText: withTokensHidden(text) } : {}),
      idempotencyKey: `order:${payload.eventId}:customer`,
      ...(attachments.length ? { attachments } : {}),
    });
  };
}
