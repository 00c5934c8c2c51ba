// POST /api/v1/{site}/chat/session — opens a conversation with the site's assistant (spec: customer API; ADR 037):
// for the signed-in customer, or for an anonymous visitor, who gets a cookie holding a random token and nothing else.
import { apiRoute } from "~/lib/routes.server";
import { siteAssistantCaller } from "~/modules/access/customer.server";
import { SiteConversation } from "~/modules/chat/api";
import { startSiteConversation } from "~/modules/chat/site.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Open a conversation with the site's assistant",
    description:
      "The site is the path's. Answers the conversation's id and the greeting; messages are then sent to `/api/v1/{site}/chat/session/{id}/messages` in AI SDK v5's UI message stream protocol. A visitor who is not signed in gets an anonymous cookie. 404 when the site has no assistant switched on.",
    output: SiteConversation,
    status: 201,
    errors: [403, 404, 429],
    handle: async ({ request, context, params }) => {
      const caller = await siteAssistantCaller(request, context, params.site);
      const { body, setCookie } = await startSiteConversation(request, context, caller);
      const headers = new Headers({ "Cache-Control": "private, no-store" });
      if (setCookie) headers.append("Set-Cookie", setCookie);
      return Response.json(body, { status: 201, headers });
    },
  },
});

export const action = loader;
