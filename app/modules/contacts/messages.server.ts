/**
 * Messages visitors send through a site's contact form (`POST /api/v1/contact`), read by the workspace's
 * operators in the console's inbox. Each is a contact event of the workspace (type `message`, recorded through
 * `contactEventsOf`, so the contacts issue finds it by e-mail beside orders and bookings) plus its
 * `contact_messages` row: the name, the text and the read state. Built for one workspace, like every
 * repository (DESIGN rule 2): another workspace's message is "not found".
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import type { PageRequest } from "~/lib/pagination.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import { contactEventsOf } from "./contact-events.server";

export const MESSAGE_MAX_LENGTH = 5000;

/** The job that e-mails the business about a new message (app/modules/contacts/notify.server.ts). */
export const NOTIFY_JOB = "contacts.message-notify";
/** The first attempt and 5 retries (a mail server that is down for now). */
export const NOTIFY_ATTEMPTS = 6;

export interface NotifyPayload {
  messageId: string;
  /** The public origin the message came in on, for the link to the inbox. */
  origin: string;
}

/** What the form and the API accept; the site is never part of it (ADR 005). */
export const ContactMessageInput = z.object({
  // One line of plain text: the name goes into the notification e-mail's subject and first line, where a line
  // break would let a sender write lines that seem to come from Atrium, and bidi controls would reorder it.
  name: z
    .string()
    .trim()
    .min(1, "Enter your name")
    .max(120, "Use at most 120 characters")
    .regex(
      /^[^\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/u,
      "Write your name on one line, without special characters",
    ),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "Enter your e-mail address, so the business can answer")
    .max(254, "Use at most 254 characters")
    .pipe(z.email("Enter a valid e-mail address, like name@example.com")),
  message: z
    .string()
    .trim()
    .min(1, "Write your message")
    .max(MESSAGE_MAX_LENGTH, `Keep the message under ${MESSAGE_MAX_LENGTH.toLocaleString("en")} characters`),
});
export type ContactMessageInput = z.output<typeof ContactMessageInput>;

export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  message: string;
  readAt: string | null;
  createdAt: string;
}

export function contactMessagesOf(db: Db, workspaceId: string) {
  const rows = () =>
    db
      .selectFrom("contact_messages as m")
      .innerJoin("contact_events as e", "e.id", "m.id")
      .where("m.workspace_id", "=", workspaceId)
      .select(["m.id", "m.name", "e.email", "m.message", "m.read_at as readAt", "m.created_at as createdAt"]);

  async function byId(id: string): Promise<ContactMessage> {
    const row = await rows().where("m.id", "=", id).executeTakeFirst();
    if (!row) throw notFound("That message was not found");
    return row;
  }

  const setRead = async (id: string, readAt: string | null) => {
    await byId(id);
    await db
      .updateTable("contact_messages")
      .set({ read_at: readAt })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .execute();
  };

  return {
    /** Whether a message was already stored with this key (a retry): it is answered again, not counted again. */
    async isRetry(idempotencyKey: string | undefined): Promise<boolean> {
      if (!idempotencyKey) return false;
      const row = await db
        .selectFrom("contact_events")
        .select("id")
        .where("workspace_id", "=", workspaceId)
        .where("idempotency_key", "=", idempotencyKey)
        .executeTakeFirst();
      return !!row;
    },

    /**
     * Stores a message; a retry with the same `idempotencyKey` gets the first message back (`duplicate`) and
     * stores nothing. The event and its message are written in one transaction.
     */
    async receive(
      input: ContactMessageInput,
      options: {
        idempotencyKey?: string;
        source?: string;
        /** E-mails the owner and admins (a job), with a link to the inbox on this origin. */
        notify?: { origin: string };
        /** The signed-in customer who sent it (never an id from the body). */
        customerId?: string | null;
      } = {},
    ): Promise<{ id: string; duplicate: boolean }> {
      const earlier = async () => {
        if (!options.idempotencyKey) return undefined;
        const row = await db
          .selectFrom("contact_events")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("idempotency_key", "=", options.idempotencyKey)
          .executeTakeFirst();
        return row ? { id: row.id, duplicate: true } : undefined;
      };
      const previous = await earlier();
      if (previous) return previous;
      try {
        return await db.transaction().execute(async (trx) => {
          const event = await contactEventsOf(trx, workspaceId).record({
            email: input.email,
            type: "message",
            note: "Sent a message through the contact form",
            source: options.source ?? "contact-form",
            idempotencyKey: options.idempotencyKey,
            customerId: options.customerId,
          });
          await trx
            .insertInto("contact_messages")
            .values({
              id: event.id,
              workspace_id: workspaceId,
              name: input.name,
              message: input.message,
              read_at: null,
              created_at: isoNow(),
            })
            .execute();
          if (options.notify && !event.duplicate) {
            const payload: NotifyPayload = { messageId: event.id, origin: options.notify.origin };
            await enqueueJob(trx, { kind: NOTIFY_JOB, workspaceId, payload, maxAttempts: NOTIFY_ATTEMPTS });
          }
          return event;
        });
      } catch (error) {
        // A retry raced this one on the same key (Postgres aborts the transaction on the unique violation):
        // answer with the message the other wrote.
        const winner = await earlier().catch(() => undefined);
        if (winner) return winner;
        throw error;
      }
    },

    /** Newest first. */
    list: (page: Pick<PageRequest, "size" | "offset">): Promise<ContactMessage[]> =>
      rows().orderBy("m.created_at", "desc").orderBy("m.id", "desc").limit(page.size).offset(page.offset).execute(),

    async count(): Promise<{ total: number; unread: number }> {
      const row = await db
        .selectFrom("contact_messages")
        .where("workspace_id", "=", workspaceId)
        .select((eb) => [eb.fn.countAll<number>().as("total"), eb.fn.count<number>("read_at").as("read")])
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), unread: Number(row.total) - Number(row.read) };
    },

    byId,

    /** Opening a message marks it read for every operator of the workspace (once: the first time stays). */
    async open(id: string): Promise<ContactMessage> {
      const message = await byId(id);
      if (message.readAt) return message;
      const readAt = isoNow();
      await db
        .updateTable("contact_messages")
        .set({ read_at: readAt })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .where("read_at", "is", null)
        .execute();
      return { ...message, readAt };
    },

    markUnread: (id: string) => setRead(id, null),

    /** Deletes the message and its contact event, with an audit event, in one transaction. */
    async remove(actorUserId: string, id: string): Promise<void> {
      await byId(id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("contact_messages").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await trx.deleteFrom("contact_events").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "contact_message.deleted",
          actorUserId,
          detail: { messageId: id },
        });
      });
    },
  };
}
