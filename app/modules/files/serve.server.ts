/**
 * Serving a workspace's file on its site. The address names the bytes (`{sha256}.{ext}`) or a variant
 * (`{sha256}-{width}.webp`), so an answer never changes: `immutable`, a year, and the hash as ETag. A file
 * is served only on the site of a workspace that has it — the same bytes uploaded by another workspace are
 * not reachable through this one's site — and a variant only at a width pages ask for.
 */
import type { AppServices } from "~/lib/context";
import { forbidden } from "~/lib/errors";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";
import { extensionOf, variantWidths } from "./media-urls";
import { originalKey } from "./storage.server";
import { variantBytes } from "./variants.server";

const ADDRESS = /^([a-f0-9]{64})(?:-(\d{2,5}))?\.([a-z0-9]{2,5})$/;

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The answer for `/{siteSlug}/media/{name}`, or null for a 404. One query finds the site and the file
 * together (a media request is the commonest public request: it reads the database once, and not at all
 * for an address that cannot exist). A suspended owner's site is the spec's 403, as `resolveSiteBySlug`.
 */
export async function mediaFile(
  services: Pick<AppServices, "db" | "fileStore">,
  siteSlug: string,
  name: string,
  request: Request,
): Promise<Response | null> {
  const match = ADDRESS.exec(name);
  if (!match || !SLUG_PATTERN.test(siteSlug)) return null;
  const [, sha256 = "", widthText, ext] = match;
  const row = await services.db
    .selectFrom("workspaces")
    .innerJoin("users", "users.id", "workspaces.owner_user_id")
    .innerJoin("files", "files.workspace_id", "workspaces.id")
    .select(["files.content_type", "files.width", "users.status as owner_status"])
    .where("workspaces.slug", "=", siteSlug)
    .where("files.sha256", "=", sha256)
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  if (row.owner_status !== "active") throw forbidden();
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
