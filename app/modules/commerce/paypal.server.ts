/**
 * PayPal (issue 18, ADR 035), through the official `@paypal/paypal-server-sdk` and its Orders v2: a workspace
 * connects its own REST app (client id and secret, sandbox or live, and the id of the webhook it made for
 * Atrium's address); customers approve on PayPal's page; Atrium captures the approved order itself — on the
 * customer's return, on `CHECKOUT.ORDER.APPROVED`, or from `POST /api/v1/checkout/paypal/status`, whichever
 * comes first, with one PayPal-Request-Id so PayPal captures once — and the payment is applied by the order's
 * idempotent finalisation. An order released before it was captured is never captured: nothing is taken.
 *
 * The SDK's hosts are PayPal's own (sandbox or live); no workspace can send the server's calls elsewhere. Only a
 * deployment's `PAYPAL_API_ADDRESS` (tests, `npm run fake:paypal`) resolves those hosts to a loopback fake, with
 * `PAYPAL_API_CA` trusted besides the usual roots — the certificate is still checked against PayPal's names.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { X509Certificate, verify as verifySignature } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, get as httpsGet, type AgentOptions } from "node:https";
import type { Duplex } from "node:stream";
import { rootCertificates } from "node:tls";
import { crc32 } from "node:zlib";
import {
  ApiError,
  CallbackEvents,
  CheckoutPaymentIntent,
  Client,
  Environment,
  OrdersController,
  PatchOp,
  PaymentsController,
  PaypalExperienceUserAction,
  PaypalWalletContextShippingPreference,
  type AmountWithBreakdown,
  type Order as PayPalOrder,
} from "@paypal/paypal-server-sdk";
import type { AppServices } from "~/lib/context";
import { DomainError, conflict, invalid, notFound, unavailable } from "~/lib/errors";
import { type Settled, applyCardPayment } from "./card-payments.server";
import { paymentConnectionsOf } from "./connections.server";
import { currencyDigits, moneyInput, parseMoney } from "./money";
import { type Order, ordersOf } from "./orders.server";
import { repriceForAddress } from "./reprice.server";

export interface PayPalCredentials {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  mode: PayPalMode;
}

export const PAYPAL_MODES = ["sandbox", "live"] as const;
export type PayPalMode = (typeof PAYPAL_MODES)[number];

type Services = Pick<AppServices, "db" | "secrets" | "env" | "logger">;

/** Every host the SDK calls and PayPal signs its webhook certificates from: the only ones a fake may stand in for. */
export const PAYPAL_API_HOSTS = new Set([
  "api-m.sandbox.paypal.com",
  "api-m.paypal.com",
  "api.sandbox.paypal.com",
  "api.paypal.com",
]);

const CLIENT_ID = /^[A-Za-z0-9_-]{16,128}$/;
const WEBHOOK_ID = /^[A-Z0-9]{8,40}$/;

let agentFor: { key: string; agent: Agent | undefined } | null = null;

/**
 * The HTTPS agent for PayPal's hosts: none (Node's own) in production; with `PAYPAL_API_ADDRESS`, an agent whose
 * DNS lookup and port send PayPal's hosts to that loopback address, trusting `PAYPAL_API_CA` too.
 */
export function paypalAgent(env: Services["env"]): Agent | undefined {
  const key = `${env.PAYPAL_API_ADDRESS ?? ""}|${env.PAYPAL_API_CA ?? ""}`;
  if (agentFor?.key === key) return agentFor.agent;
  let agent: Agent | undefined;
  if (env.PAYPAL_API_ADDRESS) {
    const at = env.PAYPAL_API_ADDRESS.lastIndexOf(":");
    const host = env.PAYPAL_API_ADDRESS.slice(0, at).replace(/^\[|\]$/g, "");
    const port = Number(env.PAYPAL_API_ADDRESS.slice(at + 1));
    const address = host === "localhost" ? "127.0.0.1" : host;
    const family = address.includes(":") ? 6 : 4;
    const options: AgentOptions = {
      keepAlive: true,
      ca: [...rootCertificates, ...(env.PAYPAL_API_CA ? [readFileSync(env.PAYPAL_API_CA, "utf8")] : [])],
      lookup: ((hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (!PAYPAL_API_HOSTS.has(hostname)) return dnsLookup(hostname, opts, callback as never);
        if (opts.all) return callback(null, [{ address, family } satisfies LookupAddress]);
        return callback(null, address, family);
      }) as AgentOptions["lookup"],
    };
    agent = new (class extends Agent {
      override createConnection(o: { host?: string; servername?: string }, cb?: unknown): Duplex {
        const to = PAYPAL_API_HOSTS.has(o.servername ?? o.host ?? "") ? { ...o, port } : o;
        return (
          Agent.prototype as unknown as { createConnection: (o: unknown, cb?: unknown) => Duplex }
        ).createConnection.call(this, to, cb);
      }
    })(options);
  }
  agentFor = { key, agent };
  return agent;
}

