/**
 * The assistant's shop tools (ADR 037): orders found by customer or number ("Jane's last order", "order 1003"),
 * sales over a period (Pro and Enterprise: the reports of the plan), and what is running low. Read-only.
 */
import { z } from "zod";
import { defineTool, emailIn, mentions, personNamed, type ToolContext } from "~/modules/chat/tools";
import { parsePeriod, periodInstants } from "~/modules/chat/periods";
import { productsOf } from "./catalogue.server";
import { formatMoney } from "./money";
import { ORDER_STATUS_LABELS, ordersOf, type Order } from "./orders.server";

const ORDER_WORDS = ["order", "orders", "ordered", "purchase", "purchases", "bought", "buy"];

const dateOf = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short", year: "numeric" }).format(new Date(iso));

/**
 * "Jane Doe", "jane@example.com": who an order question is about, if it names someone — "Jane's last order",
 * "orders from Jane Doe", "what did Jane order", "has Jane Doe ordered".
 */
function customerNamed(text: string): string | undefined {
  return (
    emailIn(text) ??
    personNamed(text, {
      after: ["by", "for", "from", "of", "did", "does", "has", "have"],
      before: ["ordered", "bought", "purchased", "paid"],
    })
  );
}

export const findOrders = defineTool({
  name: "find_orders",
  description:
    "Orders of the shop, newest first: a customer's (by name or e-mail; limit 1 for their last order), one by its number, or the latest. Each with its items, total and status.",
  input: z.object({
    customer: z
      .string()
      .trim()
      .min(2)
      .max(120)
      .optional()
      .describe("The customer's name or e-mail address, or part of it"),
    number: z.coerce.number().int().positive().optional().describe("The order number, e.g. 1003"),
    limit: z.coerce.number().int().min(1).max(20).default(5),
  }),
  audience: ["operator"],
  role: "viewer",
  match(ask) {
    if (!mentions(ask.plain, ...ORDER_WORDS)) return null;
    const number = /\border\s*(?:number|no\.?)?\s*#?(\d{1,9})\b|#(\d{1,9})\b/.exec(ask.plain);
    if (number) return { score: 0.9, input: { number: Number(number[1] ?? number[2]) } };
    const customer = customerNamed(ask.text);
    const last = mentions(ask.plain, "last", "latest", "most recent", "newest");
    if (customer) return { score: 0.85, input: { customer, limit: last && !/\borders\b/.test(ask.plain) ? 1 : 5 } };
    // No one named: the latest orders, when the question is about orders in general ("which orders are unpaid").
    if (
      last ||
      mentions(ask.plain, "recent", "new orders") ||
      /^(?:find|show|list|see|get)(?: me)?(?: the| all| our| my)? orders\b/.test(ask.plain) ||
      /\b(?:which|what|any|all|our|open|unpaid|pending|outstanding)\s+(?:\w+\s+)?orders\b/.test(ask.plain) ||
      /\borders\b.*\b(?:waiting|unpaid|pending|outstanding|open|to (?:ship|fulfil|fulfill|pack|collect))\b/.test(
        ask.plain,
      )
    )
      return { score: 0.7, input: { limit: 5 } };
    return null;
  },
  async run(context, input) {
    const orders = ordersOf(context.services.db, context.workspace.id);
    const query = input.number !== undefined ? String(input.number) : input.customer;
    const found = (await orders.list({ query, size: input.limit, offset: 0 })).filter(
      (o) => input.number === undefined || o.number === input.number,
    );
    if (found.length === 0) {
      const what =
        input.number !== undefined
          ? `order #${input.number}`
          : input.customer
            ? `orders for “${input.customer}”`
            : "orders";
      return { output: { orders: [] }, answer: `I found no ${what}.`, sources: [] };
    }
    const lines = await Promise.all(found.map((o) => orders.linesOf(o.id)));
    const described = found.map((o, i) => orderOutput(o, lines[i]!, context));
    const text = described.map(
      (o) =>
        `- Order #${o.number} — ${o.name || o.email} — ${o.total} — ${o.status} — ${o.placed}\n  ${o.items.map((l) => `${l.quantity} × ${l.title}`).join(", ")}`,
    );
    const heading =
      input.number !== undefined
        ? `Order #${input.number}:`
        : input.customer
          ? input.limit === 1
            ? `The last order of “${input.customer}”:`
            : `Orders for “${input.customer}”, newest first:`
          : "The latest orders:";
    return { output: { orders: described }, answer: `${heading}\n${text.join("\n")}`, sources: [] };
  },
});

function orderOutput(
  order: Order,
  lines: Awaited<ReturnType<ReturnType<typeof ordersOf>["linesOf"]>>,
  context: ToolContext,
) {
  return {
    id: order.id,
    number: order.number,
    name: order.name,
    email: order.email,
    status: ORDER_STATUS_LABELS[order.status],
    total: formatMoney(order.total, order.currency),
    refunded: order.refunded > 0 ? formatMoney(order.refunded, order.currency) : null,
    placed: dateOf(order.createdAt, context.workspace.timeZone),
    paidAt: order.paidAt,
    items: lines.map((l) => ({
      title: l.variantTitle ? `${l.title} (${l.variantTitle})` : l.title,
      quantity: l.quantity,
      total: formatMoney(l.total, order.currency),
    })),
    url: context.consoleUrl(`/shop/orders/${order.id}`),
  };
}

