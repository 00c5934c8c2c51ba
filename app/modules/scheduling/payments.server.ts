/**
 * Paying for a booking through the shop's card providers (ADR 036): the deposit that turns a hold into a booking,
 * or what is left of the price. Each payment is a shop order (commerce's `placeServiceOrder`) linked to the booking
 * in `booking_payments`, opened on the provider's page by `hostedCheckoutFor` and finalised by commerce once, from
 * the customer's return or the provider's event in either order. Commerce's order hooks, run in the transaction
 * that pays or cancels the order, confirm the booking or let its hold go:
 *
 * - a deposit order's hold is the booking's hold; while the order waits for its payment the slot stays taken even
 *   past the hold (the provider's page may still be paid), and commerce's expiry sweep ends both — it expires the
 *   provider's page first, and if the payment landed meanwhile the order is paid and the booking confirmed;
 * - an order released unpaid expires its held booking (the slot is free again); a payment arriving after that is
 *   refunded by commerce, as for stock.
 */
import { Temporal } from "temporal-polyfill";
import type { BookingRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import type { AppServices } from "~/lib/context";
import { isoNow, now } from "~/lib/clock.server";
import { conflict } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { purgeTags } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { HOSTED_CHECKOUT_MINUTES } from "~/modules/commerce/checkout.server";
import { hostedCheckoutFor, settleHostedReturn } from "~/modules/commerce/hosted-checkout.server";
import type { OrderHooks } from "~/modules/commerce/order-hooks.server";
import { ordersOf } from "~/modules/commerce/orders.server";
import { placeServiceOrder } from "~/modules/commerce/service-orders.server";
import { bookingsOf, type BookingActor } from "./bookings.server";
import { enqueueBookingMail } from "./notify.server";
import { servicesOf } from "./services.server";

type Services = Pick<AppServices, "db" | "secrets" | "env" | "logger">;

export type PaymentKind = "deposit" | "balance";

/** The booking's orders still waiting for a payment, newest first. */
async function pendingOrdersOf(db: Db, bookingId: string) {
  return db
    .selectFrom("booking_payments")
    .innerJoin("orders", "orders.id", "booking_payments.order_id")
    .select(["booking_payments.order_id", "booking_payments.kind", "orders.reserved_until"])
    .where("booking_payments.booking_id", "=", bookingId)
    .where("orders.status", "=", "pending")
    .orderBy("booking_payments.created_at", "desc")
    .execute();
}

/** What is owed now: the deposit while held, then the rest of the price; null when nothing is. */
export function amountDue(b: BookingRow): { kind: PaymentKind; amount: number } | null {
  if (b.status === "held") return { kind: "deposit", amount: Math.max(0, b.deposit - b.amount_paid) };
  if ((b.status === "confirmed" || b.status === "pending") && b.amount_paid < b.price) {
    return { kind: "balance", amount: b.price - b.amount_paid };
  }
  return null;
}

/**
 * The provider's payment page for what the booking owes now: the one already open for it, or a new order. The
 * customer comes back to `returnUrl`, which settles it (`settleBookingReturn`).
 */
export async function openBookingCheckout(
  services: Services,
  workspaceId: string,
  bookingId: string,
  actor: BookingActor,
  options: { paymentMethod?: string | null; origin: string; returnUrl: string; site: string; brand: string },
): Promise<{ checkoutUrl: string; orderId: string; kind: PaymentKind; amount: number; currency: string }> {
  const { db } = services;
  const booking = await bookingsOf(db, workspaceId).get(bookingId, actor);
  const due = amountDue(booking);
  if (!due || due.amount <= 0) throw conflict("Nothing is owed on this booking");
  const open = (await pendingOrdersOf(db, booking.id)).find((o) => o.kind === due.kind);
  const nowMs = now().getTime();
  if (due.kind === "deposit" && !open && Date.parse(booking.hold_expires_at ?? "") <= nowMs) {
    throw conflict("The hold on this time ran out: choose a time and book again");
  }
  const service = await servicesOf(db, workspaceId).get(booking.service_id);
  const when = Temporal.Instant.from(booking.start_at)
    .toZonedDateTimeISO(booking.visitor_time_zone)
    .toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
  const orderId =
    open?.order_id ??
    (await placeServiceOrder(
      db,
      workspaceId,
      {
        title: `${due.kind === "deposit" ? "Deposit" : "Balance"} — ${service.name}`,
        detail: `${when} (${booking.visitor_time_zone})`,
        amount: due.amount,
        currency: booking.currency,
        customer: {
          customerId: booking.customer_id,
          email: booking.email,
          name: booking.name,
          phone: booking.phone,
        },
        paymentMethod: options.paymentMethod ?? null,
        // A deposit holds the slot only as long as the booking's hold; the rest may be paid at leisure.
        reservedUntil:
          due.kind === "deposit"
            ? booking.hold_expires_at!
            : new Date(nowMs + HOSTED_CHECKOUT_MINUTES * 60_000).toISOString(),
      },
      async (trx, id) => {
        // The host's lock first, as a booking takes it: a booking of this slot racing the hold's last moment sees
        // this order (and keeps off the slot) or is seen here (and this hold is refused below).
        await trx
          .updateTable("booking_hosts")
          .set((eb) => ({ lock_seq: eb("lock_seq", "+", 1) }))
          .where("id", "=", booking.host_id)
          .where("workspace_id", "=", workspaceId)
          .execute();
        // The booking's row next: a second request for the same booking waits here, then finds this order.
        await trx.updateTable("bookings").set({ updated_at: isoNow() }).where("id", "=", booking.id).execute();
        // …and the expiry sweep too: a hold it ended meanwhile is not paid for.
        const fresh = await trx
          .selectFrom("bookings")
          .selectAll()
          .where("id", "=", booking.id)
          .executeTakeFirstOrThrow();
        if (
          amountDue(fresh)?.kind !== due.kind ||
          (due.kind === "deposit" && !(Date.parse(fresh.hold_expires_at ?? "") > now().getTime()))
        ) {
          throw conflict("The hold on this time ran out: choose a time and book again");
        }
        const already = await pendingOrdersOf(trx, booking.id);
        if (already.some((o) => o.kind === due.kind)) throw conflict("A payment for this booking was just opened");
        await trx
          .insertInto("booking_payments")
          .values({
            order_id: id,
            booking_id: booking.id,
            workspace_id: workspaceId,
            kind: due.kind,
            amount: due.amount,
            created_at: isoNow(),
          })
          .execute();
      },
    ).catch(async (error: unknown) => {
      const raced = (await pendingOrdersOf(db, booking.id)).find((o) => o.kind === due.kind);
      if (raced) return raced.order_id;
      throw error;
    }));
  const order = await ordersOf(db, workspaceId).byId(orderId);
  const checkoutUrl = await hostedCheckoutFor(services, workspaceId, order, {
    orderUrl: options.returnUrl,
    cancelUrl: options.returnUrl,
    origin: options.origin,
    site: options.site,
    brand: options.brand,
  });
  return { checkoutUrl, orderId, kind: due.kind, amount: order.total, currency: order.currency };
}

/**
 * The customer's return from the provider's page for one of the booking's orders: applied once (see
 * `settleHostedReturn`). Answers "confirming" while the provider has not yet confirmed the payment.
 */
export async function settleBookingReturn(
  services: Services,
  workspaceId: string,
  bookingId: string,
  search: URLSearchParams,
  origin: string,
): Promise<"applied" | "confirming" | "none"> {
  for (const pending of await pendingOrdersOf(services.db, bookingId)) {
    const order = await ordersOf(services.db, workspaceId).byId(pending.order_id);
    const settled = await settleHostedReturn(services, workspaceId, order, search, origin);
    if (settled !== "none") return settled;
  }
  return "none";
}

/** Commerce's hooks: a booking's order paid or cancelled, in the same transaction. */
export const bookingOrderHooks: OrderHooks = {
  async paid(trx, workspaceId, order, origin) {
    const link = await trx
      .selectFrom("booking_payments")
      .innerJoin("bookings", "bookings.id", "booking_payments.booking_id")
      .innerJoin("booking_services", "booking_services.id", "bookings.service_id")
      .select(["bookings.id", "bookings.status", "booking_payments.kind", "booking_services.requires_approval"])
      .where("booking_payments.order_id", "=", order.id)
      .where("booking_payments.workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!link) return;
    const at = isoNow();
    // A deposit paid moves the hold on; a booking cancelled meanwhile keeps what was paid on record for the
    // business to refund (the money is never lost, and the slot is not taken back from whoever has it now).
    const confirms = link.status === "held";
    const status = confirms ? (link.requires_approval ? "pending" : "confirmed") : link.status;
    await trx
      .updateTable("bookings")
      .set((eb) => ({
        amount_paid: eb("amount_paid", "+", order.total),
        status,
        hold_expires_at: confirms ? null : eb.ref("hold_expires_at"),
        updated_at: at,
      }))
      .where("id", "=", link.id)
      .execute();
    await recordWorkspaceEvent(trx, workspaceId, {
      action: "booking.paid",
      actorUserId: null,
      detail: { id: link.id, order: order.id, kind: link.kind, amount: order.total, status },
    });
    if (confirms) {
      await enqueueBookingMail(trx, workspaceId, {
        bookingId: link.id,
        event: status === "confirmed" ? "confirmed" : "created",
        origin,
        by: "system",
      });
    }
  },

  async cancelled(trx, workspaceId, orderId, origin) {
    const link = await trx
      .selectFrom("booking_payments")
      .innerJoin("bookings", "bookings.id", "booking_payments.booking_id")
      .select(["bookings.id", "bookings.status", "booking_payments.kind"])
      .where("booking_payments.order_id", "=", orderId)
      .where("booking_payments.workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!link || link.kind !== "deposit" || link.status !== "held") return;
    const done = await trx
      .updateTable("bookings")
      .set({ status: "expired", hold_expires_at: null, updated_at: isoNow() })
      .where("id", "=", link.id)
      .where("status", "=", "held")
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) return;
    // Its time is free again: the booking pages (and the remembered availability) show it once this commits.
    await purgeTags(trx, [cacheTags.bookings(workspaceId)]);
    await recordWorkspaceEvent(trx, workspaceId, {
      action: "booking.expired",
      actorUserId: null,
      detail: { id: link.id, order: orderId },
    });
    await enqueueBookingMail(trx, workspaceId, { bookingId: link.id, event: "expired", origin, by: "system" });
  },
};
