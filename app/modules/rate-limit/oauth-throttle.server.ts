/**
 * Abuse limits of the OAuth provider: token, revocation and introspection requests per client, and the
 * authorization (login and consent) pages per client address. Counters live in the database like the
 * sign-in throttle's, so they are shared between processes on Postgres.
 */
import type { DatabaseHandle } from "~db/client";
import type { Env } from "~/lib/env.server";
import { createCounter, type Counter } from "./counter.server";

export interface OAuthThrottle {
  /** Seconds to wait before this client may call the token endpoints again; 0 when admitted. */
  token(clientKey: string): Promise<number>;
  /** The same for the authorization pages, per client address. */
  authorize(ip: string): Promise<number>;
}

export function createOAuthThrottle(handle: DatabaseHandle, env: Env): OAuthThrottle {
  const token = createCounter(handle, {
    keyPrefix: "oauth-token",
    points: env.OAUTH_TOKEN_REQUESTS_PER_MINUTE,
    durationSeconds: 60,
  });
  const authorize = createCounter(handle, {
    keyPrefix: "oauth-authorize",
    points: env.OAUTH_AUTHORIZE_REQUESTS_PER_MINUTE,
    durationSeconds: 60,
  });
  const take = async (counter: Counter, key: string) => {
    const state = await counter.consume(key);
    return state.refused ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0;
  };
  return { token: (key) => take(token, key), authorize: (ip) => take(authorize, ip) };
}
