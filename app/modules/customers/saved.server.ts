/**
 * What a customer saved on a site (ADR 029): published pages and active products (ADR 030); services and stories
 * plug in with their issues by adding a kind and its resolver here. A saved item whose record is gone or no longer
 * public is not shown (and not an error): the list shows what can still be opened.
 */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";

export const SAVED_KINDS = ["page", "product"] as const;
export type SavedKind = (typeof SAVED_KINDS)[number];

export interface SavedItem {
  kind: SavedKind;
  ref: string;
  title: string;
  /** The site path of the item (`/about`, "" for the home page). */
  path: string;
  savedAt: string;
}

export function savedItemsOf(db: Db, workspaceId: string, customerId: string) {
  const rows = () =>
    db
      .selectFrom("saved_items")
      .where("saved_items.workspace_id", "=", workspaceId)
      .where("saved_items.customer_id", "=", customerId);

  async function activeProduct(id: string) {
    return db
      .selectFrom("products")
      .select(["id", "slug", "title"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .where("status", "=", "active")
      .executeTakeFirst();
  }

  /** The title of what `ref` names, if it can be saved (a published page, an active product). */
  async function savable(kind: SavedKind, ref: string): Promise<string | null> {
    if (kind === "product") return (await activeProduct(ref))?.title ?? null;
    const found = await publishedPage(ref);
    return found ? titleOf(found.published) || found.slug : null;
  }

  async function publishedPage(id: string) {
    return db
      .selectFrom("site_pages")
      .select(["id", "slug", "is_home", "published"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .where("published", "is not", null)
      .executeTakeFirst();
  }

  return {
    async list(): Promise<SavedItem[]> {
      const saved = await rows()
        .innerJoin("site_pages as p", (join) =>
          join.onRef("p.id", "=", "saved_items.ref").on("p.workspace_id", "=", workspaceId),
        )
        .select(["saved_items.kind", "saved_items.ref", "saved_items.created_at", "p.slug", "p.is_home", "p.published"])
        .where("saved_items.kind", "=", "page")
        .where("p.published", "is not", null)
        .orderBy("saved_items.created_at", "desc")
        .limit(200)
        .execute();
      const products = await rows()
        .innerJoin("products as p", (join) =>
          join.onRef("p.id", "=", "saved_items.ref").on("p.workspace_id", "=", workspaceId),
        )
        .select(["saved_items.ref", "saved_items.created_at", "p.slug", "p.title"])
        .where("saved_items.kind", "=", "product")
        .where("p.status", "=", "active")
        .orderBy("saved_items.created_at", "desc")
        .limit(200)
        .execute();
      const items: SavedItem[] = [
        ...saved.map((s) => ({
          kind: "page" as const,
          ref: s.ref,
          title: titleOf(s.published) || s.slug,
          path: s.is_home ? "" : `/${s.slug}`,
          savedAt: s.created_at,
        })),
        ...products.map((p) => ({
          kind: "product" as const,
          ref: p.ref,
          title: p.title,
          path: `/shop/${p.slug}`,
          savedAt: p.created_at,
        })),
      ];
      return items.sort((a, b) => b.savedAt.localeCompare(a.savedAt)).slice(0, 200);
    },
    /** Something of this site that could be saved, with its title (the "save this?" offer); or null. */
    async offer(
      kind: SavedKind,
      ref: string,
    ): Promise<{ kind: SavedKind; ref: string; title: string; saved: boolean } | null> {
      const title = await savable(kind, ref);
      if (title === null) return null;
      const saved = await rows().select("ref").where("kind", "=", kind).where("ref", "=", ref).executeTakeFirst();
      return { kind, ref, title, saved: !!saved };
    },
    /** Saves a published page or an active product of this site (again is fine: nothing changes). */
    async save(kind: SavedKind, ref: string): Promise<void> {
      if ((await savable(kind, ref)) === null)
        throw notFound(kind === "product" ? "That product was not found" : "That page was not found");
      await db
        .insertInto("saved_items")
        .values({ workspace_id: workspaceId, customer_id: customerId, kind, ref, created_at: isoNow() })
        .onConflict((oc) => oc.columns(["customer_id", "kind", "ref"]).doNothing())
        .execute();
    },
    async remove(kind: SavedKind, ref: string): Promise<void> {
      await db
        .deleteFrom("saved_items")
        .where("workspace_id", "=", workspaceId)
        .where("customer_id", "=", customerId)
        .where("kind", "=", kind)
        .where("ref", "=", ref)
        .execute();
    },
  };
}

function titleOf(published: string | null): string {
  try {
    return String((JSON.parse(published ?? "{}") as { title?: unknown }).title ?? "");
  } catch {
    return "";
  }
}
