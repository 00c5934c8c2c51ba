/**
 * What each plan tier includes: the one table every gate reads (rate limits now; features later). Plain
 * data, shared by the server's checks and the console's explanations.
 */
import type { Tier } from "~db/schema";

export interface TierPlan {
  label: string;
  /** Token API requests per key per hour. */
  requestsPerHour: number;
  /** Token API requests per key per 60-second window (docs/decisions/009-token-api.md). */
  burstPerMinute: number;
  /** Keys that may be active at once; null = no limit. */
  maxActiveApiKeys: number | null;
}

export const TIER_PLANS: Readonly<Record<Tier, TierPlan>> = {
  free: { label: "Free", requestsPerHour: 100, burstPerMinute: 20, maxActiveApiKeys: 3 },
  pro: { label: "Pro", requestsPerHour: 1_000, burstPerMinute: 100, maxActiveApiKeys: 25 },
  // Enterprise limits are set per account with `npm run admin -- users:set-limits`; these are the defaults.
  enterprise: { label: "Enterprise", requestsPerHour: 10_000, burstPerMinute: 1_000, maxActiveApiKeys: null },
};

export interface RateLimits {
  perHour: number;
  burst: number;
}

export function rateLimitsOf(account: {
  tier: Tier;
  rate_limit_per_hour: number | null;
  rate_limit_burst: number | null;
}): RateLimits {
  const plan = TIER_PLANS[account.tier];
  const custom = account.tier === "enterprise";
  return {
    perHour: (custom ? account.rate_limit_per_hour : null) ?? plan.requestsPerHour,
    burst: (custom ? account.rate_limit_burst : null) ?? plan.burstPerMinute,
  };
}
