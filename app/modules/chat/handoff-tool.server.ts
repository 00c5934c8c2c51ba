/**
 * "Can I talk to a person?" (ADR 037): the site assistant says how to reach the team. It opens nothing itself — the
 * visitor hands the conversation over with the widget's form (their address, their consent), which posts to
 * `/api/v1/{site}/chat/session/{id}/handoff`; this tool's output tells a client to offer that form.
 */
import { z } from "zod";
import { defineTool, mentions } from "./tools";

export const handOverTool = defineTool({
  name: "hand_over",
  description:
    "Offers to pass the conversation to the business's team (a person answers by e-mail), when the visitor asks for a person or the assistant cannot help.",
  input: z.object({}),
  audience: ["site"],
  match(ask) {
    const person =
      mentions(
        ask.plain,
        "human",
        "a person",
        "real person",
        "someone",
        "somebody",
        "staff",
        "the team",
        "an agent",
        "the owner",
      ) && mentions(ask.plain, "talk", "speak", "chat", "contact", "reach", "get", "connect", "want", "need", "pass");
    return person || mentions(ask.plain, "hand over", "handover", "escalate") ? { score: 0.95, input: {} } : null;
  },
  async run(context) {
    const customer = context.caller.kind === "customer";
    return {
      output: { handoff: "offered", needsEmail: !customer },
      answer: customer
        ? `I can pass this conversation to the ${context.workspace.name} team: choose “Pass to the team” below and they will answer you by e-mail.`
        : `I can pass this conversation to the ${context.workspace.name} team: choose “Pass to the team” below and leave your e-mail address for their answer.`,
      sources: [],
    };
  },
});
