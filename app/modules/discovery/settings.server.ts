/**
 * A site's discovery settings (issue 14): what robots.txt, llms.txt, the page head and IndexNow read. A site
 * that never saved any has the defaults: indexed, no llms.txt, no IndexNow.
 */
import type { Db } from "~db/client";

export interface DiscoverySettings {
  /** The whole site asks search engines not to index it. */
  noindex: boolean;
  llms: { enabled: boolean; summary: string };
  indexNow: { enabled: boolean; key: string | null };
}

export const DEFAULT_DISCOVERY: DiscoverySettings = {
  noindex: false,
  llms: { enabled: false, summary: "" },
  indexNow: { enabled: false, key: null },
};

export async function discoverySettingsOf(db: Db, workspaceId: string): Promise<DiscoverySettings> {
  const row = await db
    .selectFrom("site_discovery")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirst();
  if (!row) return DEFAULT_DISCOVERY;
  return {
    noindex: row.noindex === 1,
    llms: { enabled: row.llms_enabled === 1, summary: row.llms_summary },
    indexNow: { enabled: row.indexnow_enabled === 1, key: row.indexnow_key },
  };
}