function paypalApi(services: Services, credentials: Pick<PayPalCredentials, "clientId" | "clientSecret" | "mode">) {
  const client = new Client({
    clientCredentialsAuthCredentials: {
      oAuthClientId: credentials.clientId,
      oAuthClientSecret: credentials.clientSecret,
    },
    environment: credentials.mode === "live" ? Environment.Production : Environment.Sandbox,
    timeout: services.env.PAYMENTS_TIMEOUT_MS,
    httpClientOptions: {
      timeout: services.env.PAYMENTS_TIMEOUT_MS,
      httpsAgent: paypalAgent(services.env),
      // Every call that creates or moves money carries a PayPal-Request-Id, so retrying any of them is safe. (The
      // SDK retries nothing unless it may wait: its default longest wait is 0.)
      retryConfig: {
        maxNumberOfRetries: 2,
        retryOnTimeout: true,
        retryInterval: 0.2,
        backoffFactor: 2,
        maximumRetryWaitTime: Math.max(1, Math.ceil(services.env.PAYMENTS_TIMEOUT_MS / 1000)),
        httpMethodsToRetry: ["GET", "PUT", "POST", "PATCH"],
      },
    },
  });
  return { client, orders: new OrdersController(client), payments: new PaymentsController(client) };
}

/** PayPal's answer as the error contract: what it refused is a 4xx with its words; anything else a 503, nothing changed. */
export function paypalFailure(error: unknown, doing: string, enteringKeys = false): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof ApiError && !enteringKeys && (error.statusCode === 401 || error.statusCode === 403))
    // Not the caller's to fix (a customer paying, an event): the shop's keys stopped working; its check says so.
    return unavailable(`PayPal did not accept this shop's keys to ${doing}; nothing was changed.`, 60);
  if (error instanceof ApiError) {
    if (error.statusCode === 401)
      return invalid("PayPal did not accept this client id and secret", [
        { field: "clientSecret", message: "Not accepted by PayPal" },
      ]);
    if (error.statusCode === 403)
      return invalid(`This PayPal app may not ${doing}; check its features in PayPal's developer dashboard`, [
        { field: "clientId", message: "Missing a permission" },
      ]);
    if (error.statusCode >= 400 && error.statusCode < 500)
      return conflict(`PayPal refused to ${doing}: ${reasonOf(error)}`);
  }
  return unavailable(`PayPal could not be reached to ${doing}; nothing was changed. Try again in a moment.`, 30);
}

/** PayPal's error body: the SDK parses it only for the statuses a call declares, so the raw body is read too. */
function bodyOf(error: ApiError): { details?: Array<{ issue?: string; description?: string }>; message?: string } {
  if (error.result) return error.result as ReturnType<typeof bodyOf>;
  try {
    return typeof error.body === "string" ? (JSON.parse(error.body) as ReturnType<typeof bodyOf>) : {};
  } catch {
    return {};
  }
}

function reasonOf(error: ApiError): string {
  const result = bodyOf(error);
  const detail = result?.details?.[0];
  return detail?.description ?? detail?.issue ?? result?.message ?? `HTTP ${error.statusCode}`;
}

async function clientOf(services: Services, workspaceId: string) {
  const credentials = await paymentConnectionsOf(services, workspaceId).credentials<PayPalCredentials>("paypal");
  return { ...paypalApi(services, credentials), credentials };
}

/** A token for the app answers whether PayPal accepts its id and secret. */
async function checkApp(services: Services, credentials: PayPalCredentials): Promise<void> {
  const { client } = paypalApi(services, credentials);
  try {
    await client.clientCredentialsAuthManager.fetchToken();
  } catch (error) {
    throw paypalFailure(error, "check this app", true);
  }
}

