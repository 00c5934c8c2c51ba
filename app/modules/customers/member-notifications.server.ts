/**
 * Which members of a workspace are e-mailed about its inbox (issue 16, ADR 029): new support requests (and a
 * customer's replies), new contact-form messages and new orders (issue 17), each on or off per member. Until a member chooses, owners
 * and admins are told and editors and viewers are not. Every member sees the console's unread count either way.
 */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { roleAtLeast, type Role } from "~/modules/tenancy/roles";

export interface MemberNotifications {
  newTickets: boolean;
  newMessages: boolean;
  newOrders: boolean;
}

export type NoticeKind = keyof MemberNotifications;

const byDefault = (role: Role): MemberNotifications => {
  const on = roleAtLeast(role, "admin");
  return { newTickets: on, newMessages: on, newOrders: on };
};

export function memberNotificationsOf(db: Db, workspaceId: string) {
  return {
    async get(userId: string, role: Role): Promise<MemberNotifications> {
      const row = await db
        .selectFrom("member_notifications")
        .select(["new_tickets", "new_messages", "new_orders"])
        .where("workspace_id", "=", workspaceId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!row) return byDefault(role);
      return {
        newTickets: row.new_tickets === 1,
        newMessages: row.new_messages === 1,
        // Null: chosen before orders existed, so the role's default until they choose again.
        newOrders: row.new_orders === null ? byDefault(role).newOrders : row.new_orders === 1,
      };
    },

    async set(userId: string, choice: MemberNotifications): Promise<void> {
      const values = {
        new_tickets: choice.newTickets ? 1 : 0,
        new_messages: choice.newMessages ? 1 : 0,
        new_orders: choice.newOrders ? 1 : 0,
        updated_at: isoNow(),
      };
      await db
        .insertInto("member_notifications")
        .values({ workspace_id: workspaceId, user_id: userId, ...values })
        .onConflict((oc) => oc.columns(["workspace_id", "user_id"]).doUpdateSet(values))
        .execute();
    },

    /** The addresses of the active members to e-mail about `kind`, by their choice or their role's default. */
    async recipients(kind: NoticeKind): Promise<string[]> {
      const members = await db
        .selectFrom("workspace_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .leftJoin("member_notifications as n", (join) =>
          join.onRef("n.user_id", "=", "m.user_id").onRef("n.workspace_id", "=", "m.workspace_id"),
        )
        .select(["u.email", "m.role", "n.new_tickets", "n.new_messages", "n.new_orders"])
        .where("m.workspace_id", "=", workspaceId)
        .where("u.status", "=", "active")
        .orderBy("u.email")
        .execute();
      return members
        .filter((m) => {
          const chosen = { newTickets: m.new_tickets, newMessages: m.new_messages, newOrders: m.new_orders }[kind];
          return chosen === null ? byDefault(m.role as Role)[kind] : chosen === 1;
        })
        .map((m) => m.email);
    },
  };
}
