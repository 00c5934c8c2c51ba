/**
 * The customer API's bodies (ADR 029), as zod schemas: what `/api/v1/profile`, `/api/v1/tickets` and
 * `/api/v1/auth/*` answer, for their routes and the API reference. Plain data, no server imports.
 */
import { z } from "zod";

export const NotificationsOutput = z.object({
  ticketReplies: z.boolean(),
  orderUpdates: z.boolean(),
  bookingReminders: z.boolean(),
});

export const ProfileOutput = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  name: z.string(),
  phone: z.string().nullable(),
  hasPassword: z.boolean(),
  marketingConsent: z.boolean(),
  marketingConsentAt: z.string().nullable(),
  notifications: NotificationsOutput,
  createdAt: z.string(),
});

export const TicketOutput = z.object({
  id: z.string(),
  number: z.number().int(),
  subject: z.string(),
  status: z.enum(["open", "pending", "closed"]),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
});

export const TicketMessageOutput = z.object({
  id: z.string(),
  author: z.enum(["customer", "operator"]),
  body: z.string(),
  createdAt: z.string(),
});

export const TicketDetailOutput = TicketOutput.extend({ messages: z.array(TicketMessageOutput) });

export const TicketListOutput = z.object({
  tickets: z.array(TicketOutput),
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
});

export const PageQuery = z.object({
  page: z.string().optional().describe("1, 2, 3… (25 to a page)"),
});