const describeApp = (c: Pick<PayPalCredentials, "clientId" | "mode">) => ({
  name: `PayPal ${c.mode === "live" ? "live" : "sandbox"} app ${c.clientId.slice(0, 8)}…`,
  detail:
    c.mode === "live"
      ? "PayPal payments go to the PayPal business account of this app."
      : "Sandbox: customers pay with PayPal's test accounts, and no real money moves. Connect a live app to sell.",
});

/**
 * Connects (or reconnects) the workspace's PayPal REST app: saved only once PayPal gave a token for its id and
 * secret. The webhook id is the one PayPal's dashboard showed for the webhook made for Atrium's address: events
 * are verified against it, so an event for another app's webhook is refused.
 */
export async function connectPayPal(
  services: Services,
  workspaceId: string,
  input: { clientId: string; clientSecret: string; webhookId: string; mode: string },
  actorUserId: string,
): Promise<void> {
  const credentials: PayPalCredentials = {
    clientId: input.clientId.trim(),
    clientSecret: input.clientSecret.trim(),
    webhookId: input.webhookId.trim().toUpperCase(),
    mode: input.mode === "live" ? "live" : "sandbox",
  };
  const problems = [
    !CLIENT_ID.test(credentials.clientId) && { field: "clientId", message: "Paste the app's client ID from PayPal" },
    !CLIENT_ID.test(credentials.clientSecret) && {
      field: "clientSecret",
      message: "Paste the app's secret from PayPal",
    },
    !WEBHOOK_ID.test(credentials.webhookId) && {
      field: "webhookId",
      message: "Paste the webhook ID PayPal shows beside the webhook you added (letters and digits)",
    },
    !PAYPAL_MODES.includes(input.mode as PayPalMode) && { field: "mode", message: "Choose sandbox or live" },
  ].filter((p): p is { field: string; message: string } => !!p);
  if (problems.length) throw invalid("Check the PayPal app's details", problems);
  await checkApp(services, credentials);
  const described = describeApp(credentials);
  await paymentConnectionsOf(services, workspaceId).save<PayPalCredentials>(
    "paypal",
    {
      credentials,
      accountId: credentials.clientId,
      accountName: described.name,
      webhookEndpointId: credentials.webhookId,
      detail: described.detail,
    },
    actorUserId,
  );
}

/** "Check connection": asks PayPal for a token again and records what it said. */
export async function checkPayPal(services: Services, workspaceId: string): Promise<void> {
  const connections = paymentConnectionsOf(services, workspaceId);
  const credentials = await connections.credentials<PayPalCredentials>("paypal");
  try {
    await checkApp(services, credentials);
    await connections.setState("paypal", "connected", describeApp(credentials).detail);
  } catch (error) {
    const failure = paypalFailure(error, "check the connection");
    await connections.setState(
      "paypal",
      failure.kind === "unavailable" ? "connected" : "error",
      failure.kind === "unavailable"
        ? "PayPal could not be reached at the last check; PayPal payments carry on when it answers."
        : `The last check failed: ${failure.message}.`,
    );
    throw failure;
  }
}

/**
 * Disconnects. A PayPal page left open cannot take money without Atrium capturing it, and Atrium captures only
 * with the shop's keys: once they are gone, an approval is never captured and PayPal voids it.
 */
export async function disconnectPayPal(services: Services, workspaceId: string, actorUserId: string) {
  const connections = paymentConnectionsOf(services, workspaceId);
  if (!(await connections.get("paypal"))) throw notFound("PayPal is not connected");
  await connections.remove("paypal", actorUserId);
}

/** Minor units as PayPal's decimal string ("12.50"; "1000" for JPY). */
const money = (minor: number, currency: string) => ({ currencyCode: currency, value: moneyInput(minor, currency) });

/** PayPal's decimal string in minor units; a malformed amount is a 503 (garbage from the provider). */
function minorOf(value: string | undefined, currency: string): number {
  const parsed = parseMoney(value ?? "", currency);
  if (parsed === null || (value ?? "").split(".")[1]?.length !== (currencyDigits(currency) || undefined))
    throw unavailable("PayPal answered an amount Atrium could not read; try again in a moment.", 30);
  return parsed;
}

