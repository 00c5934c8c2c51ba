/**
 * The trigger guard (ADR 005, ADR 010): a request to `POST /api/sops/{id or slug}/trigger` is let through only
 * with a valid HMAC-SHA256 signature of its exact bytes under the SOP's trigger secret, within the timestamp
 * window, and only while the SOP's workspace's owner is active (403 otherwise). Every failed verification after
 * the SOP is known is recorded against it (`refuseTrigger`); an address that keeps failing is blocked before
 * its next guess is looked at, like the token API's bearer failures.
 */
import type { AppLoadContext } from "@remix-run/node";
import { defineGuard } from "~/lib/callers.server";
import { now } from "~/lib/clock.server";
import { forbidden, notFound, rateLimited } from "~/lib/errors";
import { readBodyBytes } from "~/lib/http.server";
import { checkHeaders, verifySignature } from "~/modules/sops/signature.server";
import { findSopForTrigger, triggerBinding } from "~/modules/sops/sop-triggers.server";
import { refuseTrigger, type VerifiedTrigger } from "~/modules/sops/trigger.server";

export const requireTrigger = defineGuard(
  "trigger",
  async function requireTrigger(request: Request, context: AppLoadContext, ref: string): Promise<VerifiedTrigger> {
    const { db, env, authFailures, logger, secrets } = context.services;
    const ip = context.request.ip;

    const blockedFor = authFailures.blockedFor(ip);
    if (blockedFor > 0) throw rateLimited(blockedFor);

    const sop = await findSopForTrigger(db, ref);
    if (!sop) {
      // Counted like a bad signature: slugs are deployment-wide, so guessing them is throttled too.
      await authFailures.record(ip);
      throw notFound("No SOP with this id or slug");
    }

    const headers = {
      timestamp: request.headers.get("x-sop-timestamp"),
      signature: request.headers.get("x-sop-signature"),
    };
    const shape = checkHeaders(headers);
    if (shape) return refuseTrigger(context, sop, shape);
    const triggerId = sop.trigger_id;
    if (!triggerId || !sop.secret_enc) return refuseTrigger(context, sop, "no_trigger");

    // The exact bytes received: the signature covers them as sent, whitespace included.
    const body = await readBodyBytes(request, env.MAX_BODY_BYTES);
    let secret: string;
    try {
      secret = secrets.open(sop.secret_enc, triggerBinding(triggerId));
    } catch (error) {
      logger.error(
        { err: error, sop: sop.id },
        "a trigger secret does not open: is APP_KEY the one it was sealed with?",
      );
      return refuseTrigger(context, sop, "unreadable_secret");
    }
    const nowSeconds = Math.floor(now().getTime() / 1000);
    const failure = verifySignature(secret, headers, body, nowSeconds, env.SOP_TRIGGER_MAX_AGE_SECONDS);
    if (failure) return refuseTrigger(context, sop, failure);
    // The workspace's owner is suspended: the spec's 403 for a suspended account. Only an authentic request
    // learns it (as with a disabled SOP), and it is not a failed verification, so it is not recorded as one.
    if (sop.owner_status !== "active") throw forbidden();
    return {
      sop: { ...sop, trigger_id: triggerId },
      signature: headers.signature!,
      timestamp: headers.timestamp!,
      body,
      contentType: request.headers.get("content-type"),
    };
  },
);
