/**
 * Contact events: what happened with a customer, by e-mail address (a SOP's `create_contact_event` step, the
 * contact form; orders and bookings later), linked to the workspace's customer record once the address is
 * proven (`customer_id`, ADR 029): the customer's timeline in the console.
 */
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";

export interface NewContactEvent {
  email: string;
  type: string;
  note: string;
  source: string;
  /** A retried job step passes the same key and gets the first event back. */
  idempotencyKey?: string;
  /** The customer it is about, when known (a signed-in customer's message; ADR 029). */
  customerId?: string | null;
}

export function contactEventsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("contact_events").where("workspace_id", "=", workspaceId);
  return {
    async record(event: NewContactEvent): Promise<{ id: string; duplicate: boolean }> {
      const byKey = () =>
        event.idempotencyKey
          ? rows().select("id").where("idempotency_key", "=", event.idempotencyKey).executeTakeFirst()
          : Promise.resolve(undefined);
      const previous = await byKey();
      if (previous) return { id: previous.id, duplicate: true };
      const id = newId();
      try {
        await db
          .insertInto("contact_events")
          .values({
            id,
            workspace_id: workspaceId,
            idempotency_key: event.idempotencyKey ?? null,
            email: event.email.toLowerCase(),
            customer_id: event.customerId ?? null,
            type: event.type,
            note: event.note,
            source: event.source,
            created_at: isoNow(),
          })
          .execute();
      } catch (error) {
        // A retry raced this one on the same key: answer with the event it wrote.
        const winner = isUniqueViolation(error) ? await byKey() : undefined;
        if (winner) return { id: winner.id, duplicate: true };
        throw error;
      }
      return { id, duplicate: false };
    },
    list: (email: string) =>
      rows().selectAll().where("email", "=", email.toLowerCase()).orderBy("created_at", "desc").limit(100).execute(),
  };
}
