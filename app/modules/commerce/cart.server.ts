/**
 * The storefront's cart (ADR 030): a record on the server, found by a random secret in a cookie of the site
 * (`atrium_cart_{slug}` on the deployment's host, `atrium_cart` on a custom domain, `__Host-` when Secure), the
 * secret stored as its SHA-256. The cookie holds no prices and no lines, so nothing in it can be tampered with;
 * a cart lives 30 days from its last change. Pages read it without creating it: only adding to it does.
 */
import type { AppLoadContext } from "@remix-run/node";
import { parse, serialize } from "cookie";
import { z } from "zod";
import type { Db } from "~db/client";
import type { CartRow } from "~db/schema";
import { addDays, isoNow, now } from "~/lib/clock.server";
import { conflict, invalid, notFound } from "~/lib/errors";
import { sha256Hex } from "~/lib/hash.server";
import { newId, newSecret } from "~/lib/ids.server";
import { MAX_LINES, MAX_QUANTITY } from "./quote.server";

export const CART_DAYS = 30;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function cartCookieName(context: AppLoadContext, slug: string): string {
  const name = context.request.siteHost ? "atrium_cart" : `atrium_cart_${slug}`;
  return context.services.env.cookieSecure ? `__Host-${name}` : name;
}

function cartSecret(request: Request, context: AppLoadContext, slug: string): string | undefined {
  const value = parse(request.headers.get("cookie") ?? "")[cartCookieName(context, slug)];
  return value && SECRET.test(value) ? value : undefined;
}

export function cartCookie(context: AppLoadContext, slug: string, secret: string | null): string {
  return serialize(cartCookieName(context, slug), secret ?? "", {
    httpOnly: true,
    sameSite: "lax",
    secure: context.services.env.cookieSecure,
    path: "/",
    maxAge: secret ? CART_DAYS * 86_400 : 0,
  });
}

export const Address = z.object({
  line1: z.string().trim().min(1, "Enter the street and number").max(200),
  line2: z.string().trim().max(200).default(""),
  city: z.string().trim().min(1, "Enter the town or city").max(100),
  postalCode: z.string().trim().min(1, "Enter the postal code").max(20),
  region: z.string().trim().toUpperCase().max(40).default(""),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Choose a country"),
});
export type Address = z.output<typeof Address>;

export interface Cart {
  id: string;
  customerId: string | null;
  couponCode: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  address: Address | null;
  shippingRateId: string | null;
  paymentMethod: string | null;
  orderId: string | null;
  lines: Array<{ variantId: string; quantity: number; title: string; seenPrice: number }>;
}

export const Quantity = z.coerce
  .number({ message: "Choose a quantity" })
  .int("Choose a whole number")
  .min(0, "A quantity cannot be negative")
  .max(MAX_QUANTITY, `At most ${MAX_QUANTITY}`);

