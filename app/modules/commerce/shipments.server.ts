/**
 * Shipments (issue 18, ADR 034): the packages an order leaves in. A shipment comes from a shipping provider —
 * the manual one (the operator enters the carrier and tracking number) or EasyPost (a label bought through its
 * API, easypost.server.ts) — and is written by `ship`, in the transaction that marks its lines as sent, with the
 * shipping e-mail queued there too (it carries the tracking link). Tracking then moves it along: a provider's
 * tracking events (`/api/webhooks/shipping/provider`), or the operator marking a manual parcel delivered.
 */
import { z } from "zod";
import type { Selectable } from "kysely";
import { type Db, isUniqueViolation } from "~db/client";
import type { ShipmentsTable } from "~db/schema/commerce";
import { isoNow } from "~/lib/clock.server";
import { conflict, invalid, notFound, parseInput } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { type Order, ordersOf } from "./orders.server";
import {
  CARRIERS,
  SHIPMENT_STATUS_LABELS,
  type ShipmentStatus,
  type ShipmentFilter,
  carrierTrackingUrl,
  shipmentStatusOf,
} from "./vocabulary";

/** What a shipping provider hands over for a package it prepared: the label, the carrier, how to follow it. */
export interface PackageRecord {
  provider: "manual" | "easypost";
  carrier: string;
  service: string;
  trackingNumber: string;
  trackingUrl: string | null;
  labelUrl: string | null;
  labelCost: number | null;
  labelCurrency: string | null;
  weightGrams: number;
  status: ShipmentStatus;
  estimatedDelivery: string | null;
  providerShipmentId: string | null;
  providerTrackerId: string | null;
}

export interface TrackingStep {
  status: string;
  message: string;
  location: string;
  occurredAt: string;
}

export interface Shipment {
  id: string;
  orderId: string;
  provider: string;
  carrier: string;
  service: string;
  trackingNumber: string;
  trackingUrl: string | null;
  labelUrl: string | null;
  labelCost: number | null;
  labelCurrency: string | null;
  weightGrams: number;
  status: ShipmentStatus;
  statusLabel: string;
  statusDetail: string;
  estimatedDelivery: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ShipmentWithOrder extends Shipment {
  orderNumber: number;
  customerName: string;
}

/** A provider's tracking as it last reported it (EasyPost's tracker), to apply to the shipment it names. */
export interface TrackingUpdate {
  status: ShipmentStatus;
  detail: string;
  estimatedDelivery: string | null;
  publicUrl: string | null;
  /** The provider's own time of this state: a state older than the one applied changes nothing. */
  updatedAt: string;
  steps: TrackingStep[];
}

/** The manual provider's form: a carrier from the list (or another, named) and its tracking number. */
export const ManualPackageInput = z
  .object({
    carrier: z.enum(CARRIERS.map((c) => c.id) as [string, ...string[]], {
      error: "Choose the carrier",
    }),
    carrierName: z.string().trim().max(60).default(""),
    trackingNumber: z
      .string()
      .trim()
      .max(60)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{2,58}[A-Za-z0-9]$|^$/, "Letters, digits, spaces and dashes, as on the label"),
    trackingUrl: z
      .string()
      .trim()
      .max(500)
      .refine((v) => v === "" || /^https:\/\/[^\s]+$/.test(v), "A tracking link starts with https://")
      .default(""),
  })
  .superRefine((v, ctx) => {
    if (v.carrier === "other" && v.carrierName === "")
      ctx.addIssue({ code: "custom", path: ["carrierName"], message: "Name the carrier" });
  });

/** The manual provider: nothing to buy, the operator's carrier and number as they entered them. */
export function manualPackage(values: Record<string, string | undefined>, weightGrams: number): PackageRecord {
  const input = parseInput(ManualPackageInput, {
    carrier: values.carrier ?? "",
    carrierName: values.carrierName ?? "",
    trackingNumber: values.trackingNumber ?? "",
    trackingUrl: values.trackingUrl ?? "",
  });
  const listed = CARRIERS.find((c) => c.id === input.carrier);
  return {
    provider: "manual",
    carrier: input.carrier === "other" ? input.carrierName : (listed?.name ?? input.carrier),
    service: "",
    trackingNumber: input.trackingNumber,
    trackingUrl: input.trackingUrl || carrierTrackingUrl(input.carrier, input.trackingNumber),
    labelUrl: null,
    labelCost: null,
    labelCurrency: null,
    weightGrams,
    status: "in_transit",
    estimatedDelivery: null,
    providerShipmentId: null,
    providerTrackerId: null,
  };
}

