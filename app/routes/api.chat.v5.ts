// POST /api/chat/v5 — the assistant, in AI SDK v5's UI message stream protocol (spec: Token API; ADR 037).
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireIntegrator } from "~/modules/access/integrator.server";
import { operatorChat, operatorTurn } from "~/modules/chat/operator.server";
import { ChatRequest } from "~/modules/chat/protocol";
import { answerTurn } from "~/modules/chat/turn.server";

export const loader = apiRoute({
  caller: "integrator",
  cors: true,
  POST: {
    summary: "Ask the assistant about a workspace",
    description:
      "The body is what AI SDK v5's DefaultChatTransport sends (id, messages, trigger, messageId) plus `workspace` (slug or id) when the key is not restricted to one, and optionally `tools`. The answer is a UI message stream (text/event-stream, x-vercel-ai-ui-message-stream: v1) ending with [DONE]. An OAuth access token needs the read_data scope.",
    input: ChatRequest,
    handle: async ({ request, context }) => {
      const integrator = await requireIntegrator(request, context, "read_data");
      const input = await readJson(request, ChatRequest, context);
      const chat = await operatorChat(request, context, integrator, input.workspace);
      return answerTurn(operatorTurn(context, chat), input);
    },
  },
});

export const action = loader;