/** A site's cart as the request's cookie names it: open it, or start one when something is added. */
export function cartsOf(db: Db, workspaceId: string) {
  async function load(row: CartRow): Promise<Cart> {
    const lines = await db
      .selectFrom("cart_lines")
      .select(["variant_id", "quantity", "title", "seen_price"])
      .where("workspace_id", "=", workspaceId)
      .where("cart_id", "=", row.id)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return {
      id: row.id,
      customerId: row.customer_id,
      couponCode: row.coupon_code,
      email: row.email,
      name: row.name,
      phone: row.phone,
      address: row.address ? (JSON.parse(row.address) as Address) : null,
      shippingRateId: row.shipping_rate_id,
      paymentMethod: row.payment_method,
      orderId: row.order_id,
      lines: lines.map((l) => ({
        variantId: l.variant_id,
        quantity: l.quantity,
        title: l.title,
        seenPrice: l.seen_price,
      })),
    };
  }

  const touch = (cartId: string) =>
    db
      .updateTable("carts")
      .set({ updated_at: isoNow(), expires_at: addDays(now(), CART_DAYS).toISOString() })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", cartId)
      .execute();

  return {
    /** The cart of this secret, if it is live and of this workspace. */
    async bySecret(secret: string | undefined): Promise<Cart | null> {
      if (!secret) return null;
      const row = await db
        .selectFrom("carts")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("token_hash", "=", sha256Hex(secret))
        .where("expires_at", ">", isoNow())
        .executeTakeFirst();
      return row ? load(row) : null;
    },

    async byId(id: string): Promise<Cart> {
      const row = await db
        .selectFrom("carts")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) throw notFound("That cart was not found");
      return load(row);
    },

    /** A new, empty cart; answers its secret for the cookie. */
    async create(customerId: string | null, lines: Cart["lines"] = []): Promise<{ cart: Cart; secret: string }> {
      const secret = newSecret();
      const at = isoNow();
      const id = newId();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("carts")
          .values({
            id,
            workspace_id: workspaceId,
            token_hash: sha256Hex(secret),
            customer_id: customerId,
            created_at: at,
            updated_at: at,
            expires_at: addDays(now(), CART_DAYS).toISOString(),
          })
          .execute();
        for (const line of lines.slice(0, MAX_LINES)) {
          await trx
            .insertInto("cart_lines")
            .values({
              id: newId(),
              workspace_id: workspaceId,
              cart_id: id,
              variant_id: line.variantId,
              quantity: line.quantity,
              title: line.title,
              seen_price: line.seenPrice,
              created_at: at,
            })
            .execute();
        }
      });
      return { cart: await this.byId(id), secret };
    },

    /**
     * Adds `quantity` of a variant (an active product of this workspace); adding one already in the cart adds
     * to its line. Answers the line's new quantity.
     */
    async add(cartId: string, variantId: string, quantity: number): Promise<number> {
      const variant = await db
        .selectFrom("product_variants as v")
        .innerJoin("products as p", "p.id", "v.product_id")
        .select(["v.id", "v.price", "v.options", "p.title", "p.subscription_interval"])
        .where("v.workspace_id", "=", workspaceId)
        .where("p.workspace_id", "=", workspaceId)
        .where("p.status", "=", "active")
        .where("v.id", "=", variantId)
        .executeTakeFirst();
      if (!variant) throw notFound("That item is not for sale");
      if (variant.subscription_interval)
        throw conflict(`${variant.title} is sold by subscription: subscribe from its page`);
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
        throw invalid(`Choose a quantity from 1 to ${MAX_QUANTITY}`, [
          { field: "quantity", message: `Choose a quantity from 1 to ${MAX_QUANTITY}` },
        ]);
      const options = JSON.parse(variant.options) as string[];
      const title = options.length ? `${variant.title} — ${options.join(" / ")}` : variant.title;
      return db
        .transaction()
        .execute(async (trx) => {
          const count = await trx
            .selectFrom("cart_lines")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("cart_id", "=", cartId)
            .executeTakeFirstOrThrow();
          const existing = await trx
            .selectFrom("cart_lines")
            .select(["id", "quantity"])
            .where("cart_id", "=", cartId)
            .where("variant_id", "=", variantId)
            .executeTakeFirst();
          if (existing) {
            const next = Math.min(MAX_QUANTITY, existing.quantity + quantity);
            await trx
              .updateTable("cart_lines")
              .set({ quantity: next, seen_price: variant.price, title })
              .where("id", "=", existing.id)
              .execute();
            return next;
          }
          if (Number(count.n) >= MAX_LINES) throw invalid(`A cart holds at most ${MAX_LINES} different items`);
          await trx
            .insertInto("cart_lines")
            .values({
              id: newId(),
              workspace_id: workspaceId,
              cart_id: cartId,
              variant_id: variantId,
              quantity,
              title,
              seen_price: variant.price,
              created_at: isoNow(),
            })
            .execute();
          return quantity;
        })
        .finally(() => touch(cartId));
    },

    /** Sets a line's quantity; 0 removes it. */
    async setQuantity(cartId: string, variantId: string, quantity: number): Promise<void> {
      if (quantity === 0) {
        await db
          .deleteFrom("cart_lines")
          .where("workspace_id", "=", workspaceId)
          .where("cart_id", "=", cartId)
          .where("variant_id", "=", variantId)
          .execute();
      } else {
        await db
          .updateTable("cart_lines")
          .set({ quantity })
          .where("workspace_id", "=", workspaceId)
          .where("cart_id", "=", cartId)
          .where("variant_id", "=", variantId)
          .execute();
      }
      await touch(cartId);
    },

    /** The prices the customer has now been shown (after a "price changed" notice). */
    async acknowledgePrices(
      cartId: string,
      prices: ReadonlyArray<{ variantId: string; price: number }>,
    ): Promise<void> {
      for (const p of prices) {
        await db
          .updateTable("cart_lines")
          .set({ seen_price: p.price })
          .where("workspace_id", "=", workspaceId)
          .where("cart_id", "=", cartId)
          .where("variant_id", "=", p.variantId)
          .execute();
      }
    },

    async update(
      cartId: string,
      fields: Partial<
        Pick<
          Cart,
          "couponCode" | "email" | "name" | "phone" | "address" | "shippingRateId" | "paymentMethod" | "customerId"
        >
      >,
    ): Promise<void> {
      const set: Record<string, string | null> = { updated_at: isoNow() };
      if ("couponCode" in fields) set.coupon_code = fields.couponCode ? fields.couponCode.trim().toUpperCase() : null;
      if ("email" in fields) set.email = fields.email ?? null;
      if ("name" in fields) set.name = fields.name ?? null;
      if ("phone" in fields) set.phone = fields.phone ?? null;
      if ("address" in fields) set.address = fields.address ? JSON.stringify(fields.address) : null;
      if ("shippingRateId" in fields) set.shipping_rate_id = fields.shippingRateId ?? null;
      if ("paymentMethod" in fields) set.payment_method = fields.paymentMethod ?? null;
      if ("customerId" in fields) set.customer_id = fields.customerId ?? null;
      await db.updateTable("carts").set(set).where("workspace_id", "=", workspaceId).where("id", "=", cartId).execute();
    },

    /** How many items the cart holds (the header's count). */
    async count(cartId: string): Promise<number> {
      const row = await db
        .selectFrom("cart_lines")
        .select((eb) => eb.fn.sum<number>("quantity").as("n"))
        .where("workspace_id", "=", workspaceId)
        .where("cart_id", "=", cartId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

/** The request's cart on `site`, if its cookie names a live one. */
export async function cartOfRequest(request: Request, context: AppLoadContext, site: { id: string; slug: string }) {
  const secret = cartSecret(request, context, site.slug);
  const cart = await cartsOf(context.services.db, site.id).bySecret(secret);
  return cart;
}

/** The request's cart, or a new one (with the cookie to set) when it has none: adding to the cart does this. */
export async function cartForWriting(
  request: Request,
  context: AppLoadContext,
  site: { id: string; slug: string },
  customerId: string | null,
): Promise<{ cart: Cart; setCookie: string | null }> {
  const existing = await cartOfRequest(request, context, site);
  // A placed cart is finished: the next purchase starts a new one.
  if (existing && !existing.orderId) return { cart: existing, setCookie: null };
  const { cart, secret } = await cartsOf(context.services.db, site.id).create(customerId);
  return { cart, setCookie: cartCookie(context, site.slug, secret) };
}

export async function purgeExpiredCarts(db: Db): Promise<void> {
  await db.deleteFrom("carts").where("expires_at", "<", isoNow()).execute();
}
