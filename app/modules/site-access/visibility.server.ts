/**
 * A site's visibility (issue 14): public, or protected by a password. What robots.txt and the page routes
 * read; the protected-sites work owns setting it and the unlock flow.
 */
import type { Db } from "~db/client";

export type SiteVisibility = "public" | "protected";

export async function siteVisibilityOf(db: Db, workspaceId: string): Promise<SiteVisibility> {
  const row = await db
    .selectFrom("site_access")
    .select("visibility")
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirst();
  return row?.visibility === "protected" ? "protected" : "public";
}
