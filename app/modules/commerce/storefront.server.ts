/**
 * What the storefront's pages show (ADR 030): the shop's list (a collection's or all active products, paged),
 * a product with its variants, images, stock state and JSON-LD `Product`/`Offer`, all with the cache tags that
 * a change to any of them purges. Plain data for the routes; prices stay integers until the page formats them.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { Db } from "~db/client";
import type { LinkBase } from "~/lib/link-base";
import { cacheTags } from "~/modules/cache/tags";
import { mediaOf } from "~/modules/files/media.server";
import type { PublicImage } from "~/modules/sites/blocks";
import { publicImage } from "~/modules/sites/pages.server";
import { collectionsOf, productsOf, type ProductDetail, type Variant } from "./catalogue.server";

export const SHOP_PAGE_SIZE = 24;

export interface ShopCard {
  id: string;
  slug: string;
  title: string;
  /** The lowest variant price, and whether the variants' prices differ ("from …"). */
  price: number;
  priceVaries: boolean;
  compareAtPrice: number | null;
  soldOut: boolean;
  image: PublicImage | null;
}

export type StockState = "in_stock" | "low" | "sold_out" | "backorder";

export function stockState(
  variant: Pick<Variant, "available" | "continueSelling" | "stock" | "reserved" | "inventoryTracked">,
): StockState {
  if (variant.available === null)
    return variant.inventoryTracked && variant.stock - variant.reserved <= 0 ? "backorder" : "in_stock";
  if (variant.available === 0) return "sold_out";
  return variant.available <= 5 ? "low" : "in_stock";
}

function card(
  p: { id: string; slug: string; title: string; variants: Variant[] },
  image: PublicImage | null,
): ShopCard {
  const prices = p.variants.map((v) => v.price);
  const cheapest = p.variants.reduce<Variant | undefined>(
    (best, v) => (!best || v.price < best.price ? v : best),
    undefined,
  );
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    price: cheapest?.price ?? 0,
    priceVaries: new Set(prices).size > 1,
    compareAtPrice: cheapest?.compareAtPrice ?? null,
    soldOut: p.variants.length > 0 && p.variants.every((v) => stockState(v) === "sold_out"),
    image,
  };
}

/**
 * Whether the shop has anything on sale (every page's header shows the cart link then): remembered until the
 * shop's tag is purged, as every product save, status change or deletion does (ADR 031).
 */
export function shopIsOpen(
  services: Pick<AppLoadContext["services"], "db" | "pageCache">,
  workspaceId: string,
): Promise<boolean> {
  return services.pageCache.remember(
    JSON.stringify(["shop-open", workspaceId]),
    [cacheTags.shop(workspaceId), cacheTags.workspace(workspaceId)],
    async () => (await productsOf(services.db, workspaceId).countActive()) > 0,
  );
}

export async function shopListing(
  db: Db,
  workspaceId: string,
  base: LinkBase,
  options: { collectionSlug: string | null; page: number },
) {
  const collections = await collectionsOf(db, workspaceId).list();
  const collection = options.collectionSlug ? collections.find((c) => c.slug === options.collectionSlug) : undefined;
  const products = productsOf(db, workspaceId);
  const offset = (options.page - 1) * SHOP_PAGE_SIZE;
  const [found, total] = await Promise.all([
    products.storefront({ collectionId: collection?.id, offset, size: SHOP_PAGE_SIZE }),
    products.countActive(collection?.id),
  ]);
  const media = await mediaOf(db, workspaceId).byIds(found.flatMap((p) => (p.image ? [p.image.fileId] : [])));
  const cards = found.map((p) => {
    const item = p.image ? media.get(p.image.fileId) : undefined;
    return card(p, item ? { ...publicImage(base, item, 640), alt: p.image?.alt || item.alt || p.title } : null);
  });
  return {
    collections: collections.filter((c) => c.products > 0).map((c) => ({ slug: c.slug, title: c.title })),
    collection: collection
      ? { slug: collection.slug, title: collection.title, description: collection.description }
      : null,
    unknownCollection: options.collectionSlug !== null && !collection,
    cards,
    total,
    pages: Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE)),
    tags: [
      cacheTags.shop(workspaceId),
      ...found.map((p) => cacheTags.product(workspaceId, p.id)),
      cacheTags.media(workspaceId),
    ],
  };
}

