/**
 * The site assistant's booking tool for a signed-in customer (ADR 037): their own bookings, found by the session's
 * customer — the tool takes no input that could name anyone else.
 */
import { z } from "zod";
import { defineTool, mentions } from "~/modules/chat/tools";
import { bookingsOf } from "./bookings.server";
import { BOOKING_STATUS_LABELS, whenLabel } from "./public.server";
import { servicesOf } from "./services.server";
import type { BookingStatus } from "./api";

export const myBookings = defineTool({
  name: "my_bookings",
  description: "The signed-in customer's own bookings: upcoming first, then the last few past ones.",
  input: z.object({}),
  audience: ["site"],
  match(ask) {
    const mine = mentions(ask.plain, "my", "i have", "do i have", "am i", "i booked", "did i book");
    return mine &&
      mentions(ask.plain, "booking", "bookings", "appointment", "appointments", "class", "consultation", "booked")
      ? { score: 0.9, input: {} }
      : null;
  },
  async run(context) {
    const caller = context.caller;
    // A visitor is asked to sign in: their bookings are theirs to see once they have proved who they are.
    if (caller.kind !== "customer")
      return {
        output: { bookings: [], signIn: true },
        answer: "Sign in to ask about your bookings: I can only talk about a customer's bookings to that customer.",
        sources: [{ url: context.siteUrl("/login"), title: "Sign in" }],
      };
    const { db } = context.services;
    const mine = await bookingsOf(db, context.workspace.id).ofCustomer(caller.customerId);
    const shown = [...mine.upcoming.filter((b) => b.status !== "expired"), ...mine.past.slice(0, 3)];
    const names = new Map((await servicesOf(db, context.workspace.id).list()).map((s) => [s.id, s.name]));
    const tz = context.workspace.timeZone;
    const line = (b: (typeof shown)[number]) =>
      `- ${names.get(b.service_id) ?? "A booking"}, ${whenLabel(b.start_at, tz)} — ${BOOKING_STATUS_LABELS[b.status as BookingStatus]}`;
    const upcoming = shown.filter((b) => mine.upcoming.includes(b));
    const past = shown.filter((b) => mine.past.includes(b));
    const answer =
      shown.length === 0
        ? "You have no bookings with us yet."
        : [
            upcoming.length
              ? `Your upcoming bookings:\n${upcoming.map(line).join("\n")}`
              : "You have no upcoming bookings.",
            past.length ? `Recently:\n${past.map(line).join("\n")}` : "",
          ]
            .filter(Boolean)
            .join("\n\n");
    return {
      output: {
        bookings: shown.map((b) => ({
          id: b.id,
          service: names.get(b.service_id) ?? null,
          start: b.start_at,
          end: b.end_at,
          status: b.status,
        })),
      },
      answer,
      sources: [{ url: context.siteUrl("/account/my-bookings"), title: "My bookings" }],
    };
  },
});
