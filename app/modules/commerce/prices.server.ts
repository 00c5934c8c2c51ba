/**
 * What a cart's prices depend on besides its products (ADR 030): coupons, tax rates by country and region, and
 * shipping zones with their rates (flat, by weight, free over a subtotal, local pickup). Each is a repository
 * fixed to one workspace; checking a coupon's limits atomically is the checkout's (checkout.server.ts).
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict, notFound, parseInput } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { MAX_MINOR } from "./money";
import type { PricingCoupon } from "./pricing";

const Amount = z.number().int().min(0, "An amount cannot be negative").max(MAX_MINOR, "That amount is too large");
const Country = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "Choose a country");

export const CouponInput = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .min(3, "At least 3 characters")
      .max(40, "At most 40 characters")
      .regex(/^[A-Z0-9_-]+$/, "Letters, digits, - and _ only"),
    kind: z.enum(["percent", "fixed"]),
    value: z.number().int().min(1, "Give the discount a value"),
    minSubtotal: Amount.default(0),
    startsAt: z.string().datetime().nullable().default(null),
    endsAt: z.string().datetime().nullable().default(null),
    usageLimit: z.number().int().min(1).max(1_000_000).nullable().default(null),
    perCustomerLimit: z.number().int().min(1).max(1000).nullable().default(null),
    productIds: z.array(z.string()).max(100).default([]),
    collectionIds: z.array(z.string()).max(100).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.kind === "percent" && c.value > 100)
      ctx.addIssue({ code: "custom", path: ["value"], message: "A percentage is at most 100" });
    if (c.kind === "fixed" && c.value > MAX_MINOR)
      ctx.addIssue({ code: "custom", path: ["value"], message: "That amount is too large" });
    if (c.startsAt && c.endsAt && c.endsAt <= c.startsAt)
      ctx.addIssue({ code: "custom", path: ["endsAt"], message: "The end must be after the start" });
  });
export type CouponInput = z.input<typeof CouponInput>;

export interface Coupon extends PricingCoupon {
  id: string;
  code: string;
  minSubtotal: number;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  usedCount: number;
  active: boolean;
}

export function couponsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("coupons").where("workspace_id", "=", workspaceId);
  const toCoupon = (row: {
    id: string;
    code: string;
    kind: string;
    value: number;
    min_subtotal: number;
    starts_at: string | null;
    ends_at: string | null;
    usage_limit: number | null;
    per_customer_limit: number | null;
    used_count: number;
    product_ids: string;
    collection_ids: string;
    active: number;
  }): Coupon => ({
    id: row.id,
    code: row.code,
    kind: row.kind as Coupon["kind"],
    value: row.value,
    minSubtotal: row.min_subtotal,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    usageLimit: row.usage_limit,
    perCustomerLimit: row.per_customer_limit,
    usedCount: row.used_count,
    productIds: JSON.parse(row.product_ids) as string[],
    collectionIds: JSON.parse(row.collection_ids) as string[],
    active: !!row.active,
  });
  return {
    async list(): Promise<Coupon[]> {
      return (await rows().selectAll().orderBy("created_at", "desc").limit(200).execute()).map(toCoupon);
    },
    async byCode(code: string): Promise<Coupon | undefined> {
      const row = await rows().selectAll().where("code", "=", code.trim().toUpperCase()).executeTakeFirst();
      return row ? toCoupon(row) : undefined;
    },
    async create(raw: CouponInput, actorUserId: string | null): Promise<Coupon> {
      const input = parseInput(CouponInput, raw);
      return db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom("coupons")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("code", "=", input.code)
          .executeTakeFirst();
        if (taken)
          throw conflict("Another coupon has this code", [{ field: "code", message: "Another coupon has this code" }]);
        const at = isoNow();
        const id = newId();
        await trx
          .insertInto("coupons")
          .values({
            id,
            workspace_id: workspaceId,
            code: input.code,
            kind: input.kind,
            value: input.value,
            min_subtotal: input.minSubtotal,
            starts_at: input.startsAt,
            ends_at: input.endsAt,
            usage_limit: input.usageLimit,
            per_customer_limit: input.perCustomerLimit,
            product_ids: JSON.stringify(input.productIds),
            collection_ids: JSON.stringify(input.collectionIds),
            used_count: 0,
            active: 1,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "coupon.created",
          actorUserId,
          detail: { couponId: id, code: input.code },
        });
        return toCoupon((await trx.selectFrom("coupons").selectAll().where("id", "=", id).executeTakeFirstOrThrow())!);
      });
    },
    async setActive(id: string, active: boolean, actorUserId: string | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable("coupons")
          .set({ active: active ? 1 : 0, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!Number(done.numUpdatedRows)) throw notFound("That coupon was not found");
        await recordWorkspaceEvent(trx, workspaceId, {
          action: active ? "coupon.enabled" : "coupon.disabled",
          actorUserId,
          detail: { couponId: id },
        });
      });
    },
  };
}

export const TaxRateInput = z.object({
  country: Country,
  region: z.string().trim().toUpperCase().max(40).default(""),
  name: z.string().trim().min(1, "Name the tax (VAT, GST, sales tax)").max(40),
  /** Percent with up to two decimals, as typed: "20", "8.875". */
  ratePercent: z
    .number({ message: "Enter a percentage" })
    .min(0, "A rate cannot be negative")
    .max(100, "A rate is at most 100 %")
    .refine((v) => Number.isInteger(Math.round(v * 1000) / 10), "At most two decimals"),
});

