/**
 * The customers' two throttles (ADR 029):
 *
 * - **Sign-in codes** — each request sends an e-mail, so they are counted per site and e-mail address (a
 *   stranger cannot fill someone's mailbox) and per site and client address (one script cannot walk a list
 *   of addresses). Counted whether or not the address has an account, so the answer says nothing about it.
 * - **The customer API** — every `/api/v1/*` request, per site and client address, and per signed-in customer
 *   (so one customer's app cannot starve the others behind the same address). The state of both windows is
 *   what the `X-RateLimit-*` headers report.
 */
import type { DatabaseHandle } from "~db/client";
import type { Env } from "~/lib/env.server";
import { createCounter, refuseIfSpent } from "./counter.server";

export interface CustomerThrottle {
  /** One sign-in code for `email` from `address` on a site; 429 when either allowance is spent. */
  takeCode(workspaceId: string, email: string, address: string): Promise<void>;
  /**
   * One customer API request; 429 when spent. Answers the tightest window's state for the response's
   * `X-RateLimit-*` headers.
   */
  takeRequest(
    workspaceId: string,
    address: string,
    customerId: string | null,
  ): Promise<{ limit: number; remaining: number; resetSeconds: number }>;
}

type Limits = Pick<
  Env,
  | "CUSTOMER_CODES_PER_EMAIL_PER_HOUR"
  | "CUSTOMER_CODES_PER_ADDRESS_PER_HOUR"
  | "CUSTOMER_API_PER_ADDRESS_PER_MINUTE"
  | "CUSTOMER_API_PER_CUSTOMER_PER_MINUTE"
>;

export function createCustomerThrottle(handle: DatabaseHandle, env: Limits): CustomerThrottle {
  const codesByEmail = createCounter(handle, {
    keyPrefix: "customer-code-email",
    points: env.CUSTOMER_CODES_PER_EMAIL_PER_HOUR,
    durationSeconds: 3600,
  });
  const codesByAddress = createCounter(handle, {
    keyPrefix: "customer-code-address",
    points: env.CUSTOMER_CODES_PER_ADDRESS_PER_HOUR,
    durationSeconds: 3600,
  });
  const apiByAddress = createCounter(handle, {
    keyPrefix: "customer-api-address",
    points: env.CUSTOMER_API_PER_ADDRESS_PER_MINUTE,
    durationSeconds: 60,
  });
  const apiByCustomer = createCounter(handle, {
    keyPrefix: "customer-api-customer",
    points: env.CUSTOMER_API_PER_CUSTOMER_PER_MINUTE,
    durationSeconds: 60,
  });
  return {
    async takeCode(workspaceId, email, address) {
      const states = [
        await codesByAddress.consume(`${workspaceId}:${address}`),
        await codesByEmail.consume(`${workspaceId}:${email.toLowerCase()}`),
      ];
      refuseIfSpent(states, "sign-in codes");
    },
    async takeRequest(workspaceId, address, customerId) {
      const windows = [
        {
          limit: env.CUSTOMER_API_PER_ADDRESS_PER_MINUTE,
          state: await apiByAddress.consume(`${workspaceId}:${address}`),
        },
      ];
      if (customerId) {
        windows.push({
          limit: env.CUSTOMER_API_PER_CUSTOMER_PER_MINUTE,
          state: await apiByCustomer.consume(customerId),
        });
      }
      refuseIfSpent(
        windows.map((w) => w.state),
        "requests",
      );
      const tightest = windows
        .map((w) => ({
          limit: w.limit,
          remaining: Math.max(0, w.limit - w.state.consumed),
          reset: w.state.msBeforeNext,
        }))
        .sort((a, b) => a.remaining - b.remaining)[0]!;
      return { limit: tightest.limit, remaining: tightest.remaining, resetSeconds: Math.ceil(tightest.reset / 1000) };
    },
  };
}