/** The order's total with a breakdown that adds up as PayPal checks it (tax on top only when prices exclude it). */
export function amountOf(order: Order): AmountWithBreakdown {
  const taxOnTop = order.pricesIncludeTax ? 0 : order.tax;
  const items = order.total - order.shipping - taxOnTop + order.discount;
  return {
    ...money(order.total, order.currency),
    breakdown: {
      itemTotal: money(items, order.currency),
      shipping: money(order.shipping, order.currency),
      ...(taxOnTop ? { taxTotal: money(taxOnTop, order.currency) } : {}),
      ...(order.discount ? { discount: money(order.discount, order.currency) } : {}),
    },
  };
}

/**
 * The order's PayPal page: the one still open, or a new PayPal order for the order's exact total, whose
 * approval page lets the buyer change where it goes (PayPal then asks `callbackUrl` for the new price). The
 * PayPal-Request-Id is the order's, so a retried creation answers the same PayPal order.
 */
export async function paypalCheckoutFor(
  services: Services,
  workspaceId: string,
  order: Order,
  urls: { success: string; cancel: string; callback: string },
  brandName: string,
): Promise<string> {
  if (order.status !== "pending") throw conflict("This order is not waiting for a payment");
  if (order.paymentProvider !== "paypal") throw conflict("This order is not paid with PayPal");
  const soon = Date.now() + 60_000;
  if (order.checkoutUrl && order.checkoutExpiresAt && new Date(order.checkoutExpiresAt).getTime() > soon)
    return order.checkoutUrl;
  if (!order.reservedUntil || new Date(order.reservedUntil).getTime() <= soon)
    throw conflict("This order's hold has run out; place the order again");
  const { orders: api } = await clientOf(services, workspaceId);
  const address = order.address;
  let created: PayPalOrder;
  try {
    ({ result: created } = await api.createOrder({
      paypalRequestId: `atrium-checkout-${order.id}-${order.total}`,
      prefer: "return=representation",
      body: {
        intent: CheckoutPaymentIntent.Capture,
        purchaseUnits: [
          {
            referenceId: "default",
            customId: order.id,
            invoiceId: `atrium-${order.id}`,
            description: `Order #${order.number}`,
            amount: amountOf(order),
            ...(address
              ? {
                  shipping: {
                    name: { fullName: order.name.slice(0, 300) },
                    address: {
                      addressLine1: address.line1,
                      addressLine2: address.line2 || undefined,
                      adminArea2: address.city,
                      adminArea1: address.region || undefined,
                      postalCode: address.postalCode,
                      countryCode: address.country,
                    },
                  },
                }
              : {}),
          },
        ],
        paymentSource: {
          paypal: {
            experienceContext: {
              brandName: brandName.slice(0, 127),
              returnUrl: urls.success,
              cancelUrl: urls.cancel,
              userAction: PaypalExperienceUserAction.PayNow,
              shippingPreference: address
                ? PaypalWalletContextShippingPreference.GetFromFile
                : PaypalWalletContextShippingPreference.NoShipping,
              ...(address
                ? {
                    orderUpdateCallbackConfig: {
                      callbackEvents: [CallbackEvents.ShippingAddress, CallbackEvents.ShippingOptions],
                      callbackUrl: urls.callback,
                    },
                  }
                : {}),
            },
          },
        },
      },
    }));
  } catch (error) {
    throw paypalFailure(error, "open the payment page");
  }
  const approve = created.links?.find((l) => l.rel === "payer-action" || l.rel === "approve")?.href;
  if (!created.id || !approve)
    throw unavailable("PayPal gave no payment page for this order; try again in a moment.", 30);
  await ordersOf(services.db, workspaceId).setCheckout(order.id, {
    reference: created.id,
    url: approve,
    expiresAt: order.reservedUntil,
  });
  return approve;
}

/** Beyond a card payment's answers: not approved yet, never to be captured, or captured but not yet cleared. */
export type PayPalSettled = Settled | "awaiting_approval" | "not_captured" | "capture_pending";

/**
 * Applies a PayPal order to the Atrium order it was made for — from the customer's return, the status endpoint,
 * or an event. Approved and still pending here: captured (one PayPal-Request-Id per PayPal order, so two at once
 * are one capture), then finalised once. Approved but released here: not captured, so nothing is taken. A capture
 * that lands on an order released meanwhile is refunded at once (card-payments.server.ts).
 */
