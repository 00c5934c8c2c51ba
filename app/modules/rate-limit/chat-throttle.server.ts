/**
 * The assistant's allowances (ADR 037), beside the token API's per-key limit that every chat request also counts
 * against:
 *
 * - **Messages a day per account**, by plan tier (`chatMessagesPerDay`): what a model's answers cost is the
 *   deployment's, so a plan says how many it gives. Counted per user, whichever key or token sends them.
 * - **The site assistant**: messages per visitor (the anonymous cookie, or the signed-in customer) and per client
 *   address on a site, per hour — a public endpoint, so one script cannot spend a business's allowance.
 */
import type { DatabaseHandle } from "~db/client";
import type { Tier } from "~db/schema";
import type { Env } from "~/lib/env.server";
import { TIER_PLANS } from "~/modules/plans/tiers";
import { createCounter, refuseIfSpent, type Counter } from "./counter.server";

export interface ChatThrottle {
  /** One operator message of `userId` on `tier`; 429 when the day's allowance is spent. */
  takeOperatorMessage(userId: string, tier: Tier): Promise<void>;
  /** One site assistant message from `visitorKey` at `address` on a site; 429 when either allowance is spent. */
  takeVisitorMessage(workspaceId: string, visitorKey: string, address: string): Promise<void>;
}

export function createChatThrottle(
  handle: DatabaseHandle,
  env: Pick<Env, "CHAT_VISITOR_MESSAGES_PER_HOUR" | "CHAT_ADDRESS_MESSAGES_PER_HOUR">,
): ChatThrottle {
  const daily = Object.fromEntries(
    (Object.keys(TIER_PLANS) as Tier[]).map((tier) => [
      tier,
      createCounter(handle, {
        keyPrefix: `chat-day-${tier}`,
        points: TIER_PLANS[tier].chatMessagesPerDay,
        durationSeconds: 86_400,
      }),
    ]),
  ) as Record<Tier, Counter>;
  const byVisitor = createCounter(handle, {
    keyPrefix: "chat-visitor",
    points: env.CHAT_VISITOR_MESSAGES_PER_HOUR,
    durationSeconds: 3600,
  });
  const byAddress = createCounter(handle, {
    keyPrefix: "chat-address",
    points: env.CHAT_ADDRESS_MESSAGES_PER_HOUR,
    durationSeconds: 3600,
  });
  return {
    async takeOperatorMessage(userId, tier) {
      refuseIfSpent([await daily[tier].consume(userId)], "chat messages today");
    },
    async takeVisitorMessage(workspaceId, visitorKey, address) {
      const states = await Promise.all([
        byVisitor.consume(`${workspaceId}:${visitorKey}`),
        byAddress.consume(`${workspaceId}:${address}`),
      ]);
      refuseIfSpent(states, "messages");
    },
  };
}
