// POST /api/v1/{site}/chat/session/{id}/handoff { email?, name?, message? } — passes the conversation to the business's
// inbox as a ticket (ADR 037): once; asked again, the same ticket (200). A visitor leaves an address for the answer.
import { z } from "zod";
import { validate } from "~/lib/errors";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { siteAssistantCaller } from "~/modules/access/customer.server";
import { ChatId } from "~/modules/chat/protocol";
import { HandoffInput, handOver } from "~/modules/chat/site.server";

const Handoff = z.object({ ticket: z.object({ number: z.number(), subject: z.string() }), created: z.boolean() });

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Pass the conversation to the business's team",
    input: HandoffInput,
    output: Handoff,
    status: 201,
    errors: [400, 403, 404, 409, 429],
    handle: async ({ request, context, params }) => {
      const caller = await siteAssistantCaller(request, context, params.site);
      const id = validate(ChatId, params.sessionId, "id");
      const input = await readJson(request, HandoffInput, context);
      const { ticket, created } = await handOver(request, context, caller, id, input);
      return Response.json(
        { ticket: { number: ticket.number, subject: ticket.subject }, created },
        { status: created ? 201 : 200, headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});

export const action = loader;
