/**
 * Support tickets (issue 16, ADR 029): a customer (or a guest, by e-mail) opens one from the portal or the
 * customer API; the business answers from the console's inbox; each reply reaches the customer by e-mail and
 * in their portal. Numbered 1, 2, 3… per workspace. Built for one workspace (DESIGN rule 2); a customer's view
 * (`ofCustomer`) sees only that customer's tickets — another's is "not found", never "forbidden".
 *
 * Statuses: `open` (waiting for the business), `pending` (the business answered, waiting for the customer),
 * `closed`. A customer's reply reopens a ticket; the business's reply makes it pending.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { TicketRow } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { conflict, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import { revokeManageTokens } from "./manage-tokens.server";

export const TICKET_STATUSES = ["open", "pending", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_MESSAGE_MAX = 10_000;

export const TicketBody = z
  .string()
  .trim()
  .min(1, "Write your message")
  .max(TICKET_MESSAGE_MAX, `Keep the message under ${TICKET_MESSAGE_MAX.toLocaleString("en")} characters`);

export const NewTicketInput = z.object({
  subject: z
    .string()
    .trim()
    .min(1, "Give your request a subject")
    .max(150, "Keep the subject under 150 characters")
    .regex(/^[^\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/u, "Write the subject on one line"),
  message: TicketBody,
});
export type NewTicketInput = z.output<typeof NewTicketInput>;

/** The job that e-mails the business about a new ticket or a customer's reply, and the customer about the business's. */
export const TICKET_MAIL_JOB = "customers.ticket-mail";
export interface TicketMailPayload {
  ticketId: string;
  messageId: string;
  /** The deployment's origin when the message was written: links to the console and, without a domain, the site. */
  origin: string;
}

export interface Ticket {
  id: string;
  number: number;
  customerId: string | null;
  email: string;
  name: string;
  subject: string;
  status: TicketStatus;
  assignedUserId: string | null;
  unread: boolean;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface TicketMessage {
  id: string;
  author: "customer" | "operator";
  authorUserId: string | null;
  body: string;
  createdAt: string;
}

const toTicket = (row: TicketRow): Ticket => ({
  id: row.id,
  number: row.number,
  customerId: row.customer_id,
  email: row.email,
  name: row.name,
  subject: row.subject,
  status: row.status as TicketStatus,
  assignedUserId: row.assigned_user_id,
  unread: row.operator_read_at === null || row.operator_read_at < row.updated_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  closedAt: row.closed_at,
});

export interface TicketFilter {
  status?: TicketStatus;
  /** A member's id, or "none" for unassigned. */
  assignee?: string;
  customerId?: string;
  size: number;
  offset: number;
}

export function ticketsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("tickets").where("workspace_id", "=", workspaceId);

  async function byId(id: string): Promise<Ticket> {
    const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("That ticket was not found");
    return toTicket(row);
  }

  const messagesOf = (ticketId: string): Promise<TicketMessage[]> =>
    db
      .selectFrom("ticket_messages")
      .select(["id", "author", "author_user_id as authorUserId", "body", "created_at as createdAt"])
      .where("workspace_id", "=", workspaceId)
      .where("ticket_id", "=", ticketId)
      .orderBy("created_at")
      .orderBy("id")
      .execute() as Promise<TicketMessage[]>;

  function filtered(filter: Omit<TicketFilter, "size" | "offset">) {
    let query = rows();
    if (filter.status) query = query.where("status", "=", filter.status);
    if (filter.assignee === "none") query = query.where("assigned_user_id", "is", null);
    else if (filter.assignee) query = query.where("assigned_user_id", "=", filter.assignee);
    if (filter.customerId) query = query.where("customer_id", "=", filter.customerId);
    return query;
  }

  /** Writes a message and moves the ticket on, in the caller's transaction; queues its e-mail. */
  async function addMessage(
    trx: Db,
    ticket: Pick<Ticket, "id">,
    message: { author: "customer" | "operator"; authorUserId: string | null; body: string },
    next: { status: TicketStatus; origin: string },
  ): Promise<string> {
    const id = newId();
    const at = isoNow();
    await trx
      .insertInto("ticket_messages")
      .values({
        id,
        workspace_id: workspaceId,
        ticket_id: ticket.id,
        author: message.author,
        author_user_id: message.authorUserId,
        body: message.body,
        created_at: at,
      })
      .execute();
    await trx
      .updateTable("tickets")
      .set({
        status: next.status,
        updated_at: at,
        closed_at: next.status === "closed" ? at : null,
        // The business's own reply is read by the business.
        ...(message.author === "operator" ? { operator_read_at: at } : {}),
      })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", ticket.id)
      .execute();
    const payload: TicketMailPayload = { ticketId: ticket.id, messageId: id, origin: next.origin };
    await enqueueJob(trx, { kind: TICKET_MAIL_JOB, workspaceId, payload, maxAttempts: 6 });
    return id;
  }

