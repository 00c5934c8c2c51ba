/**
 * A local EasyPost for tests and development (ADR 034): the parts of EasyPost's API the official `@easypost/api`
 * client calls for Atrium — the user a key belongs to, webhooks, shipments with their rates, buying and refunding
 * a label, and the tracker a bought label gets — answering with objects typed by the client's own types, and
 * tracker events signed as EasyPost signs them (`X-Hmac-Signature: hmac-sha256-hex=…` with the webhook's secret)
 * and posted to the registered webhooks. The client under test talks to it over HTTP (`EASYPOST_API_URL`).
 *
 * Tests move a parcel along (`track`), deliver an event again (`deliver`), and make the next calls fail or hang
 * (`failNext`).
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { IEvent, IRate, IShipment, ITracker, ITrackerStatus, IUser, IWebhook } from "@easypost/api";

type Json = Record<string, unknown>;

export interface FakeEasyPostEvent {
  event: IEvent;
  url: string;
  body: string;
  signature: string;
}

interface Account {
  key: string;
  user: IUser;
  webhooks: Array<IWebhook & { secret: string }>;
  shipments: Map<string, IShipment>;
  trackers: Map<string, ITracker>;
  refunds: string[];
}

export interface FakeEasyPost {
  /** The client's `baseUrl` (ends in `/v2/`). */
  url: string;
  addAccount(name: string): string;
  accountOf(key: string): Account;
  events: FakeEasyPostEvent[];
  /** The carrier scans the parcel (a tracker id or tracking number): it moves to `status`, its event signed and sent. */
  track(
    trackerId: string,
    status: ITrackerStatus,
    step?: { message?: string; city?: string; at?: string },
  ): Promise<FakeEasyPostEvent[]>;
  deliver(event: FakeEasyPostEvent, signature?: string): Promise<Response>;
  /** The next `count` calls (after `after` more that succeed) answer `status` (a number) or never answer ("hang"). */
  failNext(count: number, how: number | "hang", options?: { after?: number }): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const isoNow = () => new Date().toISOString();

/** As EasyPost signs (and as the client's `validateWebhook` checks, whole-number weights written as floats). */
export function easypostSignature(body: string, secret: string): string {
  const corrected = body.replace(/("weight":\s*)(\d+)(\s*)(?=,|\})/g, "$1$2.0");
  return `hmac-sha256-hex=${createHmac("sha256", Buffer.from(secret.normalize("NFKD"), "utf8"))
    .update(corrected, "utf8")
    .digest("hex")}`;
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Json) : {};
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const error = (res: ServerResponse, status: number, code: string, message: string) =>
  send(res, status, { error: { code, message, errors: [] } });

const RATES: ReadonlyArray<Pick<IRate, "carrier" | "service" | "rate" | "delivery_days">> = [
  { carrier: "USPS", service: "GroundAdvantage", rate: "6.40", delivery_days: 3 },
  { carrier: "USPS", service: "Priority", rate: "9.85", delivery_days: 2 },
  { carrier: "UPS", service: "NextDayAir", rate: "31.20", delivery_days: 1 },
];

