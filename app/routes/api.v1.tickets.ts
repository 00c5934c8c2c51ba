// GET  /api/v1/tickets — the signed-in customer's support requests, newest activity first (ADR 029).
// POST /api/v1/tickets { subject, message } — opens one; the business is told by e-mail and in its inbox.
import { pageCount, pageOf } from "~/lib/pagination.server";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { customerWrite, requireCustomer } from "~/modules/access/customer.server";
import { PageQuery, TicketDetailOutput, TicketListOutput } from "~/modules/customers/api";
import { NewTicketInput, customerMessage, customerTicket, ticketsOf } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";

const NO_STORE = { "Cache-Control": "private, no-store" };
const PAGE_SIZE = 25;

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "The signed-in customer's support requests",
    query: PageQuery,
    output: TicketListOutput,
    errors: [401],
    handle: async ({ request, context }) => {
      const { site, customer } = await requireCustomer(request, context);
      const mine = ticketsOf(context.services.db, site.workspace.id).ofOwner({ customerId: customer.id });
      const paging = pageOf(request, PAGE_SIZE);
      const [tickets, total] = await Promise.all([mine.list(paging), mine.count()]);
      return Response.json(
        { tickets: tickets.map(customerTicket), page: paging.page, pages: pageCount(total, PAGE_SIZE), total },
        { headers: NO_STORE },
      );
    },
  },
  POST: {
    summary: "Open a support request",
    input: NewTicketInput,
    output: TicketDetailOutput,
    status: 201,
    errors: [401],
    idempotent: true,
    handle: async ({ request, context }) => {
      // A retried open (a timeout, a double tap in an app) with the same key is the same ticket, not a second one.
      return customerWrite(request, context, async ({ site, customer }) => {
        const input = await readJson(request, NewTicketInput, context);
        const tickets = ticketsOf(context.services.db, site.workspace.id);
        const ticket = await tickets.open(
          input,
          { customerId: customer.id, email: customer.email, name: customer.name },
          await publicOrigin(request, context),
        );
        context.services.jobRunner.wake();
        const messages = await tickets.messagesOf(ticket.id);
        return Response.json(
          { ...customerTicket(ticket), messages: messages.map(customerMessage) },
          { status: 201, headers: NO_STORE },
        );
      });
    },
  },
});
export const action = loader;
