// POST /api/v1/bookings — books a free time of a service (ADR 036). The slot is checked and taken in one
// transaction, so no time is ever booked past its places: a time just taken is a 409 with `nextAvailable`. Open to
// guests and signed-in customers (the booking is then theirs); a guest's answer carries `manageToken` once, the
// key to see, move or cancel it (also in the confirmation e-mail's link).
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { siteWithOptionalCustomer } from "~/modules/access/customer.server";
import { callerOf, idempotent } from "~/modules/customers/idempotency.server";
import { mailOrigin } from "~/modules/customers/portal.server";
import { BookingInput, BookingOutput } from "~/modules/scheduling/api";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import { PRIVATE, bookingAnswer, grantOfNewBooking } from "~/modules/scheduling/customer-api.server";
import type { BookingActor } from "~/modules/scheduling/bookings.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Book a time",
    description:
      "`start` is one of the times `GET /api/v1/bookings/services` offers, as an instant with its offset. A time " +
      "in the past, inside the notice, past the window or off the service's grid is a 400 on `start`; a wall-clock " +
      "time without an offset is read in `timeZone` and refused when a daylight-saving change skips or repeats it.",
    input: BookingInput,
    output: BookingOutput,
    status: 201,
    errors: [400, 404, 409, 415, 429],
    idempotent: true,
    handle: async ({ request, context }) => {
      const { site, customer } = await siteWithOptionalCustomer(request, context);
      const scope = { workspaceId: site.workspace.id, caller: callerOf(customer, context) };
      return idempotent(
        request,
        context,
        scope,
        async () => {
          const input = await readJson(request, BookingInput, context);
          const { db } = context.services;
          const { booking, manageToken } = await bookingsOf(db, site.workspace.id).book(input, {
            customerId: customer?.id ?? null,
            source: "api",
            origin: await mailOrigin(request, context),
          });
          context.services.jobRunner.wake();
          const actor: BookingActor = manageToken
            ? { kind: "guest", grant: grantOfNewBooking(site.workspace.id, booking) }
            : { kind: "customer", customerId: customer!.id };
          const answer = await bookingAnswer(db, site.workspace.id, booking, actor);
          return Response.json(manageToken ? { ...answer, manageToken } : answer, { status: 201, headers: PRIVATE });
        },
        // Manage tokens are kept only as their digest (DESIGN rule 4): a replay's answer leaves it out (the
        // confirmation e-mail's link still opens the booking).
        (body) => {
          const parsed = JSON.parse(body) as Record<string, unknown>;
          delete parsed.manageToken;
          return JSON.stringify(parsed);
        },
      );
    },
  },
});
export const action = loader;
