// GET /api/bookings/feed/{secret}.ics — a staff member's or resource's bookings as an iCalendar feed (ADR 036), for
// calendar apps that subscribe by address and send no session: the secret in the path is the credential, so the
// route is open by the access contract and an unknown, rotated or revoked secret is a 404 that says no more.
import { notFound } from "~/lib/errors";
import { apiRoute } from "~/lib/routes.server";
import { feedOfSecret } from "~/modules/scheduling/feed.server";

export const loader = apiRoute({
  caller: "public",
  internal: true,
  GET: async ({ params, context }) => {
    const secret = (params.token ?? "").replace(/\.ics$/i, "");
    const calendar = await feedOfSecret(context.services.db, secret);
    if (calendar === undefined) {
      context.request.log.failure = "authorization";
      throw notFound("No such calendar feed");
    }
    return new Response(calendar, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="bookings.ics"',
        // Shared caches must never keep one person's calendar; the app re-reads it on each poll.
        "Cache-Control": "private, no-cache",
        "Referrer-Policy": "no-referrer",
        "X-Robots-Tag": "noindex",
      },
    });
  },
});

export const action = loader;
