// POST /api/v1/{site}/chat/session/{id}/messages — a message to the site's assistant, answered as AI SDK v5's UI
// message stream (ADR 037). The body is DefaultChatTransport's; the conversation is the path's, whatever its `id`.
import { validate } from "~/lib/errors";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { siteAssistantCaller } from "~/modules/access/customer.server";
import { ChatId, ChatRequest } from "~/modules/chat/protocol";
import { siteTurn } from "~/modules/chat/site.server";
import { answerTurn } from "~/modules/chat/turn.server";

const SiteChatRequest = ChatRequest.omit({ workspace: true, tools: true }).partial({ id: true });

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Ask the site's assistant",
    description:
      "The body is what AI SDK v5's DefaultChatTransport sends (messages, trigger, messageId); the answer is a UI message stream (text/event-stream, x-vercel-ai-ui-message-stream: v1) ending with [DONE]. Limited per visitor and per client address (429).",
    input: SiteChatRequest,
    errors: [400, 403, 404, 415, 429],
    handle: async ({ request, context, params }) => {
      const caller = await siteAssistantCaller(request, context, params.site);
      const id = validate(ChatId, params.sessionId, "id");
      const input = await readJson(request, SiteChatRequest, context);
      return answerTurn(await siteTurn(request, context, caller), { ...input, id });
    },
  },
});

export const action = loader;
