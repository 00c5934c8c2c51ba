/**
 * A local PayPal for tests and development: the parts of PayPal's REST API the official `@paypal/paypal-server-sdk`
 * calls for Atrium — OAuth2 client credentials, Orders v2 (create, get, patch, capture), Payments v2 (refund a
 * capture, get a capture or refund), the webhook signing certificate — plus the buyer's approval page and webhooks
 * signed as PayPal signs them. The SDK has no setting for its host, so the fake speaks real HTTPS with a certificate
 * for PayPal's own host names (tests/fakes/paypal-tls, signed by a test CA); Atrium is given an agent that sends those
 * names to this port and trusts that CA. Nothing of PayPal's is replaced inside Atrium.
 *
 * Answers follow PayPal's JSON wire format (snake_case) and its error shape (`name`, `message`, `debug_id`,
 * `details[].issue`), including the checks that catch integration mistakes before production does: amounts in the
 * currency's precision, breakdowns and items that add up, one capture per order, refunds no larger than what is left,
 * invoice ids used once. Tests can approve an order without a browser (`approve`, which calls the order's shipping
 * callback when the buyer's address changes, as PayPal does), hold events and deliver them later, in any order or
 * twice (`hold`, `release`, `deliver`), refund from the "dashboard", and make the next calls fail (`failNext`).
 */
