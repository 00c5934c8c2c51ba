// GET /api/v1/bookings/{id} — one booking, for its customer or the holder of its manage link (ADR 036), with
// whether it may still be moved or cancelled. Anyone else's is a 404.
import { apiRoute } from "~/lib/routes.server";
import { requireRecordCaller } from "~/modules/access/customer.server";
import { BookingOutput } from "~/modules/scheduling/api";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import { PRIVATE, bookingActor, bookingAnswer } from "~/modules/scheduling/customer-api.server";

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "One booking",
    description: "Signed in as its customer, or with its manage token in the X-Atrium-Manage-Token header.",
    output: BookingOutput,
    errors: [401, 403, 404],
    handle: async ({ request, params, context }) => {
      const caller = await requireRecordCaller(request, context);
      const actor = bookingActor(caller, "view");
      const { db } = context.services;
      const booking = await bookingsOf(db, caller.site.workspace.id).get(params.bookingId ?? "", actor);
      return Response.json(await bookingAnswer(db, caller.site.workspace.id, booking, actor), { headers: PRIVATE });
    },
  },
});
export const action = loader;
