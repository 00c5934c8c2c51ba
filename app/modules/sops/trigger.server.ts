/**
 * `POST /api/sops/{id or slug}/trigger`: HMAC verification over the exact bytes received, replay refusal
 * through a table every process shares, then a queued run (docs/decisions/010-sops.md).
 *
 * Every refusal after the SOP is known is recorded against it (trigger, reason, time, client address) for
 * the console, counts towards the client address's failure budget (the same per-address block as the token
 * API's bearer failures), and a burst on one trigger is logged as a warning.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { isUniqueViolation } from "~db/client";
import { now } from "~/lib/clock.server";
import { sha256Hex } from "~/lib/hash.server";
import { conflict, invalid, issuesOf, notFound, rateLimited, unauthenticated } from "~/lib/errors";
import { HttpError, readBodyBytes } from "~/lib/http.server";
import { queueRun } from "./runs.server";
import { FAILURE_MESSAGES, checkHeaders, verifySignature } from "./signature.server";
import { findSopForTrigger, triggerBinding, triggersOf } from "./sop-triggers.server";

export const TriggerBody = z.object({ input: z.record(z.string(), z.unknown()) }).strict();

/** Input nested deeper than this is refused: it could not be stored or evaluated without deep recursion. */
export const MAX_INPUT_DEPTH = 64;

/** Iterative, so hostile nesting cannot exhaust the stack while it is being measured. */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Failures on one trigger within a minute that make a warning in the log. */
const BURST = 10;

export interface AcceptedTrigger {
  runId: string;
  sopId: string;
  status: "queued";
  statusUrl: string;
}

const unauthorizedTrigger = (message: string) =>
  unauthenticated(message, 'HMAC-SHA256 headers="X-SOP-Timestamp X-SOP-Signature"');

export async function acceptTrigger(request: Request, context: AppLoadContext, ref: string): Promise<AcceptedTrigger> {
  const { db, env, authFailures, logger, secrets, jobRunner } = context.services;
  const ip = context.request.ip;
  context.request.log.callerType = "trigger";

  const blockedFor = authFailures.blockedFor(ip);
  if (blockedFor > 0) throw rateLimited(blockedFor);

  const sop = await findSopForTrigger(db, ref);
  if (!sop) {
    // Counted like a bad signature: slugs are deployment-wide, so guessing them is throttled too.
    await authFailures.record(ip);
    throw notFound("No SOP with this id or slug");
  }

  const triggers = triggersOf(db, sop.workspace_id, secrets);
  const refuse = async (failure: keyof typeof FAILURE_MESSAGES): Promise<never> => {
    const { message, reason } = FAILURE_MESSAGES[failure];
    const recent = await triggers.recordFailure({
      sopId: sop.id,
      triggerId: sop.trigger_id,
      reason,
      ip,
      since: new Date(now().getTime() - 60_000).toISOString(),
    });
    if (sop.trigger_id && recent % BURST === 0) {
      logger.warn(
        { sop: sop.id, trigger: sop.trigger_id, failuresLastMinute: recent, ip, reason },
        "burst of failed SOP trigger verifications",
      );
    }
    await authFailures.record(ip);
    throw unauthorizedTrigger(message);
  };

  const headers = {
    timestamp: request.headers.get("x-sop-timestamp"),
    signature: request.headers.get("x-sop-signature"),
  };
  const shape = checkHeaders(headers);
  if (shape) return refuse(shape);
  if (!sop.trigger_id || !sop.secret_enc) return refuse("no_trigger");

  // The exact bytes received: the signature covers them as sent, whitespace included.
  const body = await readBodyBytes(request, env.MAX_BODY_BYTES);
  let secret: string;
  try {
    secret = secrets.open(sop.secret_enc, triggerBinding(sop.trigger_id));
  } catch (error) {
    logger.error({ err: error, sop: sop.id }, "a trigger secret does not open: is APP_KEY the one it was sealed with?");
    return refuse("unreadable_secret");
  }
  const nowSeconds = Math.floor(now().getTime() / 1000);
  const failure = verifySignature(secret, headers, body, nowSeconds, env.SOP_TRIGGER_MAX_AGE_SECONDS);
  if (failure) return refuse(failure);

  if (sop.enabled !== 1) {
    throw conflict("This SOP is disabled: enable it in the console to accept triggers");
  }
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(request.headers.get("content-type") ?? "")) {
    throw new HttpError(415, "Send the body as JSON with Content-Type: application/json");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "The request body is not valid JSON");
  }
  if (depthOf(parsed, MAX_INPUT_DEPTH + 1) > MAX_INPUT_DEPTH + 1) {
    throw invalid(`The input is nested too deeply: at most ${MAX_INPUT_DEPTH} levels`, [
      { field: "input", message: `At most ${MAX_INPUT_DEPTH} levels of nesting` },
    ]);
  }
  const valid = TriggerBody.safeParse(parsed);
  if (!valid.success) throw invalid('The body must be { "input": { … } }', issuesOf(valid.error));

  // A signature is accepted once: its record commits with the run, so the first of two racing copies wins and
  // the other is a replay. The row outlives the window in which the timestamp would pass anyway.
  const signatureHash = sha256Hex(`${sop.trigger_id}:${headers.signature!.trim()}`);
  // Twice the window: nodes whose clocks disagree by up to a window still see the record while they would
  // accept the timestamp.
  const expiresAt = new Date((Number(headers.timestamp) + 2 * env.SOP_TRIGGER_MAX_AGE_SECONDS) * 1000).toISOString();
  let runId: string;
  try {
    runId = await queueRun(db, sop, sop.trigger_id, valid.data.input, async (trx) => {
      await trx
        .insertInto("sop_signature_replays")
        .values({ signature_hash: signatureHash, expires_at: expiresAt })
        .execute();
      await triggers.markUsed(sop.trigger_id!, trx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse("replay");
    throw error;
  }
  jobRunner.wake();
  return { runId, sopId: sop.id, status: "queued", statusUrl: `/api/sops/${sop.id}/runs/${runId}` };
}