import { createSign, createVerify, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";

type Json = Record<string, unknown>;

const tls = (name: string) => new URL(`./paypal-tls/${name}`, import.meta.url);

/** The test CA that signed the fake's certificate for PayPal's hosts: what Atrium is told to trust. */
export const PAYPAL_TLS_CA = fileURLToPath(tls("ca.pem"));
const SERVER_KEY = readFileSync(tls("server.key"), "utf8");
const SERVER_CERT = readFileSync(tls("server.pem"), "utf8");
const WEBHOOK_KEY = readFileSync(tls("webhook.key"), "utf8");
const WEBHOOK_CERT = readFileSync(tls("webhook.pem"), "utf8");

/** Where PayPal's webhook headers say the signing certificate is; that host resolves to the fake too. */
export const PAYPAL_WEBHOOK_CERT_URL =
  "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77";

export interface PayPalMoney {
  currency_code: string;
  value: string;
}

export interface PayPalAddress {
  address_line_1?: string;
  address_line_2?: string;
  /** The city or town. */
  admin_area_2?: string;
  /** The state, county or province. */
  admin_area_1?: string;
  postal_code?: string;
  country_code: string;
}

export interface PayPalLink {
  href: string;
  rel: string;
  method?: "GET" | "POST" | "PATCH";
}

type BreakdownKey =
  "item_total" | "tax_total" | "shipping" | "handling" | "insurance" | "shipping_discount" | "discount";

export interface PayPalAmount extends PayPalMoney {
  breakdown?: Partial<Record<BreakdownKey, PayPalMoney>>;
}

export interface PayPalItem {
  name: string;
  quantity: string;
  unit_amount: PayPalMoney;
  tax?: PayPalMoney;
  sku?: string;
  description?: string;
  category?: string;
}

export interface PayPalShippingOption {
  id: string;
  label: string;
  type?: "SHIPPING" | "PICKUP" | "PICKUP_IN_STORE" | "PICKUP_FROM_PERSON";
  amount?: PayPalMoney;
  selected: boolean;
}

export interface PayPalShipping {
  name?: { full_name?: string };
  type?: string;
  address?: PayPalAddress;
  options?: PayPalShippingOption[];
}

export interface PayPalCapture {
  id: string;
  status: "COMPLETED" | "PARTIALLY_REFUNDED" | "REFUNDED";
  amount: PayPalMoney;
  final_capture: boolean;
  custom_id?: string;
  invoice_id?: string;
  seller_protection: { status: "ELIGIBLE"; dispute_categories: string[] };
  seller_receivable_breakdown: { gross_amount: PayPalMoney; paypal_fee: PayPalMoney; net_amount: PayPalMoney };
  create_time: string;
  update_time: string;
  links: PayPalLink[];
}

export interface PayPalRefund {
  id: string;
  status: "COMPLETED";
  amount: PayPalMoney;
  note_to_payer?: string;
  custom_id?: string;
  invoice_id?: string;
  seller_payable_breakdown: {
    gross_amount: PayPalMoney;
    paypal_fee: PayPalMoney;
    net_amount: PayPalMoney;
    total_refunded_amount: PayPalMoney;
  };
  create_time: string;
  update_time: string;
  links: PayPalLink[];
}

export interface PayPalPurchaseUnit {
  reference_id: string;
  amount: PayPalAmount;
  payee: { email_address: string; merchant_id: string };
  custom_id?: string;
  invoice_id?: string;
  description?: string;
  soft_descriptor?: string;
  items?: PayPalItem[];
  shipping?: PayPalShipping;
  payments?: { captures: PayPalCapture[]; refunds?: PayPalRefund[] };
}

export interface PayPalPayer {
  email_address: string;
  payer_id: string;
  name: { given_name: string; surname: string };
  address: { country_code: string };
}

export interface PayPalOrder {
  id: string;
  intent: "CAPTURE";
  status: "CREATED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";
  purchase_units: PayPalPurchaseUnit[];
  payment_source?: { paypal: Json };
  payer?: PayPalPayer;
  create_time: string;
  update_time: string;
  links: PayPalLink[];
}

export interface PayPalWebhookEvent {
  id: string;
  event_version: "1.0";
  create_time: string;
  resource_type: string;
  resource_version: "2.0";
  event_type: string;
  summary: string;
  resource: object;
  links: PayPalLink[];
}

export interface FakePayPalEvent {
  event: PayPalWebhookEvent;
  /** The webhook it goes to, and the exact body and PayPal headers (signed with that webhook's id) it is sent with. */
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface FakePayPal {
  /** "127.0.0.1:PORT": the HTTPS API; Atrium's PAYPAL_API_ADDRESS. */
  address: string;
  /** PEM path of the CA to trust: Atrium's PAYPAL_API_CA. */
  caFile: string;
  /** http://127.0.0.1:PORT2 — the buyer's pages (approval). */
  approvalUrl: string;
  addApp(name: string): { clientId: string; clientSecret: string };
  /** What an operator does in PayPal's dashboard: a webhook for the app at `url`; answers its id. */
  addWebhook(clientId: string, url: string): string;
  /** Every order, by PayPal order id. */
  orders: Map<string, PayPalOrder>;
  /**
   * The buyer approves without a browser (optionally changing the ship-to address first, which calls the order's
   * shipping callback as PayPal does); answers the URL the buyer is sent back to, or throws with the reason.
   */
  approve(orderId: string, options?: { address?: Partial<PayPalAddress> }): Promise<string>;
  /** Events are kept instead of sent until `release()`. */
  hold(): void;
  /** Sends the held events (in the order given, or as they came) and sends later ones at once again. */
  release(order?: (events: FakePayPalEvent[]) => FakePayPalEvent[]): Promise<Response[]>;
  held: FakePayPalEvent[];
  /** Every event made, sent or held. */
  events: FakePayPalEvent[];
  /** Waits until every event sent so far has been answered by its webhook. */
  idle(): Promise<void>;
  /** Posts an event's signed body to its webhook (again). */
  deliver(event: FakePayPalEvent): Promise<Response>;
  /** Sends an event of any type for an app's webhooks (a refund made in PayPal's dashboard, say). */
  emit(clientId: string, eventType: string, resourceType: string, resource: object): Promise<FakePayPalEvent[]>;
  /** Refund made in PayPal's dashboard: refunds the capture (all that is left, or `amountValue`) and says so. */
  dashboardRefund(captureId: string, amountValue?: string): Promise<void>;
  /**
   * The next `count` API calls (not OAuth unless `includeAuth`; never the certificate) fail: "500" answers PayPal's
   * 500 error, "garbage" answers 200 with text that is not JSON, "timeout" never answers (the socket is held 60 s).
   */
  failNext(count: number, how: "500" | "garbage" | "timeout", options?: { includeAuth?: boolean }): void;
  /** Every API request received: method, path, headers (lower-case), parsed body. */
  requests: Array<{ method: string; path: string; headers: Record<string, string>; body: unknown }>;
  close(): Promise<void>;
}

interface App {
  name: string;
  clientId: string;
  clientSecret: string;
  appId: string;
  payee: { email_address: string; merchant_id: string };
  webhooks: Array<{ id: string; url: string }>;
}

interface ExperienceContext {
  return_url?: string;
  cancel_url?: string;
  brand_name?: string;
  shipping_preference?: "GET_FROM_FILE" | "NO_SHIPPING" | "SET_PROVIDED_ADDRESS";
  user_action?: string;
  order_update_callback_config?: { callback_events?: string[]; callback_url?: string };
}

/** What PayPal keeps about an order and does not show in it. */
interface OrderMeta {
  app: App;
  /** The API host the order was made on (sandbox or live), for its links. */
  base: string;
  context: ExperienceContext;
}

interface CaptureMeta {
  capture: PayPalCapture;
  order: PayPalOrder;
  meta: OrderMeta;
  refunds: PayPalRefund[];
}

interface Answer {
  status: number;
  body?: unknown;
}

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** PayPal's ids: upper-case letters and digits (orders, captures and refunds have 17). */
const paypalId = (length = 17) => [...randomBytes(length)].map((b) => ALPHANUMERIC[b % 36]).join("");
const debugId = () => randomBytes(7).toString("hex").slice(0, 13);
/** PayPal writes times to the second. */
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const clone = <T>(value: T): T => structuredClone(value);
const obj = (value: unknown): Json | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * PayPal's webhook signature, exported so tests can forge or compare one: base64 RSA-SHA256 over
 * `transmissionId|transmissionTime|webhookId|crc32(body)`, the CRC as an unsigned decimal.
 */
export function paypalSignature(
  transmissionId: string,
  transmissionTime: string,
  webhookId: string,
  body: string,
  key = WEBHOOK_KEY,
): string {
  return createSign("sha256")
    .update(`${transmissionId}|${transmissionTime}|${webhookId}|${crc32(body)}`)
    .sign(key, "base64");
}

/** A refusal in PayPal's error shape; thrown by the handlers and written by the router. */
class PayPalProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly issue: string,
    readonly description: string,
    readonly field?: string,
    readonly value?: string,
  ) {
    super(`${issue}: ${description}`);
  }
  body() {
    const detail = {
      ...(this.field ? { field: this.field, location: "body" } : {}),
      ...(this.value ? { value: this.value } : {}),
    };
    return {
      name: this.title,
      message: MESSAGES[this.title] ?? this.title,
      debug_id: debugId(),
      details: [{ ...detail, issue: this.issue, description: this.description }],
      links: [
        {
          href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${this.issue}`,
          rel: "information_link",
          method: "GET",
        },
      ],
    };
  }
}

const MESSAGES: Record<string, string> = {
  INVALID_REQUEST: "Request is not well-formed, syntactically incorrect, or violates schema.",
  UNPROCESSABLE_ENTITY:
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
  RESOURCE_NOT_FOUND: "The specified resource does not exist.",
  INTERNAL_SERVER_ERROR: "An internal server error has occurred.",
};

const invalid = (issue: string, description: string, field?: string, value?: string) =>
  new PayPalProblem(400, "INVALID_REQUEST", issue, description, field, value);
const unprocessable = (issue: string, description: string, field?: string, value?: string) =>
  new PayPalProblem(422, "UNPROCESSABLE_ENTITY", issue, description, field, value);
const notFound = (description: string) =>
  new PayPalProblem(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", description);
const missing = (field: string) => invalid("MISSING_REQUIRED_PARAMETER", "A required field is missing.", field);

/** The currencies PayPal takes; three of them have no minor unit. */
const CURRENCIES = new Set(
  "AUD BRL CAD CNY CZK DKK EUR HKD HUF ILS JPY MYR MXN TWD NZD NOK PHP PLN GBP SGD SEK CHF THB USD".split(" "),
);
const decimalsOf = (currency: string) => (["HUF", "JPY", "TWD"].includes(currency) ? 0 : 2);

/** Money in minor units, counted from the string so no float rounding creeps in. */
function minor(money: PayPalMoney): number {
  const d = decimalsOf(money.currency_code);
  const [whole = "0", fraction = ""] = money.value.split(".");
  return Number(whole) * 10 ** d + Number(fraction.padEnd(d, "0") || "0");
}

function money(currency_code: string, amount: number): PayPalMoney {
  const d = decimalsOf(currency_code);
  const value = d === 0 ? String(amount) : `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, "0")}`;
  return { currency_code, value };
}

function checkMoney(input: unknown, field: string): PayPalMoney {
  const m = obj(input);
  if (!m) throw missing(field);
  const currency = str(m.currency_code);
  if (!currency) throw missing(`${field}/currency_code`);
  if (!CURRENCIES.has(currency))
    throw unprocessable(
      "CURRENCY_NOT_SUPPORTED",
      "Currency code is unknown or is not supported.",
      `${field}/currency_code`,
      currency,
    );
  const value = str(m.value);
  if (value === undefined) throw missing(`${field}/value`);
  if (!/^\d{1,10}(\.\d+)?$/.test(value))
    throw invalid(
      "INVALID_PARAMETER_SYNTAX",
      "The value of a field does not conform to the expected format.",
      `${field}/value`,
      value,
    );
  const fraction = value.split(".")[1] ?? "";
  if (decimalsOf(currency) === 0 && fraction)
    throw unprocessable("DECIMALS_NOT_SUPPORTED", "Currency does not support decimals.", `${field}/value`, value);
  if (fraction.length > 2)
    throw unprocessable(
      "DECIMAL_PRECISION",
      "If the currency supports decimals, only two decimal place precision is supported.",
      `${field}/value`,
      value,
    );
  return { currency_code: currency, value };
}

const SIGN: Record<BreakdownKey, 1 | -1> = {
  item_total: 1,
  tax_total: 1,
  shipping: 1,
  handling: 1,
  insurance: 1,
  shipping_discount: -1,
  discount: -1,
};

function sameCurrency(m: PayPalMoney, currency: string, field: string) {
  if (m.currency_code !== currency)
    throw unprocessable("CURRENCY_MISMATCH", "Currency code should be the same in all amounts.", field);
}

/** An order's amount: positive, and equal to its breakdown when it has one (as PayPal insists). */
function checkAmount(input: unknown, field: string): PayPalAmount {
  const amount: PayPalAmount = checkMoney(input, field);
  if (minor(amount) <= 0)
    throw unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.", `${field}/value`, amount.value);
  const breakdown = obj(obj(input)?.breakdown);
  if (!breakdown) return amount;
  const parts: Partial<Record<BreakdownKey, PayPalMoney>> = {};
  let sum = 0;
  for (const key of Object.keys(SIGN) as BreakdownKey[]) {
    if (breakdown[key] === undefined) continue;
    const part = checkMoney(breakdown[key], `${field}/breakdown/${key}`);
    sameCurrency(part, amount.currency_code, `${field}/breakdown/${key}/currency_code`);
    parts[key] = part;
    sum += SIGN[key] * minor(part);
  }
  if (sum !== minor(amount))
    throw unprocessable(
      "AMOUNT_MISMATCH",
      "Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.",
      `${field}/value`,
      amount.value,
    );
  return { ...amount, breakdown: parts };
}

/** Items must add up to the breakdown's item total (and their tax to its tax total). */
function checkItems(input: unknown, amount: PayPalAmount, field: string): PayPalItem[] {
  if (!Array.isArray(input)) throw invalid("INVALID_PARAMETER_SYNTAX", "Items must be an array.", field);
  let total = 0;
  let tax: number | undefined;
  const items = input.map((raw: unknown, i) => {
    const item = obj(raw);
    const at = `${field}/${i}`;
    if (!item) throw missing(at);
    if (!str(item.name)) throw missing(`${at}/name`);
    const quantity = str(item.quantity);
    if (!quantity) throw missing(`${at}/quantity`);
    if (!/^\d{1,10}$/.test(quantity))
      throw invalid("INVALID_PARAMETER_SYNTAX", "Quantity must be a whole number.", `${at}/quantity`, quantity);
    const unit = checkMoney(item.unit_amount, `${at}/unit_amount`);
    sameCurrency(unit, amount.currency_code, `${at}/unit_amount/currency_code`);
    total += minor(unit) * Number(quantity);
    if (item.tax !== undefined) {
      const itemTax = checkMoney(item.tax, `${at}/tax`);
      sameCurrency(itemTax, amount.currency_code, `${at}/tax/currency_code`);
      tax = (tax ?? 0) + minor(itemTax) * Number(quantity);
    }
    return { ...item, unit_amount: unit } as unknown as PayPalItem;
  });
  const itemTotal = amount.breakdown?.item_total;
  if (!itemTotal)
    throw unprocessable(
      "ITEM_TOTAL_REQUIRED",
      "If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.",
      `${field.replace(/items$/, "amount")}/breakdown/item_total`,
    );
  if (minor(itemTotal) !== total)
    throw unprocessable(
      "ITEM_TOTAL_MISMATCH",
      "Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.",
      `${field.replace(/items$/, "amount")}/breakdown/item_total`,
      itemTotal.value,
    );
  const taxTotal = amount.breakdown?.tax_total;
  if (tax !== undefined && !taxTotal)
    throw unprocessable("TAX_TOTAL_REQUIRED", "If item tax is specified, amount.breakdown.tax_total is required.");
  if (tax !== undefined && taxTotal && minor(taxTotal) !== tax)
    throw unprocessable(
      "TAX_TOTAL_MISMATCH",
      "Should equal sum of (tax * quantity) across all items for a given purchase_unit.",
      `${field.replace(/items$/, "amount")}/breakdown/tax_total`,
      taxTotal.value,
    );
  return items;
}

function checkAddress(input: unknown, field: string): PayPalAddress {
  const address = obj(input);
  if (!address) throw missing(field);
  const country = str(address.country_code);
  if (!country) throw missing(`${field}/country_code`);
  if (!/^[A-Z]{2}$/.test(country))
    throw invalid("INVALID_COUNTRY_CODE", "Country code is invalid.", `${field}/country_code`, country);
  return address as unknown as PayPalAddress;
}

function checkOptions(input: unknown, field: string): PayPalShippingOption[] {
  if (!Array.isArray(input)) throw invalid("INVALID_PARAMETER_SYNTAX", "Shipping options must be an array.", field);
  const options = input.map((raw: unknown, i) => {
    const option = obj(raw);
    const at = `${field}/${i}`;
    if (!option) throw missing(at);
    if (!str(option.id)) throw missing(`${at}/id`);
    if (!str(option.label)) throw missing(`${at}/label`);
    if (typeof option.selected !== "boolean") throw missing(`${at}/selected`);
    if (option.amount !== undefined) checkMoney(option.amount, `${at}/amount`);
    return option as unknown as PayPalShippingOption;
  });
  const selected = options.filter((o) => o.selected).length;
  if (options.length > 0 && selected === 0)
    throw unprocessable(
      "SHIPPING_OPTION_NOT_SELECTED",
      "At least one of the shipping.option should be selected.",
      field,
    );
  if (selected > 1)
    throw unprocessable(
      "MULTIPLE_SHIPPING_OPTION_SELECTED",
      "Only one shipping.option can be set to selected = true.",
      field,
    );
  return options;
}

function checkShipping(input: unknown, field: string): PayPalShipping | undefined {
  if (input === undefined) return undefined;
  const shipping = obj(input);
  if (!shipping) throw invalid("INVALID_PARAMETER_SYNTAX", "Shipping must be an object.", field);
  const out: PayPalShipping = { ...(shipping as PayPalShipping) };
  if (shipping.address !== undefined) out.address = checkAddress(shipping.address, `${field}/address`);
  if (shipping.options !== undefined) out.options = checkOptions(shipping.options, `${field}/options`);
  return out;
}

const TEXT_LIMITS: Record<string, number> = { custom_id: 255, invoice_id: 127, description: 127, soft_descriptor: 22 };

/** A purchase unit as the merchant sent (or patched) it, checked as PayPal checks it; the payee is PayPal's. */
function checkUnit(input: unknown, field: string, payee: PayPalPurchaseUnit["payee"]): PayPalPurchaseUnit {
  const unit = obj(input);
  if (!unit) throw missing(field);
  const amount = checkAmount(unit.amount, `${field}/amount`);
  const out: PayPalPurchaseUnit = { reference_id: str(unit.reference_id) ?? "default", amount, payee };
  for (const [key, limit] of Object.entries(TEXT_LIMITS)) {
    const value = unit[key];
    if (value === undefined) continue;
    if (typeof value !== "string" || value.length > limit)
      throw invalid("INVALID_STRING_LENGTH", `The value of a field is too long (at most ${limit}).`, `${field}/${key}`);
    Object.assign(out, { [key]: value });
  }
  if (unit.items !== undefined) out.items = checkItems(unit.items, amount, `${field}/items`);
  const shipping = checkShipping(unit.shipping, `${field}/shipping`);
  if (shipping) out.shipping = shipping;
  return out;
}

const PREFERENCES = ["GET_FROM_FILE", "NO_SHIPPING", "SET_PROVIDED_ADDRESS"];

function checkContext(body: Json): ExperienceContext {
  const paypal = obj(obj(body.payment_source)?.paypal);
  // `application_context` is PayPal's older place for the same settings; it still works.
  const context = obj(paypal?.experience_context) ?? obj(body.application_context) ?? {};
  const at = paypal ? "/payment_source/paypal/experience_context" : "/application_context";
  for (const key of ["return_url", "cancel_url"]) {
    const url = context[key];
    if (url !== undefined && (typeof url !== "string" || !URL.canParse(url)))
      throw invalid(
        "INVALID_PARAMETER_SYNTAX",
        "The value of a field does not conform to the expected format.",
        `${at}/${key}`,
      );
  }
  const preference = context.shipping_preference;
  if (preference !== undefined && !PREFERENCES.includes(String(preference)))
    throw invalid(
      "INVALID_PARAMETER_VALUE",
      "The value of a field is invalid.",
      `${at}/shipping_preference`,
      String(preference),
    );
  const callback = obj(context.order_update_callback_config);
  if (callback) {
    const events = callback.callback_events;
    if (!Array.isArray(events) || events.some((e) => e !== "SHIPPING_ADDRESS" && e !== "SHIPPING_OPTIONS"))
      throw invalid(
        "INVALID_PARAMETER_VALUE",
        "The value of a field is invalid.",
        `${at}/order_update_callback_config/callback_events`,
      );
    if (typeof callback.callback_url !== "string" || !URL.canParse(callback.callback_url))
      throw invalid(
        "INVALID_PARAMETER_SYNTAX",
        "The value of a field does not conform to the expected format.",
        `${at}/order_update_callback_config/callback_url`,
      );
  }
  return context as ExperienceContext;
}

/** The buyer's PayPal account: one buyer per fake, as in a sandbox. */
const BUYER = {
  email_address: "buyer@example.com",
  name: { given_name: "Test", surname: "Buyer" },
  address: {
    address_line_1: "1 Harbour Street",
    admin_area_2: "London",
    postal_code: "SW1A 1AA",
    country_code: "GB",
  } as PayPalAddress,
};

/** The callback's refusal: the seller does not ship there (or cannot say what it costs). */
class SellerRefusal extends Error {
  constructor(readonly issue: string) {
    super(`The seller does not ship to this address (${issue})`);
  }
}

const COUNTRIES: Record<string, string> = {
  GB: "United Kingdom",
  IE: "Ireland",
  DE: "Germany",
  FR: "France",
  NL: "Netherlands",
  BE: "Belgium",
  ES: "Spain",
  IT: "Italy",
  AT: "Austria",
  US: "United States",
  CA: "Canada",
  AU: "Australia",
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const withQuery = (url: string, params: Record<string, string>) =>
  `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(params).toString()}`;

const PAGE_STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f5f7fa}
header{background:#003087;color:#fff;padding:.9rem 1.25rem;font-weight:700;font-size:1.15rem}
main{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:10px;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin:0 0 .25rem}.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
dl{display:grid;grid-template-columns:1fr auto;gap:.2rem 1rem;margin:0 0 1rem}dd{margin:0;text-align:right}
address{font-style:normal;margin:.25rem 0 1rem}fieldset{border:1px solid #cbd2d9;border-radius:8px;margin:0 0 1.25rem}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}select,input{font:inherit;padding:.45rem;width:100%;box-sizing:border-box;border:1px solid #6b7785;border-radius:6px}
button{font:inherit;font-weight:700;width:100%;padding:.8rem;border-radius:999px;border:2px solid #003087;background:#003087;color:#fff;cursor:pointer;margin-top:.75rem}
button.secondary{background:#fff;color:#003087}:focus-visible{outline:3px solid #ffc439;outline-offset:2px}
[role=alert]{background:#fdecea;color:#8a1c12;border-left:4px solid #c0392b;padding:.6rem .8rem}
[role=status]{background:#e8f4fd;border-left:4px solid #003087;padding:.6rem .8rem}a{color:#003087}
.note{color:#515b66;font-size:.85rem}`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · PayPal (local test)</title><style>${PAGE_STYLE}</style></head><body>
<header>PayPal (local test)</header>
<main>${content}
<p class="note">A local stand-in for PayPal Checkout: no money moves.</p></main></body></html>`;
}

const moneyText = (m: PayPalMoney) => `${m.value} ${m.currency_code}`;

function addressLines(address: PayPalAddress, name?: string): string {
  const country = COUNTRIES[address.country_code] ?? address.country_code;
  return [
    name,
    address.address_line_1,
    address.address_line_2,
    address.admin_area_2,
    address.admin_area_1,
    address.postal_code,
    country,
  ]
    .filter((line): line is string => Boolean(line))
    .map(escapeHtml)
    .join("<br>");
}

const BREAKDOWN_LABELS: Array<[BreakdownKey, string]> = [
  ["item_total", "Items"],
  ["shipping", "Shipping"],
  ["handling", "Handling"],
  ["tax_total", "Tax"],
  ["insurance", "Insurance"],
  ["shipping_discount", "Shipping discount"],
  ["discount", "Discount"],
];

/** The review page: what is paid, to whom, shipped where — and the buyer may change the address first. */
function checkoutPage(order: PayPalOrder, meta: OrderMeta, view: { error?: string; notice?: string } = {}): string {
  const unit = order.purchase_units[0]!;
  const brand = meta.context.brand_name ?? meta.app.name;
  const preference = meta.context.shipping_preference ?? "GET_FROM_FILE";
  const address = unit.shipping?.address ?? BUYER.address;
  const rows = BREAKDOWN_LABELS.filter(([key]) => unit.amount.breakdown?.[key])
    .map(([key, label]) => `<dt>${label}</dt><dd>${escapeHtml(moneyText(unit.amount.breakdown![key]!))}</dd>`)
    .join("");
  const chosen = unit.shipping?.options?.find((o) => o.selected);
  const payable = order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED";
  const countries = { ...COUNTRIES, [address.country_code]: COUNTRIES[address.country_code] ?? address.country_code };
  const select = Object.entries(countries)
    .map(
      ([code, name]) =>
        `<option value="${code}"${code === address.country_code ? " selected" : ""}>${escapeHtml(name)}</option>`,
    )
    .join("");
  const shipTo =
    preference === "NO_SHIPPING"
      ? ""
      : preference === "SET_PROVIDED_ADDRESS"
        ? `<h2>Ship to</h2><address>${addressLines(address, unit.shipping?.name?.full_name)}</address>`
        : `<fieldset><legend>Ship to</legend><address>${addressLines(address, unit.shipping?.name?.full_name ?? "Test Buyer")}</address>
<label for="country">Country or region</label><select id="country" name="country">${select}</select>
<label for="postcode">Postcode</label><input id="postcode" name="postcode" autocomplete="postal-code" value="${escapeHtml(address.postal_code ?? "")}">
<button type="submit" name="action" value="update" class="secondary">Update address</button></fieldset>`;
  const cancel = meta.context.cancel_url
    ? `<p><a href="${escapeHtml(withQuery(meta.context.cancel_url, { token: order.id }))}">Cancel and return</a></p>`
    : "";
  return page(
    `Pay ${brand}`,
    `<h1>Pay ${escapeHtml(brand)}</h1>
${unit.description ? `<p>${escapeHtml(unit.description)}</p>` : ""}
<p class="amount">${escapeHtml(moneyText(unit.amount))}</p>
${rows ? `<dl>${rows}</dl>` : ""}${chosen ? `<p>Delivery: ${escapeHtml(chosen.label)}</p>` : ""}
${view.error ? `<p role="alert">${escapeHtml(view.error)}</p>` : ""}${view.notice ? `<p role="status">${escapeHtml(view.notice)}</p>` : ""}
${
  payable
    ? `<p>Paying as ${BUYER.email_address}</p>
<form method="post" action="/checkoutnow"><input type="hidden" name="token" value="${escapeHtml(order.id)}">
${shipTo}<button type="submit" name="action" value="pay">Pay now</button></form>${cancel}`
    : `<p role="status">This order is ${escapeHtml(order.status.toLowerCase().replaceAll("_", " "))}.</p>`
}`,
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON, or a form (OAuth), or the text itself when it is neither — kept for `requests` and the handlers. */
function parseBody(raw: string, contentType = ""): unknown {
  if (raw === "") return undefined;
  if (contentType.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

const headersOf = (req: IncomingMessage): Record<string, string> =>
  Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
  );

function sendText(res: ServerResponse, status: number, contentType: string, text: string, headers: Json = {}) {
  res.writeHead(status, { "content-type": contentType, ...headers });
  res.end(text);
}

const sendJson = (res: ServerResponse, status: number, value: unknown) =>
  sendText(res, status, "application/json", JSON.stringify(value), { "paypal-debug-id": debugId() });
const sendHtml = (res: ServerResponse, status: number, html: string) =>
  sendText(res, status, "text/html; charset=utf-8", html);

/** Links in PayPal's answers name the API host the call was made on (sandbox or live), as `api.` not `api-m.`. */
function apiBase(req: IncomingMessage): string {
  const host = (req.headers.host ?? "").replace(/:\d+$/, "");
  return /^api(-m)?\.(sandbox\.)?paypal\.com$/.test(host)
    ? `https://${host.replace(/^api-m\./, "api.")}`
    : "https://api.sandbox.paypal.com";
}

function orderLinks(order: PayPalOrder, base: string, approvalUrl: string, payerAction: boolean): PayPalLink[] {
  const self = `${base}/v2/checkout/orders/${order.id}`;
  const links: PayPalLink[] = [{ href: self, rel: "self", method: "GET" }];
  if (order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED")
    links.push({
      href: `${approvalUrl}/checkoutnow?token=${order.id}`,
      rel: payerAction ? "payer-action" : "approve",
      method: "GET",
    });
  if (order.status !== "COMPLETED" && order.status !== "VOIDED")
    links.push({ href: self, rel: "update", method: "PATCH" });
  if (order.status === "APPROVED") links.push({ href: `${self}/capture`, rel: "capture", method: "POST" });
  return links;
}

/** PayPal's fee on a capture (2.9% and a fixed part), so Atrium sees a net amount as it will in production. */
function fee(gross: PayPalMoney): PayPalMoney {
  const amount = minor(gross);
  const fixed = decimalsOf(gross.currency_code) === 0 ? 40 : 30;
  return money(gross.currency_code, Math.min(amount, Math.round(amount * 0.029) + fixed));
}

const SUMMARIES: Record<string, (resource: Json) => string> = {
  "CHECKOUT.ORDER.APPROVED": () => "An order has been approved by buyer",
  "PAYMENT.CAPTURE.COMPLETED": (r) => `Payment completed for ${moneyText(r.amount as PayPalMoney)}`,
  "PAYMENT.CAPTURE.REFUNDED": (r) => `A ${moneyText(r.amount as PayPalMoney)} capture payment was refunded`,
};

export async function startFakePayPal(options: { port?: number; approvalPort?: number } = {}): Promise<FakePayPal> {
  const apps = new Map<string, App>();
  const tokens = new Map<string, App>();
  const metas = new Map<string, OrderMeta>();
  const captures = new Map<string, CaptureMeta>();
  const refunds = new Map<string, { refund: PayPalRefund; app: App }>();
  const replies = new Map<string, { status: number; text: string }>();
  const payerId = paypalId(13);
  const inFlight = new Set<Promise<void>>();
  let holding = false;
  let failures: { count: number; how: "500" | "garbage" | "timeout"; includeAuth: boolean } = {
    count: 0,
    how: "500",
    includeAuth: false,
  };
  const fake = { orders: new Map(), held: [], events: [], requests: [] } as unknown as FakePayPal;

  function makeEvents(app: App, eventType: string, resourceType: string, resource: object): FakePayPalEvent[] {
    const event: PayPalWebhookEvent = {
      id: `WH-${paypalId()}-${paypalId()}`,
      event_version: "1.0",
      create_time: now(),
      resource_type: resourceType,
      resource_version: "2.0",
      event_type: eventType,
      summary: SUMMARIES[eventType]?.(resource as Json) ?? `${eventType} (sent by the local PayPal)`,
      resource: clone(resource),
      links: [],
    };
    const body = JSON.stringify(event);
    const made = app.webhooks.map((webhook) => {
      const transmissionId = randomUUID();
      const time = now();
      return {
        event,
        url: webhook.url,
        body,
        headers: {
          "paypal-transmission-id": transmissionId,
          "paypal-transmission-time": time,
          "paypal-transmission-sig": paypalSignature(transmissionId, time, webhook.id, body),
          "paypal-cert-url": PAYPAL_WEBHOOK_CERT_URL,
          "paypal-auth-algo": "SHA256withRSA",
          "paypal-auth-version": "v2",
        },
      };
    });
    fake.events.push(...made);
    if (holding) fake.held.push(...made);
    else
      for (const e of made) {
        // Sent as PayPal sends: without waiting for the answer, and not again if it fails.
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
    fetch(e.url, { method: "POST", headers: { "content-type": "application/json", ...e.headers }, body: e.body });
  fake.idle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
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
  fake.failNext = (count, how, opts = {}) => {
    failures = { count, how, includeAuth: opts.includeAuth ?? false };
  };

  const appOf = (clientId: string) => {
    const app = apps.get(clientId);
    if (!app) throw new Error(`no fake PayPal app ${clientId}`);
    return app;
  };
  fake.addApp = (name) => {
    const clientId = `A${randomBytes(60).toString("base64url").slice(0, 79)}`;
    const clientSecret = `E${randomBytes(60).toString("base64url").slice(0, 79)}`;
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "") || "merchant";
    apps.set(clientId, {
      name,
      clientId,
      clientSecret,
      appId: `APP-${paypalId()}`,
      payee: { email_address: `sb-${slug}@business.example.com`, merchant_id: paypalId(13) },
      webhooks: [],
    });
    return { clientId, clientSecret };
  };
  fake.addWebhook = (clientId, url) => {
    const id = paypalId(24);
    appOf(clientId).webhooks.push({ id, url });
    return id;
  };
  fake.emit = async (clientId, eventType, resourceType, resource) =>
    makeEvents(appOf(clientId), eventType, resourceType, resource);

  const refreshLinks = (order: PayPalOrder, meta: OrderMeta) => {
    order.links = orderLinks(order, meta.base, fake.approvalUrl, Boolean(order.payment_source));
  };

  function createOrder(app: App, body: unknown, base: string): Answer {
    const input = obj(body);
    if (!input) throw invalid("MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");
    if (input.intent === undefined) throw missing("/intent");
    if (input.intent !== "CAPTURE")
      throw invalid(
        "INVALID_PARAMETER_VALUE",
        "The value of a field is invalid (the local PayPal takes intent CAPTURE only).",
        "/intent",
        String(input.intent),
      );
    const units = input.purchase_units;
    if (!Array.isArray(units) || units.length === 0) throw missing("/purchase_units");
    if (units.length > 1)
      throw invalid("INVALID_ARRAY_MAX_ITEMS", "The local PayPal takes one purchase unit.", "/purchase_units");
    const unit = checkUnit(units[0], "/purchase_units/0", app.payee);
    const context = checkContext(input);
    if (context.shipping_preference === "SET_PROVIDED_ADDRESS" && !unit.shipping?.address)
      throw unprocessable(
        "MISSING_SHIPPING_ADDRESS",
        "The shipping address is required when shipping_preference=SET_PROVIDED_ADDRESS.",
        "/purchase_units/0/shipping/address",
      );
    const withSource = Boolean(obj(obj(input.payment_source)?.paypal));
    const time = now();
    const order: PayPalOrder = {
      id: paypalId(),
      intent: "CAPTURE",
      status: withSource ? "PAYER_ACTION_REQUIRED" : "CREATED",
      ...(withSource ? { payment_source: { paypal: {} } } : {}),
      purchase_units: [unit],
      create_time: time,
      update_time: time,
      links: [],
    };
    const meta = { app, base, context };
    refreshLinks(order, meta);
    fake.orders.set(order.id, order);
    metas.set(order.id, meta);
    return { status: 201, body: order };
  }

  /** The order if it is this app's; PayPal does not say whether another app's exists. */
  function ownOrder(app: App, id: string): { order: PayPalOrder; meta: OrderMeta } {
    const order = fake.orders.get(id);
    const meta = metas.get(id);
    if (!order || !meta || meta.app !== app)
      throw notFound(`Specified resource ID does not exist. Please check the resource ID and try again.`);
    return { order, meta };
  }

  const PATCHABLE: Record<string, string[]> = {
    amount: ["replace"],
    custom_id: ["add", "replace", "remove"],
    invoice_id: ["add", "replace", "remove"],
    description: ["add", "replace", "remove"],
    soft_descriptor: ["replace", "remove"],
    items: ["add", "replace", "remove"],
    shipping: ["add", "replace", "remove"],
    "shipping/name": ["add", "replace"],
    "shipping/address": ["add", "replace"],
    "shipping/options": ["add", "replace"],
    "shipping/type": ["add", "replace"],
  };

  /** One JSON-Patch operation on a copy of the purchase units (all of them apply, or none). */
  function applyPatch(units: Json[], raw: unknown, at: string) {
    const patch = obj(raw);
    const op = str(patch?.op);
    if (!patch || !op || !["add", "replace", "remove"].includes(op))
      throw invalid("INVALID_PATCH_OPERATION", "The operation cannot be honored.", `${at}/op`, op);
    const path = str(patch.path) ?? "";
    if (path === "/intent" && op === "replace" && patch.value === "CAPTURE") return;
    const m = /^\/purchase_units\/@reference_id=='([^']*)'\/(.+)$/.exec(path);
    if (!m) throw unprocessable("NOT_PATCHABLE", "Cannot be patched.", `${at}/path`, path);
    const unit = units.find((u) => u.reference_id === m[1]);
    if (!unit)
      throw unprocessable(
        "INVALID_PARAMETER_VALUE",
        "Filter expression value is incorrect. Check the value of the reference_id.",
        `${at}/path`,
        path,
      );
    const rest = m[2]!;
    if (!PATCHABLE[rest]?.includes(op)) throw unprocessable("NOT_PATCHABLE", "Cannot be patched.", `${at}/path`, path);
    if (op !== "remove" && patch.value === undefined) throw missing(`${at}/value`);
    const parts = rest.split("/");
    const key = parts.pop()!;
    if (parts.length > 0) unit.shipping ??= {};
    const parent = (parts.length > 0 ? unit.shipping : unit) as Json;
    const present = parent[key] !== undefined;
    if ((op === "replace" || op === "remove") && !present)
      throw unprocessable(
        "INVALID_PATCH_OPERATION",
        `Cannot ${op} a property that's not present, use add.`,
        `${at}/path`,
        path,
      );
    if (op === "add" && present)
      throw unprocessable(
        "INVALID_PATCH_OPERATION",
        "Cannot add a property that's already present, use replace.",
        `${at}/path`,
        path,
      );
    if (op === "remove") delete parent[key];
    else parent[key] = patch.value;
  }

  function patchOrder(order: PayPalOrder, meta: OrderMeta, body: unknown): Answer {
    if (!Array.isArray(body)) throw invalid("MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");
    if (order.status === "COMPLETED")
      throw unprocessable(
        "ORDER_ALREADY_CAPTURED",
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status === "VOIDED")
      throw unprocessable("ORDER_COMPLETED_OR_VOIDED", "Order is voided or completed and hence cannot be processed.");
    const units = clone(order.purchase_units) as unknown as Json[];
    body.forEach((patch: unknown, i) => applyPatch(units, patch, `/${i}`));
    order.purchase_units = units.map((u, i) => checkUnit(u, `/purchase_units/${i}`, meta.app.payee));
    order.update_time = now();
    return { status: 204 };
  }

  function captureOrder(order: PayPalOrder, meta: OrderMeta): Answer {
    if (order.status === "COMPLETED")
      throw unprocessable(
        "ORDER_ALREADY_CAPTURED",
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status !== "APPROVED")
      throw unprocessable(
        "ORDER_NOT_APPROVED",
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    const unit = order.purchase_units[0]!;
    // A PayPal account blocks a second payment with an invoice id it has already been paid for (the default setting).
    const paid = [...captures.values()].some(
      (c) => c.meta.app === meta.app && unit.invoice_id && c.capture.invoice_id === unit.invoice_id,
    );
    if (paid)
      throw unprocessable(
        "DUPLICATE_INVOICE_ID",
        "Duplicate Invoice ID detected. To avoid a potential duplicate transaction your account setting requires that Invoice Id be unique for each transaction.",
      );
    const id = paypalId();
    const time = now();
    const gross: PayPalMoney = { currency_code: unit.amount.currency_code, value: unit.amount.value };
    const paypalFee = fee(gross);
    const capture: PayPalCapture = {
      id,
      status: "COMPLETED",
      amount: gross,
      final_capture: true,
      ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
      ...(unit.invoice_id !== undefined ? { invoice_id: unit.invoice_id } : {}),
      seller_protection: { status: "ELIGIBLE", dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"] },
      seller_receivable_breakdown: {
        gross_amount: gross,
        paypal_fee: paypalFee,
        net_amount: money(gross.currency_code, minor(gross) - minor(paypalFee)),
      },
      create_time: time,
      update_time: time,
      links: [
        { href: `${meta.base}/v2/payments/captures/${id}`, rel: "self", method: "GET" },
        { href: `${meta.base}/v2/payments/captures/${id}/refund`, rel: "refund", method: "POST" },
        { href: `${meta.base}/v2/checkout/orders/${order.id}`, rel: "up", method: "GET" },
      ],
    };
    unit.payments = { captures: [capture] };
    Object.assign(order, { status: "COMPLETED", update_time: time });
    refreshLinks(order, meta);
    captures.set(id, { capture, order, meta, refunds: [] });
    makeEvents(meta.app, "PAYMENT.CAPTURE.COMPLETED", "capture", withRelatedOrder(capture, order));
    return { status: 201, body: order };
  }

  const withRelatedOrder = (capture: PayPalCapture, order: PayPalOrder) => ({
    ...capture,
    supplementary_data: { related_ids: { order_id: order.id } },
  });

  function ownCapture(app: App, id: string): CaptureMeta {
    const record = captures.get(id);
    if (!record || record.meta.app !== app)
      throw notFound("Specified resource ID does not exist. Please check the resource ID and try again.");
    return record;
  }

  /** A refund of a capture, from the API or the dashboard: what is left, or less; never more. */
  function refund(record: CaptureMeta, input: Json): PayPalRefund {
    const { capture, meta } = record;
    if (capture.status === "REFUNDED")
      throw unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded");
    const left = minor(capture.amount) - record.refunds.reduce((n, r) => n + minor(r.amount), 0);
    const amount =
      input.amount === undefined ? money(capture.amount.currency_code, left) : checkMoney(input.amount, "/amount");
    if (amount.currency_code !== capture.amount.currency_code)
      throw unprocessable(
        "REFUND_CAPTURE_CURRENCY_MISMATCH",
        "Refund must be in the same currency as the capture.",
        "/amount/currency_code",
      );
    if (minor(amount) <= 0)
      throw unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.", "/amount/value");
    if (minor(amount) > left)
      throw unprocessable(
        "REFUND_AMOUNT_EXCEEDED",
        "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
      );
    const id = paypalId();
    const time = now();
    const refunded = minor(capture.amount) - left + minor(amount);
    const made: PayPalRefund = {
      id,
      status: "COMPLETED",
      amount,
      ...(str(input.note_to_payer) ? { note_to_payer: str(input.note_to_payer) } : {}),
      ...((str(input.custom_id) ?? capture.custom_id) ? { custom_id: str(input.custom_id) ?? capture.custom_id } : {}),
      ...((str(input.invoice_id) ?? capture.invoice_id)
        ? { invoice_id: str(input.invoice_id) ?? capture.invoice_id }
        : {}),
      seller_payable_breakdown: {
        gross_amount: amount,
        paypal_fee: money(amount.currency_code, 0),
        net_amount: amount,
        total_refunded_amount: money(amount.currency_code, refunded),
      },
      create_time: time,
      update_time: time,
      links: [
        { href: `${meta.base}/v2/payments/refunds/${id}`, rel: "self", method: "GET" },
        { href: `${meta.base}/v2/payments/captures/${capture.id}`, rel: "up", method: "GET" },
      ],
    };
    record.refunds.push(made);
    refunds.set(id, { refund: made, app: meta.app });
    Object.assign(capture, {
      status: refunded === minor(capture.amount) ? "REFUNDED" : "PARTIALLY_REFUNDED",
      update_time: time,
    });
    const payments = record.order.purchase_units[0]!.payments!;
    payments.refunds = [...(payments.refunds ?? []), made];
    record.order.update_time = time;
    makeEvents(meta.app, "PAYMENT.CAPTURE.REFUNDED", "refund", made);
    return made;
  }

  fake.dashboardRefund = async (captureId, amountValue) => {
    const record = captures.get(captureId);
    if (!record) throw new Error(`no fake PayPal capture ${captureId}`);
    const currency = record.capture.amount.currency_code;
    refund(record, amountValue === undefined ? {} : { amount: { currency_code: currency, value: amountValue } });
  };

  /** PayPal's own check of a webhook, for merchants who ask it instead of checking the signature themselves. */
  function verifySignature(app: App, body: unknown): Answer {
    const input = obj(body) ?? {};
    const webhook = app.webhooks.find((w) => w.id === input.webhook_id);
    const message = `${String(input.transmission_id)}|${String(input.transmission_time)}|${String(input.webhook_id)}|${crc32(JSON.stringify(input.webhook_event))}`;
    const signed =
      typeof input.transmission_sig === "string" &&
      createVerify("sha256").update(message).verify(WEBHOOK_CERT, input.transmission_sig, "base64");
    const ok =
      Boolean(webhook) && signed && input.cert_url === PAYPAL_WEBHOOK_CERT_URL && input.auth_algo === "SHA256withRSA";
    return { status: 200, body: { verification_status: ok ? "SUCCESS" : "FAILURE" } };
  }

  function route(app: App, req: IncomingMessage, path: string, body: unknown): Answer {
    const method = req.method ?? "GET";
    let m: RegExpExecArray | null;
    if (method === "POST" && path === "/v2/checkout/orders") return createOrder(app, body, apiBase(req));
    if ((m = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(path))) {
      const { order, meta } = ownOrder(app, m[1]!);
      if (method === "GET" && !m[2]) return { status: 200, body: order };
      if (method === "PATCH" && !m[2]) return patchOrder(order, meta, body);
      if (method === "POST" && m[2]) return captureOrder(order, meta);
    }
    if ((m = /^\/v2\/payments\/captures\/([A-Z0-9]+)(\/refund)?$/.exec(path))) {
      const record = ownCapture(app, m[1]!);
      if (method === "GET" && !m[2]) return { status: 200, body: withRelatedOrder(record.capture, record.order) };
      if (method === "POST" && m[2]) {
        if (body !== undefined && !obj(body))
          throw invalid("MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");
        return { status: 201, body: refund(record, obj(body) ?? {}) };
      }
    }
    if (method === "GET" && (m = /^\/v2\/payments\/refunds\/([A-Z0-9]+)$/.exec(path))) {
      const found = refunds.get(m[1]!);
      if (!found || found.app !== app)
        throw notFound("Specified resource ID does not exist. Please check the resource ID and try again.");
      return { status: 200, body: found.refund };
    }
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") return verifySignature(app, body);
    throw notFound(`The local PayPal does not know ${method} ${path}.`);
  }

  function issueToken(req: IncomingMessage, res: ServerResponse, body: unknown) {
    const [scheme, encoded = ""] = (req.headers.authorization ?? "").split(" ");
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const app = apps.get(decoded.slice(0, colon));
    if (scheme !== "Basic" || colon < 0 || !app || app.clientSecret !== decoded.slice(colon + 1))
      return sendJson(res, 401, { error: "invalid_client", error_description: "Client Authentication failed" });
    const grant = obj(body)?.grant_type;
    if (grant !== "client_credentials")
      return sendJson(res, 400, {
        error: "unsupported_grant_type",
        error_description: grant ? "Grant Type is not supported" : "Grant Type is NULL",
      });
    const token = `A21AA${randomBytes(72).toString("base64url")}`;
    tokens.set(token, app);
    sendJson(res, 200, {
      scope:
        "https://uri.paypal.com/services/payments/payment/authcode https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/payments/orders/client_sdk_orders_api https://api-m.paypal.com/v1/payments/.* openid",
      access_token: token,
      token_type: "Bearer",
      app_id: app.appId,
      expires_in: 32400,
      nonce: `${now()}${randomBytes(32).toString("base64url")}`,
    });
  }

  function fail(res: ServerResponse, how: "500" | "garbage" | "timeout") {
    if (how === "timeout") {
      // Never answered; the socket is let go after a minute (or at close) so nothing leaks.
      setTimeout(() => res.destroy(), 60_000).unref();
      return;
    }
    if (how === "garbage") {
      return sendText(res, 200, "text/html", "<html><body>upstream connect error or disconnect/reset</body></html>");
    }
    sendJson(res, 500, {
      name: "INTERNAL_SERVER_ERROR",
      message: MESSAGES.INTERNAL_SERVER_ERROR,
      debug_id: debugId(),
      details: [],
      links: [],
    });
  }

  /** PayPal-Request-Id: the same id from the same app on the same call answers what the first call answered. */
  function replayKey(app: App, req: IncomingMessage, path: string): string | undefined {
    const id = req.headers["paypal-request-id"];
    return req.method === "POST" && typeof id === "string" ? `${app.clientId} ${path} ${id}` : undefined;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "https://fake");
    const path = url.pathname;
    const raw = await readBody(req);
    const body = parseBody(raw, req.headers["content-type"]);
    fake.requests.push({ method: req.method ?? "", path, headers: headersOf(req), body });
    const isAuth = path === "/v1/oauth2/token";
    const isCert = path.startsWith("/v1/notifications/certs/");
    if (!isCert && (!isAuth || failures.includeAuth) && failures.count > 0) {
      failures.count -= 1;
      return fail(res, failures.how);
    }
    if (isAuth && req.method === "POST") return issueToken(req, res, body);
    if (isCert && req.method === "GET") {
      return sendText(res, 200, "text/plain", WEBHOOK_CERT);
    }
    const app = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!app)
      return sendJson(res, 401, { error: "invalid_token", error_description: "Token signature verification failed" });
    const key = replayKey(app, req, path);
    const replay = key ? replies.get(key) : undefined;
    if (replay) {
      // A repeated create answers 200 (the order exists already); capture and refund answer as they did.
      return sendText(res, path === "/v2/checkout/orders" ? 200 : replay.status, "application/json", replay.text);
    }
    if (typeof body === "string")
      return sendJson(res, 400, invalid("MALFORMED_REQUEST_JSON", "The request JSON is not well formed.").body());
    try {
      const answer = route(app, req, path, body);
      if (answer.body === undefined) return void res.writeHead(answer.status).end();
      const text = JSON.stringify(answer.body);
      if (key) replies.set(key, { status: answer.status, text });
      sendText(res, answer.status, "application/json", text, { "paypal-debug-id": debugId() });
    } catch (error) {
      if (!(error instanceof PayPalProblem)) throw error;
      sendJson(res, error.status, error.body());
    }
  }

  /** What PayPal's server-side shipping callback sends, and the new amount (and options) the seller answers. */
  async function shippingCallback(order: PayPalOrder, meta: OrderMeta, address: PayPalAddress): Promise<void> {
    const config = meta.context.order_update_callback_config;
    if (!config?.callback_url || !config.callback_events?.includes("SHIPPING_ADDRESS")) return;
    const unit = order.purchase_units[0]!;
    const selected = unit.shipping?.options?.find((o) => o.selected);
    const { country_code, admin_area_1, admin_area_2, postal_code } = address;
    const request = {
      id: order.id,
      shipping_address: { country_code, admin_area_1, admin_area_2, postal_code },
      ...(selected ? { shipping_option: selected } : {}),
      purchase_units: [
        {
          reference_id: unit.reference_id,
          amount: unit.amount,
          ...(unit.shipping?.options ? { shipping_options: unit.shipping.options } : {}),
        },
      ],
    };
    let answer: Response;
    try {
      answer = await fetch(config.callback_url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(5000),
      });
    } catch (error) {
      throw new Error(`PayPal could not reach the seller's shipping callback: ${String(error)}`);
    }
    const text = await answer.text();
    const reply = obj(parseBody(text));
    if (answer.status === 422)
      throw new SellerRefusal(str(obj((reply?.details as unknown[] | undefined)?.[0])?.issue) ?? "ADDRESS_ERROR");
    if (answer.status !== 200 || !reply)
      throw new Error(`The seller's shipping callback answered ${answer.status}: ${text.slice(0, 200)}`);
    const updated = obj((reply.purchase_units as unknown[] | undefined)?.[0]);
    if (!updated) throw new Error("The seller's shipping callback answered no purchase_units");
    try {
      const amount = checkAmount(updated.amount, "/purchase_units/0/amount");
      if (unit.items) checkItems(unit.items, amount, "/purchase_units/0/items");
      const options =
        updated.shipping_options === undefined
          ? undefined
          : checkOptions(updated.shipping_options, "/purchase_units/0/shipping_options");
      unit.amount = amount;
      if (options) unit.shipping = { ...unit.shipping, options };
    } catch (error) {
      if (error instanceof PayPalProblem)
        throw new Error(`The seller's shipping callback answered what PayPal refuses: ${error.message}`);
      throw error;
    }
  }

  const ADDRESS_FIELDS = [
    "address_line_1",
    "address_line_2",
    "admin_area_2",
    "admin_area_1",
    "postal_code",
    "country_code",
  ] as const;

  /**
   * The buyer's ship-to address becomes `change` on top of what the order (or the buyer's account) has. When it is new
   * to the seller, the seller's callback is asked first, as PayPal asks it; its refusal leaves the address as it was.
   */
  async function changeAddress(order: PayPalOrder, meta: OrderMeta, change: Partial<PayPalAddress>): Promise<void> {
    const preference = meta.context.shipping_preference ?? "GET_FROM_FILE";
    const unit = order.purchase_units[0]!;
    const given = unit.shipping?.address;
    const next: PayPalAddress = { ...(given ?? BUYER.address) };
    for (const field of ADDRESS_FIELDS)
      if (change[field] !== undefined) Object.assign(next, { [field]: change[field] });
    const differs = !given || ADDRESS_FIELDS.some((f) => (given[f] ?? "") !== (next[f] ?? ""));
    if (preference === "NO_SHIPPING") {
      if (Object.keys(change).length > 0) throw new Error("This order ships nothing (shipping_preference NO_SHIPPING)");
      return;
    }
    if (!differs) return;
    if (preference === "SET_PROVIDED_ADDRESS")
      throw new Error(
        "The buyer cannot change an address the seller provided (shipping_preference SET_PROVIDED_ADDRESS)",
      );
    await shippingCallback(order, meta, next);
    unit.shipping = { ...unit.shipping, name: unit.shipping?.name ?? { full_name: "Test Buyer" }, address: next };
    order.update_time = now();
  }

  function payable(orderId: string): { order: PayPalOrder; meta: OrderMeta } {
    const order = fake.orders.get(orderId);
    const meta = metas.get(orderId);
    if (!order || !meta) throw new Error(`no fake PayPal order ${orderId}`);
    if (order.status !== "CREATED" && order.status !== "PAYER_ACTION_REQUIRED")
      throw new Error(`PayPal order ${orderId} is ${order.status}; the buyer can no longer approve it`);
    return { order, meta };
  }

  fake.approve = async (orderId, opts = {}) => {
    const { order, meta } = payable(orderId);
    const returnUrl = meta.context.return_url;
    if (!returnUrl) throw new Error(`PayPal order ${orderId} has no return_url to send the buyer back to`);
    await changeAddress(order, meta, opts.address ?? {});
    const country = order.purchase_units[0]!.shipping?.address?.country_code ?? BUYER.address.country_code;
    order.payer = {
      email_address: BUYER.email_address,
      payer_id: payerId,
      name: BUYER.name,
      address: { country_code: country },
    };
    if (order.payment_source)
      order.payment_source.paypal = {
        email_address: BUYER.email_address,
        account_id: payerId,
        account_status: "VERIFIED",
        name: BUYER.name,
        address: { country_code: country },
      };
    Object.assign(order, { status: "APPROVED", update_time: now() });
    refreshLinks(order, meta);
    makeEvents(meta.app, "CHECKOUT.ORDER.APPROVED", "checkout-order", order);
    return withQuery(returnUrl, { token: order.id, PayerID: payerId });
  };

  async function handleApproval(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname !== "/checkoutnow") return sendHtml(res, 404, page("Not found", "<h1>Page not found</h1>"));
    const form = req.method === "POST" ? new URLSearchParams(await readBody(req)) : url.searchParams;
    const token = form.get("token") ?? "";
    const order = fake.orders.get(token);
    const meta = metas.get(token);
    if (!order || !meta)
      return sendHtml(res, 404, page("No such order", "<h1>No such order</h1><p>This checkout link is not valid.</p>"));
    if (req.method !== "POST") return sendHtml(res, 200, checkoutPage(order, meta));
    const change: Partial<PayPalAddress> = {};
    if (form.get("country")) change.country_code = form.get("country")!;
    if (form.get("postcode")) change.postal_code = form.get("postcode")!.trim().toUpperCase();
    try {
      if (form.get("action") === "update") {
        await changeAddress(payable(token).order, meta, change);
        return sendHtml(res, 200, checkoutPage(order, meta, { notice: "Your address has been updated." }));
      }
      sendText(res, 303, "text/plain", "", { location: await fake.approve(token, { address: change }) });
    } catch (error) {
      const message =
        error instanceof SellerRefusal ? "The seller does not ship to this address." : String((error as Error).message);
      sendHtml(res, 422, checkoutPage(order, meta, { error: message }));
    }
  }

  const onError = (res: ServerResponse) => (error: unknown) => {
    if (res.headersSent) return res.destroy();
    sendJson(res, 500, { name: "INTERNAL_SERVER_ERROR", message: String(error), debug_id: debugId(), details: [] });
  };
  const api = createHttpsServer({ key: SERVER_KEY, cert: SERVER_CERT }, (req, res) => {
    handleApi(req, res).catch(onError(res));
  });
  const approval: Server = createHttpServer((req, res) => {
    handleApproval(req, res).catch(onError(res));
  });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
    );
  fake.address = `127.0.0.1:${await listen(api, options.port ?? 0)}`;
  fake.approvalUrl = `http://127.0.0.1:${await listen(approval, options.approvalPort ?? 0)}`;
  fake.caFile = PAYPAL_TLS_CA;
  const stop = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  fake.close = async () => {
    await Promise.all([stop(api), stop(approval)]);
  };
  return fake;
}
