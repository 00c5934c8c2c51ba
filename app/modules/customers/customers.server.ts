/**
 * Customers of a workspace's site (issue 16, ADR 029): one record per workspace and e-mail address — the same
 * person at two businesses is two unrelated customers, and nothing here can reach across (DESIGN rule 2).
 * A customer's timeline is the workspace's contact events linked to them (`contact_events.customer_id`) and
 * their tickets; orders and bookings join it with commerce and scheduling.
 */
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import type { Db } from "~db/client";
import { containsText } from "~db/like";
import { isUniqueViolation } from "~db/client";
import type { CustomerRow } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { conflict, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";

export interface NotificationSettings {
  /** E-mail me when the business answers a ticket. */
  ticketReplies: boolean;
  /** E-mail me about my orders (commerce). */
  orderUpdates: boolean;
  /** E-mail me reminders of my bookings (scheduling). */
  bookingReminders: boolean;
}

export const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  ticketReplies: true,
  orderUpdates: true,
  bookingReminders: true,
};

export interface Customer {
  id: string;
  workspaceId: string;
  email: string;
  emailVerified: boolean;
  name: string;
  phone: string | null;
  hasPassword: boolean;
  marketingConsent: boolean;
  marketingConsentAt: string | null;
  marketingConsentSource: string | null;
  notifications: NotificationSettings;
  tags: string[];
  notes: string;
  erased: boolean;
  createdAt: string;
  lastSeenAt: string | null;
}

export const CustomerEmail = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter your e-mail address")
  .max(254, "Use at most 254 characters")
  .pipe(z.email("Enter a valid e-mail address, like name@example.com"));

/** One line of plain text (it goes into e-mails' greetings and the console's lists). */
const OneLine = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .regex(
      /^[^\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/u,
      `Write the ${what} on one line, without special characters`,
    );

export const CustomerName = OneLine(120, "name");
export const CustomerPhone = z
  .string()
  .trim()
  .max(40, "Use at most 40 characters")
  .regex(/^[+()\d\s./-]*$/, "Use digits, spaces and + ( ) - . / only");

const Tag = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(40, "Keep each tag under 40 characters")
  .regex(/^[\p{L}\p{N} _-]+$/u, "Tags use letters, digits, spaces, - and _");
export const CustomerTags = z.array(Tag).max(30, "Use at most 30 tags");

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    name: row.name,
    phone: row.phone,
    hasPassword: row.password_hash !== null,
    marketingConsent: row.marketing_consent === 1,
    marketingConsentAt: row.marketing_consent_at,
    marketingConsentSource: row.marketing_consent_source,
    notifications: { ...DEFAULT_NOTIFICATIONS, ...parseJson<Partial<NotificationSettings>>(row.notifications, {}) },
    tags: parseJson<string[]>(row.tags, []),
    notes: row.notes,
    erased: row.erased_at !== null,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
  };
}

export interface CustomerSearch {
  /** Matches name, e-mail, phone or a tag (case-insensitive, part of the text). */
  query?: string;
  /** Only customers with this tag. */
  tag?: string;
  size: number;
  offset: number;
}

export interface ProfileChange {
  name?: string;
  phone?: string | null;
  notifications?: Partial<NotificationSettings>;
  marketingConsent?: boolean;
}

/** Where a change came from, for marketing consent's record ("portal", "api", "console"). */
export type ChangeSource = "portal" | "api" | "console";

/** Every personal field of a customer's row, empty: a new customer's, and an erased one's. */
export const NO_PERSONAL_DATA = {
  email_verified_at: null,
  name: "",
  phone: null,
  password_hash: null,
  marketing_consent: 0,
  marketing_consent_at: null,
  marketing_consent_source: null,
  notifications: "{}",
  tags: "[]",
  notes: "",
} as const;

/** A new customer's row: nothing known but the address. */
const blankRow = (id: string, workspaceId: string, email: string, at: string) => ({
  ...NO_PERSONAL_DATA,
  id,
  workspace_id: workspaceId,
  email,
  erased_at: null,
  created_at: at,
  last_seen_at: null,
});

