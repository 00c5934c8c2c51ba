/**
 * The catalogue (issue 17, ADR 030): products with up to three options and a variant per combination of their
 * values, each variant with its own SKU, price, compare-at price, weight and stock; images from the files
 * service; collections in a manual order. Built for one workspace, like every repository (DESIGN rule 2).
 *
 * A save replaces the product's options and variants as one unit of work and purges the shop's cache tags in
 * its transaction, so the storefront never shows half a product.
 */
import { slugify as slugOf } from "~/lib/slug";
import { z } from "zod";
import { sql } from "kysely";
import type { Db } from "~db/client";
import { containsText } from "~db/like";
import type { ProductRow, VariantRow } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { conflict, invalid, notFound, parseInput } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { renderMarkdown } from "~/modules/sites/markdown.server";
import { changedPositions, type Move, moveInOrder } from "./manual-order";
import { MAX_MINOR } from "./money";

export { PRODUCT_STATUSES, combinations, optionKey, type ProductStatus } from "./vocabulary";
import {
  PRODUCT_STATUSES,
  SUBSCRIPTION_INTERVALS,
  optionKey,
  type Arrangement,
  type ProductStatus,
  type SubscriptionPlan,
} from "./vocabulary";

export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 100;
export const MAX_STOCK = 1_000_000;

const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Give the product an address")
  .max(100, "Keep the address under 100 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lower-case letters, digits and single hyphens");

const Amount = z
  .number({ message: "Enter an amount" })
  .int("Enter a whole number of minor units")
  .min(0, "An amount cannot be negative")
  .max(MAX_MINOR, "That amount is too large");

export const VariantInput = z.object({
  options: z.array(z.string().trim().min(1).max(100)).max(MAX_OPTIONS),
  sku: z.string().trim().max(100).nullable().default(null),
  barcode: z.string().trim().max(100).nullable().default(null),
  price: Amount,
  compareAtPrice: Amount.nullable().default(null),
  weightGrams: z.number().int("Weigh in whole grams").min(0).max(1_000_000).default(0),
  inventoryTracked: z.boolean().default(true),
  continueSelling: z.boolean().default(false),
  stock: z.number().int("Stock is a whole number").min(0, "Stock cannot be negative").max(MAX_STOCK).default(0),
  requiresShipping: z.boolean().default(true),
  taxable: z.boolean().default(true),
});
export type VariantInput = z.input<typeof VariantInput>;

export const SubscriptionPlanInput = z
  .object({
    interval: z.enum(SUBSCRIPTION_INTERVALS, { message: "Choose weeks, months or years" }),
    every: z.number().int("Enter a whole number").min(1, "At least 1").max(52, "At most 52"),
    trialDays: z.number().int("Enter a whole number of days").min(0, "0 or more days").max(730, "At most 730 days"),
  })
  // Stripe's own limit: a subscription is charged at least once every three years.
  .refine((p) => (p.interval === "year" ? p.every <= 3 : p.interval === "month" ? p.every <= 36 : true), {
    message: "Charge at least once every three years",
    path: ["every"],
  });

