/** A verified custom domain, as the domains console leaves one once its DNS checks pass, straight into the database. */
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import type { TestServer } from "./server";

export async function insertVerifiedDomain(
  server: TestServer,
  workspaceId: string,
  hostname: string,
  options: { primary?: boolean; redirectPath?: boolean; invalidate?: boolean } = {},
): Promise<void> {
  const { primary = true, redirectPath = false, invalidate = true } = options;
  const now = isoNow();
  await server.db
    .insertInto("site_domains")
    .values({
      id: newId(),
      workspace_id: workspaceId,
      hostname,
      token: `atrium-verify-${newId()}`,
      status: "verified",
      is_primary: primary ? 1 : 0,
      redirect_path: redirectPath ? 1 : 0,
      diagnostics: "[]",
      last_checked_at: now,
      next_check_at: null,
      verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // This server's list of domains; another process's reloads on its own (what some tests are about).
  if (invalidate) server.atrium.runtime.services.siteDomains.invalidate();
}
