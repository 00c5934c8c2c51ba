/**
 * Serving a workspace's file on its site. The address names the bytes (`{sha256}.{ext}`) or a variant
 * (`{sha256}-{width}.webp`), so an answer never changes: `immutable`, a year, and the hash as ETag. A file
 * is served only on the site of a workspace that has it — the same bytes uploaded by another workspace are
 * not reachable through this one's site — and a variant only at a width pages ask for.
 */
import type { AppServices } from "~/lib/context";
import { extensionOf, variantWidths } from "./media.server";
import { originalKey } from "./storage.server";
import { variantBytes } from "./variants.server";

const ADDRESS = /^([a-f0-9]{64})(?:-(\d{2,5}))?\.([a-z0-9]{2,5})$/;

const IMMUTABLE = "public, max-age=31536000, immutable";

export async function mediaFile(
  services: Pick<AppServices, "db" | "fileStore">,
  workspaceId: string,
  name: string,
  request: Request,
): Promise<Response | null> {
  const match = ADDRESS.exec(name);
  if (!match) return null;
  const [, sha256 = "", widthText, ext] = match;
  const row = await services.db
    .selectFrom("files")
    .select(["content_type", "width"])
    .where("workspace_id", "=", workspaceId)
    .where("sha256", "=", sha256)
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const item = { contentType: row.content_type, width: row.width };
  const width = widthText === undefined ? undefined : Number(widthText);
  if (
    width === undefined ? ext !== extensionOf(item.contentType) : ext !== "webp" || !variantWidths(item).includes(width)
  ) {
    return null;
  }
  const etag = `"${sha256}${width ? `-${width}` : ""}"`;
  const headers: Record<string, string> = {
    "Cache-Control": IMMUTABLE,
    ETag: etag,
    "Content-Type": width ? "image/webp" : item.contentType,
    // (helmet adds X-Content-Type-Options: nosniff.) Opened on its own, an SVG is a document: it may draw, never run or load anything.
    "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  if (
    request.headers
      .get("if-none-match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  ) {
    return new Response(null, { status: 304, headers });
  }
  const bytes = width
    ? await variantBytes(services.fileStore, sha256, width)
    : await services.fileStore.get(originalKey(sha256));
  if (!bytes) return null;
  headers["Content-Length"] = String(bytes.byteLength);
  return new Response(new Uint8Array(bytes), { status: 200, headers });
}