export const ProductInput = z
  .object({
    title: z.string().trim().min(1, "Give the product a name").max(200, "Keep the name under 200 characters"),
    slug: Slug.optional(),
    description: z.string().max(20_000, "Keep the description under 20,000 characters").default(""),
    vendor: z.string().trim().max(100).default(""),
    productType: z.string().trim().max(100).default(""),
    tags: z.array(z.string().trim().min(1).max(40)).max(30, "At most 30 tags").default([]),
    status: z.enum(PRODUCT_STATUSES).default("draft"),
    seoTitle: z.string().trim().max(70, "Search engines show about 60 characters").default(""),
    seoDescription: z.string().trim().max(320).default(""),
    options: z
      .array(
        z.object({
          name: z.string().trim().min(1, "Name the option").max(50),
          values: z.array(z.string().trim().min(1).max(100)).min(1, "Give the option a value").max(100),
        }),
      )
      .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options`)
      .default([]),
    variants: z.array(VariantInput).min(1, "A product needs a price").max(MAX_VARIANTS),
    collectionIds: z.array(z.string()).max(50).default([]),
    /** Sold as a subscription (ADR 033); null sells it once; left out keeps what the product had (imports). */
    subscription: SubscriptionPlanInput.nullable().optional(),
  })
  .superRefine((p, ctx) => {
    const names = new Set<string>();
    for (const [i, o] of p.options.entries()) {
      if (names.has(o.name.toLowerCase()))
        ctx.addIssue({ code: "custom", path: ["options", i, "name"], message: "Two options have this name" });
      names.add(o.name.toLowerCase());
      if (new Set(o.values).size !== o.values.length)
        ctx.addIssue({ code: "custom", path: ["options", i, "values"], message: "A value is listed twice" });
    }
    const keys = new Set<string>();
    for (const [i, v] of p.variants.entries()) {
      if (v.options.length !== p.options.length || v.options.some((value, j) => !p.options[j]!.values.includes(value)))
        ctx.addIssue({
          code: "custom",
          path: ["variants", i, "options"],
          message: "This variant's values are not the product's options",
        });
      const key = optionKey(v.options);
      if (keys.has(key))
        ctx.addIssue({
          code: "custom",
          path: ["variants", i, "options"],
          message: "Two variants have the same values",
        });
      keys.add(key);
      if (v.compareAtPrice !== null && v.compareAtPrice !== undefined && v.compareAtPrice <= v.price)
        ctx.addIssue({
          code: "custom",
          path: ["variants", i, "compareAtPrice"],
          message: "The compare-at price must be higher than the price",
        });
    }
  });
export type ProductInput = z.input<typeof ProductInput>;

export interface Variant {
  id: string;
  productId: string;
  options: string[];
  title: string;
  sku: string | null;
  barcode: string | null;
  price: number;
  compareAtPrice: number | null;
  weightGrams: number;
  inventoryTracked: boolean;
  continueSelling: boolean;
  stock: number;
  reserved: number;
  /** What can still be bought: unlimited (null) when stock is not tracked or backorders are allowed. */
  available: number | null;
  requiresShipping: boolean;
  taxable: boolean;
  imageId: string | null;
  position: number;
}

export interface ProductImage {
  id: string;
  fileId: string;
  alt: string;
  position: number;
  sourceUrl: string | null;
}

export interface Product {
  id: string;
  slug: string;
  title: string;
  description: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  tags: string[];
  status: ProductStatus;
  options: Array<{ name: string; values: string[] }>;
  seoTitle: string;
  seoDescription: string;
  /** Sold as a subscription (ADR 033) when set; the variant's price is charged each period. */
  subscription: SubscriptionPlan | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProductDetail extends Product {
  variants: Variant[];
  images: ProductImage[];
  collectionIds: string[];
}

export function toVariant(row: VariantRow): Variant {
  const options = JSON.parse(row.options) as string[];
  const unlimited = !row.inventory_tracked || !!row.continue_selling;
  return {
    id: row.id,
    productId: row.product_id,
    options,
    title: optionKey(options),
    sku: row.sku,
    barcode: row.barcode,
    price: row.price,
    compareAtPrice: row.compare_at_price,
    weightGrams: row.weight_grams,
    inventoryTracked: !!row.inventory_tracked,
    continueSelling: !!row.continue_selling,
    stock: row.stock,
    reserved: row.reserved,
    available: unlimited ? null : Math.max(0, row.stock - row.reserved),
    requiresShipping: !!row.requires_shipping,
    taxable: !!row.taxable,
    imageId: row.image_id,
    position: row.position,
  };
}

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    descriptionHtml: row.description_html,
    vendor: row.vendor,
    productType: row.product_type,
    tags: JSON.parse(row.tags) as string[],
    status: row.status as ProductStatus,
    options: JSON.parse(row.options) as Product["options"],
    seoTitle: row.seo_title,
    seoDescription: row.seo_description,
    subscription: row.subscription_interval
      ? {
          interval: row.subscription_interval as SubscriptionPlan["interval"],
          every: row.subscription_interval_count,
          trialDays: row.subscription_trial_days,
        }
      : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A product's slug from its title ("product" when nothing is left). */
export const slugify = (title: string): string => slugOf(title, "product");

export interface ProductListQuery {
  query?: string;
  status?: ProductStatus;
  collectionId?: string;
  /** Products not in this collection (what can still be added to it). */
  outsideCollectionId?: string;
  offset: number;
  size: number;
}

export function productsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("products").where("products.workspace_id", "=", workspaceId);

  const filtered = (q: Omit<ProductListQuery, "offset" | "size">) => {
    let query = rows();
    if (q.status) query = query.where("products.status", "=", q.status);
    if (q.query) {
      const text = q.query;
      query = query.where((eb) =>
        eb.or([
          containsText("products.title", text),
          containsText("products.tags", text),
          containsText("products.vendor", text),
          eb.exists(
            eb
              .selectFrom("product_variants as v")
              .select("v.id")
              .whereRef("v.product_id", "=", "products.id")
              .where(containsText("v.sku", text)),
          ),
        ]),
      );
    }
    if (q.collectionId) {
      const collectionId = q.collectionId;
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom("collection_products as cp")
            .select("cp.product_id")
            .whereRef("cp.product_id", "=", "products.id")
            .where("cp.collection_id", "=", collectionId),
        ),
      );
    }
    if (q.outsideCollectionId) {
      const collectionId = q.outsideCollectionId;
      query = query.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("collection_products as cp")
              .select("cp.product_id")
              .whereRef("cp.product_id", "=", "products.id")
              .where("cp.collection_id", "=", collectionId),
          ),
        ),
      );
    }
    return query;
  };

  async function variantsOf(productIds: readonly string[]): Promise<Map<string, Variant[]>> {
    const found = new Map<string, Variant[]>();
    if (productIds.length === 0) return found;
    const variants = await db
      .selectFrom("product_variants")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("product_id", "in", [...productIds])
      .orderBy("position")
      .execute();
    for (const row of variants) {
      const list = found.get(row.product_id) ?? [];
      list.push(toVariant(row));
      found.set(row.product_id, list);
    }
    return found;
  }

  async function firstImages(productIds: readonly string[]): Promise<Map<string, ProductImage>> {
    const found = new Map<string, ProductImage>();
    if (productIds.length === 0) return found;
    const images = await db
      .selectFrom("product_images")
      .select(["id", "product_id", "file_id", "alt", "position", "source_url"])
      .where("workspace_id", "=", workspaceId)
      .where("product_id", "in", [...productIds])
      .orderBy("position")
      .execute();
    for (const i of images) {
      if (!found.has(i.product_id))
        found.set(i.product_id, {
          id: i.id,
          fileId: i.file_id,
          alt: i.alt,
          position: i.position,
          sourceUrl: i.source_url,
        });
    }
    return found;
  }

  async function detail(row: ProductRow | undefined): Promise<ProductDetail> {
    if (!row) throw notFound("That product was not found");
    const [variants, images, collections] = await Promise.all([
      variantsOf([row.id]),
      db
        .selectFrom("product_images")
        .select(["id", "file_id", "alt", "position", "source_url"])
        .where("workspace_id", "=", workspaceId)
        .where("product_id", "=", row.id)
        .orderBy("position")
        .execute(),
      db
        .selectFrom("collection_products")
        .select("collection_id")
        .where("workspace_id", "=", workspaceId)
        .where("product_id", "=", row.id)
        .execute(),
    ]);
    return {
      ...toProduct(row),
      variants: variants.get(row.id) ?? [],
      images: images.map((i) => ({
        id: i.id,
        fileId: i.file_id,
        alt: i.alt,
        position: i.position,
        sourceUrl: i.source_url,
      })),
      collectionIds: collections.map((c) => c.collection_id),
    };
  }

  async function uniqueSlug(trx: Db, wanted: string, exceptId: string | null): Promise<string> {
    for (let n = 1; n < 1000; n++) {
      const candidate = n === 1 ? wanted : `${wanted.slice(0, 95)}-${n}`;
      let query = trx
        .selectFrom("products")
        .select("id")
        .where("workspace_id", "=", workspaceId)
        .where("slug", "=", candidate);
      if (exceptId) query = query.where("id", "!=", exceptId);
      if (!(await query.executeTakeFirst())) return candidate;
    }
    throw conflict("Choose another address for this product");
  }

  /** Products of a list with their variants and first image: two queries for the whole page of them. */
  async function withVariantsAndImage(found: ProductRow[]) {
    const ids = found.map((p) => p.id);
    const [variants, images] = await Promise.all([variantsOf(ids), firstImages(ids)]);
    return found.map((row) => ({
      ...toProduct(row),
      variants: variants.get(row.id) ?? [],
      image: images.get(row.id) ?? null,
    }));
  }

  return {
    async list(q: ProductListQuery) {
      const found = await filtered(q)
        .selectAll("products")
        .orderBy("products.updated_at", "desc")
        .orderBy("products.id")
        .limit(q.size)
        .offset(q.offset)
        .execute();
      return withVariantsAndImage(found);
    },

    async count(q: Omit<ProductListQuery, "offset" | "size"> = {}): Promise<number> {
      const row = await filtered(q)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The storefront's products: active only, newest first (or a collection's manual order). */
    async storefront(q: { collectionId?: string; offset: number; size: number }) {
      let query = rows().selectAll("products").where("products.status", "=", "active");
      if (q.collectionId) {
        query = query
          .innerJoin("collection_products as cp", (j) =>
            j.onRef("cp.product_id", "=", "products.id").on("cp.collection_id", "=", q.collectionId!),
          )
          .orderBy("cp.position");
      } else {
        query = query.orderBy("products.created_at", "desc");
      }
      const found = await query.orderBy("products.id").limit(q.size).offset(q.offset).execute();
      return withVariantsAndImage(found);
    },

    /** A collection's products in its manual order, whatever their status (the console's view of it). */
    async inCollection(collectionId: string, window: { offset: number; size: number }) {
      const found = await rows()
        .selectAll("products")
        .innerJoin("collection_products as cp", (j) =>
          j.onRef("cp.product_id", "=", "products.id").on("cp.collection_id", "=", collectionId),
        )
        .orderBy("cp.position")
        .orderBy("products.id")
        .limit(window.size)
        .offset(window.offset)
        .execute();
      return withVariantsAndImage(found);
    },

    /**
     * Tracked variants of products not archived whose stock left to sell (stock less what unpaid orders hold) is at
     * most `threshold`, fewest first: what to bake or reorder. Backorderable variants count too: they can still be
     * sold, but the shelf is empty.
     */
    async lowStock(threshold: number, limit: number) {
      const left = sql<number>`product_variants.stock - product_variants.reserved`;
      const found = await db
        .selectFrom("product_variants")
        .innerJoin("products", (j) =>
          j.onRef("products.id", "=", "product_variants.product_id").on("products.workspace_id", "=", workspaceId),
        )
        .select([
          "products.id as product_id",
          "products.title",
          "products.status",
          "product_variants.id",
          "product_variants.options",
          "product_variants.sku",
          "product_variants.stock",
          "product_variants.reserved",
        ])
        .where("product_variants.workspace_id", "=", workspaceId)
        .where("product_variants.inventory_tracked", "=", 1)
        .where("products.status", "!=", "archived")
        .where(left, "<=", threshold)
        .orderBy(left)
        .orderBy("products.title")
        .limit(limit)
        .execute();
      return found.map((r) => ({
        productId: r.product_id,
        title: r.title,
        status: r.status as ProductStatus,
        variantId: r.id,
        variantTitle: (JSON.parse(r.options) as string[]).join(" / "),
        sku: r.sku,
        left: Math.max(0, Number(r.stock) - Number(r.reserved)),
      }));
    },

    async countActive(collectionId?: string): Promise<number> {
      let query = rows().where("products.status", "=", "active");
      if (collectionId)
        query = query.innerJoin("collection_products as cp", (j) =>
          j.onRef("cp.product_id", "=", "products.id").on("cp.collection_id", "=", collectionId),
        );
      const row = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async byId(id: string): Promise<ProductDetail> {
      return detail(await rows().selectAll().where("id", "=", id).executeTakeFirst());
    },

    async find(id: string): Promise<ProductDetail | undefined> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      return row ? detail(row) : undefined;
    },

    /** An active product by its address (the storefront's product page). */
    async activeBySlug(slug: string): Promise<ProductDetail | undefined> {
      const row = await rows().selectAll().where("slug", "=", slug).where("status", "=", "active").executeTakeFirst();
      return row ? detail(row) : undefined;
    },

    /** Active products' addresses and dates (sitemap.xml). */
    async activeAddresses(limit = 10_000) {
      return rows()
        .select(["id", "slug", "title", "updated_at"])
        .where("status", "=", "active")
        .orderBy("created_at", "desc")
        .limit(limit)
        .execute();
    },

    /**
     * Creates (`id` null) or replaces a product: its fields, options, variants (kept by their option values, so
     * a variant's id, stock and reservations survive an edit that keeps it) and collections. Audited.
     */
    async save(id: string | null, raw: ProductInput, actorUserId: string | null): Promise<ProductDetail> {
      const input = ProductInput.safeParse(raw);
      if (!input.success) {
        throw invalid(
          "Check the highlighted fields",
          input.error.issues.map((i) => ({ field: i.path.join(".") || "product", message: i.message })),
        );
      }
      const p = input.data;
      const productId = await writeAndPurge(db, async (trx, purge) => {
        const at = isoNow();
        const existing = id
          ? await trx
              .selectFrom("products")
              .select(["id", "slug"])
              .where("workspace_id", "=", workspaceId)
              .where("id", "=", id)
              .executeTakeFirst()
          : undefined;
        if (id && !existing) throw notFound("That product was not found");
        const slug = await uniqueSlug(trx, p.slug ?? existing?.slug ?? slugify(p.title), existing?.id ?? null);
        if (p.slug && slug !== p.slug)
          throw conflict("Another product has this address", [
            { field: "slug", message: "Another product has this address" },
          ]);
        const fields = {
          slug,
          title: p.title,
          description: p.description,
          description_html: renderMarkdown(p.description),
          vendor: p.vendor,
          product_type: p.productType,
          tags: JSON.stringify([...new Set(p.tags)]),
          status: p.status,
          options: JSON.stringify(p.options),
          seo_title: p.seoTitle,
          seo_description: p.seoDescription,
          ...(p.subscription === undefined
            ? {}
            : {
                subscription_interval: p.subscription?.interval ?? null,
                subscription_interval_count: p.subscription?.every ?? 1,
                subscription_trial_days: p.subscription?.trialDays ?? 0,
              }),
          updated_at: at,
        };
        const productId = existing?.id ?? newId();
        if (existing)
          await trx
            .updateTable("products")
            .set(fields)
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", productId)
            .execute();
        else
          await trx
            .insertInto("products")
            .values({ id: productId, workspace_id: workspaceId, created_at: at, ...fields })
            .execute();

        const before = await trx
          .selectFrom("product_variants")
          .select(["id", "option_key"])
          .where("workspace_id", "=", workspaceId)
          .where("product_id", "=", productId)
          .execute();
        const byKey = new Map(before.map((v) => [v.option_key, v.id]));
        const kept = new Set<string>();
        for (const [position, v] of p.variants.entries()) {
          const key = optionKey(v.options);
          const values = {
            options: JSON.stringify(v.options),
            option_key: key,
            sku: v.sku || null,
            barcode: v.barcode || null,
            price: v.price,
            compare_at_price: v.compareAtPrice ?? null,
            weight_grams: v.weightGrams,
            inventory_tracked: v.inventoryTracked ? 1 : 0,
            continue_selling: v.continueSelling ? 1 : 0,
            stock: v.stock,
            requires_shipping: v.requiresShipping ? 1 : 0,
            taxable: v.taxable ? 1 : 0,
            position,
            updated_at: at,
          };
          const variantId = byKey.get(key);
          if (variantId) {
            kept.add(variantId);
            await trx
              .updateTable("product_variants")
              .set(values)
              .where("workspace_id", "=", workspaceId)
              .where("id", "=", variantId)
              .execute();
          } else {
            await trx
              .insertInto("product_variants")
              .values({
                id: newId(),
                workspace_id: workspaceId,
                product_id: productId,
                reserved: 0,
                image_id: null,
                created_at: at,
                ...values,
              })
              .execute();
          }
        }
        const gone = before.filter((v) => !kept.has(v.id)).map((v) => v.id);
        if (gone.length) {
          // A variant held by an unpaid order keeps its reservation's stock honest: refuse, say which.
          const held = await trx
            .selectFrom("stock_reservations")
            .select("variant_id")
            .where("workspace_id", "=", workspaceId)
            .where("variant_id", "in", gone)
            .executeTakeFirst();
          if (held)
            throw conflict(
              "A variant you removed is held by an unpaid order. Cancel or complete that order first, or keep the variant.",
            );
          await trx
            .deleteFrom("product_variants")
            .where("workspace_id", "=", workspaceId)
            .where("id", "in", gone)
            .execute();
        }

        const collections = p.collectionIds.length
          ? await trx
              .selectFrom("collections")
              .select("id")
              .where("workspace_id", "=", workspaceId)
              .where("id", "in", p.collectionIds)
              .execute()
          : [];
        if (collections.length !== new Set(p.collectionIds).size)
          throw invalid("That collection was not found", [
            { field: "collectionIds", message: "That collection was not found" },
          ]);
        const current = await trx
          .selectFrom("collection_products")
          .select("collection_id")
          .where("workspace_id", "=", workspaceId)
          .where("product_id", "=", productId)
          .execute();
        const wanted = new Set(collections.map((c) => c.id));
        const removed = current.filter((c) => !wanted.has(c.collection_id)).map((c) => c.collection_id);
        if (removed.length)
          await trx
            .deleteFrom("collection_products")
            .where("workspace_id", "=", workspaceId)
            .where("product_id", "=", productId)
            .where("collection_id", "in", removed)
            .execute();
        for (const collectionId of wanted) {
          if (current.some((c) => c.collection_id === collectionId)) continue;
          const last = await trx
            .selectFrom("collection_products")
            .select((eb) => eb.fn.max("position").as("max"))
            .where("collection_id", "=", collectionId)
            .executeTakeFirst();
          await trx
            .insertInto("collection_products")
            .values({
              workspace_id: workspaceId,
              collection_id: collectionId,
              product_id: productId,
              position: Number(last?.max ?? -1) + 1,
            })
            .execute();
        }

        await recordWorkspaceEvent(trx, workspaceId, {
          action: existing ? "product.updated" : "product.created",
          actorUserId,
          detail: { productId, title: p.title, status: p.status },
        });
        purge(cacheTags.product(workspaceId, productId), cacheTags.shop(workspaceId));
        return productId;
      });
      return this.byId(productId);
    },

    /** Draft, activate or archive several products at once (the list's bulk action). */
    async setStatus(ids: readonly string[], status: ProductStatus, actorUserId: string | null): Promise<number> {
      if (ids.length === 0) return 0;
      return writeAndPurge(db, async (trx, purge) => {
        const found = await trx
          .selectFrom("products")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("id", "in", [...ids])
          .execute();
        if (found.length === 0) return 0;
        await trx
          .updateTable("products")
          .set({ status, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where(
            "id",
            "in",
            found.map((f) => f.id),
          )
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "product.status_changed",
          actorUserId,
          detail: { productIds: found.map((f) => f.id), status },
        });
        purge(cacheTags.shop(workspaceId), ...found.map((f) => cacheTags.product(workspaceId, f.id)));
        return found.length;
      });
    },

    /** Deletes a product; orders keep their own copy of what was bought. Refused while an unpaid order holds it. */
    async remove(id: string, actorUserId: string | null): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        const row = await trx
          .selectFrom("products")
          .select(["id", "title"])
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!row) throw notFound("That product was not found");
        const held = await trx
          .selectFrom("stock_reservations as r")
          .innerJoin("product_variants as v", "v.id", "r.variant_id")
          .select("r.id")
          .where("r.workspace_id", "=", workspaceId)
          .where("v.product_id", "=", id)
          .executeTakeFirst();
        if (held) throw conflict("An unpaid order holds this product. Archive it instead, or settle the order first.");
        await trx.deleteFrom("products").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "product.deleted",
          actorUserId,
          detail: { productId: id, title: row.title },
        });
        purge(cacheTags.product(workspaceId, id), cacheTags.shop(workspaceId));
      });
    },

    /**
     * Sets a variant's stock on hand (an inventory count, an integration's sync), found by its id or its SKU.
     * What unpaid orders hold stays held: a count below it leaves nothing to sell until they are settled.
     */
    async setStock(
      ref: { variantId?: string; sku?: string },
      stock: number,
      actorUserId: string | null,
    ): Promise<void> {
      if (!Number.isInteger(stock) || stock < 0 || stock > MAX_STOCK)
        throw invalid("Stock is a whole number, 0 or more", [{ field: "stock", message: "A whole number, 0 or more" }]);
      await writeAndPurge(db, async (trx, purge) => {
        let query = trx
          .selectFrom("product_variants")
          .select(["id", "product_id"])
          .where("workspace_id", "=", workspaceId);
        if (ref.variantId) query = query.where("id", "=", ref.variantId);
        else if (ref.sku) query = query.where("sku", "=", ref.sku);
        else throw invalid("Name the variant by its id or its SKU");
        const found = await query.limit(2).execute();
        if (found.length === 0) throw notFound("No variant with that id or SKU");
        if (found.length > 1) throw conflict("Two variants have that SKU: name the variant by its id");
        const variant = found[0]!;
        await trx
          .updateTable("product_variants")
          .set({ stock, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", variant.id)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "product.stock_set",
          actorUserId,
          detail: { productId: variant.product_id, variantId: variant.id, stock },
        });
        purge(cacheTags.product(workspaceId, variant.product_id), cacheTags.shop(workspaceId));
      });
    },

    /** Attaches an uploaded file (already in this workspace's files) as the product's next image. */
    async addImage(productId: string, fileId: string, alt: string, sourceUrl: string | null = null): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        const product = await trx
          .selectFrom("products")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", productId)
          .executeTakeFirst();
        const file = await trx
          .selectFrom("files")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", fileId)
          .executeTakeFirst();
        if (!product || !file) throw notFound("That product or file was not found");
        const last = await trx
          .selectFrom("product_images")
          .select((eb) => eb.fn.max("position").as("max"))
          .where("product_id", "=", productId)
          .executeTakeFirst();
        await trx
          .insertInto("product_images")
          .values({
            id: newId(),
            workspace_id: workspaceId,
            product_id: productId,
            file_id: fileId,
            alt: alt.slice(0, 200),
            source_url: sourceUrl,
            position: Number(last?.max ?? -1) + 1,
            created_at: isoNow(),
          })
          .execute();
        purge(cacheTags.product(workspaceId, productId), cacheTags.shop(workspaceId));
      });
    },

    async removeImage(productId: string, imageId: string): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        await trx
          .updateTable("product_variants")
          .set({ image_id: null })
          .where("workspace_id", "=", workspaceId)
          .where("image_id", "=", imageId)
          .execute();
        await trx
          .deleteFrom("product_images")
          .where("workspace_id", "=", workspaceId)
          .where("product_id", "=", productId)
          .where("id", "=", imageId)
          .execute();
        purge(cacheTags.product(workspaceId, productId), cacheTags.shop(workspaceId));
      });
    },
  };
}

export const CollectionInput = z.object({
  title: z.string().trim().min(1, "Name the collection").max(100),
  slug: Slug.optional(),
  description: z.string().trim().max(2000).default(""),
});

export function collectionsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("collections").where("workspace_id", "=", workspaceId);

  /** The collection, read inside the writing transaction; another workspace's id is not found. */
  async function held(trx: Db, id: string) {
    const found = await trx
      .selectFrom("collections")
      .select(["id", "title"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!found) throw notFound("That collection was not found");
    return found;
  }

  /** Its members as `{ id: productId, position }`, in their manual order. */
  const members = (trx: Db, collectionId: string) =>
    trx
      .selectFrom("collection_products")
      .select(["product_id as id", "position"])
      .where("workspace_id", "=", workspaceId)
      .where("collection_id", "=", collectionId)
      .orderBy("position")
      .orderBy("product_id")
      .execute();

  /** Writes the members' new order: only the rows that move. */
  async function writeMemberOrder(trx: Db, collectionId: string, order: readonly string[]) {
    for (const row of changedPositions(await members(trx, collectionId), order))
      await trx
        .updateTable("collection_products")
        .set({ position: row.position })
        .where("workspace_id", "=", workspaceId)
        .where("collection_id", "=", collectionId)
        .where("product_id", "=", row.id)
        .execute();
  }

  async function touch(trx: Db, collectionId: string) {
    await trx
      .updateTable("collections")
      .set({ updated_at: isoNow() })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", collectionId)
      .execute();
  }

  return {
    async byId(id: string) {
      const found = await rows()
        .select(["id", "slug", "title", "description", "position"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!found) throw notFound("That collection was not found");
      return found;
    },
    /** Its name, address and description; the address stays unique in the shop. Audited. */
    async update(id: string, raw: z.input<typeof CollectionInput>, actorUserId: string | null) {
      const input = parseInput(CollectionInput, raw);
      return writeAndPurge(db, async (trx, purge) => {
        await held(trx, id);
        const slug = input.slug ?? slugify(input.title);
        const taken = await trx
          .selectFrom("collections")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("slug", "=", slug)
          .where("id", "!=", id)
          .executeTakeFirst();
        if (taken)
          throw conflict("Another collection has this address", [
            { field: input.slug ? "slug" : "title", message: "Another collection has this address" },
          ]);
        await trx
          .updateTable("collections")
          .set({ title: input.title, slug, description: input.description, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.updated",
          actorUserId,
          detail: { collectionId: id, title: input.title, slug },
        });
        purge(cacheTags.shop(workspaceId));
        return { id, slug };
      });
    },
    /** Moves a collection in the shop's list of collections (the storefront shows them in this order). */
    async move(id: string, move: Move, actorUserId: string | null) {
      await writeAndPurge(db, async (trx, purge) => {
        await held(trx, id);
        const current = await trx
          .selectFrom("collections")
          .select(["id", "position"])
          .where("workspace_id", "=", workspaceId)
          .orderBy("position")
          .orderBy("id")
          .execute();
        const order = moveInOrder(
          current.map((c) => c.id),
          id,
          move,
        );
        for (const row of changedPositions(current, order))
          await trx
            .updateTable("collections")
            .set({ position: row.position })
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", row.id)
            .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.moved",
          actorUserId,
          detail: { collectionId: id, move },
        });
        purge(cacheTags.shop(workspaceId));
      });
    },
    /** Adds products at the end of the collection's order; products already in it stay where they are. */
    async addProducts(id: string, productIds: readonly string[], actorUserId: string | null) {
      const wanted = [...new Set(productIds)];
      if (wanted.length === 0)
        throw invalid("Choose a product to add", [{ field: "productId", message: "Choose a product" }]);
      return writeAndPurge(db, async (trx, purge) => {
        await held(trx, id);
        const found = await trx
          .selectFrom("products")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("id", "in", wanted)
          .execute();
        if (found.length !== wanted.length)
          throw invalid("That product was not found", [{ field: "productId", message: "That product was not found" }]);
        const current = await members(trx, id);
        const inside = new Set(current.map((m) => m.id));
        let next = current.reduce((max, m) => Math.max(max, m.position), -1) + 1;
        const added = wanted.filter((productId) => !inside.has(productId));
        for (const productId of added)
          await trx
            .insertInto("collection_products")
            .values({ workspace_id: workspaceId, collection_id: id, product_id: productId, position: next++ })
            .execute();
        if (added.length) {
          await touch(trx, id);
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "collection.products_added",
            actorUserId,
            detail: { collectionId: id, productIds: added },
          });
          purge(cacheTags.shop(workspaceId));
        }
        return { added: added.length };
      });
    },
    /** Takes a product out of the collection (the product itself stays in the catalogue). */
    async removeProduct(id: string, productId: string, actorUserId: string | null) {
      await writeAndPurge(db, async (trx, purge) => {
        await held(trx, id);
        const gone = await trx
          .deleteFrom("collection_products")
          .where("workspace_id", "=", workspaceId)
          .where("collection_id", "=", id)
          .where("product_id", "=", productId)
          .executeTakeFirst();
        if (!Number(gone.numDeletedRows)) throw notFound("That product is not in this collection");
        await touch(trx, id);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.product_removed",
          actorUserId,
          detail: { collectionId: id, productId },
        });
        purge(cacheTags.shop(workspaceId));
      });
    },
    /** Moves one product within the collection's manual order. */
    async moveProduct(id: string, productId: string, move: Move, actorUserId: string | null) {
      await writeAndPurge(db, async (trx, purge) => {
        await held(trx, id);
        const current = await members(trx, id);
        if (!current.some((m) => m.id === productId)) throw notFound("That product is not in this collection");
        await writeMemberOrder(
          trx,
          id,
          moveInOrder(
            current.map((m) => m.id),
            productId,
            move,
          ),
        );
        await touch(trx, id);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.product_moved",
          actorUserId,
          detail: { collectionId: id, productId, move },
        });
        purge(cacheTags.shop(workspaceId));
      });
    },
    /**
     * Sorts the manual order once — by name, newest first, or lowest price first — as a start the operator can
     * then adjust by hand. The order stays manual: a product added later goes at the end.
     */
    async arrange(id: string, by: Arrangement, actorUserId: string | null) {
      await writeAndPurge(db, async (trx, purge) => {
        await held(trx, id);
        const found = await trx
          .selectFrom("collection_products as cp")
          .innerJoin("products as p", "p.id", "cp.product_id")
          .select(["p.id", "p.title", "p.created_at"])
          .select((eb) =>
            eb
              .selectFrom("product_variants as v")
              .select((inner) => inner.fn.min("v.price").as("price"))
              .whereRef("v.product_id", "=", "p.id")
              .as("price"),
          )
          .where("cp.workspace_id", "=", workspaceId)
          .where("cp.collection_id", "=", id)
          .execute();
        const byTitle = (a: (typeof found)[number], b: (typeof found)[number]) =>
          a.title.localeCompare(b.title, "en", { sensitivity: "base", numeric: true }) || a.id.localeCompare(b.id);
        const sorted = [...found].sort((a, b) =>
          by === "title"
            ? byTitle(a, b)
            : by === "newest"
              ? b.created_at.localeCompare(a.created_at) || byTitle(a, b)
              : Number(a.price ?? 0) - Number(b.price ?? 0) || byTitle(a, b),
        );
        await writeMemberOrder(
          trx,
          id,
          sorted.map((p) => p.id),
        );
        await touch(trx, id);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.arranged",
          actorUserId,
          detail: { collectionId: id, by },
        });
        purge(cacheTags.shop(workspaceId));
      });
    },
    async list() {
      const found = await rows()
        .select(["id", "slug", "title", "description", "position"])
        .select((eb) =>
          eb
            .selectFrom("collection_products as cp")
            .select(eb.fn.countAll<number>().as("n"))
            .whereRef("cp.collection_id", "=", "collections.id")
            .as("products"),
        )
        .orderBy("position")
        .execute();
      return found.map((c) => ({ ...c, products: Number(c.products ?? 0) }));
    },
    async bySlug(slug: string) {
      return rows().select(["id", "slug", "title", "description"]).where("slug", "=", slug).executeTakeFirst();
    },
    async create(raw: z.input<typeof CollectionInput>, actorUserId: string | null) {
      const input = parseInput(CollectionInput, raw);
      return writeAndPurge(db, async (trx, purge) => {
        const slug = input.slug ?? slugify(input.title);
        const taken = await trx
          .selectFrom("collections")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("slug", "=", slug)
          .executeTakeFirst();
        if (taken)
          throw conflict("Another collection has this address", [
            { field: "title", message: "Another collection has this name" },
          ]);
        const last = await trx
          .selectFrom("collections")
          .select((eb) => eb.fn.max("position").as("max"))
          .where("workspace_id", "=", workspaceId)
          .executeTakeFirst();
        const at = isoNow();
        const id = newId();
        await trx
          .insertInto("collections")
          .values({
            id,
            workspace_id: workspaceId,
            slug,
            title: input.title,
            description: input.description,
            position: Number(last?.max ?? -1) + 1,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.created",
          actorUserId,
          detail: { collectionId: id, title: input.title },
        });
        purge(cacheTags.shop(workspaceId));
        return { id, slug };
      });
    },
    async remove(id: string, actorUserId: string | null) {
      await writeAndPurge(db, async (trx, purge) => {
        const found = await trx
          .deleteFrom("collections")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!Number(found.numDeletedRows)) throw notFound("That collection was not found");
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "collection.deleted",
          actorUserId,
          detail: { collectionId: id },
        });
        purge(cacheTags.shop(workspaceId));
      });
    },
  };
}
