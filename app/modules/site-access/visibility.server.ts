/**
 * A site's visibility (issue 14, ADR 023): public, or protected by a password. What robots.txt, sitemap.xml,
 * llms.txt and the page routes read (`siteVisibilityOf`); set from the console's /settings/site
 * (`siteAccessOf(...).protect / makePublic`), and usable as is by an API later.
 *
 * Every change of who may read the site raises `cookie_version`, which is signed into every unlock cookie
 * (unlock-cookie.server.ts): protecting a site, changing its password and making it public again each revoke
 * every cookie issued before. So a visitor who was told the old password, or who unlocked the site while it
 * was protected the first time, is asked again.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { invalid, issuesOf } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { hashPassword, verifyPassword } from "~/modules/auth/password.server";
import { SITE_PASSWORD_MAX, SITE_PASSWORD_MIN } from "./password-limits";

export type SiteVisibility = "public" | "protected";

export async function siteVisibilityOf(db: Db, workspaceId: string): Promise<SiteVisibility> {
  const row = await db
    .selectFrom("site_access")
    .select("visibility")
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirst();
  return row?.visibility === "protected" ? "protected" : "public";
}

/** What the unlock check needs: the hash is never handed further than this module. */
export interface SiteAccess {
  visibility: SiteVisibility;
  cookieVersion: number;
  /** When visibility or the password last changed; null while the site has never been protected. */
  updatedAt: string | null;
}

export { SITE_PASSWORD_MAX, SITE_PASSWORD_MIN };

/** The site password as the console form sends it: kept as typed (spaces count), 8–256 characters. */
export const SitePassword = z
  .string({ error: "Choose a password for the site" })
  .min(SITE_PASSWORD_MIN, `Use at least ${SITE_PASSWORD_MIN} characters`)
  .max(SITE_PASSWORD_MAX, `Use at most ${SITE_PASSWORD_MAX} characters`);

const ProtectInput = z.object({ password: SitePassword });

/** Who changes the visibility, for the audit trail (null for a system act such as a CLI). */
type ActorId = string | null;

/** Every read and write of one workspace's site access. */
export function siteAccessOf(db: Db, workspaceId: string) {
  const row = () => db.selectFrom("site_access").where("workspace_id", "=", workspaceId);

  async function write(
    actorUserId: ActorId,
    next: { visibility: SiteVisibility; passwordHash: string | null },
    action: string,
  ): Promise<SiteAccess> {
    const updatedAt = isoNow();
    // Every answer of the site changes (shared, or closed to all but unlocked visitors): its workspace tag.
    return writeAndPurge(db, async (trx, purge) => {
      purge(cacheTags.workspace(workspaceId));
      const current = await trx
        .selectFrom("site_access")
        .select("cookie_version")
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      const cookieVersion = (current?.cookie_version ?? 0) + 1;
      const columns = {
        visibility: next.visibility,
        password_hash: next.passwordHash,
        cookie_version: cookieVersion,
        updated_at: updatedAt,
      };
      await trx
        .insertInto("site_access")
        .values({ workspace_id: workspaceId, ...columns })
        .onConflict((oc) => oc.column("workspace_id").doUpdateSet(columns))
        .execute();
      if (actorUserId) await recordWorkspaceEvent(trx, workspaceId, { action, actorUserId });
      return { visibility: next.visibility, cookieVersion, updatedAt };
    });
  }

  return {
    async get(): Promise<SiteAccess> {
      const found = await row().select(["visibility", "cookie_version", "updated_at"]).executeTakeFirst();
      if (!found) return { visibility: "public", cookieVersion: 0, updatedAt: null };
      return {
        visibility: found.visibility === "protected" ? "protected" : "public",
        cookieVersion: found.cookie_version,
        updatedAt: found.updated_at,
      };
    },

    /**
     * Protects the site with `password`, or sets a new password on a protected site. Either way every unlock
     * cookie issued before stops working. Throws `invalid` with the field's issue for a bad password.
     */
    async protect(actorUserId: ActorId, input: unknown): Promise<SiteAccess> {
      const parsed = ProtectInput.safeParse(input);
      if (!parsed.success) throw invalid("Check the password", issuesOf(parsed.error));
      const wasProtected = (await this.get()).visibility === "protected";
      // scrypt outside the transaction: a slow hash must not hold SQLite's write lock.
      const passwordHash = await hashPassword(parsed.data.password);
      return write(
        actorUserId,
        { visibility: "protected", passwordHash },
        wasProtected ? "site.password_changed" : "site.protected",
      );
    },

    /** Makes the site public again: the password is forgotten, and cookies issued while protected are void. */
    async makePublic(actorUserId: ActorId): Promise<SiteAccess> {
      return write(actorUserId, { visibility: "public", passwordHash: null }, "site.made_public");
    },

    /**
     * The `cookie_version` that `password` opens, or null when it is wrong. Null for a public site (nothing to
     * open) and for a protected one without a hash (cannot happen through `protect`; fails closed if it does).
     * The version comes from the same read as the hash, so a cookie is never signed for a password that was
     * replaced in between.
     */
    async checkPassword(password: string): Promise<number | null> {
      const found = await row().select(["visibility", "password_hash", "cookie_version"]).executeTakeFirst();
      if (found?.visibility !== "protected" || !found.password_hash) return null;
      // Beyond the longest password a site can have: no scrypt spent on a megabyte of input.
      if (password.length > SITE_PASSWORD_MAX) return null;
      return (await verifyPassword(password, found.password_hash)) ? found.cookie_version : null;
    },
  };
}
