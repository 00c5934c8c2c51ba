/**
 * A customer's data rights (issue 16, ADR 029), from the console or by the customer from their portal:
 *
 * - **export** — everything the workspace holds about them, as JSON: the profile, sessions and sign-in
 *   requests (without their hashes), manage links, tickets with every message, contact events and messages,
 *   saved items, orders, bookings and waitlist places, their conversations with the site assistant, the e-mails
 *   sent to them or about them, and the audit trail
 *   that names them.
 * - **erase** — personal fields anonymised in place (the record stays, as orders need for accounting, but names
 *   no one; so do their orders, which keep amounts, lines and the country taxed), and what is only personal
 *   deleted: sessions, challenges, links, tickets, contact messages, saved items, carts and the outbox's copies
 *   of mail to them or about them (the team's notifications quote them).
 *
 * Both are written to the audit log, by the member or the customer who asked, in the act's transaction.
 */
import type { Db } from "~db/client";
import { containsText } from "~db/like";
import { isoNow } from "~/lib/clock.server";
import { conflict } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { NO_PERSONAL_DATA, customersOf } from "./customers.server";

export const EXPORT_FORMAT = "atrium.customer-export.v1";

/** Who asked: a member of the workspace, or the customer themself (portal or API). */
export type PrivacyActor = { userId: string } | { customer: true };

const actorOf = (actor: PrivacyActor) => ("userId" in actor ? actor.userId : null);

