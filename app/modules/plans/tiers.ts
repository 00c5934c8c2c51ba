/**
 * What each plan tier includes: the one table every gate reads (rate limits now; features later). Plain
 * data, shared by the server's checks and the console's explanations.
 */
import type { Tier } from "~db/schema";

/** A key's token-API allowance (docs/decisions/009-token-api.md). */
export interface RateLimits {
  /** Requests per key per hourly window. */
  perHour: number;
  /** Requests per key per 60-second window. */
  burst: number;
}

export interface TierPlan extends RateLimits {
  label: string;
  /** Keys that may be active at once; null = no limit. */
  maxActiveApiKeys: number | null;
  /**
   * Each SOP trigger's allowance of accepted requests, by the token API's rule (an hourly window and a
   * 60-second burst window; docs/decisions/010-sops.md); null = not limited.
   */
  sopTrigger: RateLimits | null;
  /** Runs of one workspace that may wait in the queue (queued or waiting for a retry); null = no cap. */
  maxQueuedRuns: number | null;
  /**
   * Workspaces one account may own; null = no cap. Each workspace has its own invitation allowance and its
   * own outbox, so their number is bounded like keys are (ADR 003).
   */
  maxOwnedWorkspaces: number | null;
  /** Custom domains one workspace may claim (pending or verified); null = no cap (ADR 024). */
  maxCustomDomains: number | null;
  /**
   * Messages one account may send the assistant through the token API in 24 hours (ADR 037). Which tools it may
   * use is said by each tool (`tiers`): sales reports and drafting are Pro's and Enterprise's.
   */
  chatMessagesPerDay: number;
}

export const TIER_PLANS: Readonly<Record<Tier, TierPlan>> = {
  free: {
    label: "Free",
    perHour: 100,
    burst: 20,
    maxActiveApiKeys: 3,
    sopTrigger: { perHour: 1_000, burst: 60 },
    maxQueuedRuns: 100,
    maxOwnedWorkspaces: 3,
    maxCustomDomains: 1,
    chatMessagesPerDay: 50,
  },
  pro: {
    label: "Pro",
    perHour: 1_000,
    burst: 100,
    maxActiveApiKeys: 25,
    sopTrigger: { perHour: 10_000, burst: 600 },
    maxQueuedRuns: 1_000,
    maxOwnedWorkspaces: 25,
    maxCustomDomains: 5,
    chatMessagesPerDay: 1_000,
  },
  // Enterprise limits are set per account with `npm run admin -- users:set-limits`; these are the defaults.
  // Its triggers are not rate-limited (the operator sizes the deployment for its own customer); its queue is
  // capped all the same, because every claim ranks the due backlog (db/job-claims.ts).
  enterprise: {
    label: "Enterprise",
    perHour: 10_000,
    burst: 1_000,
    maxActiveApiKeys: null,
    sopTrigger: null,
    maxQueuedRuns: 10_000,
    maxOwnedWorkspaces: null,
    maxCustomDomains: null,
    chatMessagesPerDay: 10_000,
  },
};

export function rateLimitsOf(account: {
  tier: Tier;
  rate_limit_per_hour: number | null;
  rate_limit_burst: number | null;
}): RateLimits {
  const plan = TIER_PLANS[account.tier];
  const custom = account.tier === "enterprise";
  return {
    perHour: (custom ? account.rate_limit_per_hour : null) ?? plan.perHour,
    burst: (custom ? account.rate_limit_burst : null) ?? plan.burst,
  };
}