export function taxRatesOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("tax_rates").where("workspace_id", "=", workspaceId);
  return {
    async list() {
      return rows()
        .select(["id", "country", "region", "name", "rate_bp"])
        .orderBy("country")
        .orderBy("region")
        .execute();
    },
    /** The rate for an address: its region's when the business set one, else its country's, else none. */
    async forAddress(country: string | null | undefined, region: string | null | undefined) {
      if (!country) return undefined;
      const found = await rows()
        .select(["id", "name", "rate_bp", "region"])
        .where("country", "=", country.toUpperCase())
        .where("region", "in", ["", (region ?? "").toUpperCase()])
        .execute();
      return found.find((r) => r.region !== "") ?? found.find((r) => r.region === "");
    },
    async save(raw: z.input<typeof TaxRateInput>, actorUserId: string | null): Promise<void> {
      const input = parseInput(TaxRateInput, raw);
      const rateBp = Math.round(input.ratePercent * 100);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("tax_rates")
          .values({
            id: newId(),
            workspace_id: workspaceId,
            country: input.country,
            region: input.region,
            name: input.name,
            rate_bp: rateBp,
            created_at: isoNow(),
          })
          .onConflict((oc) =>
            oc.columns(["workspace_id", "country", "region"]).doUpdateSet({ name: input.name, rate_bp: rateBp }),
          )
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "tax_rate.saved",
          actorUserId,
          detail: { country: input.country, region: input.region, rateBp },
        });
      });
    },
    async remove(id: string, actorUserId: string | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("tax_rates").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await recordWorkspaceEvent(trx, workspaceId, { action: "tax_rate.deleted", actorUserId, detail: { id } });
      });
    },
  };
}

export const ShippingRateInput = z
  .object({
    zoneId: z.string().nullable(),
    name: z.string().trim().min(1, "Name the rate (Standard, Express, Pickup at the shop)").max(60),
    kind: z.enum(["flat", "weight", "pickup"]),
    price: Amount,
    minWeightGrams: z.number().int().min(0).nullable().default(null),
    maxWeightGrams: z.number().int().min(1).nullable().default(null),
    freeOver: Amount.nullable().default(null),
    instructions: z.string().trim().max(500).default(""),
  })
  .superRefine((r, ctx) => {
    if (r.kind !== "pickup" && !r.zoneId)
      ctx.addIssue({ code: "custom", path: ["zoneId"], message: "Choose the zone this rate ships to" });
    if (r.kind === "weight" && r.maxWeightGrams === null && r.minWeightGrams === null)
      ctx.addIssue({ code: "custom", path: ["maxWeightGrams"], message: "Give the weight range this rate covers" });
    if (r.minWeightGrams !== null && r.maxWeightGrams !== null && r.maxWeightGrams <= r.minWeightGrams)
      ctx.addIssue({ code: "custom", path: ["maxWeightGrams"], message: "The maximum must be above the minimum" });
  });
export type ShippingRateInput = z.input<typeof ShippingRateInput>;

export interface ShippingRate {
  id: string;
  zoneId: string | null;
  name: string;
  kind: "flat" | "weight" | "pickup";
  price: number;
  minWeightGrams: number | null;
  maxWeightGrams: number | null;
  freeOver: number | null;
  instructions: string;
}