export async function exportCustomer(db: Db, workspaceId: string, customerId: string, actor: PrivacyActor) {
  const customer = await customersOf(db, workspaceId).byId(customerId);
  const email = customer.email;
  // Recorded first, so the export holds its own record too: it is something the workspace keeps about them.
  await recordWorkspaceEvent(db, workspaceId, {
    action: "customer.exported",
    actorUserId: actorOf(actor),
    detail: { customerId, by: "userId" in actor ? "member" : "customer" },
  });

  const [
    sessions,
    challenges,
    links,
    tickets,
    messages,
    events,
    contactMessages,
    saved,
    mail,
    audit,
    orders,
    orderLines,
    carts,
    couponUses,
    apiKeys,
    bookings,
    waitlist,
    conversations,
  ] = await Promise.all([
    db
      .selectFrom("customer_sessions")
      .select(["kind", "created_at", "last_seen_at", "expires_at", "ip", "user_agent"])
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .execute(),
    db
      .selectFrom("customer_challenges")
      .select(["id", "email", "purpose", "created_at", "expires_at", "used_at", "attempts"])
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("email", "=", email), eb("customer_id", "=", customerId)]))
      .execute(),
    db
      .selectFrom("manage_tokens")
      .select([
        "subject_type",
        "subject_id",
        "actions",
        "email",
        "created_at",
        "expires_at",
        "revoked_at",
        "last_used_at",
      ])
      .where("workspace_id", "=", workspaceId)
      .where("email", "=", email)
      .execute(),
    db
      .selectFrom("tickets")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute(),
    db
      .selectFrom("ticket_messages as m")
      .innerJoin("tickets as t", "t.id", "m.ticket_id")
      .select(["m.id", "m.ticket_id", "m.author", "m.body", "m.created_at"])
      .where("m.workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("t.customer_id", "=", customerId), eb("t.email", "=", email)]))
      .orderBy("m.created_at")
      .execute(),
    db
      .selectFrom("contact_events")
      .select(["id", "email", "type", "note", "source", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute(),
    db
      .selectFrom("contact_messages as m")
      .innerJoin("contact_events as e", "e.id", "m.id")
      .select(["m.id", "m.name", "m.message", "m.created_at"])
      .where("m.workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("e.customer_id", "=", customerId), eb("e.email", "=", email)]))
      .execute(),
    db
      .selectFrom("saved_items")
      .select(["kind", "ref", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .execute(),
    db
      .selectFrom("mail_messages")
      .select(["id", "to_address", "subject", "body", "status", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("to_address", "=", email), containsText("body", email)]))
      .execute(),
    db
      .selectFrom("audit_events")
      .select(["id", "action", "detail", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where("detail", "like", `%${customerId}%`)
      .execute(),
    // The shop's orders (issue 17): theirs by account or by the address they bought with as a guest.
    db
      .selectFrom("orders")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("order_lines as l")
      .innerJoin("orders as o", "o.id", "l.order_id")
      .select([
        "l.order_id",
        "l.title",
        "l.variant_title",
        "l.sku",
        "l.unit_price",
        "l.quantity",
        "l.discount",
        "l.tax",
        "l.total",
      ])
      .where("l.workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("o.customer_id", "=", customerId), eb("o.email", "=", email)]))
      .orderBy("l.position")
      .execute(),
    // Carts without their cookie's digest, the coupons they used, and the Idempotency-Keys their API calls sent.
    db
      .selectFrom("carts")
      .select(["id", "email", "name", "phone", "address", "coupon_code", "order_id", "created_at", "updated_at"])
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute(),
    db
      .selectFrom("coupon_uses as u")
      .innerJoin("coupons as c", "c.id", "u.coupon_id")
      .select(["c.code", "u.buyer", "u.uses"])
      .where("u.workspace_id", "=", workspaceId)
      .where("u.buyer", "in", [`customer:${customerId}`, `email:${email}`])
      .execute(),
    db
      .selectFrom("idempotency_keys")
      .select(["caller", "key", "status", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where("caller", "=", `customer:${customerId}`)
      .execute(),
    // Bookings (issue 19): theirs by account or by the address they booked with as a guest, with their answers.
    db
      .selectFrom("bookings as b")
      .innerJoin("booking_services as s", "s.id", "b.service_id")
      .select([
        "b.id",
        "s.name as service",
        "b.status",
        "b.start_at",
        "b.end_at",
        "b.seats",
        "b.name",
        "b.email",
        "b.phone",
        "b.answers",
        "b.notes",
        "b.visitor_time_zone",
        "b.price",
        "b.deposit",
        "b.amount_paid",
        "b.currency",
        "b.cancel_reason",
        "b.created_at",
      ])
      .where("b.workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("b.customer_id", "=", customerId), eb("b.email", "=", email)]))
      .orderBy("b.start_at")
      .execute(),
    db
      .selectFrom("booking_waitlist")
      .select(["service_id", "start_at", "name", "email", "status", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute(),
    // What they asked the site assistant while signed in (issue 20): a visitor's are not theirs by any record.
    db
      .selectFrom("chat_conversations")
      .select(["id", "client_id", "title", "messages", "created_at", "updated_at"])
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .orderBy("created_at")
      .execute(),
  ]);

  return {
    format: EXPORT_FORMAT,
    exportedAt: isoNow(),
    customer,
    sessions,
    signInRequests: challenges,
    manageLinks: links,
    tickets: tickets.map((t) => ({ ...t, messages: messages.filter((m) => m.ticket_id === t.id) })),
    contactEvents: events,
    contactMessages,
    saved,
    orders: orders.map((o) => ({ ...o, lines: orderLines.filter((l) => l.order_id === o.id) })),
    carts,
    couponUses,
    bookings: bookings.map((b) => ({ ...b, answers: JSON.parse(b.answers) as Record<string, string> })),
    waitlist,
    assistantConversations: conversations.map((c) => ({ ...c, messages: JSON.parse(c.messages) as unknown[] })),
    apiRequests: apiKeys,
    emailsSent: mail,
    auditTrail: audit,
  };
}

/** Anonymises the customer and deletes what is only personal, in one transaction. */
export async function eraseCustomer(db: Db, workspaceId: string, customerId: string, actor: PrivacyActor) {
  const customer = await customersOf(db, workspaceId).byId(customerId);
  if (customer.erased) throw conflict("This customer's data was already erased");
  const email = customer.email;
  const at = isoNow();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("customer_sessions")
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .execute();
    await trx
      .deleteFrom("customer_challenges")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("email", "=", email), eb("customer_id", "=", customerId)]))
      .execute();
    await trx.deleteFrom("manage_tokens").where("workspace_id", "=", workspaceId).where("email", "=", email).execute();
    await trx
      .deleteFrom("saved_items")
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .execute();
    // Tickets go with their messages (cascade).
    await trx
      .deleteFrom("tickets")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute();
    const events = trx
      .selectFrom("contact_events")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]));
    await trx
      .deleteFrom("contact_messages")
      .where("workspace_id", "=", workspaceId)
      .where("id", "in", events)
      .execute();
    await trx
      .deleteFrom("contact_events")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute();
    await trx
      .deleteFrom("mail_messages")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("to_address", "=", email), containsText("body", email)]))
      .execute();
    // Orders stay for the books (amounts, tax, what was sold, the country taxed) but no longer name anyone.
    const orders = await trx
      .selectFrom("orders")
      .select(["id", "address"])
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute();
    for (const order of orders) {
      const place = order.address ? (JSON.parse(order.address) as { country?: string; region?: string }) : null;
      await trx
        .updateTable("orders")
        .set({
          email: `erased-${order.id.toLowerCase()}@invalid`,
          name: "",
          phone: null,
          address: place ? JSON.stringify({ country: place.country ?? "", region: place.region ?? "" }) : null,
          erased_at: at,
        })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", order.id)
        .execute();
    }
    // Their packages keep the carrier and what the label cost; the tracking number and the carrier's steps (which
    // say where the parcel was delivered) go.
    if (orders.length > 0) {
      const ids = orders.map((o) => o.id);
      const shipments = trx
        .selectFrom("shipments")
        .select("id")
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "in", ids);
      await trx
        .deleteFrom("shipment_events")
        .where("workspace_id", "=", workspaceId)
        .where("shipment_id", "in", shipments)
        .execute();
      await trx
        .updateTable("shipments")
        // Without the provider's ids, a later tracking event finds no package and brings nothing back.
        .set({
          tracking_number: "",
          tracking_url: null,
          label_url: null,
          status_detail: "",
          provider_shipment_id: null,
          provider_tracker_id: null,
          updated_at: at,
        })
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "in", ids)
        .execute();
    }
    await trx
      .deleteFrom("carts")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute();
    // Bookings stay for the calendar and the books (when, what, what was paid) but no longer name anyone, nor keep
    // what they answered or wrote; their places on waitlists go.
    const bookings = await trx
      .selectFrom("bookings")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute();
    for (const booking of bookings) {
      await trx
        .updateTable("bookings")
        .set({
          name: "",
          email: `erased-${booking.id.toLowerCase()}@invalid`,
          phone: "",
          answers: "{}",
          notes: "",
          cancel_reason: "",
          updated_at: at,
        })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", booking.id)
        .execute();
    }
    await trx
      .deleteFrom("booking_waitlist")
      .where("workspace_id", "=", workspaceId)
      .where((eb) => eb.or([eb("customer_id", "=", customerId), eb("email", "=", email)]))
      .execute();
    // Their conversations with the site assistant are only personal (a ticket it became stays, anonymised above).
    await trx
      .deleteFrom("chat_conversations")
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .execute();
    // A coupon's count of uses stays (its limit still holds); whose uses they were does not.
    await trx
      .deleteFrom("coupon_uses")
      .where("workspace_id", "=", workspaceId)
      .where("buyer", "in", [`customer:${customerId}`, `email:${email}`])
      .execute();
    await trx
      .deleteFrom("idempotency_keys")
      .where("workspace_id", "=", workspaceId)
      .where("caller", "=", `customer:${customerId}`)
      .execute();
    await trx
      .updateTable("customers")
      .set({ ...NO_PERSONAL_DATA, email: `erased-${customerId.toLowerCase()}@invalid`, erased_at: at })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", customerId)
      .execute();
    await recordWorkspaceEvent(trx, workspaceId, {
      action: "customer.erased",
      actorUserId: actorOf(actor),
      detail: { customerId, by: "userId" in actor ? "member" : "customer" },
    });
  });
}