export async function settlePayPalOrder(
  services: Services,
  workspaceId: string,
  paypalOrderId: string,
  origin: string,
): Promise<PayPalSettled> {
  const orders = ordersOf(services.db, workspaceId);
  const order = await orders.byCheckout(paypalOrderId);
  if (!order || order.paymentProvider !== "paypal")
    throw notFound("No order of this shop was paid with that PayPal order");
  const { orders: api, payments } = await clientOf(services, workspaceId);
  let found: PayPalOrder;
  try {
    ({ result: found } = await api.getOrder({ id: paypalOrderId }));
  } catch (error) {
    throw paypalFailure(error, "read the PayPal order");
  }
  const unit = found.purchaseUnits?.[0];
  if (unit?.customId && unit.customId !== order.id) throw notFound("That PayPal order is not this order's");
  if (found.status === "APPROVED") {
    if (order.status !== "pending") return "not_captured";
    const current = await followAddress(services, workspaceId, order, found);
    try {
      if (unit?.amount?.value !== moneyInput(current.total, current.currency))
        // The price changed since PayPal last heard it (a callback it did not get): PayPal charges ours.
        await api.patchOrder({
          id: paypalOrderId,
          body: [
            {
              op: PatchOp.Replace,
              path: "/purchase_units/@reference_id=='default'/amount",
              value: wire(amountOf(current)),
            },
          ],
        });
      ({ result: found } = await api.captureOrder({
        id: paypalOrderId,
        paypalRequestId: `atrium-capture-${paypalOrderId}`,
        prefer: "return=representation",
      }));
    } catch (error) {
      // Another request captured it (PayPal may refuse a second capture with the same request id while the
      // first runs, or answer ORDER_ALREADY_CAPTURED after): what PayPal's order says now is the answer.
      const now = await api.getOrder({ id: paypalOrderId }).catch(() => null);
      if (now?.result.status !== "COMPLETED") throw paypalFailure(error, "take the PayPal payment");
      found = now.result;
    }
  }
  if (found.status !== "COMPLETED") return found.status === "VOIDED" ? "not_captured" : "awaiting_approval";
  const capture = found.purchaseUnits?.[0]?.payments?.captures?.[0];
  if (!capture?.id || capture.status === "DECLINED" || capture.status === "FAILED") return "not_captured";
  // PENDING (an eCheck, a review): PAYMENT.CAPTURE.COMPLETED comes when the money does.
  if (capture.status === "PENDING") return "capture_pending";
  const currency = capture.amount?.currencyCode ?? order.currency;
  const captureId = capture.id;
  return applyCardPayment(
    services,
    workspaceId,
    await orders.byId(order.id),
    { provider: "paypal", reference: captureId, amount: minorOf(capture.amount?.value, currency), currency, origin },
    async (reason) => {
      try {
        const { result } = await payments.refundCapturedPayment({
          captureId,
          paypalRequestId: `atrium-${reason}-${captureId}`,
          prefer: "return=representation",
          body: { customId: `atrium:${reason}`, noteToPayer: refundNote(reason, order.number) },
        });
        return { reference: refundIdOf(result), amount: minorOf(result.amount?.value, currency) };
      } catch (error) {
        throw paypalFailure(error, "refund a payment that could not be applied");
      }
    },
  );
}

const refundNote = (reason: "order_released" | "duplicate_payment", number: number) =>
  reason === "order_released"
    ? `Order #${number} had been released before your payment arrived: it is refunded in full.`
    : `Order #${number} was already paid: this second payment is refunded in full.`;

/** The SDK's camelCase amount as PayPal's wire JSON, for a JSON Patch value (the SDK passes values as they are). */
function wire(amount: AmountWithBreakdown) {
  const m = (x?: { currencyCode: string; value: string }) => x && { currency_code: x.currencyCode, value: x.value };
  const b = amount.breakdown;
  return {
    ...m(amount),
    breakdown: b && {
      item_total: m(b.itemTotal),
      shipping: m(b.shipping),
      ...(b.taxTotal ? { tax_total: m(b.taxTotal) } : {}),
      ...(b.discount ? { discount: m(b.discount) } : {}),
    },
  };
}

/**
 * Where the buyer chose at PayPal is where the order goes: the full address PayPal approved replaces the order's,
 * priced again when its country or region changed (a shipping callback PayPal did not make, or that failed).
 */