export interface RateOffer extends ShippingRate {
  /** The price for this cart (0 when free over its subtotal). */
  amount: number;
}

export function shippingOf(db: Db, workspaceId: string) {
  const toRate = (r: {
    id: string;
    zone_id: string | null;
    name: string;
    kind: string;
    price: number;
    min_weight_grams: number | null;
    max_weight_grams: number | null;
    free_over: number | null;
    instructions: string;
  }): ShippingRate => ({
    id: r.id,
    zoneId: r.zone_id,
    name: r.name,
    kind: r.kind as ShippingRate["kind"],
    price: r.price,
    minWeightGrams: r.min_weight_grams,
    maxWeightGrams: r.max_weight_grams,
    freeOver: r.free_over,
    instructions: r.instructions,
  });
  return {
    async zones() {
      const zones = await db
        .selectFrom("shipping_zones")
        .select(["id", "name", "countries"])
        .where("workspace_id", "=", workspaceId)
        .orderBy("created_at")
        .execute();
      return zones.map((z) => ({ id: z.id, name: z.name, countries: JSON.parse(z.countries) as string[] }));
    },
    async rates(): Promise<ShippingRate[]> {
      const rates = await db
        .selectFrom("shipping_rates")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .orderBy("created_at")
        .execute();
      return rates.map(toRate);
    },
    /**
     * The rates a cart can choose for an address (or, without one, pickup only): its country's zone's rates
     * whose weight range holds the cart, free when the subtotal reaches the rate's threshold.
     */
    async offers(country: string | null, weightGrams: number, subtotalAfterDiscount: number): Promise<RateOffer[]> {
      const [zones, rates] = await Promise.all([this.zones(), this.rates()]);
      const zoneIds = new Set(country ? zones.filter((z) => z.countries.includes(country)).map((z) => z.id) : []);
      return rates
        .filter((r) => (r.kind === "pickup" ? true : r.zoneId !== null && zoneIds.has(r.zoneId)))
        .filter(
          (r) =>
            r.kind !== "weight" ||
            ((r.minWeightGrams ?? 0) <= weightGrams && (r.maxWeightGrams === null || weightGrams <= r.maxWeightGrams)),
        )
        .map((r) => ({ ...r, amount: r.freeOver !== null && subtotalAfterDiscount >= r.freeOver ? 0 : r.price }));
    },
    async addZone(name: string, countries: string[], actorUserId: string | null) {
      const parsed = parseInput(
        z.object({
          name: z.string().trim().min(1, "Name the zone").max(60),
          countries: z.array(Country).min(1, "Choose at least one country").max(250),
        }),
        { name, countries },
      );
      const id = newId();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("shipping_zones")
          .values({
            id,
            workspace_id: workspaceId,
            name: parsed.name,
            countries: JSON.stringify([...new Set(parsed.countries)]),
            created_at: isoNow(),
          })
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "shipping_zone.created",
          actorUserId,
          detail: { id, name: parsed.name },
        });
      });
      return id;
    },
    async addRate(raw: ShippingRateInput, actorUserId: string | null) {
      const input = parseInput(ShippingRateInput, raw);
      const id = newId();
      await db.transaction().execute(async (trx) => {
        if (input.zoneId) {
          const zone = await trx
            .selectFrom("shipping_zones")
            .select("id")
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", input.zoneId)
            .executeTakeFirst();
          if (!zone) throw notFound("That shipping zone was not found");
        }
        await trx
          .insertInto("shipping_rates")
          .values({
            id,
            workspace_id: workspaceId,
            zone_id: input.kind === "pickup" ? null : input.zoneId,
            name: input.name,
            kind: input.kind,
            price: input.price,
            min_weight_grams: input.minWeightGrams,
            max_weight_grams: input.maxWeightGrams,
            free_over: input.freeOver,
            instructions: input.instructions,
            created_at: isoNow(),
          })
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "shipping_rate.created",
          actorUserId,
          detail: { id, name: input.name },
        });
      });
      return id;
    },
    async removeRate(id: string, actorUserId: string | null) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("shipping_rates").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await recordWorkspaceEvent(trx, workspaceId, { action: "shipping_rate.deleted", actorUserId, detail: { id } });
      });
    },
    async removeZone(id: string, actorUserId: string | null) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("shipping_zones").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await recordWorkspaceEvent(trx, workspaceId, { action: "shipping_zone.deleted", actorUserId, detail: { id } });
      });
    },
  };
}
