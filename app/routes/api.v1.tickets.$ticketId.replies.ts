// POST /api/v1/tickets/{id}/replies { body } — the signed-in customer writes on their support request (a closed
// one opens again). Another customer's ticket is a 404 (ADR 029).
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { customerWrite } from "~/modules/access/customer.server";
import { TicketDetailOutput } from "~/modules/customers/api";
import { TicketBody, customerMessage, customerTicket, ticketsOf } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";

const ReplyInput = z.object({ body: TicketBody });

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Reply on a support request",
    input: ReplyInput,
    output: TicketDetailOutput,
    status: 201,
    errors: [401],
    idempotent: true,
    handle: async ({ request, context, params }) => {
      return customerWrite(request, context, async ({ site, customer }) => {
        const mine = ticketsOf(context.services.db, site.workspace.id).ofOwner({ customerId: customer.id });
        const id = params.ticketId ?? "";
        // The ticket first: another customer's is a 404 whatever the body says.
        await mine.detail(id);
        const { body } = await readJson(request, ReplyInput, context);
        await mine.reply(id, body, await publicOrigin(request, context));
        context.services.jobRunner.wake();
        const { ticket, messages } = await mine.detail(id);
        return Response.json(
          { ...customerTicket(ticket), messages: messages.map(customerMessage) },
          { status: 201, headers: { "Cache-Control": "private, no-store" } },
        );
      });
    },
  },
});
export const action = loader;