export function customersOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("customers").where("workspace_id", "=", workspaceId);

  async function find(id: string): Promise<Customer | undefined> {
    const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toCustomer(row) : undefined;
  }

  async function byId(id: string): Promise<Customer> {
    const found = await find(id);
    if (!found) throw notFound("That customer was not found");
    return found;
  }

  async function byEmail(email: string): Promise<Customer | undefined> {
    const row = await rows().selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
    return row ? toCustomer(row) : undefined;
  }

  const update = (id: string) =>
    db.updateTable("customers").where("workspace_id", "=", workspaceId).where("id", "=", id);

  function searched(search: Pick<CustomerSearch, "query" | "tag">) {
    let query = rows().where("erased_at", "is", null);
    const text = search.query?.trim();
    if (text) {
      query = query.where((eb) =>
        eb.or([
          containsText("name", text),
          containsText("email", text),
          containsText("phone", text),
          containsText("tags", text),
        ]),
      );
    }
    // Tags are stored as a JSON array: `"tag"` with its quotes matches the whole tag, never a part of another.
    if (search.tag) query = query.where(containsText("tags", JSON.stringify(search.tag.toLowerCase())));
    return query;
  }

  return {
    find,
    byId,
    byEmail,

    /** Newest first; erased customers are left out. */
    async list(search: CustomerSearch): Promise<Customer[]> {
      const list = await searched(search)
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(search.size)
        .offset(search.offset)
        .execute();
      return list.map(toCustomer);
    },

    async count(search: Pick<CustomerSearch, "query" | "tag"> = {}): Promise<number> {
      const row = await searched(search)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * The customer who just proved `email` (a code or link reached them): found, or created where the site
     * lets anyone sign up. The address is marked verified. Null when the site is invitation only and the
     * address is not a customer.
     */
    async proven(email: string, options: { allowSignup: boolean }): Promise<Customer | null> {
      const address = email.trim().toLowerCase();
      const at = isoNow();
      const existing = await byEmail(address);
      if (existing) {
        if (!existing.emailVerified) await update(existing.id).set({ email_verified_at: at }).execute();
        return { ...existing, emailVerified: true };
      }
      if (!options.allowSignup) return null;
      try {
        const id = newId();
        await db
          .insertInto("customers")
          .values({ ...blankRow(id, workspaceId, address, at), email_verified_at: at })
          .execute();
        return byId(id);
      } catch (error) {
        // Two sign-ins of the same address raced: both are the one customer.
        if (isUniqueViolation(error)) return (await byEmail(address)) ?? null;
        throw error;
      }
    },

    /** A customer the business adds by hand (an invitation-only site's way in); their address is not verified yet. */
    async add(input: { email: string; name?: string; phone?: string | null; tags?: string[] }, actorUserId: string) {
      const id = newId();
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto("customers")
            .values({
              ...blankRow(id, workspaceId, input.email.trim().toLowerCase(), isoNow()),
              name: input.name ?? "",
              phone: input.phone || null,
              tags: JSON.stringify(input.tags ?? []),
            })
            .execute();
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "customer.added",
            actorUserId,
            detail: { customerId: id },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw conflict("A customer with this e-mail address already exists", [
            { field: "email", message: "A customer with this e-mail address already exists" },
          ]);
        }
        throw error;
      }
      return byId(id);
    },

    /** What the customer changes of their own profile (portal or API). */
    async updateProfile(id: string, change: ProfileChange, source: ChangeSource): Promise<Customer> {
      const current = await byId(id);
      const at = isoNow();
      const consentChanged =
        change.marketingConsent !== undefined && change.marketingConsent !== current.marketingConsent;
      await update(id)
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.phone !== undefined ? { phone: change.phone || null } : {}),
          ...(change.notifications
            ? { notifications: JSON.stringify({ ...current.notifications, ...change.notifications }) }
            : {}),
          ...(consentChanged
            ? {
                marketing_consent: change.marketingConsent ? 1 : 0,
                marketing_consent_at: at,
                marketing_consent_source: source,
              }
            : {}),
        })
        .execute();
      return byId(id);
    },

    /** What an operator changes: name, phone, tags, notes. */
    async updateByOperator(
      id: string,
      change: { name?: string; phone?: string | null; tags?: string[]; notes?: string },
      actorUserId: string,
    ): Promise<Customer> {
      const current = await byId(id);
      if (current.erased) throw conflict("This customer's data was erased: there is nothing to edit");
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("customers")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .set({
            ...(change.name !== undefined ? { name: change.name } : {}),
            ...(change.phone !== undefined ? { phone: change.phone || null } : {}),
            ...(change.tags !== undefined ? { tags: JSON.stringify([...new Set(change.tags)]) } : {}),
            ...(change.notes !== undefined ? { notes: change.notes } : {}),
          })
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "customer.updated",
          actorUserId,
          detail: { customerId: id, fields: Object.keys(change) },
        });
      });
      return byId(id);
    },

    /** The customer's address becomes `email`, which they just proved; another customer's address is refused. */
    async changeEmail(id: string, email: string): Promise<Customer> {
      const address = email.trim().toLowerCase();
      const holder = await byEmail(address);
      if (holder && holder.id !== id) throw conflict("Another account uses this e-mail address");
      try {
        await update(id).set({ email: address, email_verified_at: isoNow() }).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict("Another account uses this e-mail address");
        throw error;
      }
      return byId(id);
    },

    async setPassword(id: string, passwordHash: string | null): Promise<void> {
      await update(id).set({ password_hash: passwordHash }).execute();
    },

    async passwordHashOf(email: string): Promise<{ customer: Customer; hash: string | null } | undefined> {
      const row = await rows().selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
      return row ? { customer: toCustomer(row), hash: row.password_hash } : undefined;
    },

    /**
     * Merges `dropId` into `keepId` (two records of one person): the kept record takes the other's tickets,
     * contact events and saved items, its tags and notes, and its name and phone where it has none; the other
     * is deleted with its sessions. Both must be customers of this workspace (another's is "not found").
     */
    async merge(keepId: string, dropId: string, actorUserId: string): Promise<Customer> {
      if (keepId === dropId) throw conflict("Choose two different customers to merge");
      const [keep, drop] = await Promise.all([byId(keepId), byId(dropId)]);
      if (keep.erased || drop.erased) throw conflict("An erased customer cannot be merged");
      await db.transaction().execute(async (trx) => {
        const moved = { customer_id: keepId };
        await trx
          .updateTable("tickets")
          .set(moved)
          .where("workspace_id", "=", workspaceId)
          .where("customer_id", "=", dropId)
          .execute();
        await trx
          .updateTable("contact_events")
          .set(moved)
          .where("workspace_id", "=", workspaceId)
          .where("customer_id", "=", dropId)
          .execute();
        const saved = await trx
          .selectFrom("saved_items")
          .selectAll()
          .where("workspace_id", "=", workspaceId)
          .where("customer_id", "=", dropId)
          .execute();
        for (const item of saved) {
          await trx
            .insertInto("saved_items")
            .values({ ...item, customer_id: keepId })
            .onConflict((oc) => oc.columns(["customer_id", "kind", "ref"]).doNothing())
            .execute();
        }
        await trx
          .updateTable("customers")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", keepId)
          .set({
            name: keep.name || drop.name,
            phone: keep.phone ?? drop.phone,
            tags: JSON.stringify([...new Set([...keep.tags, ...drop.tags])]),
            notes: [keep.notes, drop.notes].filter(Boolean).join("\n\n"),
          })
          .execute();
        // The dropped record's sessions, challenges and saved items go with it (cascade).
        await trx.deleteFrom("customers").where("workspace_id", "=", workspaceId).where("id", "=", dropId).execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "customer.merged",
          actorUserId,
          detail: { customerId: keepId, mergedCustomerId: dropId, mergedEmail: drop.email },
        });
      });
      return byId(keepId);
    },

    /** Every tag in use, most used first (the console's filter). */
    async tags(): Promise<Array<{ tag: string; count: number }>> {
      const list = await rows().select("tags").where("erased_at", "is", null).where("tags", "!=", "[]").execute();
      const counts = new Map<string, number>();
      for (const row of list)
        for (const tag of parseJson<string[]>(row.tags, [])) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      return [...counts]
        .map(([tag, count]) => ({ tag, count }))
        .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
    },
  };
}

