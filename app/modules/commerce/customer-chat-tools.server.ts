/**
 * The site assistant's order tool for a signed-in customer (ADR 037): their own orders, found by the session's
 * customer — the tool takes no input that could name anyone else.
 */
import { z } from "zod";
import { defineTool, mentions } from "~/modules/chat/tools";
import { customerOrdersOf } from "./customer-orders.server";
import { formatMoney } from "./money";
import { ORDER_STATUS_LABELS, ordersOf } from "./orders.server";

export const myOrders = defineTool({
  name: "my_orders",
  description: "The signed-in customer's own orders, newest first, with what they bought and where each stands.",
  input: z.object({ limit: z.coerce.number().int().min(1).max(10).default(3) }),
  audience: ["site"],
  match(ask) {
    const mine = mentions(ask.plain, "my", "i ordered", "i bought", "did i order", "have i ordered", "i placed");
    if (!mine || !mentions(ask.plain, "order", "orders", "ordered", "purchase", "parcel", "delivery", "bought"))
      return null;
    return {
      score: 0.9,
      input: { limit: mentions(ask.plain, "last", "latest", "recent") && !/\borders\b/.test(ask.plain) ? 1 : 3 },
    };
  },
  async run(context, { limit }) {
    const caller = context.caller;
    // A visitor is asked to sign in: orders are their customer's to see once they have proved who they are.
    if (caller.kind !== "customer")
      return {
        output: { orders: [], signIn: true },
        answer: "Sign in to ask about your orders: I can only talk about a customer's orders to that customer.",
        sources: [{ url: context.siteUrl("/login"), title: "Sign in" }],
      };
    const { db } = context.services;
    const found = await customerOrdersOf(db, context.workspace.id, { customerId: caller.customerId }).list({
      size: limit,
      offset: 0,
    });
    if (found.length === 0) return { output: { orders: [] }, answer: "You have no orders with us yet.", sources: [] };
    const orders = ordersOf(db, context.workspace.id);
    const lines = await Promise.all(found.map((o) => orders.linesOf(o.id)));
    const described = found.map((o, i) => ({
      id: o.id,
      number: o.number,
      status: ORDER_STATUS_LABELS[o.status],
      total: formatMoney(o.total, o.currency),
      placed: o.createdAt,
      items: lines[i]!.map((l) => `${l.quantity} × ${l.variantTitle ? `${l.title} (${l.variantTitle})` : l.title}`),
      url: context.siteUrl(`/orders/${o.id}`),
    }));
    return {
      output: { orders: described },
      answer: `${limit === 1 ? "Your last order" : "Your latest orders"}:\n${described
        .map((o) => `- Order #${o.number}: ${o.items.join(", ")} — ${o.total} — ${o.status}`)
        .join("\n")}`,
      sources: described.map((o) => ({ url: o.url, title: `Order #${o.number}` })),
    };
  },
});
