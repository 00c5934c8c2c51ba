// GET /api/v1/bookings/services — the site's bookable services and their free times for a range of dates
// (ADR 036): `from`/`to` are dates in `timeZone` (the visitor's; the business's when absent), at most 31 days,
// 14 from today by default. Times are UTC instants; `businessTimeZone` names the business's own zone.
import { apiRoute } from "~/lib/routes.server";
import { requireSite } from "~/modules/access/customer.server";
import { AvailabilityOutput, AvailabilityQuery } from "~/modules/scheduling/api";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import { availabilityBody } from "~/modules/scheduling/views.server";

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "Bookable services and their available times",
    description:
      "Name the site with the X-Atrium-Site header or the site query parameter. `service` narrows the answer to " +
      "one service (its slug or id). Each slot is `{ start, end, seatsLeft }` in UTC; show it in the visitor's zone.",
    query: AvailabilityQuery,
    output: AvailabilityOutput,
    errors: [400, 404, 429],
    handle: async ({ request, context }) => {
      const site = await requireSite(request, context);
      const query = Object.fromEntries(new URL(request.url).searchParams);
      const { found, ...range } = await bookingsOf(context.services.db, site.workspace.id).availability(query, {
        remember: context.services.pageCache.remember,
      });
      // Times change with every booking and with the clock: never stored by a shared cache.
      return new Response(availabilityBody(range, found), {
        headers: { "Content-Type": "application/json", "Cache-Control": "private, no-store" },
      });
    },
  },
});
export const action = loader;