async function followAddress(
  services: Services,
  workspaceId: string,
  order: Order,
  found: PayPalOrder,
): Promise<Order> {
  const at = found.purchaseUnits?.[0]?.shipping?.address;
  if (!at?.countryCode || !order.address) return order;
  const next = {
    line1: at.addressLine1 ?? order.address.line1,
    line2: at.addressLine2 ?? "",
    city: at.adminArea2 ?? order.address.city,
    postalCode: at.postalCode ?? order.address.postalCode,
    region: at.adminArea1 ?? "",
    country: at.countryCode,
  };
  if (JSON.stringify(next) === JSON.stringify({ ...order.address, region: order.address.region ?? "" })) return order;
  const repriced = await repriceForAddress(services.db, workspaceId, order.id, next, null);
  if (!repriced) throw conflict("The shop does not deliver to the address chosen at PayPal; nothing was taken");
  return repriced.order;
}

/** PayPal's server-side shipping callback, as it sends it (only what Atrium reads). */
export interface ShippingCallback {
  id: string;
  shippingAddress: { countryCode: string; adminArea1?: string; adminArea2?: string; postalCode?: string };
  shippingOptionId: string | null;
}

export type ShippingCallbackAnswer =
  | { status: 200; body: Record<string, unknown> }
  | { status: 422; body: { name: "UNPROCESSABLE_ENTITY"; details: Array<{ issue: string }> } };

/**
 * The buyer changed where the order goes on PayPal's page: shipping and tax are priced again for that address
 * (reprice.server.ts), the order keeps the new price, and PayPal is answered with it and the delivery options
 * there — which PayPal applies to its order. Nothing delivered there: PayPal's 422 `COUNTRY_ERROR`, and the
 * order stays as it was.
 */
export async function answerShippingCallback(
  services: Services,
  workspaceId: string,
  orderId: string,
  callback: ShippingCallback,
): Promise<ShippingCallbackAnswer> {
  const order = await ordersOf(services.db, workspaceId).byId(orderId);
  if (order.paymentProvider !== "paypal" || order.checkoutReference !== callback.id)
    throw notFound("That PayPal order is not this order's");
  const to = callback.shippingAddress;
  const refuse = (issue: string): ShippingCallbackAnswer => ({
    status: 422,
    body: { name: "UNPROCESSABLE_ENTITY", details: [{ issue }] },
  });
  if (order.status !== "pending") return refuse("STORE_UNAVAILABLE");
  // PayPal sends the new address without its street: the street is left blank until the approval brings it,
  // rather than kept from another address.
  const moved =
    to.countryCode !== order.address?.country || (to.postalCode ?? "") !== (order.address?.postalCode ?? "");
  const repriced = await repriceForAddress(
    services.db,
    workspaceId,
    orderId,
    {
      country: to.countryCode,
      region: to.adminArea1 ?? "",
      ...(to.adminArea2 ? { city: to.adminArea2 } : {}),
      ...(to.postalCode ? { postalCode: to.postalCode } : {}),
      ...(moved ? { line1: "", line2: "" } : {}),
    },
    callback.shippingOptionId,
  ).catch((error: unknown) => {
    if (error instanceof DomainError && error.kind === "conflict") return "gone" as const;
    throw error;
  });
  if (repriced === "gone") return refuse("STORE_UNAVAILABLE");
  if (!repriced) return refuse("COUNTRY_ERROR");
  const { order: now, offers, rate } = repriced;
  const options = [rate, ...offers.filter((o) => o.id !== rate.id)].slice(0, 10);
  return {
    status: 200,
    body: {
      id: callback.id,
      purchase_units: [
        {
          reference_id: "default",
          amount: wire(amountOf(now)),
          shipping_options: options.map((o) => ({
            id: o.id,
            label: o.name.slice(0, 127),
            type: "SHIPPING",
            selected: o.id === rate.id,
            amount: { currency_code: now.currency, value: moneyInput(o.amount, now.currency) },
          })),
        },
      ],
    },
  };
}

/**
 * Before an unpaid PayPal order is released: nothing to expire (an approval is only money once Atrium captures
 * it), unless PayPal says it was captured already — a capture whose answer was lost — which is applied instead
 * (false: do not cancel). PayPal unreachable: released; a capture cannot follow, as Atrium makes it.
 */
