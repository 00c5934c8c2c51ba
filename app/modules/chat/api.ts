/** The site assistant's answers as the customer API documents them, and its settings' limits (ADR 037). */
import { z } from "zod";

export const GREETING_MAX = 300;
export const DEFAULT_GREETING = "Hello! Ask me about our opening hours, what we offer, or your order.";

export const SiteConversation = z.object({
  id: z.string(),
  greeting: z.string(),
  messages: z.array(z.unknown()),
  handedOver: z.boolean(),
  /** A signed-in customer: a hand-over needs no e-mail address (their account's is used). */
  signedIn: z.boolean(),
  createdAt: z.string(),
});
