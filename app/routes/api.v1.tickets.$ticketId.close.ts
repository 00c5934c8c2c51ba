// POST /api/v1/tickets/{id}/close — the signed-in customer closes their support request (409 when it already is).
// Another customer's ticket is a 404 (ADR 029).
import { apiRoute } from "~/lib/routes.server";
import { customerWrite } from "~/modules/access/customer.server";
import { TicketOutput } from "~/modules/customers/api";
import { customerTicket, ticketsOf } from "~/modules/customers/tickets.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Close a support request",
    output: TicketOutput,
    errors: [401, 409],
    idempotent: true,
    handle: async ({ request, context, params }) => {
      return customerWrite(request, context, async ({ site, customer }) => {
        const ticket = await ticketsOf(context.services.db, site.workspace.id)
          .ofOwner({ customerId: customer.id })
          .close(params.ticketId ?? "");
        return Response.json(customerTicket(ticket), { headers: { "Cache-Control": "private, no-store" } });
      });
    },
  },
});
export const action = loader;
