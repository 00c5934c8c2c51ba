/**
 * The site assistant's settings (ADR 037): on or off, and its greeting. Off by default — a business switches it on
 * from its inbox once it has seen what the assistant would answer. Public pages show the widget from the site's
 * frame, so a save purges the `settings` tag every public page carries (DESIGN rule 7).
 */
import { z } from "zod";
import type { Db } from "~db/client";
import type { AppServices } from "~/lib/context";
import { isoNow } from "~/lib/clock.server";
import { parseInput } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";

import { DEFAULT_GREETING, GREETING_MAX } from "./api";

export { DEFAULT_GREETING, GREETING_MAX };

export interface AssistantSettings {
  enabled: boolean;
  greeting: string;
}

export const AssistantSettingsInput = z.object({
  enabled: z.boolean(),
  greeting: z
    .string()
    .trim()
    .max(GREETING_MAX, `Keep the greeting under ${GREETING_MAX} characters`)
    .regex(/^[^\p{Cc}]*$/u, "Write the greeting on one line")
    .transform((v) => v || DEFAULT_GREETING),
});

export function assistantSettingsOf(db: Db, workspaceId: string) {
  return {
    async get(): Promise<AssistantSettings> {
      const row = await db
        .selectFrom("chat_settings")
        .select(["site_assistant", "greeting"])
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      return { enabled: row?.site_assistant === 1, greeting: row?.greeting || DEFAULT_GREETING };
    },

    async save(actorUserId: string, input: unknown): Promise<AssistantSettings> {
      const v = parseInput(AssistantSettingsInput, input);
      await writeAndPurge(db, async (trx, purge) => {
        const values = { site_assistant: v.enabled ? 1 : 0, greeting: v.greeting, updated_at: isoNow() };
        await trx
          .insertInto("chat_settings")
          .values({ workspace_id: workspaceId, ...values })
          .onConflict((oc) => oc.column("workspace_id").doUpdateSet(values))
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "chat.assistant.updated",
          actorUserId,
          detail: { enabled: v.enabled },
          ip: null,
        });
        purge(cacheTags.settings(workspaceId));
      });
      return { enabled: v.enabled, greeting: v.greeting };
    },
  };
}

/** The settings as every public page reads them, remembered until the `settings` tag is purged (ADR 031). */
export function rememberedAssistant(
  services: Pick<AppServices, "db" | "pageCache">,
  workspaceId: string,
): Promise<AssistantSettings> {
  return services.pageCache.remember(
    JSON.stringify(["assistant", workspaceId]),
    [cacheTags.settings(workspaceId), cacheTags.workspace(workspaceId)],
    () => assistantSettingsOf(services.db, workspaceId).get(),
  );
}