export async function releasePayPalCheckout(services: Services, workspaceId: string, order: Order, origin: string) {
  if (order.paymentProvider !== "paypal" || !order.checkoutReference) return true;
  let status: string | undefined;
  try {
    const { orders: api } = await clientOf(services, workspaceId);
    status = (await api.getOrder({ id: order.checkoutReference })).result.status;
  } catch (error) {
    services.logger.warn({ reason: messageOf(error), order: order.id }, "PayPal's order could not be read; released");
    return true;
  }
  if (status !== "COMPLETED") return true;
  // Captured: applied now (a failure here throws, so the order is not released with the money taken).
  const settled = await settlePayPalOrder(services, workspaceId, order.checkoutReference, origin);
  // A capture still clearing keeps the order until PayPal says (PAYMENT.CAPTURE.COMPLETED or .DENIED).
  return settled === "not_captured";
}

/** An error in words, for the log: the SDK's errors carry the request, and its headers the shop's keys. */
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A refund from the console through PayPal: the capture is refunded (all or part), then recorded with PayPal's
 * refund id (so PayPal's own PAYMENT.CAPTURE.REFUNDED for it changes nothing). The PayPal-Request-Id is the
 * order's refund state, so a double submit is one refund at PayPal.
 */
export async function refundThroughPayPal(services: Services, workspaceId: string, order: Order, amount: number) {
  const left = order.total - order.refunded;
  if (!Number.isInteger(amount) || amount <= 0 || amount > left)
    throw invalid("A refund is at most what was paid and not yet refunded", [{ field: "amount", message: "Too much" }]);
  const paid = (await ordersOf(services.db, workspaceId).paymentsOf(order.id)).find(
    (p) => p.provider === "paypal" && p.kind === "payment",
  );
  if (!paid) throw conflict("This order has no PayPal payment to refund");
  const { payments } = await clientOf(services, workspaceId);
  try {
    const { result } = await payments.refundCapturedPayment({
      captureId: paid.reference,
      paypalRequestId: `atrium-refund-${order.id}-${order.refunded}-${amount}`,
      prefer: "return=representation",
      body: { amount: money(amount, order.currency), noteToPayer: `Refund for order #${order.number}` },
    });
    return refundIdOf(result);
  } catch (error) {
    throw paypalFailure(error, "refund this payment");
  }
}

/** A refund PayPal made or is making (PENDING: an eCheck's, on its way); one it failed or cancelled is a 409. */
function refundIdOf(refund: { id?: string; status?: string }): string {
  if (refund.status === "FAILED" || refund.status === "CANCELLED")
    throw conflict(`PayPal did not make this refund (${refund.status.toLowerCase()}); nothing was recorded`);
  if (!refund.id) throw unavailable("PayPal gave no refund id; try again in a moment.", 30);
  return refund.id;
}

const certificates = new Map<string, { pem: string; at: number }>();

/** PayPal's signing certificate, fetched only from PayPal's own hosts over HTTPS, and kept a day. */
async function certificateAt(services: Services, url: URL): Promise<string> {
  const known = certificates.get(url.href);
  if (known && Date.now() - known.at < 86_400_000) return known.pem;
  const pem = await new Promise<string>((resolve, reject) => {
    const request = httpsGet(
      url,
      { agent: paypalAgent(services.env), timeout: services.env.PAYMENTS_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > 64 * 1024) request.destroy(new Error("certificate too large"));
          else chunks.push(c);
        });
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString("utf8"))
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
        res.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
  });
  if (certificates.size >= 20) certificates.delete(certificates.keys().next().value as string);
  certificates.set(url.href, { pem, at: Date.now() });
  return pem;
}

/** Whether a certificate address is PayPal's: HTTPS, one of PayPal's API hosts, its certificates' path. */
export function isPayPalCertUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.port || url.username || url.password) return null;
  if (!PAYPAL_API_HOSTS.has(url.hostname) || !url.pathname.startsWith("/v1/notifications/certs/")) return null;
  return url;
}

/**
 * PayPal's webhook signature, as PayPal documents it: RSA-SHA256, by the certificate at `PayPal-Cert-Url` (PayPal's
 * hosts only), over `{transmission id}|{transmission time}|{webhook id}|{CRC32 of the exact body, decimal}`,
 * for one of the shop's webhook ids. `"stale"` when signed but outside the replay window.
 */