export interface TimelineEntry {
  kind: "contact-event" | "ticket";
  id: string;
  /** The event's type (`message`, a SOP's own types…) or the ticket's status. */
  type: string;
  title: string;
  at: string;
}

/**
 * A customer's timeline: the workspace's contact events linked to them and their tickets, newest first (orders
 * and bookings join with their issues). At most `limit` entries.
 */
export async function timelineOf(
  db: Db,
  workspaceId: string,
  customerId: string,
  limit = 100,
): Promise<TimelineEntry[]> {
  const [events, tickets] = await Promise.all([
    db
      .selectFrom("contact_events")
      .select(["id", "type", "note", "source", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute(),
    db
      .selectFrom("tickets")
      .select(["id", "number", "subject", "status", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .where("customer_id", "=", customerId)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute(),
  ]);
  return [
    ...events.map((e) => ({
      kind: "contact-event" as const,
      id: e.id,
      type: e.type,
      title: e.note || `${e.type} (${e.source})`,
      at: e.created_at,
    })),
    ...tickets.map((t) => ({
      kind: "ticket" as const,
      id: t.id,
      type: t.status,
      title: `Opened request #${t.number}: ${t.subject}`,
      at: t.created_at,
    })),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, limit);
}

/** A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) is kept as text with a leading `'`. */
const asText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** The customers a search finds, as CSV (the console's export): every page of them, in batches. */
export async function customersCsv(db: Db, workspaceId: string, search: Pick<CustomerSearch, "query" | "tag">) {
  const customers = customersOf(db, workspaceId);
  const rows: string[][] = [];
  const size = 500;
  for (let offset = 0; ; offset += size) {
    const batch = await customers.list({ ...search, size, offset });
    for (const c of batch) {
      rows.push(
        [
          c.email,
          c.name,
          c.phone ?? "",
          c.tags.join(", "),
          c.emailVerified ? "yes" : "no",
          c.marketingConsent ? "yes" : "no",
          c.marketingConsentAt ?? "",
          c.createdAt,
          c.lastSeenAt ?? "",
        ].map(asText),
      );
    }
    if (batch.length < size) break;
  }
  return stringify(rows, {
    header: true,
    columns: [
      "Email",
      "Name",
      "Phone",
      "Tags",
      "Email verified",
      "Accepts marketing",
      "Marketing consent at",
      "Created at",
      "Last seen at",
    ],
  });
}