export async function startFakeEasyPost(options: { port?: number; host?: string } = {}): Promise<FakeEasyPost> {
  const accounts = new Map<string, Account>();
  const events: FakeEasyPostEvent[] = [];
  let failures: { count: number; how: number | "hang"; after: number } = { count: 0, how: 500, after: 0 };
  let base = "";

  const accountFor = (req: IncomingMessage): Account | undefined => {
    const auth = req.headers.authorization ?? "";
    const key = Buffer.from(auth.replace(/^Basic /, ""), "base64")
      .toString("utf8")
      .replace(/:$/, "");
    return accounts.get(key);
  };

  async function emit(account: Account, description: string, result: unknown): Promise<FakeEasyPostEvent[]> {
    const made: FakeEasyPostEvent[] = [];
    for (const hook of account.webhooks) {
      const event = {
        id: id("evt"),
        object: "Event",
        mode: "test",
        description,
        previous_attributes: {},
        result,
        status: "pending",
        pending_urls: [hook.url],
        completed_urls: [],
        created_at: isoNow(),
        updated_at: isoNow(),
      } as unknown as IEvent;
      const body = JSON.stringify(event);
      const sent = { event, url: hook.url, body, signature: easypostSignature(body, hook.secret) };
      events.push(sent);
      made.push(sent);
      await deliver(sent);
    }
    return made;
  }

  async function deliver(event: FakeEasyPostEvent, signature = event.signature): Promise<Response> {
    return fetch(event.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hmac-signature": signature },
      body: event.body,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method === "GET" && url.pathname.startsWith("/labels/")) {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end("%PDF-1.4\n% a label of the fake EasyPost\n%%EOF\n");
      return;
    }
    if (failures.count > 0 && failures.after > 0) failures.after -= 1;
    else if (failures.count > 0) {
      failures.count -= 1;
      if (failures.how === "hang") return; // never answered: the client's deadline ends it
      error(res, failures.how, "INTERNAL_SERVER_ERROR", "The fake was told to fail");
      return;
    }
    const account = accountFor(req);
    if (!account) return error(res, 401, "APIKEY.REQUIRED", "Invalid API key");
    const path = url.pathname.replace(/^\/v2\//, "");
    const body = req.method === "POST" || req.method === "PATCH" ? await readJson(req) : {};

    if (req.method === "GET" && path === "users") return send(res, 200, account.user);
    if (req.method === "POST" && path === "webhooks") {
      const input = body.webhook as { url: string; webhook_secret?: string };
      const hook = {
        id: id("hook"),
        object: "Webhook",
        mode: "test",
        url: input.url,
        disabled_at: null,
        custom_headers: [],
        secret: input.webhook_secret ?? "",
      } as unknown as IWebhook & { secret: string };
      account.webhooks.push(hook);
      const { secret: _secret, ...shown } = hook;
      return send(res, 201, shown);
    }
    const hookMatch = /^webhooks\/([\w-]+)$/.exec(path);
    if (req.method === "DELETE" && hookMatch) {
      account.webhooks = account.webhooks.filter((h) => h.id !== hookMatch[1]);
      return send(res, 200, {});
    }
    if (req.method === "POST" && path === "shipments") {
      const input = body.shipment as Json;
      const to = input.to_address as Json;
      if (!to?.street1 || !to?.zip) return error(res, 422, "ADDRESS.VERIFY.FAILURE", "The address is incomplete");
      const shipmentId = id("shp");
      const shipment = {
        id: shipmentId,
        object: "Shipment",
        mode: "test",
        reference: input.reference ?? null,
        to_address: { id: id("adr"), ...to },
        from_address: { id: id("adr"), ...(input.from_address as Json) },
        parcel: { id: id("prcl"), object: "Parcel", ...(input.parcel as Json) },
        rates: RATES.map((r) => ({
          ...r,
          id: id("rate"),
          object: "Rate",
          shipment_id: shipmentId,
          currency: "USD",
          est_delivery_days: r.delivery_days,
        })),
        selected_rate: null,
        postage_label: null,
        tracking_code: null,
        tracker: null,
        refund_status: null,
        created_at: isoNow(),
        updated_at: isoNow(),
      } as unknown as IShipment;
      account.shipments.set(shipmentId, shipment);
      return send(res, 201, shipment);
    }
    const shipmentMatch = /^shipments\/(shp_\w+)(?:\/(buy|refund))?$/.exec(path);
    const shipment = shipmentMatch ? account.shipments.get(shipmentMatch[1]!) : undefined;
    if (shipmentMatch && !shipment) return error(res, 404, "NOT_FOUND", "The requested resource could not be found.");
    if (shipment && req.method === "GET" && !shipmentMatch![2]) return send(res, 200, shipment);
    if (shipment && req.method === "POST" && shipmentMatch![2] === "buy") {
      if (shipment.postage_label) return error(res, 422, "SHIPMENT.POSTAGE.EXISTS", "Postage already exists");
      const rateId = (body.rate as { id?: string } | undefined)?.id;
      const rate = shipment.rates.find((r) => r.id === rateId);
      if (!rate) return error(res, 422, "SHIPMENT.RATE.INVALID", "That rate is not one of this shipment's");
      const trackingCode = `9400${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}`;
      const tracker = {
        id: id("trk"),
        object: "Tracker",
        mode: "test",
        tracking_code: trackingCode,
        status: "pre_transit",
        status_detail: "label_created",
        carrier: rate.carrier,
        shipment_id: shipment.id,
        public_url: `${base.replace(/\/v2\/$/, "")}/track/${trackingCode}`,
        est_delivery_date: new Date(Date.now() + (rate.delivery_days ?? 3) * 86_400_000).toISOString(),
        tracking_details: [
          {
            object: "TrackingDetail",
            message: "Shipping label created",
            description: "",
            status: "pre_transit",
            status_detail: "label_created",
            datetime: isoNow(),
            source: rate.carrier,
            tracking_location: { object: "TrackingLocation", city: null, state: null, country: null, zip: null },
          },
        ],
        created_at: isoNow(),
        updated_at: isoNow(),
      } as unknown as ITracker;
      account.trackers.set(tracker.id, tracker);
      Object.assign(shipment, {
        selected_rate: rate,
        tracking_code: trackingCode,
        tracker,
        postage_label: {
          id: id("pl"),
          object: "PostageLabel",
          label_url: `${base.replace(/\/v2\/$/, "")}/labels/${shipment.id}.png`,
          label_pdf_url: `${base.replace(/\/v2\/$/, "")}/labels/${shipment.id}.pdf`,
        },
        updated_at: isoNow(),
      });
      // EasyPost announces the tracker a moment after the purchase, usually before the buyer has stored the label.
      setTimeout(() => void emit(account, "tracker.created", structuredClone(tracker)).catch(() => undefined), 50);
      return send(res, 200, shipment);
    }
    if (shipment && req.method === "POST" && shipmentMatch![2] === "refund") {
      Object.assign(shipment, { refund_status: "submitted" });
      account.refunds.push(shipment.id);
      return send(res, 200, shipment);
    }
    error(res, 404, "NOT_FOUND", `The fake does not know ${req.method} ${url.pathname}`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => error(res, 500, "INTERNAL_SERVER_ERROR", String(e)));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  base = `http://${address.address}:${address.port}/v2/`;

  return {
    url: base,
    events,
    addAccount(name) {
      const key = `EZTK${randomBytes(16).toString("hex")}`;
      accounts.set(key, {
        key,
        user: {
          id: id("user"),
          object: "User",
          name,
          email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
        } as unknown as IUser,
        webhooks: [],
        shipments: new Map(),
        trackers: new Map(),
        refunds: [],
      });
      return key;
    },
    accountOf(key) {
      const account = accounts.get(key);
      if (!account) throw new Error("no such fake EasyPost account");
      return account;
    },
    async track(trackerId, status, step = {}) {
      for (const account of accounts.values()) {
        const tracker =
          account.trackers.get(trackerId) ?? [...account.trackers.values()].find((t) => t.tracking_code === trackerId);
        if (!tracker) continue;
        const at = step.at ?? isoNow();
        tracker.status = status;
        tracker.status_detail = status === "delivered" ? "arrived_at_destination" : "in_transit";
        tracker.tracking_details = [
          ...tracker.tracking_details,
          {
            object: "TrackingDetail",
            message: step.message ?? status.replaceAll("_", " "),
            description: "",
            status,
            status_detail: tracker.status_detail,
            datetime: at,
            source: tracker.carrier,
            tracking_location: {
              object: "TrackingLocation",
              city: step.city ?? null,
              state: null,
              country: "US",
              zip: null,
            },
          } as unknown as ITracker["tracking_details"][number],
        ];
        tracker.updated_at = at;
        return emit(account, "tracker.updated", structuredClone(tracker));
      }
      throw new Error(`no fake tracker ${trackerId}`);
    },
    deliver,
    failNext(count, how, options = {}) {
      failures = { count, how, after: options.after ?? 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