export const salesSummary = defineTool({
  name: "sales_summary",
  description:
    "Sales over a period (today, yesterday, this week, last month, the last N days, a month): paid orders, gross, refunded and net per currency, and the best-selling products.",
  input: z.object({
    period: z.string().trim().min(1).max(60).default("this month").describe('The period in words, e.g. "last week"'),
  }),
  audience: ["operator"],
  role: "viewer",
  tiers: ["pro", "enterprise"],
  match(ask, context) {
    // "Sold out" and "out of stock" ask what is left to sell, not what was sold.
    const plain = ask.plain.replace(/\bsold out\b|\bout of stock\b/g, " ");
    const about =
      mentions(
        plain,
        "sales",
        "sold",
        "revenue",
        "turnover",
        "takings",
        "income",
        "best sellers",
        "bestsellers",
        "best-selling",
      ) ||
      // "Made" and "earned" are sales only as money: "how much did we make", not "made with butter".
      (/\bhow much\b/.test(plain) && mentions(plain, "sell", "make", "made", "earn", "earned")) ||
      /\bwhat (?:have|did) (?:we|i) (?:make|made|earn|earned)\b|\b(?:we|i) (?:made|earned)\b/.test(plain) ||
      // "What did we sell last week": the shop's own selling, in the past.
      /\b(?:did|have) (?:we|i) (?:sell|sold)\b|\b(?:we|i) sold\b|\bwhat sold\b/.test(plain);
    if (!about) return null;
    const period = parsePeriod(ask.plain, context.workspace.timeZone, context.at, { past: true });
    return { score: 0.85, input: { period: period?.phrase ?? "this month" } };
  },
  async run(context, { period: words }) {
    const { timeZone } = context.workspace;
    const period =
      parsePeriod(words, timeZone, context.at, { past: true }) ?? parsePeriod("this month", timeZone, context.at)!;
    const { fromIso, untilIso } = periodInstants(period, timeZone);
    const sales = await ordersOf(context.services.db, context.workspace.id).sales(fromIso, untilIso);
    if (sales.byCurrency.length === 0) {
      return { output: { period, ...sales }, answer: `No orders were paid ${period.label}.`, sources: [] };
    }
    const totals = sales.byCurrency.map(
      (c) =>
        `- ${c.orders} paid order${c.orders === 1 ? "" : "s"}: ${formatMoney(c.gross, c.currency)} gross` +
        (c.refunded ? `, ${formatMoney(c.refunded, c.currency)} refunded, ${formatMoney(c.net, c.currency)} net` : ""),
    );
    const currency = sales.byCurrency[0]!.currency;
    const top = sales.topProducts.map((p) => `${p.title} (${p.quantity} sold, ${formatMoney(p.total, currency)})`);
    return {
      output: {
        period,
        byCurrency: sales.byCurrency.map((c) => ({
          ...c,
          grossText: formatMoney(c.gross, c.currency),
          netText: formatMoney(c.net, c.currency),
        })),
        topProducts: sales.topProducts,
      },
      answer: `Sales ${period.label}:\n${totals.join("\n")}${top.length ? `\nBest sellers: ${top.join("; ")}.` : ""}`,
      sources: [],
    };
  },
});

export const lowStock = defineTool({
  name: "low_stock",
  description:
    "Products whose tracked stock left to sell is at or below a threshold (default 5), fewest first: what to restock.",
  input: z.object({ threshold: z.coerce.number().int().min(0).max(1000).default(5) }),
  audience: ["operator"],
  role: "viewer",
  match(ask) {
    const about =
      mentions(
        ask.plain,
        "low stock",
        "stock",
        "inventory",
        "restock",
        "running out",
        "run out",
        "running low",
        "sold out",
        "out of stock",
      ) ||
      /\bwhat (?:should|do|must) (?:we|i) (?:need to |have to )?(?:bake|make|reorder|order|restock)\b/.test(
        ask.plain,
      ) ||
      /\b(?:bake|make|order) more of\b/.test(ask.plain);
    if (!about) return null;
    const under = /\b(?:under|below|less than|fewer than|at most)\s+(\d{1,4})\b/.exec(ask.plain);
    // "Sold out" is said of stock only: surer than a sales word in the same question.
    const sure = mentions(ask.plain, "sold out", "out of stock", "low stock", "restock") ? 0.9 : 0.85;
    return { score: sure, input: { threshold: under ? Number(under[1]) : 5 } };
  },
  async run(context, { threshold }) {
    const found = await productsOf(context.services.db, context.workspace.id).lowStock(threshold, 50);
    if (found.length === 0) {
      return {
        output: { threshold, variants: [] },
        answer: `Nothing tracked is at or below ${threshold} in stock.`,
        sources: [],
      };
    }
    const lines = found.map(
      (v) =>
        `- ${v.title}${v.variantTitle && v.variantTitle !== "Default" ? ` (${v.variantTitle})` : ""}: ${v.left === 0 ? "sold out" : `${v.left} left`}${v.status === "draft" ? " — draft" : ""}`,
    );
    return {
      output: {
        threshold,
        variants: found.map((v) => ({ ...v, url: context.consoleUrl(`/shop/products/${v.productId}`) })),
      },
      answer: `${found.length} item${found.length === 1 ? " is" : "s are"} at or below ${threshold} in stock:\n${lines.join("\n")}`,
      sources: [],
    };
  },
});

export const commerceChatTools = [findOrders, salesSummary, lowStock];
