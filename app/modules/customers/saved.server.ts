/**
 * What a customer saved on a site (ADR 029): published pages now; products, services and stories plug in with
 * their issues by adding a kind and its resolver here. A saved item whose record is gone or unpublished is not
 * shown (and not an error): the list shows what can still be opened.
 */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";

export type SavedKind = "page";

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
      return saved.map((s) => ({
        kind: "page",
        ref: s.ref,
        title: titleOf(s.published) || s.slug,
        path: s.is_home ? "" : `/${s.slug}`,
        savedAt: s.created_at,
      }));
    },
    /** A published page of this site that could be saved, with its title (the "save this?" offer); or null. */
    async offer(ref: string): Promise<{ ref: string; title: string; saved: boolean } | null> {
      const found = await publishedPage(ref);
      if (!found) return null;
      const saved = await rows().select("ref").where("kind", "=", "page").where("ref", "=", ref).executeTakeFirst();
      return { ref, title: titleOf(found.published) || found.slug, saved: !!saved };
    },
    /** Saves a published page of this site (again is fine: nothing changes). */
    async save(kind: SavedKind, ref: string): Promise<void> {
      if (!(await publishedPage(ref))) throw notFound("That page was not found");
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
