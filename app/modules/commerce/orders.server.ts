/**
 * Orders (issue 17, ADR 030): pending → paid → partially fulfilled / fulfilled → completed, or cancelled, or
 * refunded. Every change is one transaction that also writes the order's timeline, the audit log and, where the
 * customer is told, the mail job — so a change and its record and its e-mail happen together or not at all.
 *
 * `finalisePayment` is the one way an order becomes paid, whoever says so (an operator's "mark as paid", a
 * provider's event, a retry): the payment row is unique per provider reference and the order moves only from
 * pending, so applying it twice or concurrently pays once, takes the stock once and sends one e-mail.
 */
import { orderCancelled, orderPaid } from "./order-hooks.server";
import type { Kysely, Transaction } from "kysely";
import type { Db } from "~db/client";
import type { Database, OrderRow } from "~db/schema";
import { containsText } from "~db/like";
import { isoNow } from "~/lib/clock.server";
import { conflict, invalid, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { purgeTags, writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import type { Address } from "./cart.server";

export { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from "./vocabulary";
import type { OrderStatus } from "./vocabulary";

export const ORDER_MAIL_JOB = "commerce.order-mail";
export type OrderMailKind = "placed" | "paid" | "fulfilled" | "cancelled" | "refunded" | "resent";
export interface OrderMailPayload {
  orderId: string;
  kind: OrderMailKind;
  /** Distinguishes two e-mails of one kind (a second partial shipment, a resend). */
  eventId: string;
  origin: string;
}

export interface OrderLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  variantTitle: string;
  sku: string | null;
  unitPrice: number;
  quantity: number;
  discount: number;
  tax: number;
  total: number;
  fulfilledQuantity: number;
}

export interface Order {
  id: string;
  number: number;
  customerId: string | null;
  email: string;
  name: string;
  phone: string | null;
  address: Address | null;
  currency: string;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  refunded: number;
  pricesIncludeTax: boolean;
  couponCode: string | null;
  shippingMethod: string;
  paymentProvider: string;
  paymentMethod: string;
  status: OrderStatus;
  reservedUntil: string | null;
  paidAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  erased: boolean;
  /** The provider's hosted checkout for this order (ADR 032): its id, and its address while it is open. */
  checkoutReference: string | null;
  checkoutUrl: string | null;
  checkoutExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OrderEvent {
  id: string;
  kind: string;
  detail: Record<string, unknown>;
  actorUserId: string | null;
  createdAt: string;
}

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    number: row.number,
    customerId: row.customer_id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    address: row.address ? (JSON.parse(row.address) as Address) : null,
    currency: row.currency,
    subtotal: row.subtotal,
    discount: row.discount,
    shipping: row.shipping,
    tax: row.tax,
    total: row.total,
    refunded: row.refunded,
    pricesIncludeTax: !!row.prices_include_tax,
    couponCode: row.coupon_code,
    shippingMethod: row.shipping_method,
    paymentProvider: row.payment_provider,
    paymentMethod: row.payment_method,
    status: row.status as OrderStatus,
    reservedUntil: row.reserved_until,
    paidAt: row.paid_at,
    cancelledAt: row.cancelled_at,
    cancelReason: row.cancel_reason,
    erased: row.erased_at !== null,
    checkoutReference: row.checkout_reference,
    checkoutUrl: row.checkout_url,
    checkoutExpiresAt: row.checkout_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type Trx = Transaction<Database> | Kysely<Database>;

/**
 * After an order took, gave back or sold stock: its products' pages show their stock state, so their cached
 * answers go (ADR 026). Called once the change committed.
 */
export async function purgeStockOf(db: Db, workspaceId: string, orderId: string): Promise<void> {
  const lines = await db
    .selectFrom("order_lines")
    .select("product_id")
    .distinct()
    .where("workspace_id", "=", workspaceId)
    .where("order_id", "=", orderId)
    .execute();
  const tags = lines.flatMap((l) => (l.product_id ? [cacheTags.product(workspaceId, l.product_id)] : []));
  if (tags.length) await purgeTags(db, [...tags, cacheTags.shop(workspaceId)]);
}

/** Records a timeline entry (and the same in the audit log when a member did it). */
export async function recordOrderEvent(
  trx: Trx,
  workspaceId: string,
  orderId: string,
  kind: string,
  detail: Record<string, unknown>,
  actorUserId: string | null,
): Promise<string> {
  const id = newId();
  await trx
    .insertInto("order_events")
    .values({
      id,
      workspace_id: workspaceId,
      order_id: orderId,
      kind,
      detail: JSON.stringify(detail),
      actor_user_id: actorUserId,
      created_at: isoNow(),
    })
    .execute();
  await recordWorkspaceEvent(trx, workspaceId, {
    action: `order.${kind}`,
    actorUserId,
    detail: { orderId, ...detail },
  });
  return id;
}

async function queueMail(trx: Trx, workspaceId: string, payload: OrderMailPayload): Promise<void> {
  await enqueueJob(trx, { kind: ORDER_MAIL_JOB, workspaceId, payload, maxAttempts: 6 });
}

/**
 * Ends an order's holds on stock, each reservation once (its row deleted by id: of two concurrent releases one
 * deletes it and moves the counters). "release": the stock is on sale again (a cancelled or expired unpaid
 * order); "sell": it leaves the shelf (the order was paid).
 */
async function endReservations(trx: Trx, workspaceId: string, orderId: string, as: "release" | "sell"): Promise<void> {
  const held = await trx
    .selectFrom("stock_reservations")
    .select(["id", "variant_id", "quantity"])
    .where("workspace_id", "=", workspaceId)
    .where("order_id", "=", orderId)
    .execute();
  for (const r of held) {
    const gone = await trx.deleteFrom("stock_reservations").where("id", "=", r.id).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) continue;
    await trx
      .updateTable("product_variants")
      .set((eb) =>
        as === "sell"
          ? { reserved: eb("reserved", "-", r.quantity), stock: eb("stock", "-", r.quantity) }
          : { reserved: eb("reserved", "-", r.quantity) },
      )
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", r.variant_id)
      .execute();
  }
}

export interface PaymentNotice {
  provider: string;
  /** The provider's id for this payment; the manual provider's is the order's own. */
  reference: string;
  amount: number;
  currency: string;
  actorUserId: string | null;
  note?: string;
  origin: string;
}

export interface Finalised {
  /** False when this payment was applied before (a retry, a duplicate event): nothing changed. */
  applied: boolean;
  order: Order;
  /**
   * A second payment for an order already paid under another reference (marked paid by hand, then paid by card
   * from a page left open): recorded for the books, not applied. A card provider refunds it (ADR 032).
   */
  duplicate?: boolean;
}

export interface OrderFilter {
  /** "open": not yet sent or paid; "to_send": paid, with a delivery address, not all sent. */
  status?: OrderStatus | "open" | "to_send";
  query?: string;
  customerId?: string;
}

/**
 * Only a paid order (or one partly sent) ships: the check `fulfil` makes, and what a label provider asks before
 * it buys anything for the order.
 */
export function assertSendable(order: { status: string }): void {
  if (!["paid", "partially_fulfilled"].includes(order.status))
    throw conflict(
      order.status === "pending"
        ? "Mark the order as paid before sending it"
        : `A ${order.status} order cannot be sent`,
    );
}

export function ordersOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("orders").where("orders.workspace_id", "=", workspaceId);

  const filtered = (f: OrderFilter) => {
    let q = rows();
    if (f.status === "open") q = q.where("orders.status", "in", ["pending", "paid", "partially_fulfilled"]);
    else if (f.status === "to_send")
      q = q.where("orders.status", "in", ["paid", "partially_fulfilled"]).where("orders.address", "is not", null);
    else if (f.status) q = q.where("orders.status", "=", f.status);
    if (f.customerId) q = q.where("orders.customer_id", "=", f.customerId);
    if (f.query) {
      const text = f.query.replace(/^#/, "");
      q = q.where((eb) =>
        eb.or([
          containsText("orders.email", text),
          containsText("orders.name", text),
          ...(/^\d+$/.test(text) ? [eb("orders.number", "=", Number(text))] : []),
        ]),
      );
    }
    return q;
  };

  async function lockedOrder(trx: Trx, id: string): Promise<OrderRow> {
    const row = await trx
      .selectFrom("orders")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("That order was not found");
    return row;
  }

  return {
    /** Newest first, or oldest first (`oldestFirst`: what has waited longest, as /shipping lists it). */
    async list(f: OrderFilter & { size: number; offset: number; oldestFirst?: boolean }): Promise<Order[]> {
      const direction = f.oldestFirst ? "asc" : "desc";
      const found = await filtered(f)
        .selectAll("orders")
        .orderBy("orders.created_at", direction)
        .orderBy("orders.id", direction)
        .limit(f.size)
        .offset(f.offset)
        .execute();
      return found.map(toOrder);
    },

    /**
     * Sales of orders paid in [fromIso, untilIso), per currency: how many, their totals and what was refunded of
     * them, and the products that sold most (by quantity). Cancelled orders that were never paid do not count;
     * a refund lowers the net of the order it refunds.
     */
    async sales(fromIso: string, untilIso: string) {
      const paid = () =>
        rows()
          .where("orders.paid_at", ">=", fromIso)
          .where("orders.paid_at", "<", untilIso)
          .where("orders.status", "!=", "pending");
      const [totals, top] = await Promise.all([
        paid()
          .select((eb) => [
            "orders.currency",
            eb.fn.countAll<number>().as("orders"),
            eb.fn.sum<number>("orders.total").as("gross"),
            eb.fn.sum<number>("orders.refunded").as("refunded"),
          ])
          .groupBy("orders.currency")
          .orderBy("orders.currency")
          .execute(),
        paid()
          .innerJoin("order_lines as l", (j) =>
            j.onRef("l.order_id", "=", "orders.id").on("l.workspace_id", "=", workspaceId),
          )
          .select((eb) => [
            "l.title",
            eb.fn.sum<number>("l.quantity").as("quantity"),
            eb.fn.sum<number>("l.total").as("total"),
          ])
          .groupBy("l.title")
          .orderBy("quantity", "desc")
          .orderBy("l.title")
          .limit(5)
          .execute(),
      ]);
      return {
        byCurrency: totals.map((t) => ({
          currency: t.currency,
          orders: Number(t.orders),
          gross: Number(t.gross ?? 0),
          refunded: Number(t.refunded ?? 0),
          net: Number(t.gross ?? 0) - Number(t.refunded ?? 0),
        })),
        topProducts: top.map((t) => ({ title: t.title, quantity: Number(t.quantity), total: Number(t.total) })),
      };
    },

    async count(f: OrderFilter = {}): Promise<number> {
      const row = await filtered(f)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async byId(id: string): Promise<Order> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound("That order was not found");
      return toOrder(row);
    },

    /** One customer's order, or 404: another customer's order does not exist for them. */
    async ofCustomer(customerId: string, id: string): Promise<Order> {
      const row = await rows()
        .selectAll()
        .where("id", "=", id)
        .where("customer_id", "=", customerId)
        .executeTakeFirst();
      if (!row) throw notFound("That order was not found");
      return toOrder(row);
    },

    /** What is left to send weighs this much, as the catalogue weighed it (a parcel's weight to start from). */
    async unsentWeightGrams(orderId: string): Promise<number> {
      const row = await db
        .selectFrom("order_lines")
        .select((eb) =>
          eb.fn.sum<number>(eb("weight_grams", "*", eb("quantity", "-", eb.ref("fulfilled_quantity")))).as("grams"),
        )
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "=", orderId)
        .executeTakeFirst();
      // Postgres sums integers as a numeric, which its driver hands over as a string.
      return Number(row?.grams ?? 0);
    },

    async linesOf(orderId: string): Promise<OrderLine[]> {
      const lines = await db
        .selectFrom("order_lines")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "=", orderId)
        .orderBy("position")
        .execute();
      return lines.map((l) => ({
        id: l.id,
        productId: l.product_id,
        variantId: l.variant_id,
        title: l.title,
        variantTitle: l.variant_title,
        sku: l.sku,
        unitPrice: l.unit_price,
        quantity: l.quantity,
        discount: l.discount,
        tax: l.tax,
        total: l.total,
        fulfilledQuantity: l.fulfilled_quantity,
      }));
    },

    async eventsOf(orderId: string): Promise<OrderEvent[]> {
      const events = await db
        .selectFrom("order_events")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "=", orderId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return events.map((e) => ({
        id: e.id,
        kind: e.kind,
        detail: JSON.parse(e.detail) as Record<string, unknown>,
        actorUserId: e.actor_user_id,
        createdAt: e.created_at,
      }));
    },

    async paymentsOf(orderId: string) {
      return db
        .selectFrom("payments")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "=", orderId)
        .orderBy("created_at")
        .execute();
    },

    /** Payments and refunds across providers, newest first (Shop → Payments). */
    async payments(page: { size: number; offset: number }) {
      return db
        .selectFrom("payments as p")
        .innerJoin("orders as o", "o.id", "p.order_id")
        .select([
          "p.id",
          "p.provider",
          "p.kind",
          "p.amount",
          "p.currency",
          "p.reference",
          "p.note",
          "p.created_at",
          "o.id as order_id",
          "o.number",
          "o.name",
          "o.email",
        ])
        .where("p.workspace_id", "=", workspaceId)
        .orderBy("p.created_at", "desc")
        .orderBy("p.id", "desc")
        .limit(page.size)
        .offset(page.offset)
        .execute();
    },

    async countPayments(): Promise<number> {
      const row = await db
        .selectFrom("payments")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Applies a payment to an order: once, however often or concurrently it is told (see the file's note). */
    async finalisePayment(orderId: string, notice: PaymentNotice): Promise<Finalised> {
      // Through writeAndPurge, so what the order hooks change (a booking's slot) purges its pages once it commits.
      const done = await writeAndPurge(db, async (trx): Promise<Finalised> => {
        const order = await lockedOrder(trx, orderId);
        if (notice.currency !== order.currency)
          throw invalid(`This order is in ${order.currency}, not ${notice.currency}`);
        const inserted = await insertPayment(trx, workspaceId, orderId, {
          provider: notice.provider,
          kind: "payment",
          amount: notice.amount,
          currency: notice.currency,
          reference: notice.reference,
          note: notice.note ?? "",
          actorUserId: notice.actorUserId,
        });
        if (!inserted) return { applied: false, order: toOrder(await lockedOrder(trx, orderId)) };
        const at = isoNow();
        const moved = await trx
          .updateTable("orders")
          .set({ status: "paid", paid_at: at, updated_at: at, reserved_until: null })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", orderId)
          .where("status", "=", "pending")
          .executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) {
          if (order.status === "cancelled")
            throw conflict(
              `Order #${order.number} was cancelled${order.cancel_reason === "expired" ? " when its hold on the stock ran out" : ""}. Refund the payment, or place a new order for the customer.`,
            );
          // Paid before under another reference: the first payment stands; this one is recorded for the books.
          return { applied: false, duplicate: true, order: toOrder(await lockedOrder(trx, orderId)) };
        }
        await endReservations(trx, workspaceId, orderId, "sell");
        await issueInvoice(trx, workspaceId, orderId);
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          "paid",
          { provider: notice.provider, amount: notice.amount, reference: notice.reference },
          notice.actorUserId,
        );
        await queueMail(trx, workspaceId, { orderId, kind: "paid", eventId, origin: notice.origin });
        await orderPaid(trx, workspaceId, { id: orderId, total: order.total }, notice.origin);
        return { applied: true, order: toOrder(await lockedOrder(trx, orderId)) };
      });
      if (done.applied) await purgeStockOf(db, workspaceId, orderId);
      return done;
    },

    /**
     * Marks quantities of lines as sent (all that is left when `quantities` is omitted): partly or wholly
     * fulfilled. Only a paid order ships — or a pay-on-pickup order, handed over as it is paid. `pack` writes
     * the package they leave in (shipping.server.ts) in the same transaction, before the shipping e-mail is queued.
     */
    async fulfil(
      orderId: string,
      quantities: Record<string, number> | null,
      actorUserId: string,
      origin: string,
      pack?: (trx: Trx, sent: ReadonlyArray<{ lineId: string; quantity: number }>, eventId: string) => Promise<void>,
    ): Promise<Order> {
      return db.transaction().execute(async (trx) => {
        const order = await lockedOrder(trx, orderId);
        assertSendable(order);
        const lines = await trx
          .selectFrom("order_lines")
          .select(["id", "quantity", "fulfilled_quantity", "title"])
          .where("workspace_id", "=", workspaceId)
          .where("order_id", "=", orderId)
          .execute();
        const sent: Array<{ lineId: string; quantity: number }> = [];
        for (const line of lines) {
          const left = line.quantity - line.fulfilled_quantity;
          const want = quantities ? (quantities[line.id] ?? 0) : left;
          if (!Number.isInteger(want) || want < 0 || want > left)
            throw invalid(`At most ${left} of “${line.title}” remain to be sent`, [
              { field: line.id, message: `At most ${left} remain` },
            ]);
          if (want === 0) continue;
          // Conditional, so two sends at once (Postgres runs them side by side) never send more than was bought:
          // the second waits for the first's row and then finds too little left.
          const moved = await trx
            .updateTable("order_lines")
            .set((eb) => ({ fulfilled_quantity: eb("fulfilled_quantity", "+", want) }))
            .where("id", "=", line.id)
            .where((eb) => eb(eb("fulfilled_quantity", "+", want), "<=", eb.ref("quantity")))
            .executeTakeFirst();
          if (!Number(moved.numUpdatedRows)) throw conflict(`“${line.title}” was sent meanwhile`);
          sent.push({ lineId: line.id, quantity: want });
        }
        if (sent.length === 0) throw invalid("Choose what you are sending");
        const after = await trx
          .selectFrom("order_lines")
          .select(["quantity", "fulfilled_quantity"])
          .where("order_id", "=", orderId)
          .execute();
        const all = after.every((l) => l.fulfilled_quantity >= l.quantity);
        const at = isoNow();
        await trx
          .updateTable("orders")
          .set({ status: all ? "fulfilled" : "partially_fulfilled", fulfilled_at: all ? at : null, updated_at: at })
          .where("id", "=", orderId)
          .where("workspace_id", "=", workspaceId)
          .execute();
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          all ? "fulfilled" : "partially_fulfilled",
          { lines: sent },
          actorUserId,
        );
        if (pack) await pack(trx, sent, eventId);
        await queueMail(trx, workspaceId, { orderId, kind: "fulfilled", eventId, origin });
        return toOrder(await lockedOrder(trx, orderId));
      });
    },

    async complete(orderId: string, actorUserId: string): Promise<Order> {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("orders")
          .set({ status: "completed", updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", orderId)
          .where("status", "=", "fulfilled")
          .executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) throw conflict("Only a sent order can be completed");
        await recordOrderEvent(trx, workspaceId, orderId, "completed", {}, actorUserId);
        return toOrder(await lockedOrder(trx, orderId));
      });
    },

    /**
     * Cancels an order that has not been sent. An unpaid order gives its stock back and its coupon use; a paid
     * one is refunded in full as well (recorded with its provider), and its stock is put back when `restock`.
     */
    async cancel(
      orderId: string,
      by: { userId: string } | { customer: true } | { system: "expired" },
      options: { reason?: string; restock?: boolean; origin: string; refundReference?: string; from?: OrderStatus },
    ): Promise<Order> {
      const cancelled = await writeAndPurge(db, async (trx) => {
        const order = await lockedOrder(trx, orderId);
        // A customer or the expiry sweep cancels only what is unpaid, and the console what it saw: an order paid
        // meanwhile (its provider's payment landing while its page was being closed) is never cancelled as if
        // refunded.
        const expected = "userId" in by ? options.from : "pending";
        if (expected && order.status !== expected) throw conflict("This order changed meanwhile; reload it");
        if (!["pending", "paid"].includes(order.status))
          throw conflict(
            order.status === "cancelled"
              ? "This order is already cancelled"
              : "An order that has been sent cannot be cancelled; refund it instead",
          );
        const at = isoNow();
        const reason = "system" in by ? "expired" : (options.reason ?? "customer" in by) ? "customer" : "";
        const moved = await trx
          .updateTable("orders")
          .set({ status: "cancelled", cancelled_at: at, cancel_reason: reason, reserved_until: null, updated_at: at })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", orderId)
          .where("status", "=", order.status)
          .executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) throw conflict("This order changed meanwhile; reload it");
        await endReservations(trx, workspaceId, orderId, "release");
        if (order.status === "pending" && order.coupon_id) {
          await trx
            .updateTable("coupons")
            .set((eb) => ({ used_count: eb("used_count", "-", 1) }))
            .where("id", "=", order.coupon_id)
            .where("workspace_id", "=", workspaceId)
            .where("used_count", ">", 0)
            .execute();
          const buyer = order.customer_id ? `customer:${order.customer_id}` : `email:${order.email}`;
          await trx
            .updateTable("coupon_uses")
            .set((eb) => ({ uses: eb("uses", "-", 1) }))
            .where("coupon_id", "=", order.coupon_id)
            .where("buyer", "=", buyer)
            .where("uses", ">", 0)
            .execute();
        }
        const actor = "userId" in by ? by.userId : null;
        if (order.status === "paid") {
          await refundWithin(trx, order, order.total - order.refunded, actor, "Cancelled", options.refundReference);
          if (options.restock) await restock(trx, workspaceId, orderId);
        }
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          "cancelled",
          { reason, by: "userId" in by ? "member" : "customer" in by ? "customer" : "system" },
          actor,
        );
        await queueMail(trx, workspaceId, { orderId, kind: "cancelled", eventId, origin: options.origin });
        await orderCancelled(trx, workspaceId, orderId, options.origin);
        return toOrder(await lockedOrder(trx, orderId));
      });
      await purgeStockOf(db, workspaceId, orderId);
      return cancelled;
    },

    /**
     * Records a refund (full or partial, never above what was paid and not yet refunded). `reference` is the
     * provider's id for it (a Stripe refund's): recording the same one again — the provider's event after the
     * console's own call, a retried event — changes nothing.
     */
    async refund(
      orderId: string,
      amount: number,
      actorUserId: string | null,
      options: { note?: string; restock?: boolean; origin: string; reference?: string },
    ): Promise<Order> {
      const refunded = await db.transaction().execute(async (trx) => {
        const order = await lockedOrder(trx, orderId);
        if (options.reference) {
          const known = await trx
            .selectFrom("payments")
            .select("id")
            .where("workspace_id", "=", workspaceId)
            .where("provider", "=", order.payment_provider)
            .where("reference", "=", options.reference)
            .executeTakeFirst();
          if (known) return toOrder(order);
        }
        if (!["paid", "partially_fulfilled", "fulfilled", "completed"].includes(order.status))
          throw conflict(
            order.status === "pending"
              ? "Nothing has been paid yet: cancel the order instead"
              : `A ${order.status} order cannot be refunded`,
          );
        const left = order.total - order.refunded;
        if (!Number.isInteger(amount) || amount <= 0 || amount > left)
          throw invalid("A refund is at most what was paid and not yet refunded", [
            { field: "amount", message: "Too much" },
          ]);
        // Recorded by a concurrent request under the same reference (a double submit): that one stands.
        if (!(await refundWithin(trx, order, amount, actorUserId, options.note ?? "", options.reference)))
          return toOrder(order);
        if (options.restock) await restock(trx, workspaceId, orderId);
        if (amount === left)
          await trx
            .updateTable("orders")
            .set({ status: "refunded", updated_at: isoNow() })
            .where("id", "=", orderId)
            .where("workspace_id", "=", workspaceId)
            .execute();
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          "refunded",
          { amount, full: amount === left },
          actorUserId,
        );
        await queueMail(trx, workspaceId, { orderId, kind: "refunded", eventId, origin: options.origin });
        return toOrder(await lockedOrder(trx, orderId));
      });
      if (options.restock) await purgeStockOf(db, workspaceId, orderId);
      return refunded;
    },

    /**
     * A provider's payment for an order already released (its hold ran out, or it was cancelled): recorded with
     * the refund the provider made of it at once (ADR 032), so the books show both and the order stays cancelled.
     * Once per payment, however often the provider tells it.
     */
    async recordRefundedLatePayment(
      orderId: string,
      notice: PaymentNotice,
      refund: { reference: string; amount: number },
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockedOrder(trx, orderId);
        const at = isoNow();
        const inserted = await insertPayment(trx, workspaceId, orderId, {
          provider: notice.provider,
          kind: "payment",
          amount: notice.amount,
          currency: notice.currency,
          reference: notice.reference,
          note: "Arrived after the order was released",
          actorUserId: null,
        });
        if (!inserted) return false;
        await insertPayment(trx, workspaceId, orderId, {
          provider: notice.provider,
          kind: "refund",
          amount: refund.amount,
          currency: notice.currency,
          reference: refund.reference,
          note: "Refunded automatically: the order had been released",
          actorUserId: null,
        });
        await trx
          .updateTable("orders")
          .set((eb) => ({ refunded: eb("refunded", "+", refund.amount), updated_at: at }))
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", orderId)
          .execute();
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          "late_payment_refunded",
          { provider: notice.provider, amount: notice.amount, reference: notice.reference },
          null,
        );
        await queueMail(trx, workspaceId, { orderId, kind: "refunded", eventId, origin: notice.origin });
        return true;
      });
    },

    /**
     * The refund a provider made of a second payment for an already paid order: recorded beside it, so the books
     * balance, without counting against what the order itself may still refund. Once per refund.
     */
    async recordDuplicateRefund(
      orderId: string,
      refund: { provider: string; reference: string; amount: number; currency: string; paymentReference: string },
      origin: string,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockedOrder(trx, orderId);
        const inserted = await insertPayment(trx, workspaceId, orderId, {
          provider: refund.provider,
          kind: "refund",
          amount: refund.amount,
          currency: refund.currency,
          reference: refund.reference,
          note: "Refunded automatically: the order was already paid",
          actorUserId: null,
        });
        if (!inserted) return false;
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          "duplicate_payment_refunded",
          { provider: refund.provider, amount: refund.amount, reference: refund.paymentReference },
          null,
        );
        await queueMail(trx, workspaceId, { orderId, kind: "refunded", eventId, origin });
        return true;
      });
    },

    /** Keeps the provider's hosted checkout made for an unpaid order (ADR 032). */
    async setCheckout(orderId: string, checkout: { reference: string; url: string | null; expiresAt: string }) {
      await db
        .updateTable("orders")
        .set({
          checkout_reference: checkout.reference,
          checkout_url: checkout.url,
          checkout_expires_at: checkout.expiresAt,
          updated_at: isoNow(),
        })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", orderId)
        .execute();
    },

    /** The order a provider's hosted checkout was made for (a webhook names the checkout, not always the order). */
    async byCheckout(reference: string): Promise<Order | null> {
      const row = await rows().selectAll().where("checkout_reference", "=", reference).executeTakeFirst();
      return row ? toOrder(row) : null;
    },

    /** Unpaid orders whose provider's hosted page may still be open (at most `limit`, oldest first). */
    async openCheckouts(provider: string, limit = 500): Promise<Order[]> {
      const list = await rows()
        .selectAll()
        .where("status", "=", "pending")
        .where("payment_provider", "=", provider)
        .where("checkout_reference", "is not", null)
        .where("checkout_expires_at", ">", isoNow())
        .orderBy("created_at")
        .limit(limit)
        .execute();
      return list.map(toOrder);
    },

    /** The order a provider's payment paid, by the payment's reference (a Stripe PaymentIntent's id). */
    async byPaymentReference(provider: string, reference: string): Promise<Order | null> {
      const row = await db
        .selectFrom("payments")
        .select("order_id")
        .where("workspace_id", "=", workspaceId)
        .where("provider", "=", provider)
        .where("kind", "=", "payment")
        .where("reference", "=", reference)
        .executeTakeFirst();
      return row ? this.byId(row.order_id) : null;
    },

    /** E-mails the order's confirmation again (a customer lost it). */
    async resendConfirmation(orderId: string, actorUserId: string, origin: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockedOrder(trx, orderId);
        const eventId = await recordOrderEvent(trx, workspaceId, orderId, "confirmation_resent", {}, actorUserId);
        await queueMail(trx, workspaceId, { orderId, kind: "resent", eventId, origin });
      });
    },

    /**
     * Unpaid orders past their hold: cancelled, their stock given back. Answers how many. `release` asks the
     * order's provider first (ADR 032: a card checkout is expired at the provider; false when it turns out paid).
     */
    async expireUnpaid(origin: string, release?: ReleaseCheckout): Promise<number> {
      const due = await rows()
        .selectAll()
        .where("status", "=", "pending")
        .where("reserved_until", "<", isoNow())
        .orderBy("reserved_until")
        .limit(100)
        .execute();
      let count = 0;
      for (const row of due) {
        try {
          if (release && !(await release(workspaceId, toOrder(row)))) continue;
          await this.cancel(row.id, { system: "expired" }, { origin });
          count += 1;
        } catch {
          // Paid or cancelled meanwhile: nothing to expire.
        }
      }
      return count;
    },
  };
}

