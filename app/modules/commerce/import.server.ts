/**
 * The catalogue's CSV import and export (ADR 030), in Shopify's product CSV format (`product-csv.ts`).
 *
 * Import: each product of the file is created, or updated when a product has its handle as its address — each
 * in its own transaction, so a product the catalogue refuses is left out whole and named with its line while
 * the others land. Images are fetched afterwards, one job per image, through the outbound guard (the URLs are
 * the file's, typed by whoever made it) into the files service: a slow or dead image host delays pictures,
 * never the import, and an image already fetched from that address is not fetched again.
 */
import { z } from "zod";
import type { AppServices } from "~/lib/context";
import type { Db } from "~db/client";
import { isDomainError } from "~/lib/errors";
import { mediaSrc } from "~/modules/files/media-urls";
import { mediaOf } from "~/modules/files/media.server";
import { filesOf } from "~/modules/files/files.server";
import { inspectUpload } from "~/modules/files/inspect.server";
import { enqueueJob, RetryableError, type JobHandler } from "~/modules/jobs/jobs.server";
import { OutboundError, outboundRequest } from "~/modules/outbound/outbound-http.server";
import { profileOf } from "~/modules/sites/profile.server";
import { productsOf, type ProductInput } from "./catalogue.server";
import { parseProductCsv, productsToCsv, type CsvProblem, type ExportableProduct } from "./product-csv";

export const IMPORT_IMAGE_JOB = "commerce.import-image";
const ImageJob = z.object({ productId: z.string(), src: z.string().url(), alt: z.string() });

export interface ImportResult {
  created: number;
  updated: number;
  images: number;
  problems: CsvProblem[];
}

export async function importProductCsv(
  db: Db,
  workspaceId: string,
  text: string,
  actorUserId: string | null,
): Promise<ImportResult> {
  const { currency } = await profileOf(db, workspaceId).get();
  const parsed = parseProductCsv(text, currency);
  const products = productsOf(db, workspaceId);
  const result: ImportResult = { created: 0, updated: 0, images: 0, problems: [...parsed.problems] };
  for (const p of parsed.products) {
    const existing = await db
      .selectFrom("products")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("slug", "=", p.handle)
      .executeTakeFirst();
    const before = existing ? await products.byId(existing.id) : null;
    const input: ProductInput = {
      title: p.title,
      slug: p.handle,
      description: p.descriptionMarkdown,
      vendor: p.vendor,
      productType: p.productType,
      tags: p.tags,
      status: p.status,
      seoTitle: p.seoTitle,
      seoDescription: p.seoDescription,
      options: p.options,
      variants: p.variants.map((v) => ({
        options: v.options,
        sku: v.sku,
        barcode: v.barcode,
        price: v.price,
        compareAtPrice: v.compareAtPrice,
        weightGrams: v.weightGrams,
        inventoryTracked: v.inventoryTracked,
        continueSelling: v.continueSelling,
        stock: v.inventoryQuantity,
        requiresShipping: v.requiresShipping,
        taxable: v.taxable,
      })),
      collectionIds: before?.collectionIds ?? [],
    };
    try {
      const saved = await products.save(existing?.id ?? null, input, actorUserId);
      if (existing) result.updated += 1;
      else result.created += 1;
      const known = new Set(saved.images.map((i) => i.sourceUrl));
      for (const image of p.images) {
        if (known.has(image.src)) continue;
        await enqueueJob(db, {
          kind: IMPORT_IMAGE_JOB,
          workspaceId,
          payload: { productId: saved.id, src: image.src, alt: image.alt },
          maxAttempts: 4,
        });
        result.images += 1;
      }
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const detail = error.detail.issues?.[0];
      result.problems.push({
        row: p.row,
        column: null,
        message: `“${p.title}” was not imported: ${detail ? `${detail.field}: ${detail.message}` : error.message}`,
      });
    }
  }
  result.problems.sort((a, b) => a.row - b.row);
  return result;
}

