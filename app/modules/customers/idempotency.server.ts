/**
 * `Idempotency-Key` on the customer API's writes, with Stripe's semantics (ADR 030): the first request with a
 * key runs and its answer is kept for 24 hours; the same key with the same method, path and body answers that
 * answer again (`Idempotent-Replayed: true`) without running anything; the same key with anything else is a
 * 422; and while the first is still running, a 409. Keys are kept per workspace *and* caller, so one customer's
 * key can never replay another's answer.
 *
 * What is kept: every answer the route returns below 500. A 5xx, or a refusal the route throws (which wrote
 * nothing), forgets the key, so a retry runs again. Not on `POST /api/v1/auth/token`: its answer is a bearer
 * token, which would then sit in this table in plain text (DESIGN rule 4); a retried exchange fails safely
 * instead, as its code is spent.
 */
import { createHash } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { Db } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import { HttpError, readBodyBytes } from "~/lib/http.server";

export const IDEMPOTENCY_HOURS = 24;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Who a key belongs to: the signed-in customer, or for an anonymous call the client's address. */
export function callerOf(customer: { id: string } | null, context: AppLoadContext): string {
  return customer ? `customer:${customer.id}` : `address:${context.request.ip}`;
}

export async function idempotent(
  request: Request,
  context: AppLoadContext,
  scope: { workspaceId: string; caller: string },
  run: () => Promise<Response>,
  /** What of the answer is kept for a replay: a secret it carries once (a guest's manage token) is left out. */
  keep: (body: string) => string = (body) => body,
): Promise<Response> {
  const key = request.headers.get("idempotency-key");
  if (key === null) return run();
  if (!KEY.test(key)) throw new HttpError(400, "Idempotency-Key must be 1 to 255 visible ASCII characters");
  const { db } = context.services;
  const body = await readBodyBytes(request.clone(), context.services.env.MAX_BODY_BYTES);
  const url = new URL(request.url);
  const fingerprint = createHash("sha256")
    .update(`${request.method} ${url.pathname}${url.search}\n`)
    .update(body)
    .digest("hex");
  const where = { workspace_id: scope.workspaceId, caller: scope.caller, key };

  const claimed = await db
    .insertInto("idempotency_keys")
    .values({ ...where, fingerprint, status: null, body: null, created_at: isoNow() })
    .onConflict((oc) => oc.columns(["workspace_id", "caller", "key"]).doNothing())
    .executeTakeFirst();
  if (!Number(claimed.numInsertedOrUpdatedRows ?? 0)) {
    const first = await db
      .selectFrom("idempotency_keys")
      .select(["fingerprint", "status", "body"])
      .where("workspace_id", "=", where.workspace_id)
      .where("caller", "=", where.caller)
      .where("key", "=", key)
      .executeTakeFirst();
    // Forgotten between the two statements (the first failed): this request may run in its place.
    if (!first) return idempotent(request, context, scope, run);
    if (first.fingerprint !== fingerprint)
      throw new HttpError(
        422,
        "This Idempotency-Key was used with a different request; use a new key for a new request",
      );
    if (first.status === null)
      throw new HttpError(409, "A request with this Idempotency-Key is still being processed; retry shortly");
    return new Response(first.body, {
      status: first.status,
      headers: {
        "Content-Type": "application/json",
        "Idempotent-Replayed": "true",
        "Cache-Control": "private, no-store",
      },
    });
  }

  const forget = () =>
    db
      .deleteFrom("idempotency_keys")
      .where("workspace_id", "=", where.workspace_id)
      .where("caller", "=", where.caller)
      .where("key", "=", key)
      .execute();
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    // A refusal thrown by the route (a 404, a 409 for sold-out stock) wrote nothing: its retry may run again
    // and will meet the same refusal, or succeed if the world changed — either is the truth at that moment.
    await forget();
    throw error;
  }
  if (response.status >= 500) {
    await forget();
    return response;
  }
  const text = keep(await response.clone().text());
  await db
    .updateTable("idempotency_keys")
    .set({ status: response.status, body: text })
    .where("workspace_id", "=", where.workspace_id)
    .where("caller", "=", where.caller)
    .where("key", "=", key)
    .execute();
  return response;
}

export async function purgeIdempotencyKeys(db: Db): Promise<void> {
  const before = new Date(now().getTime() - IDEMPOTENCY_HOURS * 3_600_000).toISOString();
  await db.deleteFrom("idempotency_keys").where("created_at", "<", before).execute();
}
