// GET /api/v1/tickets/{id} — one of the signed-in customer's support requests with its conversation. Another
// customer's (or another site's) ticket is a 404 (ADR 029).
import { apiRoute } from "~/lib/routes.server";
import { requireCustomer } from "~/modules/access/customer.server";
import { TicketDetailOutput } from "~/modules/customers/api";
import { customerMessage, customerTicket, ticketsOf } from "~/modules/customers/tickets.server";

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "One support request and its messages",
    output: TicketDetailOutput,
    errors: [401],
    handle: async ({ request, context, params }) => {
      const { site, customer } = await requireCustomer(request, context);
      const { ticket, messages } = await ticketsOf(context.services.db, site.workspace.id)
        .ofOwner({ customerId: customer.id })
        .detail(params.ticketId ?? "");
      return Response.json(
        { ...customerTicket(ticket), messages: messages.map(customerMessage) },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});
export const action = loader;
