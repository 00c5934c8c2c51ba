// POST /api/v1/bookings/{id}/cancel — by its customer or the holder of its manage link (ADR 036), within the service's cancellation notice.
// Past the notice: 409 with what to do instead. Anyone else's booking is a 404.
import { readJson } from "~/lib/http.server";
import { cardRelease } from "~/modules/commerce/hosted-checkout.server";
import { apiRoute } from "~/lib/routes.server";
import { mailOrigin } from "~/modules/customers/portal.server";
import { BookingOutput, CancelInput } from "~/modules/scheduling/api";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import { PRIVATE, bookingAnswer, bookingWrite } from "~/modules/scheduling/customer-api.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Cancel a booking",
    input: CancelInput,
    output: BookingOutput,
    errors: [400, 401, 403, 404, 409, 415],
    idempotent: true,
    handle: async ({ request, params, context }) =>
      bookingWrite(request, context, "cancel", async ({ actor, workspaceId }) => {
        const { db } = context.services;
        const bookings = bookingsOf(db, workspaceId);
        const id = params.bookingId ?? "";
        // The booking first: another's is a 404 whatever the body says.
        await bookings.get(id, actor);
        const input = await readJson(request, CancelInput, context);
        const origin = await mailOrigin(request, context);
        const booking = await bookings.cancel(id, actor, input, origin, cardRelease(context.services, origin));
        context.services.jobRunner.wake();
        return Response.json(await bookingAnswer(db, workspaceId, booking, actor), { headers: PRIVATE });
      }),
  },
});
export const action = loader;
