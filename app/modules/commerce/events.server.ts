/**
 * The products event family (`/api/webhooks/products`, ADR 027 and 030): catalogue changes sent by an
 * integration (a stock system, a PIM, a script), applied through the catalogue's own functions — the ones the
 * console's Shop pages call — so each purges the shop's pages it changes in its transaction.
 *
 * - `products.saved` creates a product (`productId` null) or replaces one, whole, as the product editor saves it;
 * - `products.status` drafts, activates or archives several;
 * - `products.stock` sets a variant's stock on hand, named by its id or its SKU (an inventory sync);
 * - `products.deleted` deletes one (refused while an unpaid order holds it).
 */
import { z } from "zod";
import { defineEventFamily, eventEnvelope } from "~/modules/events/family";
import { MAX_STOCK, ProductInput, productsOf } from "./catalogue.server";
import { PRODUCT_STATUSES } from "./vocabulary";

const ref = z.string().min(1).max(64);
const ProductEvent = z.discriminatedUnion("type", [
  eventEnvelope("products.saved", z.object({ productId: ref.nullable(), product: ProductInput })),
  eventEnvelope(
    "products.status",
    z.object({ productIds: z.array(ref).min(1).max(100), status: z.enum(PRODUCT_STATUSES) }),
  ),
  eventEnvelope(
    "products.stock",
    z
      .object({
        variantId: ref.optional(),
        sku: z.string().min(1).max(100).optional(),
        stock: z.number().int().min(0).max(MAX_STOCK),
      })
      .refine((d) => !!d.variantId !== !!d.sku, "Name the variant by its id or its SKU, not both"),
  ),
  eventEnvelope("products.deleted", z.object({ productId: ref })),
]);

export const productsEvents = defineEventFamily({
  family: "products",
  schema: ProductEvent,
  tags: ["product", "shop"],
  describe: {
    summary: "Product catalogue changes (create or replace, status, stock, delete)",
    description:
      "`products.saved` creates (`productId: null`) or replaces a product whole: title, description, status, options " +
      "and variants (prices in minor units of the shop's currency). `products.status` sets several products' status. " +
      "`products.stock` sets one variant's stock on hand, by `variantId` or `sku`. `products.deleted` deletes one. " +
      "Another workspace's product, or an unknown one, is refused with 404 and changes nothing.",
    example: {
      type: "products.stock",
      workspace: "01JB6Z0000000000000000000",
      data: { sku: "HB-SOUR-800", stock: 24 },
    },
  },
  async apply(services, workspace, event) {
    const products = productsOf(services.db, workspace.id);
    switch (event.type) {
      case "products.saved":
        await products.save(event.data.productId, event.data.product, null);
        return;
      case "products.status": {
        const changed = await products.setStatus(event.data.productIds, event.data.status, null);
        if (changed === 0) await products.byId(event.data.productIds[0]!);
        return;
      }
      case "products.stock":
        await products.setStock({ variantId: event.data.variantId, sku: event.data.sku }, event.data.stock, null);
        return;
      case "products.deleted":
        await products.remove(event.data.productId, null);
        return;
    }
  },
});
