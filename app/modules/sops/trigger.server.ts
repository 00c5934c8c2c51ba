/**
 * `POST /api/sops/{id or slug}/trigger` after the trigger guard (app/modules/access/trigger.server.ts) has
 * verified the HMAC over the exact bytes received: a copy of an accepted request is answered with its run
 * (through a table every process shares), anything else queues a run (docs/decisions/010-sops.md).
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
import { conflict, invalid, issuesOf, unauthenticated } from "~/lib/errors";
import { setResponseHeaders } from "~/lib/http.server";
import { rateLimitHeaders } from "~/modules/rate-limit/api-rate-limit.server";
import { queueRun } from "./runs.server";
import { FAILURE_MESSAGES } from "./signature.server";
import { type findSopForTrigger, triggersOf } from "./sop-triggers.server";
import { admitTriggeredRun } from "./trigger-limits.server";

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

/** `AcceptedTrigger` as the trigger API's schema, for the API reference; checked against the interface. */
export const AcceptedTriggerSchema = z.object({
  runId: z.string(),
  sopId: z.string(),
  status: z.literal("queued"),
  statusUrl: z.string().describe("GET it (as an operator) to follow the run"),
}) satisfies z.ZodType<AcceptedTrigger>;

/** A signed request the trigger guard let through: its SOP, and the exact bytes it signed. */
export interface VerifiedTrigger {
  sop: NonNullable<Awaited<ReturnType<typeof findSopForTrigger>>> & { trigger_id: string };
  signature: string;
  timestamp: string;
  body: Buffer;
  contentType: string | null;
}

/**
 * Refuses a trigger request after its SOP is known: recorded against the SOP for the console, counted towards
 * the client address's failure budget, a burst logged.
 */
export async function refuseTrigger(
  context: AppLoadContext,
  sop: { id: string; workspace_id: string; trigger_id: string | null },
  failure: keyof typeof FAILURE_MESSAGES,
): Promise<never> {
  const { db, authFailures, logger, secrets } = context.services;
  const ip = context.request.ip;
  const { message, reason } = FAILURE_MESSAGES[failure];
  const recent = await triggersOf(db, sop.workspace_id, secrets).recordFailure({
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
  throw unauthenticated(message, 'HMAC-SHA256 headers="X-SOP-Timestamp X-SOP-Signature"');
}

/** What the trigger endpoint answers: the run, and whether this request was a copy of one already accepted. */
export interface TriggerOutcome {
  accepted: AcceptedTrigger;
  /** An identical copy of an accepted request: answered with its run (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

/**
 * Queues the run of a verified trigger request. `parsed` is its body as JSON (the HTTP layer reads it); it must
 * be `{ "input": { … } }`. An identical copy of a request already accepted — same trigger, timestamp and
 * body, hence the same signature — is answered with the run the first one queued and queues nothing: a client
 * whose response was lost can retry safely (Stripe's idempotent replay). A copy of a refused request was never
 * recorded, so it is judged afresh and refused for the same reason.
 */
export async function acceptTrigger(
  context: AppLoadContext,
  verified: VerifiedTrigger,
  parsed: unknown,
): Promise<TriggerOutcome> {
  const { db, env, secrets, jobRunner } = context.services;
  const { sop } = verified;
  const signatureHash = sha256Hex(`${sop.trigger_id}:${verified.signature.trim()}`);
  const accepted = (runId: string): AcceptedTrigger => ({
    runId,
    sopId: sop.id,
    status: "queued",
    statusUrl: `/api/sops/${sop.id}/runs/${runId}`,
  });
  const replayOf = async () => {
    const seen = await db
      .selectFrom("sop_signature_replays")
      .select("run_id")
      .where("signature_hash", "=", signatureHash)
      .executeTakeFirst();
    if (!seen) return null;
    // A record from before replays named their run: nothing to answer with.
    if (!seen.run_id) return refuseTrigger(context, sop, "replay");
    return { accepted: accepted(seen.run_id), replayed: true };
  };
  const earlier = await replayOf();
  if (earlier) return earlier;

  if (sop.enabled !== 1) {
    throw conflict("This SOP is disabled: enable it in the console to accept triggers");
  }
  if (depthOf(parsed, MAX_INPUT_DEPTH + 1) > MAX_INPUT_DEPTH + 1) {
    throw invalid(`The input is nested too deeply: at most ${MAX_INPUT_DEPTH} levels`, [
      { field: "input", message: `At most ${MAX_INPUT_DEPTH} levels of nesting` },
    ]);
  }
  const valid = TriggerBody.safeParse(parsed);
  if (!valid.success) throw invalid('The body must be { "input": { … } }', issuesOf(valid.error));

  // A signature is accepted once: its record commits with the run and names it, so of two racing copies the
  // first queues the run and the other finds the record and answers with that run. The row outlives the window
  // in which the timestamp would pass anyway: twice the window, so nodes whose clocks disagree by up to a
  // window still see the record while they would accept the timestamp.
  const expiresAt = new Date((Number(verified.timestamp) + 2 * env.SOP_TRIGGER_MAX_AGE_SECONDS) * 1000).toISOString();
  const triggers = triggersOf(db, sop.workspace_id, secrets);
  let runId: string;
  try {
    runId = await queueRun(db, sop, sop.trigger_id, valid.data.input, async (trx, queued) => {
      await trx
        .insertInto("sop_signature_replays")
        .values({ signature_hash: signatureHash, expires_at: expiresAt, run_id: queued })
        .execute();
      await admitTriggeredRun(trx, sop, sop.trigger_id, (state) =>
        setResponseHeaders(context, rateLimitHeaders(state)),
      );
      await triggers.markUsed(sop.trigger_id, trx);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The other copy committed first (the unique index waited for it): answer with its run.
    const raced = await replayOf();
    if (raced) return raced;
    throw error;
  }
  jobRunner.wake();
  return { accepted: accepted(runId), replayed: false };
}
