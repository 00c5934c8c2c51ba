/**
 * A site's customer settings (ADR 029): whether anyone may create an account by signing in (`open`, the
 * default) or only customers the business added (`invite`). Built for one workspace.
 */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";

export type SignupMode = "open" | "invite";

export function customerSettingsOf(db: Db, workspaceId: string) {
  return {
    async signup(): Promise<SignupMode> {
      const row = await db
        .selectFrom("customer_settings")
        .select("signup")
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      return row?.signup === "invite" ? "invite" : "open";
    },
    async setSignup(mode: SignupMode, actorUserId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const at = isoNow();
        await trx
          .insertInto("customer_settings")
          .values({ workspace_id: workspaceId, signup: mode, updated_at: at })
          .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ signup: mode, updated_at: at }))
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "customers.signup_changed",
          actorUserId,
          detail: { signup: mode },
        });
      });
    },
  };
}