  return {
    byId,
    messagesOf,

    /** The ticket with this number (as the inbox shows it, "#12"), or undefined. */
    async byNumber(number: number): Promise<Ticket | undefined> {
      const row = await rows().selectAll().where("number", "=", number).executeTakeFirst();
      return row ? toTicket(row) : undefined;
    },

    /** Opens a ticket for a customer or a guest (no customer); its first message is the request's text. */
    async open(
      input: NewTicketInput,
      from: { customerId: string | null; email: string; name: string },
      origin: string,
    ): Promise<Ticket> {
      const id = newId();
      const at = isoNow();
      // Numbers are per workspace without gaps: the next one is taken in the transaction, and a race on the
      // same number (the unique constraint) is tried again with the next.
      for (let attempt = 0; ; attempt += 1) {
        try {
          await db.transaction().execute(async (trx) => {
            const last = await trx
              .selectFrom("tickets")
              .select((eb) => eb.fn.max<number>("number").as("n"))
              .where("workspace_id", "=", workspaceId)
              .executeTakeFirst();
            await trx
              .insertInto("tickets")
              .values({
                id,
                workspace_id: workspaceId,
                number: Number(last?.n ?? 0) + 1,
                customer_id: from.customerId,
                email: from.email.toLowerCase(),
                name: from.name,
                subject: input.subject,
                status: "open",
                assigned_user_id: null,
                operator_read_at: null,
                created_at: at,
                updated_at: at,
                closed_at: null,
              })
              .execute();
            await addMessage(
              trx,
              { id },
              { author: "customer", authorUserId: null, body: input.message },
              { status: "open", origin },
            );
          });
          break;
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= 4) throw error;
        }
      }
      return byId(id);
    },

    /** The business's side: every ticket, newest activity first. */
    async list(filter: TicketFilter): Promise<Ticket[]> {
      const list = await filtered(filter)
        .selectAll()
        .orderBy("updated_at", "desc")
        .orderBy("id", "desc")
        .limit(filter.size)
        .offset(filter.offset)
        .execute();
      return list.map(toTicket);
    },

