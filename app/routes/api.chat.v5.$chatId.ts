// GET, DELETE /api/chat/v5/{id} — a stored conversation as UI messages, or its removal (ADR 037).
import { z } from "zod";
import { notFound, validate } from "~/lib/errors";
import { apiRoute } from "~/lib/routes.server";
import { requireIntegrator } from "~/modules/access/integrator.server";
import { operatorChat } from "~/modules/chat/operator.server";
import { ChatId } from "~/modules/chat/protocol";

const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  messages: z.array(z.object({ id: z.string(), role: z.string(), parts: z.array(z.unknown()) })),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The conversation's workspace: `?workspace=` (slug or id) unless the key is restricted to one. */
async function conversationOf(
  request: Request,
  context: Parameters<typeof requireIntegrator>[1],
  chatId: string | undefined,
) {
  const integrator = await requireIntegrator(request, context, "read_data");
  const id = validate(ChatId, chatId, "id");
  const workspace = new URL(request.url).searchParams.get("workspace") ?? undefined;
  const chat = await operatorChat(request, context, integrator, workspace);
  return { id, conversations: chat.conversations };
}

export const loader = apiRoute({
  caller: "integrator",
  cors: true,
  GET: {
    summary: "A stored conversation, as UI messages",
    description: "`?workspace=` names the workspace when the key is not restricted to one.",
    output: Conversation,
    handle: async ({ request, context, params }) => {
      const { id, conversations } = await conversationOf(request, context, params.chatId);
      const found = await conversations.get(id);
      return Response.json(
        {
          id: found.clientId,
          title: found.title,
          messages: found.messages,
          createdAt: found.createdAt,
          updatedAt: found.updatedAt,
        },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  },
  DELETE: {
    summary: "Delete a stored conversation",
    handle: async ({ request, context, params }) => {
      const { id, conversations } = await conversationOf(request, context, params.chatId);
      if (!(await conversations.remove(id))) throw notFound("No such conversation");
      return new Response(null, { status: 204 });
    },
  },
});

export const action = loader;