export async function verifyPayPalSignature(
  services: Services,
  headers: Headers,
  raw: Buffer,
  webhookIds: string[],
  nowSeconds: number,
  toleranceSeconds: number,
): Promise<boolean | "stale"> {
  const transmissionId = headers.get("paypal-transmission-id");
  const time = headers.get("paypal-transmission-time");
  const signature = headers.get("paypal-transmission-sig");
  const certUrl = isPayPalCertUrl(headers.get("paypal-cert-url") ?? "");
  if (!transmissionId || !time || !signature || !certUrl) return false;
  if ((headers.get("paypal-auth-algo") ?? "SHA256withRSA") !== "SHA256withRSA") return false;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(await certificateAt(services, certUrl));
  } catch (error) {
    services.logger.warn(
      { reason: messageOf(error), url: certUrl.href },
      "PayPal's webhook certificate could not be read",
    );
    return false;
  }
  const at = Date.now();
  if (Date.parse(certificate.validFrom) > at || Date.parse(certificate.validTo) < at) return false;
  const checksum = crc32(raw) >>> 0;
  const signed = webhookIds.some((id) =>
    verifySignature(
      "sha256",
      Buffer.from(`${transmissionId}|${time}|${id}|${checksum}`),
      certificate.publicKey,
      Buffer.from(signature, "base64"),
    ),
  );
  if (!signed) return false;
  const sent = Date.parse(time) / 1000;
  return Number.isFinite(sent) && Math.abs(nowSeconds - sent) <= toleranceSeconds ? true : "stale";
}

/** A verified PayPal webhook event (only what Atrium reads). */
export interface PayPalWebhookEvent {
  id: string;
  event_type: string;
  resource: {
    id?: string;
    custom_id?: string;
    amount?: { currency_code?: string; value?: string };
    links?: Array<{ href?: string; rel?: string }>;
    supplementary_data?: { related_ids?: { order_id?: string } };
  };
}

/**
 * PayPal's events (ADR 035): an approval is captured and a completed capture applied (both through
 * `settlePayPalOrder`, so with the customer's return in any order they pay once); a refund made in PayPal's
 * dashboard is recorded (one the console made is known by its id; one Atrium made of a late or second payment is
 * marked `atrium:` and recorded with it); the app's consent revoked marks the connection. A PayPal order Atrium
 * did not make (the account sells elsewhere too) is acknowledged and left alone.
 */
export async function applyPayPalEvent(services: Services, workspaceId: string, event: PayPalWebhookEvent) {
  const origin = services.env.PUBLIC_URL ?? `http://localhost:${services.env.PORT}`;
  const orders = ordersOf(services.db, workspaceId);
  const settleIfOurs = async (paypalOrderId: string | undefined) => {
    if (!paypalOrderId || !(await orders.byCheckout(paypalOrderId))) return;
    await settlePayPalOrder(services, workspaceId, paypalOrderId, origin);
  };
  const { resource } = event;
  switch (event.event_type) {
    case "CHECKOUT.ORDER.APPROVED":
      return settleIfOurs(resource.id);
    case "PAYMENT.CAPTURE.COMPLETED":
      return settleIfOurs(resource.supplementary_data?.related_ids?.order_id);
    case "PAYMENT.CAPTURE.DENIED":
    case "PAYMENT.CAPTURE.DECLINED": {
      // A capture that was still clearing was refused: nothing was taken, and the order goes as any unpaid one.
      const order = await orders.byCheckout(resource.supplementary_data?.related_ids?.order_id ?? "");
      if (!order || order.status !== "pending") return;
      await orders.cancel(order.id, { system: "expired" }, { origin });
      return;
    }
    case "PAYMENT.CAPTURE.REFUNDED": {
      if (resource.custom_id?.startsWith("atrium:") || !resource.id) return;
      const up = resource.links?.find((l) => l.rel === "up")?.href ?? "";
      const captureId = /\/captures\/([^/?#]+)/.exec(up)?.[1];
      const order = captureId ? await orders.byPaymentReference("paypal", captureId) : null;
      if (!order || order.status === "pending" || order.status === "cancelled") return;
      const currency = resource.amount?.currency_code ?? order.currency;
      await orders.refund(order.id, minorOf(resource.amount?.value, currency), null, {
        reference: resource.id,
        note: "Refunded in PayPal",
        origin,
      });
      return;
    }
    case "MERCHANT.PARTNER-CONSENT.REVOKED":
      await paymentConnectionsOf(services, workspaceId).setState(
        "paypal",
        "deauthorized",
        "Your PayPal account withdrew its consent. Connect PayPal again to take PayPal payments.",
      );
      return;
    default:
      return;
  }
}