export interface ProductView {
  product: Omit<ProductDetail, "variants" | "images">;
  variants: Array<Variant & { state: StockState }>;
  images: PublicImage[];
  /** The image of each variant that has its own, by variant id. */
  variantImages: Record<string, PublicImage>;
  tags: string[];
}

export async function productView(
  db: Db,
  workspaceId: string,
  base: LinkBase,
  slug: string,
): Promise<ProductView | null> {
  const found = await productsOf(db, workspaceId).activeBySlug(slug);
  if (!found) return null;
  const media = await mediaOf(db, workspaceId).byIds(found.images.map((i) => i.fileId));
  const images: PublicImage[] = [];
  const byImageId = new Map<string, PublicImage>();
  for (const image of found.images) {
    const item = media.get(image.fileId);
    if (!item) continue;
    const view = { ...publicImage(base, item, 960), alt: image.alt || item.alt || found.title };
    images.push(view);
    byImageId.set(image.id, view);
  }
  const variantImages: Record<string, PublicImage> = {};
  for (const v of found.variants) {
    const image = v.imageId ? byImageId.get(v.imageId) : undefined;
    if (image) variantImages[v.id] = image;
  }
  const { variants, images: _images, ...product } = found;
  return {
    product,
    variants: variants.map((v) => ({ ...v, state: stockState(v) })),
    images,
    variantImages,
    tags: [cacheTags.product(workspaceId, found.id), cacheTags.media(workspaceId)],
  };
}

/**
 * `productView`, remembered until the product's tag (every save, stock change and order that takes or gives back
 * its stock purges it), the shop's or its images' is purged (ADR 031). A slug that finds nothing is remembered
 * under the shop's tag, which a new product, a rename or a status change purges.
 */
export function rememberedProductView(
  services: Pick<AppLoadContext["services"], "db" | "pageCache">,
  workspaceId: string,
  base: LinkBase,
  slug: string,
): Promise<ProductView | null> {
  const always = [cacheTags.shop(workspaceId), cacheTags.workspace(workspaceId), cacheTags.media(workspaceId)];
  return services.pageCache.remember(
    JSON.stringify(["product-view", workspaceId, base, slug]),
    (view) => (view ? [...view.tags, ...always] : always),
    () => productView(services.db, workspaceId, base, slug),
  );
}

const AVAILABILITY: Record<StockState, string> = {
  in_stock: "https://schema.org/InStock",
  low: "https://schema.org/LimitedAvailability",
  sold_out: "https://schema.org/OutOfStock",
  backorder: "https://schema.org/BackOrder",
};

/** schema.org `Product` with one `Offer` per variant (prices as decimals in the currency's units). */
export function productJsonLd(
  view: ProductView,
  url: string,
  currency: string,
  digits: number,
  origin: string,
  brand: string,
): Record<string, unknown> {
  const price = (minor: number) => (minor / 10 ** digits).toFixed(digits);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: view.product.title,
    description: view.product.seoDescription || undefined,
    url,
    image: view.images.map((i) => `${origin}${i.src}`),
    brand: { "@type": "Brand", name: view.product.vendor || brand },
    sku: view.variants.length === 1 ? (view.variants[0]!.sku ?? undefined) : undefined,
    offers: view.variants.map((v) => ({
      "@type": "Offer",
      name: v.title || undefined,
      sku: v.sku ?? undefined,
      price: price(v.price),
      priceCurrency: currency,
      availability: AVAILABILITY[v.state],
      url: view.variants.length > 1 ? `${url}?variant=${v.id}` : url,
    })),
  };
}