/** How many of a workspace's imported images are still to be fetched (the import page's progress). */
export async function imagesToFetch(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom("jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("workspace_id", "=", workspaceId)
    .where("kind", "=", IMPORT_IMAGE_JOB)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type ImageServices = Pick<AppServices, "db" | "env" | "fileStore" | "outbound">;

/** Fetches one imported image and attaches it to its product (once per address). */
export function importImageHandler(services: ImageServices): JobHandler {
  const { db } = services;
  return async (job) => {
    const workspaceId = job.workspace_id;
    if (!workspaceId) return;
    const payload = ImageJob.safeParse(JSON.parse(job.payload));
    if (!payload.success) return;
    const { productId, src, alt } = payload.data;
    const products = productsOf(db, workspaceId);
    const product = await products.find(productId);
    // Deleted meanwhile, or fetched by an earlier attempt: nothing to do.
    if (!product || product.images.some((i) => i.sourceUrl === src)) return;
    let bytes: Uint8Array;
    try {
      const response = await outboundRequest(
        { url: src, headers: { accept: "image/*" } },
        {
          ...services.outbound,
          maxResponseBytes: Math.max(services.outbound.maxResponseBytes, services.env.FILES_MAX_BYTES),
        },
      );
      bytes = new Uint8Array(response.bytes);
      await inspectUpload(bytes, services.env.FILES_MAX_BYTES);
    } catch (error) {
      if (error instanceof OutboundError && error.retryable) throw new RetryableError(error.message);
      // Refused (a private address), not an image, too large: the product keeps its other images.
      throw new Error(`The image ${src} could not be imported: ${(error as Error).message}`);
    }
    const filename = new URL(src).pathname.split("/").pop() || "image";
    const item = await filesOf(services, workspaceId).upload({ bytes, filename, alt });
    await products.addImage(productId, item.id, alt, src);
  };
}

/** The whole catalogue as Shopify's product CSV; images as absolute addresses on the site. */
export async function exportProductCsv(db: Db, workspaceId: string, siteOrigin: string, slug: string): Promise<string> {
  const { currency } = await profileOf(db, workspaceId).get();
  const products = productsOf(db, workspaceId);
  const ids = await db
    .selectFrom("products")
    .select("id")
    .where("workspace_id", "=", workspaceId)
    .orderBy("created_at")
    .limit(10_000)
    .execute();
  const rows: ExportableProduct[] = [];
  for (const { id } of ids) {
    const p = await products.byId(id);
    const media = await mediaOf(db, workspaceId).byIds(p.images.map((i) => i.fileId));
    const src = (fileId: string | null) => {
      const item = fileId ? media.get(fileId) : undefined;
      return item ? `${siteOrigin}${mediaSrc(`/${slug}`, item)}` : null;
    };
    rows.push({
      handle: p.slug,
      title: p.title,
      descriptionHtml: p.descriptionHtml,
      vendor: p.vendor,
      productType: p.productType,
      tags: p.tags,
      status: p.status,
      seoTitle: p.seoTitle,
      seoDescription: p.seoDescription,
      options: p.options,
      variants: p.variants.map((v) => ({
        options: v.options,
        sku: v.sku,
        price: v.price,
        compareAtPrice: v.compareAtPrice,
        weightGrams: v.weightGrams,
        inventoryTracked: v.inventoryTracked,
        inventoryQuantity: v.stock,
        continueSelling: v.continueSelling,
        requiresShipping: v.requiresShipping,
        taxable: v.taxable,
        barcode: v.barcode,
        imageSrc: src(p.images.find((i) => i.id === v.imageId)?.fileId ?? null),
      })),
      images: p.images.flatMap((i, n) => {
        const url = src(i.fileId);
        return url ? [{ src: url, position: n + 1, alt: i.alt }] : [];
      }),
    });
  }
  return productsToCsv(rows, currency);
}
