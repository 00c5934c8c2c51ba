/** The customer API's glue for bookings (ADR 036): who is asking, and the answer's shape. */
import type { BookingRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import { forbidden } from "~/lib/errors";
import type { RecordCaller } from "~/modules/access/customer.server";
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
