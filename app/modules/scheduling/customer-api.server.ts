/** The customer API's glue for bookings (ADR 036): who is asking, and the answer's shape. */
import type { BookingRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import { forbidden } from "~/lib/errors";
import type { AppLoadContext } from "@remix-run/node";
import { requireRecordCaller, type RecordCaller } from "~/modules/access/customer.server";
import { callerOf, idempotent } from "~/modules/customers/idempotency.server";
import type { ManageAction } from "~/modules/customers/manage-tokens.server";
import { bookingsOf, type BookingActor } from "./bookings.server";
import { bookingView } from "./views.server";

/** The caller as the module's actor; a guest's link must grant `action` (a view-only link cannot cancel). */
export function bookingActor(caller: RecordCaller, action: ManageAction): BookingActor {
  if (caller.customer) return { kind: "customer", customerId: caller.customer.id };
  const grant = caller.grant!;
  if (grant.subjectType !== "booking" || !grant.actions.includes(action)) {
    // Another record's link is no key to this one: the same 404 as a stranger gets, from the module.
    if (grant.subjectType !== "booking") return { kind: "guest", grant };
    throw forbidden();
  }
  return { kind: "guest", grant };
}

export async function bookingAnswer(db: Db, workspaceId: string, b: BookingRow, actor: BookingActor) {
  const rights = await bookingsOf(db, workspaceId).rights(b, actor);
  return bookingView(b, rights.service, rights);
}

export const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * A customer-API write on one booking (cancel, reschedule, checkout): its customer or the holder of a manage link
 * that grants `action`, under the caller's `Idempotency-Key` (a guest's keys are their link's, not their address').
 */
export async function bookingWrite(
  request: Request,
  context: AppLoadContext,
  action: ManageAction,
  run: (who: { caller: RecordCaller; actor: BookingActor; workspaceId: string }) => Promise<Response>,
): Promise<Response> {
  const caller = await requireRecordCaller(request, context);
  const actor = bookingActor(caller, action);
  const workspaceId = caller.site.workspace.id;
  const scope = {
    workspaceId,
    caller: caller.grant ? `manage:${caller.grant.subjectId}` : callerOf(caller.customer, context),
  };
  return idempotent(request, context, scope, () => run({ caller, actor, workspaceId }));
}

/** The grant a guest's new booking's token carries, for the answer that hands it over (its rights as theirs). */
export function grantOfNewBooking(workspaceId: string, b: BookingRow) {
  return {
    workspaceId,
    subjectType: "booking" as const,
    subjectId: b.id,
    actions: ["view", "cancel", "reschedule"] as ManageAction[],
    email: b.email,
    expiresAt: b.end_at,
  };
}