/**
 * A payment or refund row, once per provider reference: false when that reference is already recorded (a retry,
 * a duplicate event, a concurrent request that got there first; on Postgres this waits for that one to commit).
 */
async function insertPayment(
  trx: Trx,
  workspaceId: string,
  orderId: string,
  row: {
    provider: string;
    kind: "payment" | "refund";
    amount: number;
    currency: string;
    reference: string;
    note: string;
    actorUserId: string | null;
  },
): Promise<boolean> {
  const inserted = await trx
    .insertInto("payments")
    .values({
      id: newId(),
      workspace_id: workspaceId,
      order_id: orderId,
      provider: row.provider,
      kind: row.kind,
      amount: row.amount,
      currency: row.currency,
      reference: row.reference,
      note: row.note,
      actor_user_id: row.actorUserId,
      created_at: isoNow(),
    })
    .onConflict((oc) => oc.columns(["workspace_id", "provider", "reference"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function refundWithin(
  trx: Trx,
  order: OrderRow,
  amount: number,
  actorUserId: string | null,
  note: string,
  reference?: string,
): Promise<boolean> {
  if (amount <= 0) return false;
  const inserted = await insertPayment(trx, order.workspace_id, order.id, {
    provider: order.payment_provider,
    kind: "refund",
    amount,
    currency: order.currency,
    reference: reference ?? `refund:${order.id}:${newId()}`,
    note,
    actorUserId,
  });
  if (!inserted) return false;
  // Guarded, as stock is: two refunds at once (on Postgres, each read the total before the other) never add up to
  // more than was paid.
  const counted = await trx
    .updateTable("orders")
    .set((eb) => ({ refunded: eb("refunded", "+", amount) }))
    .where("id", "=", order.id)
    .where("workspace_id", "=", order.workspace_id)
    .where((eb) => eb(eb("refunded", "+", amount), "<=", eb.ref("total")))
    .executeTakeFirst();
  if (!Number(counted.numUpdatedRows)) throw conflict("This order was refunded meanwhile; reload it");
  return true;
}

/**
 * The paid order's invoice, numbered in the payment's transaction: the workspace's counter moves by one with
 * the payment or not at all (a rolled-back payment takes its number back), so numbers have no gaps; on Postgres
 * the counter's row lock queues concurrent payments of one workspace for this one statement.
 */
async function issueInvoice(trx: Trx, workspaceId: string, orderId: string): Promise<void> {
  const counted = await trx
    .insertInto("invoice_counters")
    .values({ workspace_id: workspaceId, last_number: 1 })
    .onConflict((oc) =>
      oc.column("workspace_id").doUpdateSet((eb) => ({ last_number: eb("invoice_counters.last_number", "+", 1) })),
    )
    .returning("last_number")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("invoices")
    .values({
      id: newId(),
      workspace_id: workspaceId,
      order_id: orderId,
      number: counted.last_number,
      issued_at: isoNow(),
    })
    .execute();
}

/** Puts an order's unsent quantities back on the shelf (a cancelled or refunded paid order). */
async function restock(trx: Trx, workspaceId: string, orderId: string): Promise<void> {
  const lines = await trx
    .selectFrom("order_lines")
    .select(["variant_id", "quantity", "fulfilled_quantity"])
    .where("workspace_id", "=", workspaceId)
    .where("order_id", "=", orderId)
    .execute();
  for (const line of lines) {
    const back = line.quantity - line.fulfilled_quantity;
    if (!line.variant_id || back <= 0) continue;
    await trx
      .updateTable("product_variants")
      .set((eb) => ({ stock: eb("stock", "+", back) }))
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", line.variant_id)
      .where("inventory_tracked", "=", 1)
      .execute();
  }
}

/** Asked before an unpaid order is released: false when the provider says it was paid meanwhile. */
export type ReleaseCheckout = (workspaceId: string, order: Order) => Promise<boolean>;

/** The expiry sweep over every workspace (the maintenance loop). */
export async function expireUnpaidOrders(db: Db, origin: string, release?: ReleaseCheckout): Promise<void> {
  const due = await db
    .selectFrom("orders")
    .select(["workspace_id"])
    .distinct()
    .where("status", "=", "pending")
    .where("reserved_until", "<", isoNow())
    .limit(100)
    .execute();
  for (const { workspace_id } of due) await ordersOf(db, workspace_id).expireUnpaid(origin, release);
}
