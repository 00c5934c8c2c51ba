/**
 * A customer's data rights (issue 16, ADR 029), from the console or by the customer from their portal:
 *
 * - **export** — everything the workspace holds about them, as JSON: the profile, sessions and sign-in
 *   requests (without their hashes), manage links, tickets with every message, contact events and messages,
 *   saved items, the e-mails sent to them or about them, and the audit trail that names them.
 * - **erase** — personal fields anonymised in place (the record stays, as orders will need for accounting, but
 *   names no one), and what is only personal deleted: sessions, challenges, links, tickets, contact messages,
 *   saved items and the outbox's copies of mail to them or about them (the team's notifications quote them).
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

  const [sessions, challenges, links, tickets, messages, events, contactMessages, saved, mail, audit] =
    await Promise.all([
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
