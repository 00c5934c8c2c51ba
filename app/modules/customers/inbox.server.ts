/**
 * The console's inbox (issue 16): a workspace's support tickets and contact-form messages in one list, newest
 * activity first — one query (UNION ALL) so its pages and counts are exact however the two interleave.
 * Filters narrow to tickets (by status or assignee) or to messages. Built for one workspace.
 */
import { sql } from "kysely";
import type { Db } from "~db/client";
import type { TicketStatus } from "./tickets.server";

export type InboxKind = "ticket" | "message";

export interface InboxItem {
  kind: InboxKind;
  id: string;
  /** The ticket's number; null for a message. */
  number: number | null;
  name: string;
  email: string;
  /** The ticket's subject, or the message's text. */
  title: string;
  /** A ticket's status; null for a message. */
  status: TicketStatus | null;
  assignedUserId: string | null;
  unread: boolean;
  at: string;
}

export interface InboxFilter {
  kind?: InboxKind;
  status?: TicketStatus;
  /** A member's id, or "none". Implies tickets. */
  assignee?: string;
  /** Only what nobody in the workspace has opened yet. */
  unread?: boolean;
}

export function inboxOf(db: Db, workspaceId: string) {
  function tickets(filter: InboxFilter) {
    let query = db
      .selectFrom("tickets")
      .where("workspace_id", "=", workspaceId)
      .select((eb) => [
        sql<string>`'ticket'`.as("kind"),
        "id",
        "number",
        "name",
        "email",
        "subject as title",
        "status",
        "assigned_user_id as assignedUserId",
        eb
          .case()
          .when(eb.or([eb("operator_read_at", "is", null), eb("operator_read_at", "<", eb.ref("updated_at"))]))
          .then(1)
          .else(0)
          .end()
          .as("unread"),
        "updated_at as at",
      ]);
    if (filter.status) query = query.where("status", "=", filter.status);
    if (filter.assignee === "none") query = query.where("assigned_user_id", "is", null);
    else if (filter.assignee) query = query.where("assigned_user_id", "=", filter.assignee);
    return query;
  }

  function messages() {
    return db
      .selectFrom("contact_messages as m")
      .innerJoin("contact_events as e", "e.id", "m.id")
      .where("m.workspace_id", "=", workspaceId)
      .select((eb) => [
        sql<string>`'message'`.as("kind"),
        "m.id",
        // Typed nulls: Postgres must know each column's type on both sides of the union.
        sql<number | null>`cast(null as integer)`.as("number"),
        "m.name",
        "e.email",
        "m.message as title",
        sql<string | null>`cast(null as text)`.as("status"),
        sql<string | null>`cast(null as text)`.as("assignedUserId"),
        eb.case().when("m.read_at", "is", null).then(1).else(0).end().as("unread"),
        "m.created_at as at",
      ]);
  }

  const onlyTickets = (filter: InboxFilter) => filter.kind === "ticket" || !!filter.status || !!filter.assignee;

  // The two selects have the same columns by name and order; typed as the tickets' for the outer query.
  type Rows = ReturnType<typeof tickets>;
  function union(filter: InboxFilter): Rows {
    if (onlyTickets(filter)) return tickets(filter);
    if (filter.kind === "message") return messages() as unknown as Rows;
    return tickets(filter).unionAll(messages() as unknown as Rows);
  }

  return {
    async list(filter: InboxFilter, page: { size: number; offset: number }): Promise<InboxItem[]> {
      const rows = await db
        .selectFrom(union(filter).as("inbox"))
        .selectAll()
        .$if(!!filter.unread, (q) => q.where("unread", "=", 1))
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .limit(page.size)
        .offset(page.offset)
        .execute();
      return rows.map((r) => ({
        kind: r.kind as InboxKind,
        id: r.id,
        number: r.number === null ? null : Number(r.number),
        name: r.name,
        email: r.email,
        title: r.title,
        status: (r.status as TicketStatus | null) ?? null,
        assignedUserId: r.assignedUserId ?? null,
        unread: Number(r.unread) === 1,
        at: r.at,
      }));
    },

    async count(filter: InboxFilter): Promise<{ total: number; unread: number }> {
      const row = await db
        .selectFrom(union(filter).as("inbox"))
        .select((eb) => [eb.fn.countAll<number>().as("total"), eb.fn.sum<number>("unread").as("unread")])
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), unread: Number(row.unread ?? 0) };
    },
  };
}
