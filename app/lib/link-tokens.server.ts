/**
 * The tokens of e-mailed links (sign-up, invitations): a secret shown once in the link, stored as its SHA-256
 * (DESIGN rule 4), good until an expiry. The token travels in the query, not the path: request logs record
 * paths, and the token is a credential.
 */
import { isoNow, now } from "~/lib/clock.server";
import { sha256Base64url } from "~/lib/hash.server";
import { newSecret } from "~/lib/ids.server";

/** A new link token: the secret for the link, and the hash and times for its row. */
export function issueLinkToken(lifetimeMs: number) {
  const created = now();
  const token = newSecret();
  return {
    token,
    tokenHash: sha256Base64url(token),
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + lifetimeMs).toISOString(),
  };
}

/** The token a link's page was opened with ("" when there is none: it names nothing). */
export const linkTokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

/** The row `find` returns for the token's hash, unless it has expired. */
export async function unexpiredByToken<T extends { expires_at: string }>(
  token: string,
  find: (tokenHash: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  const row = await find(sha256Base64url(token));
  return row && row.expires_at > isoNow() ? row : undefined;
}