    async count(filter: Omit<TicketFilter, "size" | "offset"> = {}): Promise<{ total: number; unread: number }> {
      const row = await filtered(filter)
        .select((eb) => [
          eb.fn.countAll<number>().as("total"),
          eb.fn
            .sum<number>(
              eb
                .case()
                .when(eb.or([eb("operator_read_at", "is", null), eb("operator_read_at", "<", eb.ref("updated_at"))]))
                .then(1)
                .else(0)
                .end(),
            )
            .as("unread"),
        ])
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), unread: Number(row.unread ?? 0) };
    },

    /** An operator opened the ticket: read for the whole workspace. */
    async markRead(id: string): Promise<void> {
      await byId(id);
      await db
        .updateTable("tickets")
        .set({ operator_read_at: isoNow() })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .execute();
    },

    /** The business answers: the customer is e-mailed (a job) and sees it in their portal. */
    async replyAsOperator(id: string, body: string, actorUserId: string, origin: string): Promise<void> {
      await byId(id);
      await db.transaction().execute(async (trx) => {
        await addMessage(
          trx,
          { id },
          { author: "operator", authorUserId: actorUserId, body },
          { status: "pending", origin },
        );
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "ticket.replied",
          actorUserId,
          detail: { ticketId: id },
        });
      });
    },

    async setStatus(id: string, status: TicketStatus, actorUserId: string): Promise<void> {
      await byId(id);
      const at = isoNow();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("tickets")
          .set({ status, closed_at: status === "closed" ? at : null })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "ticket.status_changed",
          actorUserId,
          detail: { ticketId: id, status },
        });
      });
    },

    /** Ends every e-mailed link to this ticket (a guest forwarded one by mistake); answers how many were live. */
    async revokeLinks(id: string, actorUserId: string): Promise<number> {
      await byId(id);
      return db.transaction().execute(async (trx) => {
        const revoked = await revokeManageTokens(trx, workspaceId, "ticket", id);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "ticket.links_revoked",
          actorUserId,
          detail: { ticketId: id, revoked },
        });
        return revoked;
      });
    },

    /** Assigns the ticket to a member of the workspace (or to nobody). */
    async assign(id: string, userId: string | null, actorUserId: string): Promise<void> {
      await byId(id);
      if (userId) {
        const member = await db
          .selectFrom("workspace_members")
          .select("user_id")
          .where("workspace_id", "=", workspaceId)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        if (!member) throw notFound("That member was not found");
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("tickets")
          .set({ assigned_user_id: userId })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "ticket.assigned",
          actorUserId,
          detail: { ticketId: id, assignedUserId: userId },
        });
      });
    },

    /**
     * One customer's (or one guest ticket's) view: a ticket that is not theirs is "not found". `owner` is a
     * customer id, or `{ ticketId }` for a guest holding that ticket's manage token.
     */
    ofOwner(owner: { customerId: string } | { ticketId: string }) {
      const mine = async (id: string): Promise<Ticket> => {
        const ticket = await byId(id).catch(() => undefined);
        const owns =
          ticket && ("customerId" in owner ? ticket.customerId === owner.customerId : ticket.id === owner.ticketId);
        if (!ticket || !owns) throw notFound("That ticket was not found");
        return ticket;
      };
      return {
        async list(page: { size: number; offset: number }): Promise<Ticket[]> {
          if (!("customerId" in owner)) return [await mine(owner.ticketId)];
          const list = await rows()
            .selectAll()
            .where("customer_id", "=", owner.customerId)
            .orderBy("updated_at", "desc")
            .orderBy("id", "desc")
            .limit(page.size)
            .offset(page.offset)
            .execute();
          return list.map(toTicket);
        },
        async count(): Promise<number> {
          if (!("customerId" in owner)) return 1;
          const row = await rows()
            .where("customer_id", "=", owner.customerId)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow();
          return Number(row.n);
        },
        async detail(id: string): Promise<{ ticket: Ticket; messages: TicketMessage[] }> {
          const ticket = await mine(id);
          return { ticket, messages: await messagesOf(id) };
        },
        /** The customer writes again: the ticket is open (waiting for the business) again. */
        async reply(id: string, body: string, origin: string): Promise<void> {
          await mine(id);
          await db.transaction().execute(async (trx) => {
            await addMessage(trx, { id }, { author: "customer", authorUserId: null, body }, { status: "open", origin });
          });
        },
        async close(id: string): Promise<Ticket> {
          const ticket = await mine(id);
          if (ticket.status === "closed") throw conflict("This ticket is already closed");
          const at = isoNow();
          await db
            .updateTable("tickets")
            .set({ status: "closed", closed_at: at, updated_at: at })
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", id)
            .execute();
          return byId(id);
        },
      };
    },
  };
}

/** A ticket as its customer sees it (the customer API): nothing about who in the team has it. */
export function customerTicket(ticket: Ticket) {
  return {
    id: ticket.id,
    number: ticket.number,
    subject: ticket.subject,
    status: ticket.status,
    createdAt: ticket.createdAt,
    updatedAt: ticket.updatedAt,
    closedAt: ticket.closedAt,
  };
}

export const customerMessage = (m: TicketMessage) => ({
  id: m.id,
  author: m.author,
  body: m.body,
  createdAt: m.createdAt,
});

/**
 * Turns a contact-form message into a support request, so the team can answer it from the inbox and the sender
 * can follow it. It belongs to the customer who sent it signed in; a message sent as a guest stays a guest's
 * ticket (an address typed into a form proves nothing) until its address is proven by a sign-in (claims.server.ts).
 */
export async function ticketFromMessage(
  db: Db,
  workspaceId: string,
  messageId: string,
  actorUserId: string,
  origin: string,
): Promise<Ticket> {
  const message = await db
    .selectFrom("contact_messages as m")
    .innerJoin("contact_events as e", "e.id", "m.id")
    .select(["m.name", "m.message", "e.email", "e.customer_id"])
    .where("m.workspace_id", "=", workspaceId)
    .where("m.id", "=", messageId)
    .executeTakeFirst();
  if (!message) throw notFound("That message was not found");
  const firstLine = message.message.split("\n")[0]!.trim();
  const subject = firstLine.length > 80 ? `${firstLine.slice(0, 77)}…` : firstLine || `Message from ${message.name}`;
  const ticket = await ticketsOf(db, workspaceId).open(
    { subject, message: message.message },
    { customerId: message.customer_id, email: message.email, name: message.name },
    origin,
  );
  await recordWorkspaceEvent(db, workspaceId, {
    action: "ticket.created_from_message",
    actorUserId,
    detail: { ticketId: ticket.id, messageId },
  });
  return ticket;
}
