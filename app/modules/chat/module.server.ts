import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { defineModule } from "~/lib/module";
import { searchContentTool } from "./content-tool.server";
import { handOverTool } from "./handoff-tool.server";
import type { ChatTool } from "./tools";

/** The assistant's tools, gathered from every module at start, and the model it answers through (if any). */
export interface ChatToolbox {
  all(): readonly ChatTool[];
  /** An OpenAI-compatible model (`AI_BASE_URL`), or null: the offline engine answers. */
  model: LanguageModel | null;
}

declare module "~/lib/context" {
  interface AppServices {
    chat: ChatToolbox;
  }
}

const tools: ChatTool[] = [];

/** The assistant (ADR 037): its tools, contributed by the modules that own the data, and its model. */
export const chatModule = defineModule({
  name: "chat",
  services: ({ env }) => ({
    chat: {
      all: () => tools,
      model: env.AI_BASE_URL
        ? createOpenAICompatible({ name: "atrium-ai", baseURL: env.AI_BASE_URL, apiKey: env.AI_API_KEY }).chatModel(
            env.AI_MODEL,
          )
        : null,
    },
  }),
  contributes: () => ({ chatTools: [searchContentTool, handOverTool] as unknown as ChatTool[] }),
  start: (_services, contributions) => {
    const names = new Set<string>();
    tools.length = 0;
    for (const tool of contributions.flatMap((c) => c.chatTools ?? [])) {
      if (names.has(tool.name)) throw new Error(`two modules contribute the chat tool ${tool.name}`);
      names.add(tool.name);
      tools.push(tool);
    }
  },
});
