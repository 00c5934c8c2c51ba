// POST /api/v1/bookings/waitlist — waits for a full time of a service (ADR 036): when a place frees, the first
// still waiting is e-mailed a link to book it (first come, first served: the offer holds nothing). A free time is
// a 409 that says to book it; the same address waits once per time. Open to guests and signed-in customers.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { siteWithOptionalCustomer } from "~/modules/access/customer.server";
import { callerOf, idempotent } from "~/modules/customers/idempotency.server";
import { PRIVATE } from "~/modules/scheduling/customer-api.server";
import { WaitlistInput, WaitlistOutput, waitlistOf, waitlistView } from "~/modules/scheduling/waitlist.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Wait for a full time",
    description:
      "`start` is a time of the service that is fully booked, as an instant with its offset. A time with a place " +
      "left is a 409 (book it instead); a time the service is not offered at is a 400 on `start`; the same e-mail " +
      "address waits once per time (409).",
    input: WaitlistInput,
    output: WaitlistOutput,
    status: 201,
    errors: [400, 404, 409, 415, 429],
    idempotent: true,
    handle: async ({ request, context }) => {
      const { site, customer } = await siteWithOptionalCustomer(request, context);
      const scope = { workspaceId: site.workspace.id, caller: callerOf(customer, context) };
      return idempotent(request, context, scope, async () => {
        const input = await readJson(request, WaitlistInput, context);
        const { entry, service } = await waitlistOf(context.services.db, site.workspace.id).join(input, {
          customerId: customer?.id ?? null,
        });
        return Response.json(waitlistView(entry, service), { status: 201, headers: PRIVATE });
      });
    },
  },
});
export const action = loader;
