/**
 * What an event family is (ADR 027): one declaration per `/api/webhooks/{family}`, contributed by the module
 * that owns the records it changes (`contributes: { eventFamilies: [...] }`), so the commerce, scheduling and
 * content issues add `products`, `payments`, `shipping/provider`, `bookings`, `forms`, `help` and `kb` without
 * touching the receiver. The receiver does everything else, in the order the issue fixes: workspace, rate
 * limit and size cap, secret, signature, timestamp, event id, then `schema`, then `apply`.
 */
import { z } from "zod";
import type { AppServices } from "~/lib/context";
import type { TagKind } from "~/modules/cache/tags";

/** The workspace the event was sent for, as the receiver resolved it from outside the body. */
export interface EventWorkspace {
  id: string;
  slug: string;
}

/** Every family's body: `{ type: "<family>.<verb>", workspace: "<id>", data: {…} }` (the contract's format). */
export const eventEnvelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    type: z.literal(type),
    workspace: z.string().min(1).max(64),
    data,
  });

export interface EventFamily<
  S extends z.ZodType<{ type: string; workspace: string }> = z.ZodType<{ type: string; workspace: string }>,
> {
  /** The path after `/api/webhooks/`: `branding`, or `shipping/provider` (segments of `[a-z0-9-]`). */
  family: string;
  /** The whole body (usually a union of `eventEnvelope`s); failures answer 400 with `issues`. */
  schema: S;
  /**
   * Changes the workspace's records through the same module function the console and the editor API call (so
   * the write purges what it should, once). Throw a domain error for an event that cannot apply (a 4xx,
   * recorded as refused); anything else is a failure (5xx: the sender retries).
   */
  apply(services: AppServices, workspace: EventWorkspace, event: z.output<S>): Promise<void>;
  /** The cache tag kinds its events purge (documentation and the stale-page diagnosis). */
  tags?: readonly TagKind[];
  /** For /api/openapi.json and the README: what a sender needs to know. */
  describe: { summary: string; description: string; example: z.input<S> };
  /**
   * Provider families: the secrets to verify with, read from the provider connection (no second copy). When
   * absent, the secrets operators create in the console (`/settings/webhooks`) are used.
   */
  secret?: (services: AppServices, workspaceId: string) => Promise<string[]>;
  /**
   * Provider families with their own signature scheme (a Stripe-style `t=…,v1=…` header, say): checks the exact
   * bytes received against the secrets, at `nowSeconds`. `"stale"` when the signature is right but its timestamp
   * is outside the replay window. When present, the Standard Webhooks headers are not required. May be async
   * (PayPal's scheme fetches the signing certificate from PayPal).
   */
  verify?: (
    headers: Headers,
    rawBytes: Buffer,
    secrets: string[],
    nowSeconds: number,
    toleranceSeconds: number,
    services: AppServices,
  ) => boolean | "stale" | Promise<boolean | "stale">;
  /**
   * Providers that carry the event id in the body: read from the body once its signature is verified (the parsed
   * JSON, not yet checked by `schema`). Absent: the `webhook-id` header. The id deduplicates deliveries.
   */
  eventId?: (verifiedBody: unknown, headers: Headers) => string | undefined;
  /**
   * Provider families whose secret belongs to one workspace alone (a Stripe endpoint's signing secret): a verified
   * event is that workspace's, so a body naming no workspace (`workspace: ""`, a provider's own object) is applied
   * to it. A body that names another workspace is still refused.
   */
  signedForOneWorkspace?: boolean;
}

/** For a module's `contributes`: checks the declaration's types where it is written. */
export const defineEventFamily = <S extends z.ZodType<{ type: string; workspace: string }>>(family: EventFamily<S>) =>
  family as unknown as EventFamily;

export const FAMILY_PATTERN = /^[a-z0-9-]+(\/[a-z0-9-]+)?$/;
