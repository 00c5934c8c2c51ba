/**
 * A local Stripe for tests and development (ADR 032): the parts of Stripe's API the official SDK calls for Atrium —
 * the account, webhook endpoints, Checkout Sessions with their hosted page, refunds, payouts, and Billing's
 * subscriptions and invoices (ADR 033) — answering with objects typed
 * by the SDK's own `Stripe.*` types, and events signed by the SDK's own test-header helper and posted to the
 * registered endpoints, as Stripe does. The SDK under test talks to it over HTTP (`STRIPE_API_URL`); nothing of
 * Stripe's is replaced inside Atrium.
 *
 * Tests can hold events (`hold()`) and deliver them later, in any order, twice or at once (`release`, `deliver`),
 * pay a session without a browser (`pay`), and make the next calls fail (`failNext`).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

type Json = Record<string, unknown>;

export interface FakeStripeEvent {
  event: Stripe.Event;
  /** The endpoint it goes to (its URL) and the signed body and header it was (or will be) sent with. */
  url: string;
  body: string;
  header: string;
}

interface Account {
  key: string;
  account: Stripe.Account;
  endpoints: Stripe.WebhookEndpoint[];
  sessions: Map<string, Stripe.Checkout.Session>;
  intents: Map<string, Stripe.PaymentIntent>;
  refunds: Stripe.Refund[];
  subscriptions: Map<string, Stripe.Subscription>;
  invoices: Stripe.Invoice[];
  payouts: Map<string, Stripe.Payout>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const seconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` (Stripe's form encoding) into nested objects and arrays. */
export function decodeForm(body: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else {
        const next = path[i + 1]!;
        node[part] ??= /^\d+$/.test(next) ? [] : {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

function stripeError(res: ServerResponse, status: number, type: string, message: string, code?: string) {
  res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
  res.end(JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } }));
}

export interface FakeStripe {
  url: string;
  /** Registers an account and answers its secret key. */
  addAccount(name: string, options?: { chargesEnabled?: boolean }): string;
  accountOf(key: string): Account;
  /** Events are kept instead of sent until `release()`. */
  hold(): void;
  /** Sends the held events (in the order given, or as they came) and sends later ones at once again. */
  release(order?: (events: FakeStripeEvent[]) => FakeStripeEvent[]): Promise<Response[]>;
  held: FakeStripeEvent[];
  /** Every event made, sent or held. */
  events: FakeStripeEvent[];
  /** Waits until every event sent so far has been answered by its endpoint. */
  idle(): Promise<void>;
  /** Posts an event's signed body to its endpoint (again). */
  deliver(event: FakeStripeEvent): Promise<Response>;
  /** Makes and signs an event on an account's endpoints (an account update, a dashboard refund, …). */
  emit(key: string, type: string, object: unknown): FakeStripeEvent[];
  /** Completes a session as the hosted page's Pay button does; answers the URL the customer is sent back to. */
  pay(sessionId: string): Promise<string>;
  /** A refund made in Stripe's dashboard. */
  refundInDashboard(key: string, paymentIntent: string, amount: number): Promise<Stripe.Refund>;
  /** A subscription as Stripe holds it now. */
  subscription(id: string): Stripe.Subscription;
  /**
   * The next period of a subscription, as Stripe Billing charges it: `invoice.paid` and the subscription moved on,
   * or (`fail`) `invoice.payment_failed` and the subscription past due. A subscription cancelled at its period's
   * end ends instead (`customer.subscription.deleted`).
   */
  renew(id: string, options?: { fail?: boolean }): FakeStripeEvent[];
  /**
   * A payout to the shop's bank: made (`payout.created`, in transit, arriving in two days) or, given an id, moved to
   * `status` (`payout.paid`, `payout.failed`, …). Answers the payout.
   */
  payout(key: string, change: { id?: string; amount?: number; status?: "paid" | "failed" | "canceled" }): Stripe.Payout;
  /** The next `count` API calls answer `status` (500: garbage; 0: no answer until the client gives up). */
  failNext(count: number, status: number): void;
  requests: Array<{ method: string; path: string; idempotencyKey: string | null }>;
  close(): Promise<void>;
}

export async function startFakeStripe(options: { port?: number; host?: string } = {}): Promise<FakeStripe> {
  const accounts = new Map<string, Account>();
  const idempotent = new Map<string, { status: number; body: string }>();
  let holding = false;
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const fake = {} as FakeStripe;
  fake.held = [];
  fake.events = [];
  fake.requests = [];

  const byKey = (req: IncomingMessage) => {
    const auth = req.headers.authorization ?? "";
    return accounts.get(auth.replace(/^Bearer /, ""));
  };
  const sessionOwner = (sessionId: string) => [...accounts.values()].find((a) => a.sessions.has(sessionId));

  const inFlight = new Set<Promise<void>>();
  fake.idle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };

  function makeEvents(account: Account, type: string, object: unknown): FakeStripeEvent[] {
    const event = {
      id: id("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: seconds(),
      livemode: false,
      pending_webhooks: account.endpoints.length,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    } as unknown as Stripe.Event;
    const body = JSON.stringify(event);
    const made = account.endpoints
      .filter((e) => e.enabled_events.includes("*") || e.enabled_events.includes(type))
      .map((endpoint) => ({
        event,
        url: endpoint.url,
        body,
        header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: endpoint.secret! }),
      }));
    fake.events.push(...made);
    if (holding) fake.held.push(...made);
    else
      for (const e of made) {
        const sending = fake.deliver(e).then(
          () => undefined,
          () => undefined,
        );
        inFlight.add(sending);
        void sending.finally(() => inFlight.delete(sending));
      }
    return made;
  }

  fake.deliver = (e) =>
    fetch(e.url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": e.header },
      body: e.body,
    });
  fake.hold = () => {
    holding = true;
  };
  fake.release = async (order) => {
    holding = false;
    const due = order ? order(fake.held) : fake.held;
    fake.held = [];
    const answers: Response[] = [];
    for (const e of due) answers.push(await fake.deliver(e));
    return answers;
  };
  fake.emit = (key, type, object) => makeEvents(fake.accountOf(key), type, object);
  fake.failNext = (count, status) => {
    failures = { count, status };
  };
  fake.accountOf = (key) => {
    const account = accounts.get(key);
    if (!account) throw new Error(`no fake Stripe account for ${key}`);
    return account;
  };
  fake.addAccount = (name, opts = {}) => {
    const key = `sk_test_${randomBytes(12).toString("hex")}`;
    const account = {
      id: id("acct"),
      object: "account",
      business_profile: { name },
      settings: { dashboard: { display_name: name } },
      charges_enabled: opts.chargesEnabled ?? true,
      email: `owner@${name.toLowerCase().replace(/[^a-z]+/g, "")}.test`,
      country: "GB",
      default_currency: "gbp",
    } as unknown as Stripe.Account;
    accounts.set(key, {
      key,
      account,
      endpoints: [],
      sessions: new Map(),
      intents: new Map(),
      refunds: [],
      subscriptions: new Map(),
      invoices: [],
      payouts: new Map(),
    });
    return key;
  };

  const DAY = 86_400;
  const PERIOD: Record<string, number> = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };
  const subscriptionOwner = (subscriptionId: string) =>
    [...accounts.values()].find((a) => a.subscriptions.has(subscriptionId));

  function invoiceFor(account: Account, subscription: Stripe.Subscription, amount: number, paid: boolean) {
    const invoiceId = id("in");
    const invoice = {
      id: invoiceId,
      object: "invoice",
      number: `${account.account.id.slice(5, 13).toUpperCase()}-${String(account.invoices.length + 1).padStart(4, "0")}`,
      status: paid ? "paid" : "open",
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      currency: subscription.currency,
      customer: subscription.customer,
      created: seconds(),
      hosted_invoice_url: `${fake.url}/invoices/${invoiceId}`,
      invoice_pdf: `${fake.url}/invoices/${invoiceId}/pdf`,
      status_transitions: { paid_at: paid ? seconds() : null },
      metadata: {},
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
    } as unknown as Stripe.Invoice;
    account.invoices.push(invoice);
    return invoice;
  }

  /** What Stripe Billing makes when a subscription checkout is paid: the customer, subscription and first invoice. */
  function subscribe(account: Account, session: Stripe.Checkout.Session, line: Json): Stripe.Subscription {
    const price = line.price_data as { currency: string; unit_amount: string; recurring: Json; product_data: Json };
    const data = (session as unknown as { subscription_data?: { metadata?: Json; trial_period_days?: string } })
      .subscription_data;
    const trialDays = Number(data?.trial_period_days ?? 0);
    const interval = String(price.recurring.interval ?? "month");
    const every = Number(price.recurring.interval_count ?? 1);
    const start = seconds();
    const end = trialDays > 0 ? start + trialDays * DAY : start + PERIOD[interval]! * every;
    const subscription = {
      id: id("sub"),
      object: "subscription",
      status: trialDays > 0 ? "trialing" : "active",
      customer: id("cus"),
      currency: price.currency,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      trial_start: trialDays > 0 ? start : null,
      trial_end: trialDays > 0 ? end : null,
      metadata: data?.metadata ?? {},
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            quantity: 1,
            current_period_start: start,
            current_period_end: end,
            price: {
              id: id("price"),
              object: "price",
              currency: price.currency,
              unit_amount: Number(price.unit_amount),
              nickname: String(price.product_data?.name ?? ""),
              recurring: { interval, interval_count: every },
            },
          },
        ],
      },
    } as unknown as Stripe.Subscription;
    account.subscriptions.set(subscription.id, subscription);
    makeEvents(account, "customer.subscription.created", subscription);
    const invoice = invoiceFor(account, subscription, trialDays > 0 ? 0 : Number(price.unit_amount), true);
    makeEvents(account, "invoice.paid", invoice);
    return subscription;
  }

  fake.subscription = (subscriptionId) => {
    const account = subscriptionOwner(subscriptionId);
    if (!account) throw new Error(`no such subscription ${subscriptionId}`);
    return account.subscriptions.get(subscriptionId)!;
  };

  fake.renew = (subscriptionId, opts = {}) => {
    const account = subscriptionOwner(subscriptionId)!;
    const subscription = fake.subscription(subscriptionId);
    const item = subscription.items.data[0]!;
    const before = fake.events.length;
    if (subscription.cancel_at_period_end) {
      Object.assign(subscription, { status: "canceled", ended_at: seconds(), canceled_at: seconds() });
      makeEvents(account, "customer.subscription.deleted", subscription);
      return fake.events.slice(before);
    }
    const price = item.price;
    const invoice = invoiceFor(account, subscription, price.unit_amount ?? 0, !opts.fail);
    if (opts.fail) {
      Object.assign(subscription, { status: "past_due" });
      makeEvents(account, "invoice.payment_failed", invoice);
    } else {
      const length = PERIOD[price.recurring!.interval]! * price.recurring!.interval_count;
      Object.assign(item, {
        current_period_start: item.current_period_end,
        current_period_end: item.current_period_end + length,
      });
      Object.assign(subscription, { status: "active" });
      makeEvents(account, "invoice.paid", invoice);
    }
    makeEvents(account, "customer.subscription.updated", subscription);
    return fake.events.slice(before);
  };

  fake.payout = (key, change) => {
    const account = fake.accountOf(key);
    const existing = change.id ? account.payouts.get(change.id) : undefined;
    if (!existing) {
      const made = {
        id: id("po"),
        object: "payout",
        amount: change.amount ?? 0,
        currency: account.account.default_currency ?? "usd",
        status: "in_transit",
        arrival_date: seconds() + 2 * DAY,
        created: seconds(),
        failure_message: null,
        metadata: {},
      } as unknown as Stripe.Payout;
      account.payouts.set(made.id, made);
      makeEvents(account, "payout.created", made);
      return made;
    }
    Object.assign(existing, {
      status: change.status ?? existing.status,
      failure_message: change.status === "failed" ? "The bank account has been closed." : null,
    });
    makeEvents(account, `payout.${change.status ?? "updated"}`, existing);
    return existing;
  };

  function complete(account: Account, session: Stripe.Checkout.Session): string {
    if (session.status === "open" && session.mode === "subscription") {
      const line = (session as unknown as { line: Json }).line;
      const subscription = subscribe(account, session, line);
      Object.assign(session, {
        status: "complete",
        payment_status: subscription.status === "trialing" ? "no_payment_required" : "paid",
        subscription: subscription.id,
        customer: subscription.customer,
        url: null,
      });
      makeEvents(account, "checkout.session.completed", session);
    } else if (session.status === "open") {
      const intent = {
        id: id("pi"),
        object: "payment_intent",
        amount: session.amount_total,
        amount_received: session.amount_total,
        currency: session.currency,
        status: "succeeded",
        metadata: session.metadata,
      } as unknown as Stripe.PaymentIntent;
      account.intents.set(intent.id, intent);
      Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: intent.id, url: null });
      makeEvents(account, "checkout.session.completed", session);
    }
    return session.success_url!.replace("{CHECKOUT_SESSION_ID}", session.id);
  }

  fake.pay = async (sessionId) => {
    const account = sessionOwner(sessionId);
    if (!account) throw new Error(`no such session ${sessionId}`);
    return complete(account, account.sessions.get(sessionId)!);
  };

  function refund(account: Account, paymentIntent: string, amount: number | null): Stripe.Refund | string {
    const intent = account.intents.get(paymentIntent);
    if (!intent) return `No such payment_intent: '${paymentIntent}'`;
    const refunded = account.refunds
      .filter((r) => r.payment_intent === paymentIntent)
      .reduce((n, r) => n + r.amount, 0);
    const left = intent.amount - refunded;
    const value = amount ?? left;
    if (value <= 0 || value > left)
      return `Refund amount (${value}) is greater than unrefunded amount on charge (${left})`;
    const made = {
      id: id("re"),
      object: "refund",
      amount: value,
      currency: intent.currency,
      payment_intent: paymentIntent,
      status: "succeeded",
      created: seconds(),
      metadata: {},
    } as unknown as Stripe.Refund;
    account.refunds.push(made);
    makeEvents(account, "refund.created", made);
    return made;
  }

  fake.refundInDashboard = async (key, paymentIntent, amount) => {
    const made = refund(fake.accountOf(key), paymentIntent, amount);
    if (typeof made === "string") throw new Error(made);
    return made;
  };

  const hostedAmount = (session: Stripe.Checkout.Session) => {
    const line = (session as unknown as { line?: Json }).line;
    const price = line?.price_data as { unit_amount: string; recurring: Json } | undefined;
    const money = (minor: number) => `${(minor / 100).toFixed(2)} ${(session.currency ?? "").toUpperCase()}`;
    if (!price) return money(session.amount_total ?? 0);
    const data = (session as unknown as { subscription_data?: { trial_period_days?: string } }).subscription_data;
    const every = Number(price.recurring.interval_count ?? 1);
    const per =
      every === 1 ? `per ${String(price.recurring.interval)}` : `every ${every} ${String(price.recurring.interval)}s`;
    const trial = Number(data?.trial_period_days ?? 0);
    return `${trial ? `${trial} days free, then ` : ""}${money(Number(price.unit_amount))} ${per}`;
  };

  const hostedPage = (session: Stripe.Checkout.Session, account: Account) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${account.account.settings?.dashboard?.display_name ?? ""} · Stripe (local fake)</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
.amount{font-size:2rem;font-weight:600}button{width:100%;padding:.8rem;font-size:1rem;border:0;border-radius:6px;
background:#635bff;color:#fff;cursor:pointer}.note{color:#697386;font-size:.85rem}</style></head><body>
<p>${account.account.settings?.dashboard?.display_name ?? ""}</p>
<p class="amount">${hostedAmount(session)}</p>
<p>${session.customer_email ?? ""}</p>
${
  session.status === "open"
    ? `<form method="post"><label>Card number <input name="card" value="4242 4242 4242 4242" autocomplete="off"></label>
<p><button type="submit">Pay</button></p></form><p><a href="${session.cancel_url}">Back to the shop</a></p>`
    : `<p role="alert">This checkout is ${session.status}.</p>`
}
<p class="note">A local stand-in for Stripe Checkout: no card is charged.</p></body></html>`;

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, body: Json): Promise<void> {
    const account = byKey(req);
    if (!account)
      return stripeError(
        res,
        401,
        "invalid_request_error",
        "Invalid API Key provided: sk_test_****",
        "api_key_invalid",
      );
    const json = (status: number, value: unknown) => {
      const text = JSON.stringify(value);
      const key = req.headers["idempotency-key"];
      if (typeof key === "string" && req.method === "POST")
        idempotent.set(`${account.key}:${key}`, { status, body: text });
      res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
      res.end(text);
    };
    let m: RegExpExecArray | null;
    if (req.method === "GET" && path === "/v1/account") return json(200, account.account);
    if (req.method === "POST" && path === "/v1/webhook_endpoints") {
      const events = (body.enabled_events as string[] | undefined) ?? [];
      const endpoint = {
        id: id("we"),
        object: "webhook_endpoint",
        url: String(body.url),
        enabled_events: events,
        secret: `whsec_${randomBytes(24).toString("base64url")}`,
        status: "enabled",
        metadata: body.metadata ?? {},
      } as unknown as Stripe.WebhookEndpoint;
      account.endpoints.push(endpoint);
      return json(200, endpoint);
    }
    if (req.method === "DELETE" && (m = /^\/v1\/webhook_endpoints\/([\w]+)$/.exec(path))) {
      account.endpoints = account.endpoints.filter((e) => e.id !== m![1]);
      return json(200, { id: m[1], object: "webhook_endpoint", deleted: true });
    }
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const lines = (body.line_items as Array<Json> | undefined) ?? [];
      const line = lines[0] as { quantity?: string; price_data?: { currency?: string; unit_amount?: string } };
      if (!line?.price_data?.currency || !line.price_data.unit_amount)
        return stripeError(res, 400, "invalid_request_error", "Missing required param: line_items[0][price_data].");
      const expiresAt = Number(body.expires_at ?? seconds() + 86_400);
      if (expiresAt < seconds() + 30 * 60 - 5)
        return stripeError(
          res,
          400,
          "invalid_request_error",
          "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
        );
      const sessionId = `cs_test_${randomBytes(16).toString("hex")}`;
      const origin = `http://${req.headers.host}`;
      const recurring = body.mode === "subscription";
      if (recurring && !(line.price_data as Json).recurring)
        return stripeError(
          res,
          400,
          "invalid_request_error",
          "You must provide at least one recurring price in `subscription` mode when using prices.",
        );
      const trial = Number((body.subscription_data as Json | undefined)?.trial_period_days ?? 0) > 0;
      const session = {
        id: sessionId,
        object: "checkout.session",
        mode: body.mode,
        status: "open",
        payment_status: "unpaid",
        amount_total: Number(line.price_data.unit_amount) * Number(line.quantity ?? 1),
        amount_subtotal: Number(line.price_data.unit_amount) * Number(line.quantity ?? 1),
        currency: line.price_data.currency,
        client_reference_id: body.client_reference_id ?? null,
        customer_email: body.customer_email ?? null,
        metadata: body.metadata ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        expires_at: expiresAt,
        created: seconds(),
        payment_intent: null,
        subscription: null,
        url: `${origin}/pay/${sessionId}`,
        livemode: false,
      } as unknown as Stripe.Checkout.Session;
      if (recurring) {
        // Kept beside the session (Stripe keeps its line items and subscription data; it does not echo them).
        Object.defineProperty(session, "line", { value: line, enumerable: false });
        Object.defineProperty(session, "subscription_data", { value: body.subscription_data, enumerable: false });
        if (trial) Object.assign(session, { amount_total: 0 });
      }
      account.sessions.set(sessionId, session);
      return json(200, session);
    }
    if ((m = /^\/v1\/checkout\/sessions\/(cs_[\w]+)(\/expire)?$/.exec(path))) {
      const session = account.sessions.get(m[1]!);
      if (!session)
        return stripeError(
          res,
          404,
          "invalid_request_error",
          `No such checkout.session: '${m[1]}'`,
          "resource_missing",
        );
      if (req.method === "GET" && !m[2]) {
        const expand = Object.entries(body)
          .filter(([k]) => k.startsWith("expand"))
          .map(([, v]) => v);
        if (expand.includes("subscription") && typeof session.subscription === "string")
          return json(200, { ...session, subscription: account.subscriptions.get(session.subscription) });
        return json(200, session);
      }
      if (req.method === "POST" && m[2]) {
        if (session.status !== "open")
          return stripeError(
            res,
            400,
            "invalid_request_error",
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          );
        Object.assign(session, { status: "expired", url: null });
        makeEvents(account, "checkout.session.expired", session);
        return json(200, session);
      }
    }
    if ((m = /^\/v1\/subscriptions\/(sub_[\w]+)$/.exec(path))) {
      const subscription = account.subscriptions.get(m[1]!);
      if (!subscription)
        return stripeError(res, 404, "invalid_request_error", `No such subscription: '${m[1]}'`, "resource_missing");
      if (req.method === "GET") return json(200, subscription);
      if (req.method === "DELETE") {
        // Stripe's "cancel a subscription": it ends now.
        if (subscription.status === "canceled")
          return stripeError(res, 400, "invalid_request_error", "This subscription is already canceled.");
        Object.assign(subscription, { status: "canceled", canceled_at: seconds(), ended_at: seconds() });
        makeEvents(account, "customer.subscription.deleted", subscription);
        return json(200, subscription);
      }
      if (req.method === "POST") {
        if (subscription.status === "canceled")
          return stripeError(
            res,
            400,
            "invalid_request_error",
            "A canceled subscription can only update its cancellation_details and metadata.",
          );
        if (body.cancel_at_period_end !== undefined) {
          const cancel = body.cancel_at_period_end === "true";
          const end = subscription.items.data[0]!.current_period_end;
          Object.assign(subscription, {
            cancel_at_period_end: cancel,
            cancel_at: cancel ? end : null,
            canceled_at: cancel ? seconds() : null,
          });
        }
        makeEvents(account, "customer.subscription.updated", subscription);
        return json(200, subscription);
      }
    }
    if (req.method === "GET" && (m = /^\/v1\/payouts\/(po_[\w]+)$/.exec(path))) {
      const payout = account.payouts.get(m[1]!);
      if (!payout)
        return stripeError(res, 404, "invalid_request_error", `No such payout: '${m[1]}'`, "resource_missing");
      return json(200, payout);
    }
    if (req.method === "POST" && (m = /^\/v1\/webhook_endpoints\/([\w]+)$/.exec(path))) {
      const endpoint = account.endpoints.find((e) => e.id === m![1]);
      if (!endpoint)
        return stripeError(
          res,
          404,
          "invalid_request_error",
          `No such webhook endpoint: '${m[1]}'`,
          "resource_missing",
        );
      if (Array.isArray(body.enabled_events)) Object.assign(endpoint, { enabled_events: body.enabled_events });
      return json(200, endpoint);
    }
    if (req.method === "POST" && path === "/v1/refunds") {
      const made = refund(account, String(body.payment_intent ?? ""), body.amount ? Number(body.amount) : null);
      if (typeof made === "string")
        return stripeError(res, 400, "invalid_request_error", made, "charge_already_refunded");
      return json(200, made);
    }
    return stripeError(res, 404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${path}).`);
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const raw = await readBody(req);
      const page = /^\/pay\/(cs_test_[0-9a-f]+)$/.exec(url.pathname);
      if (page) {
        const account = sessionOwner(page[1]!);
        const session = account?.sessions.get(page[1]!);
        if (!account || !session) {
          res.writeHead(404, { "content-type": "text/plain" });
          return res.end("No such checkout");
        }
        if (req.method === "POST" && session.status === "open") {
          res.writeHead(303, { location: complete(account, session) });
          return res.end();
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(hostedPage(session, account));
      }
      const key = req.headers["idempotency-key"];
      fake.requests.push({
        method: req.method ?? "",
        path: url.pathname,
        idempotencyKey: typeof key === "string" ? key : null,
      });
      if (failures.count > 0) {
        failures.count -= 1;
        if (failures.status === 0) return; // never answers: the SDK's timeout
        res.writeHead(failures.status, { "content-type": "text/html" });
        return res.end("<html>upstream error</html>");
      }
      const auth = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const replay = typeof key === "string" && req.method === "POST" ? idempotent.get(`${auth}:${key}`) : undefined;
      if (replay) {
        res.writeHead(replay.status, { "content-type": "application/json", "idempotent-replayed": "true" });
        return res.end(replay.body);
      }
      const body = req.method === "GET" ? Object.fromEntries(url.searchParams) : decodeForm(raw);
      await api(req, res, url.pathname, body);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${address.port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