function toShipment(r: Selectable<ShipmentsTable>): Shipment {
  const status = shipmentStatusOf(r.status);
  return {
    id: r.id,
    orderId: r.order_id,
    provider: r.provider,
    carrier: r.carrier,
    service: r.service,
    trackingNumber: r.tracking_number,
    trackingUrl: r.tracking_url,
    labelUrl: r.label_url,
    labelCost: r.label_cost,
    labelCurrency: r.label_currency,
    weightGrams: r.weight_grams,
    status,
    statusLabel: SHIPMENT_STATUS_LABELS[status],
    statusDetail: r.status_detail,
    estimatedDelivery: r.estimated_delivery,
    deliveredAt: r.delivered_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const FILTER_STATUSES: Record<Exclude<ShipmentFilter, "all">, ShipmentStatus[]> = {
  open: ["unknown", "pre_transit", "in_transit", "out_for_delivery", "available_for_pickup"],
  delivered: ["delivered"],
  problem: ["return_to_sender", "failure", "cancelled", "error"],
};

export function shipmentsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("shipments").where("shipments.workspace_id", "=", workspaceId);

  return {
    /** Newest first, a page at a time, with the order each belongs to. */
    async list(filter: ShipmentFilter, page: { limit: number; offset: number }) {
      let q = rows().innerJoin("orders", "orders.id", "shipments.order_id");
      if (filter !== "all") q = q.where("shipments.status", "in", FILTER_STATUSES[filter]);
      const [items, count] = await Promise.all([
        q
          .selectAll("shipments")
          .select(["orders.number as order_number", "orders.name as customer_name"])
          .orderBy("shipments.created_at", "desc")
          .orderBy("shipments.id", "desc")
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return {
        items: items.map((r): ShipmentWithOrder => ({
          ...toShipment(r),
          orderNumber: r.order_number,
          customerName: r.customer_name,
        })),
        total: Number(count.n),
      };
    },

    /** An order's packages, oldest first, each with its tracking steps (newest first) and its lines. */
    async ofOrder(orderId: string) {
      const list = await rows().selectAll().where("order_id", "=", orderId).orderBy("created_at").execute();
      if (list.length === 0) return [];
      const ids = list.map((s) => s.id);
      const [steps, lines] = await Promise.all([
        db
          .selectFrom("shipment_events")
          .select(["shipment_id", "status", "message", "location", "occurred_at"])
          .where("workspace_id", "=", workspaceId)
          .where("shipment_id", "in", ids)
          .orderBy("occurred_at", "desc")
          .execute(),
        db
          .selectFrom("shipment_lines")
          .innerJoin("order_lines", "order_lines.id", "shipment_lines.order_line_id")
          .select([
            "shipment_lines.shipment_id",
            "order_lines.title",
            "order_lines.variant_title",
            "shipment_lines.quantity",
          ])
          .where("shipment_lines.shipment_id", "in", ids)
          .orderBy("order_lines.position")
          .execute(),
      ]);
      return list.map((r) => ({
        ...toShipment(r),
        steps: steps
          .filter((s) => s.shipment_id === r.id)
          .map((s) => ({ status: s.status, message: s.message, location: s.location, occurredAt: s.occurred_at })),
        lines: lines
          .filter((l) => l.shipment_id === r.id)
          .map((l) => ({ title: l.variant_title ? `${l.title} · ${l.variant_title}` : l.title, quantity: l.quantity })),
      }));
    },

    /** The package an order event sent (for that event's shipping e-mail), or null when it was sent without one. */
    async ofOrderEvent(eventId: string): Promise<Shipment | null> {
      const r = await rows().selectAll().where("order_event_id", "=", eventId).executeTakeFirst();
      return r ? toShipment(r) : null;
    },

    /**
     * Sends lines of an order in one package: marks them sent and writes the package, in one transaction (the
     * order's own checks apply: only a paid order ships, never more than is left). A label bought twice for one
     * provider shipment is one package: the second write is refused as a conflict.
     */
    async ship(
      orderId: string,
      quantities: Record<string, number> | null,
      record: PackageRecord,
      actorUserId: string,
      origin: string,
    ): Promise<{ order: Order; shipmentId: string }> {
      const shipmentId = newId();
      if (record.providerShipmentId) {
        const again = await rows()
          .select("id")
          .where("provider", "=", record.provider)
          .where("provider_shipment_id", "=", record.providerShipmentId)
          .executeTakeFirst();
        if (again) throw conflict("This label was already used for a package");
      }
      const order = await ordersOf(db, workspaceId)
        .fulfil(orderId, quantities, actorUserId, origin, async (trx, sent, eventId) => {
          const at = isoNow();
          await trx
            .insertInto("shipments")
            .values({
              id: shipmentId,
              workspace_id: workspaceId,
              order_id: orderId,
              order_event_id: eventId,
              provider: record.provider,
              carrier: record.carrier,
              service: record.service,
              tracking_number: record.trackingNumber,
              tracking_url: record.trackingUrl,
              label_url: record.labelUrl,
              label_cost: record.labelCost,
              label_currency: record.labelCurrency,
              weight_grams: record.weightGrams,
              status: record.status,
              status_detail: "",
              estimated_delivery: record.estimatedDelivery,
              delivered_at: null,
              provider_shipment_id: record.providerShipmentId,
              provider_tracker_id: record.providerTrackerId,
              provider_updated_at: null,
              created_by: actorUserId,
              created_at: at,
              updated_at: at,
            })
            .execute();
          await trx
            .insertInto("shipment_lines")
            .values(sent.map((s) => ({ shipment_id: shipmentId, order_line_id: s.lineId, quantity: s.quantity })))
            .execute();
        })
        // The same label written twice at once: the unique key refuses the second, as a conflict.
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict("This label was already used for a package");
          throw error;
        });
      return { order, shipmentId };
    },

    /**
     * Applies a provider's tracking to the package with that tracker: each step kept once, the state moved only
     * by a newer report (a late, older one adds its steps and changes nothing else). Answers whether the state
     * changed; a tracker of no package of this workspace is a 404 (the event is refused, not retried).
     */
    async applyTracking(provider: string, trackerId: string, update: TrackingUpdate): Promise<{ changed: boolean }> {
      return db.transaction().execute(async (trx) => {
        const shipment = await trx
          .selectFrom("shipments")
          .select(["id", "provider_updated_at", "tracking_url"])
          .where("workspace_id", "=", workspaceId)
          .where("provider", "=", provider)
          .where("provider_tracker_id", "=", trackerId)
          .executeTakeFirst();
        if (!shipment) throw notFound("No package of this shop has that tracker");
        for (const step of update.steps)
          await trx
            .insertInto("shipment_events")
            .values({
              id: newId(),
              workspace_id: workspaceId,
              shipment_id: shipment.id,
              status: step.status.slice(0, 40),
              message: step.message.slice(0, 500),
              location: step.location.slice(0, 200),
              occurred_at: step.occurredAt,
            })
            .onConflict((oc) => oc.columns(["shipment_id", "occurred_at", "status", "message"]).doNothing())
            .execute();
        // One format on both sides of the comparison, and the comparison in the update itself: of two reports
        // applied at once (Postgres runs them side by side), the older never overwrites the newer.
        const reported = new Date(update.updatedAt);
        if (Number.isNaN(reported.getTime())) throw invalid("The tracking update has no valid time");
        const reportedAt = reported.toISOString();
        const at = isoNow();
        const arrived = update.steps.findLast((s) => s.status === "delivered");
        const moved = await trx
          .updateTable("shipments")
          .set({
            status: update.status,
            status_detail: update.detail.slice(0, 200),
            estimated_delivery: update.estimatedDelivery,
            tracking_url: shipment.tracking_url ?? update.publicUrl,
            delivered_at: update.status === "delivered" ? (arrived?.occurredAt ?? at) : null,
            provider_updated_at: reportedAt,
            updated_at: at,
          })
          .where("id", "=", shipment.id)
          .where((eb) => eb.or([eb("provider_updated_at", "is", null), eb("provider_updated_at", "<", reportedAt)]))
          .executeTakeFirst();
        return { changed: Number(moved.numUpdatedRows) > 0 };
      });
    },

    /** The operator's word that a parcel sent by hand arrived (no provider reports it). */
    async markDelivered(shipmentId: string): Promise<void> {
      const at = isoNow();
      const done = await db
        .updateTable("shipments")
        .set({ status: "delivered", delivered_at: at, updated_at: at })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", shipmentId)
        .where("provider", "=", "manual")
        .where("status", "!=", "delivered")
        .executeTakeFirst();
      if (!Number(done.numUpdatedRows)) {
        const exists = await rows().select("provider").where("id", "=", shipmentId).executeTakeFirst();
        if (!exists) throw notFound("No such package");
        if (exists.provider !== "manual") throw conflict("The carrier reports this package's delivery");
      }
    },
  };
}
