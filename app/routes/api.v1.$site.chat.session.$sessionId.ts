// GET /api/v1/{site}/chat/session/{id} — the visitor's or customer's own conversation with the site's assistant,
// as UI messages (the widget reopening it; ADR 037). Anyone else's is a 404.
import { validate } from "~/lib/errors";
import { apiRoute } from "~/lib/routes.server";
import { siteAssistantCaller } from "~/modules/access/customer.server";
import { ChatId } from "~/modules/chat/protocol";
import { siteConversation } from "~/modules/chat/site.server";
import { SiteConversation } from "~/modules/chat/api";

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "A conversation with the site's assistant",
    output: SiteConversation,
    errors: [403, 404, 429],
    handle: async ({ request, context, params }) => {
      const caller = await siteAssistantCaller(request, context, params.site);
      const id = validate(ChatId, params.sessionId, "id");
      return Response.json(await siteConversation(request, context, caller, id), {
        headers: { "Cache-Control": "private, no-store" },
      });
    },
  },
});

export const action = loader;
