/**
 * The brand import (the spec's "brand migration state"): given the address of the business's current website,
 * fetch its home page, find its logo, favicon, theme colour and social (Open Graph) image, download them into
 * the media library and apply them to the branding.
 *
 * Every request goes through the outbound guard (app/modules/outbound): the URL is typed by a user, so it is
 * an SSRF vector like any other — private addresses are refused unless OUTBOUND_ALLOW_PRIVATE (tests only; the
 * server warns in production), and only https: in production. Downloads go through the files service's upload
 * path, so an image is checked by its bytes (a page that claims a PNG and serves HTML is skipped) and an SVG is
 * sanitised.
 *
 * It runs as a job (`sites.brand-import`), so a slow site never holds a request open, and writes its progress
 * (0–100 and the step in words) to the branding row for the console to show. The job is at-least-once: a file
 * whose bytes the workspace already has is reused rather than uploaded twice, and applying what was found is a
 * plain overwrite, so a second run ends in the same state.
 */
import * as cheerio from "cheerio";
import { z } from "zod";
import type { Db } from "~db/client";
import type { AppServices } from "~/lib/context";
import { isoNow, now } from "~/lib/clock.server";
import { conflict, invalid, isDomainError } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { filesOf } from "~/modules/files/files.server";
import type { MediaItem } from "~/modules/files/media.server";
import { sha256Of } from "~/modules/files/storage.server";
import { enqueueJob, JobInterrupted, RetryableError, type Job, type JobControl } from "~/modules/jobs/jobs.server";
import { checkUrl, OutboundError, outboundRequest, type OutboundPolicy } from "~/modules/outbound/outbound-http.server";
import { inspectUpload } from "~/modules/files/inspect.server";
import { brandingOf, DEFAULT_BRANDING, FAVICON_TYPES, LOGO_TYPES, SOCIAL_IMAGE_TYPES } from "./branding.server";
import { normalizeHex } from "./contrast";
import type { BrandImportStatus } from "~db/schema";

export const BRAND_IMPORT_JOB = "sites.brand-import";

/** The only ports the import fetches from (the page, its redirects and its images) in production. */
const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

/** The time the whole import may take, in outbound timeouts (OUTBOUND_TIMEOUT_MS): the page's and 3 more. */
const IMPORT_TIMEOUTS = 4;

/** An import still "queued" or "running" after this long is taken as dead: a new one may start. */
const STALE_AFTER_MS = 10 * 60_000;

export interface BrandImportFound {
  title: string | null;
  themeColor: string | null;
  logoId: string | null;
  faviconId: string | null;
  socialImageId: string | null;
  /** What was found but not imported, and why, in the operator's words. */
  skipped: string[];
}

export interface BrandImportState {
  status: BrandImportStatus;
  url: string | null;
  progress: number;
  step: string | null;
  error: string | null;
  found: BrandImportFound | null;
  updatedAt: string | null;
}

export const BrandImportInput = z.object({
  url: z
    .string({ message: "Give the address of your current website" })
    .trim()
    .min(1, "Give the address of your current website")
    .max(2000, "That address is too long")
    .transform((v) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`)),
});

type ImportServices = Pick<AppServices, "db" | "env" | "fileStore" | "outbound"> &
  Partial<Pick<AppServices, "jobRunner">>;

function parseFound(value: string | null): BrandImportFound | null {
  if (!value) return null;
  try {
    return JSON.parse(value) as BrandImportFound;
  } catch {
    return null;
  }
}

/** One workspace's import: its state, and starting one. */
export function brandImportOf(services: ImportServices, workspaceId: string) {
  const { db } = services;
  const row = () =>
    db
      .selectFrom("site_branding")
      .select([
        "import_status",
        "import_url",
        "import_progress",
        "import_step",
        "import_error",
        "import_found",
        "import_updated_at",
      ])
      .where("workspace_id", "=", workspaceId);

  return {
    async state(): Promise<BrandImportState> {
      const r = await row().executeTakeFirst();
      return {
        status: r?.import_status ?? "none",
        url: r?.import_url ?? null,
        progress: r?.import_progress ?? 0,
        step: r?.import_step ?? null,
        error: r?.import_error ?? null,
        found: parseFound(r?.import_found ?? null),
        updatedAt: r?.import_updated_at ?? null,
      };
    },

    /**
     * Checks the address (syntax, scheme, no credentials: the outbound guard's own rules), refuses while another
     * import of this workspace is under way, and queues the job with the state it starts from, in one
     * transaction.
     */
    async start(actorUserId: string | null, input: unknown): Promise<BrandImportState> {
      const parsed = BrandImportInput.safeParse(input);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? "Give the address of your current website";
        throw invalid(message, [{ field: "url", message }]);
      }
      let url: string;
      try {
        url = checkUrl(parsed.data.url, services.outbound).href;
      } catch (error) {
        const message =
          error instanceof OutboundError
            ? `${error.message.replace(/\.$/, "")}. Give an address such as https://www.example.com`
            : "Give an address such as https://www.example.com";
        throw invalid(message, [{ field: "url", message }]);
      }
      const at = isoNow();
      const staleBefore = new Date(now().getTime() - STALE_AFTER_MS).toISOString();
      const busy = () =>
        conflict("An import is already under way; wait for it to finish", [
          { field: "url", message: "An import is already under way; wait for it to finish" },
        ]);
      await db.transaction().execute(async (trx) => {
        const state = {
          import_url: url,
          import_status: "queued" as const,
          import_progress: 0,
          import_step: "Waiting to start",
          import_error: null,
          import_found: null,
          import_updated_at: at,
        };
        const c = DEFAULT_BRANDING.colors;
        // The "one at a time" check is part of the write: the row is taken only if no fresh import holds it. A
        // check before the write would let two presses at once both pass it and queue two jobs.
        const taken = await trx
          .insertInto("site_branding")
          .values({
            workspace_id: workspaceId,
            brand_color: c.brand,
            accent_color: c.accent,
            background_color: c.background,
            text_color: c.text,
            heading_font: DEFAULT_BRANDING.headingFont,
            body_font: DEFAULT_BRANDING.bodyFont,
            corner_style: DEFAULT_BRANDING.corners,
            updated_at: at,
            ...state,
          })
          .onConflict((oc) =>
            oc
              .column("workspace_id")
              .doUpdateSet(state)
              .where((eb) =>
                eb.or([
                  eb("site_branding.import_status", "not in", ["queued", "running"]),
                  eb("site_branding.import_updated_at", "is", null),
                  eb("site_branding.import_updated_at", "<=", staleBefore),
                ]),
              ),
          )
          .executeTakeFirst();
        if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 0) throw busy();
        const jobId = await enqueueJob(trx, {
          kind: BRAND_IMPORT_JOB,
          payload: { workspaceId, url, actorUserId },
          workspaceId,
          maxAttempts: 3,
        });
        await trx
          .updateTable("site_branding")
          .set({ import_job_id: jobId })
          .where("workspace_id", "=", workspaceId)
          .execute();
        if (actorUserId) {
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "site.brand_import.started",
            actorUserId,
            detail: { url },
          });
        }
      });
      services.jobRunner?.wake();
      return this.state();
    },
  };
}

// --- Finding the brand in a page ----------------------------------------------------------------------------

export interface BrandCandidates {
  title: string | null;
  themeColor: string | null;
  logo: string[];
  favicon: string[];
  socialImage: string[];
}

function sizeOf(value: string | undefined): number {
  if (!value) return 0;
  if (value === "any") return 1000;
  return Math.max(0, ...value.split(/\s+/).map((s) => Number(s.split("x")[0]) || 0));
}

/**
 * Reads a home page's HTML (with cheerio) for the brand's parts, each as a list of absolute URLs, best first:
 * - logo: `[itemprop=logo]`, then images whose class, id, alt or file name says "logo" (in the header first),
 *   then the largest touch icon;
 * - favicon: `<link rel="icon">` by size (largest first), the touch icon, then `/favicon.ico`;
 * - social image: `og:image` (`og:image:secure_url`), `twitter:image`;
 * - theme colour: `<meta name="theme-color">` when it is a plain hex colour.
 */
export function findBrand(html: string, pageUrl: string): BrandCandidates {
  const $ = cheerio.load(html);
  const base = $("base[href]").attr("href");
  let baseUrl = pageUrl;
  try {
    if (base) baseUrl = new URL(base, pageUrl).href;
  } catch {
    /* a broken <base> is ignored */
  }
  const abs = (value: string | undefined): string | null => {
    if (!value || value.startsWith("data:")) return null;
    try {
      const url = new URL(value.trim(), baseUrl);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
    } catch {
      return null;
    }
  };
  const unique = (list: (string | null)[]) => [...new Set(list.filter((v): v is string => !!v))];

  const icons = $("link[rel]")
    .toArray()
    .map((el) => ({
      rel: ($(el).attr("rel") ?? "").toLowerCase().split(/\s+/),
      href: $(el).attr("href"),
      sizes: $(el).attr("sizes"),
    }))
    .filter((l) => l.href);
  const favicons = icons
    .filter((l) => l.rel.includes("icon"))
    .sort((a, b) => sizeOf(b.sizes) - sizeOf(a.sizes))
    .map((l) => abs(l.href));
  const touch = icons
    .filter((l) => l.rel.some((r) => r.startsWith("apple-touch-icon")))
    .sort((a, b) => sizeOf(b.sizes) - sizeOf(a.sizes))
    .map((l) => abs(l.href));

  const saysLogo = (el: Parameters<typeof $>[0]) => {
    const e = $(el);
    const words = [e.attr("class"), e.attr("id"), e.attr("alt"), e.attr("src")?.split("/").pop()]
      .join(" ")
      .toLowerCase();
    return words.includes("logo");
  };
  const logoImages = [
    ...$("[itemprop=logo]")
      .toArray()
      .map((el) => $(el).attr("src") ?? $(el).attr("content") ?? $(el).attr("href")),
    ...$("header img, [role=banner] img")
      .toArray()
      .filter(saysLogo)
      .map((el) => $(el).attr("src")),
    ...$("img")
      .toArray()
      .filter((el) => saysLogo(el) || $(el).parents("[class*=logo], [id*=logo]").length > 0)
      .map((el) => $(el).attr("src")),
    ...$("header a[href='/'] img, header img")
      .toArray()
      .slice(0, 1)
      .map((el) => $(el).attr("src")),
  ];

  const meta = (selector: string) => $(selector).attr("content");
  const themeColor = normalizeHex(meta("meta[name=theme-color]") ?? "") ?? null;
  const title = ($("meta[property='og:site_name']").attr("content") ?? $("title").first().text() ?? "").trim();

  return {
    title: title ? title.slice(0, 120) : null,
    themeColor,
    logo: unique([...logoImages.map(abs), ...touch]),
    favicon: unique([...favicons, ...touch, abs("/favicon.ico")]),
    socialImage: unique([
      abs(meta("meta[property='og:image:secure_url']")),
      abs(meta("meta[property='og:image']")),
      abs(meta("meta[name='twitter:image']")),
    ]),
  };
}

// --- The job ------------------------------------------------------------------------------------------------

const JobPayload = z.object({ workspaceId: z.string(), url: z.string(), actorUserId: z.string().nullable() });

function filenameOf(url: string, fallback: string): string {
  try {
    const last = new URL(url).pathname.split("/").pop();
    return last && /\.[a-z0-9]{2,5}$/i.test(last) ? decodeURIComponent(last).slice(0, 120) : fallback;
  } catch {
    return fallback;
  }
}

export function brandImportHandler(services: ImportServices) {
  const { db } = services;
  return async (job: Job, control: JobControl) => {
    const { workspaceId, url, actorUserId } = JobPayload.parse(JSON.parse(job.payload));
    try {
      await run(workspaceId, url, actorUserId, control);
    } catch (error) {
      // Stopping, or a retry to come: the state says so already. Anything else ends this import for good (the
      // job does not retry it), so the console must not go on showing it "running" until it is taken as stale.
      if (error instanceof JobInterrupted || error instanceof RetryableError) throw error;
      if (!control.leaseLost) await fail(db, workspaceId, `The import of ${url} stopped unexpectedly; try again`);
      throw error;
    }
  };

  async function run(workspaceId: string, url: string, actorUserId: string | null, control: JobControl) {
    const files = filesOf(services, workspaceId);

    const progress = async (percent: number, step: string, status: BrandImportStatus = "running") => {
      if (control.stopping || control.leaseLost) throw new JobInterrupted();
      await setState(db, workspaceId, {
        import_status: status,
        import_progress: percent,
        import_step: step,
        import_updated_at: isoNow(),
      });
    };
    // A page of HTML is capped by the outbound policy; an image may be as large as an upload may be.
    const pagePolicy: OutboundPolicy = services.outbound;
    // Websites are on the web's ports; any other (`https://host:22/`, or a redirect or an image there) would
    // make the import a port scanner of public hosts. Where private networks are allowed (tests, a developer's
    // machine) the sites are local servers on any port.
    const ports = services.outbound.allowPrivateNetworks ? undefined : WEB_PORTS;
    const imagePolicy: OutboundPolicy = {
      ...services.outbound,
      maxResponseBytes: Math.max(services.outbound.maxResponseBytes, services.env.FILES_MAX_BYTES),
    };

    // The whole import, page and images, gets a few outbound timeouts in all: an old site that answers every
    // image request slowly would otherwise hold a job for a timeout per candidate (a dozen or more of them).
    const deadline = Date.now() + IMPORT_TIMEOUTS * services.outbound.timeoutMs;
    await progress(5, `Fetching ${url}`);
    let html: string;
    let pageUrl: string;
    try {
      const response = await outboundRequest(
        { url, headers: { accept: "text/html,application/xhtml+xml" } },
        pagePolicy,
        { ports },
      );
      html = response.body;
      pageUrl = response.url;
    } catch (error) {
      const outbound = error instanceof OutboundError ? error : null;
      if (outbound?.retryable && !control.lastAttempt) {
        await progress(5, `Could not reach ${url} yet; trying again shortly`, "queued");
        throw new RetryableError(outbound.message);
      }
      await fail(db, workspaceId, describeFetchError(error, url));
      return;
    }

    await progress(25, "Looking for your logo, favicon, colours and social image");
    const candidates = findBrand(html, pageUrl);
    const found: BrandImportFound = {
      title: candidates.title,
      themeColor: candidates.themeColor,
      logoId: null,
      faviconId: null,
      socialImageId: null,
      skipped: [],
    };

    /** The first candidate that downloads and is accepted by the files service. */
    const download = async (what: string, urls: string[], types: ReadonlySet<string>): Promise<MediaItem | null> => {
      let reason: string | null = null;
      for (const candidate of urls.slice(0, 4)) {
        const remaining = deadline - Date.now();
        if (remaining < 100) {
          reason = "your current website took too long to answer";
          break;
        }
        try {
          const response = await outboundRequest(
            { url: candidate, headers: { accept: "image/*" } },
            { ...imagePolicy, timeoutMs: Math.min(imagePolicy.timeoutMs, remaining) },
            { ports },
          );
          const bytes = new Uint8Array(response.bytes);
          // Checked by its bytes before it is stored: a "logo" that is an .ico, or a page of HTML, is skipped.
          const { contentType } = await inspectUpload(bytes, services.env.FILES_MAX_BYTES);
          if (!types.has(contentType)) {
            reason = `it is ${contentType}, which cannot be used as a ${what}`;
            continue;
          }
          const existing = await db
            .selectFrom("files")
            .select("id")
            .where("workspace_id", "=", workspaceId)
            .where("sha256", "=", sha256Of(bytes))
            .executeTakeFirst();
          if (existing) {
            const item = await files.byId(existing.id);
            if (item) return item;
          }
          const item = await files.upload({ bytes, filename: filenameOf(response.url, what), actorUserId });
          return item;
        } catch (error) {
          if (error instanceof JobInterrupted) throw error;
          reason = isDomainError(error)
            ? error.message
            : error instanceof OutboundError
              ? error.message
              : "it could not be downloaded";
        }
      }
      if (urls.length === 0) found.skipped.push(`No ${what} was found on the page`);
      else if (reason) found.skipped.push(`The ${what} was not imported: ${reason}`);
      return null;
    };

    await progress(40, "Downloading your logo");
    found.logoId = (await download("logo", candidates.logo, LOGO_TYPES))?.id ?? null;
    await progress(60, "Downloading your favicon");
    found.faviconId = (await download("favicon", candidates.favicon, FAVICON_TYPES))?.id ?? null;
    await progress(80, "Downloading your social image");
    found.socialImageId = (await download("social image", candidates.socialImage, SOCIAL_IMAGE_TYPES))?.id ?? null;
    if (!candidates.themeColor) found.skipped.push("No theme colour was found on the page");

    await progress(92, "Applying what was found to your branding");
    const brand = brandingOf(db, workspaceId);
    const current = await brand.get();
    // What the import did not find keeps the current image — if that image still exists and still fits: one
    // deleted from the media library (or replaced by another kind of file) since would make the save refuse
    // the whole branding, and the import would end in an error that has nothing to do with the old site.
    const kept = await brand.images(current);
    const keep = (item: MediaItem | null, types: ReadonlySet<string>) =>
      item && types.has(item.contentType) ? item.id : null;
    const next = {
      logoId: found.logoId ?? keep(kept.logo, LOGO_TYPES),
      faviconId: found.faviconId ?? keep(kept.favicon, FAVICON_TYPES),
      socialImageId: found.socialImageId ?? keep(kept.socialImage, SOCIAL_IMAGE_TYPES),
      colors: { ...current.colors, brand: candidates.themeColor ?? current.colors.brand },
      headingFont: current.headingFont,
      bodyFont: current.bodyFont,
      corners: current.corners,
    };
    await brand.save(actorUserId, next);
    const imported = [
      found.logoId && "logo",
      found.faviconId && "favicon",
      candidates.themeColor && "brand colour",
      found.socialImageId && "social image",
    ].filter(Boolean);
    await setState(db, workspaceId, {
      import_status: "done",
      import_progress: 100,
      import_step: imported.length
        ? `Imported your ${listText(imported as string[])}`
        : "Nothing could be imported from that page",
      import_found: JSON.stringify(found),
      import_error: null,
      import_updated_at: isoNow(),
    });
    if (actorUserId) {
      await recordWorkspaceEvent(db, workspaceId, {
        action: "site.brand_import.finished",
        actorUserId,
        detail: { url, imported },
      });
    }
  }
}

function listText(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function describeFetchError(error: unknown, url: string): string {
  if (error instanceof OutboundError) {
    switch (error.kind) {
      case "refused":
        return `${url} cannot be fetched: ${error.message}`;
      case "timeout":
        return `${url} took too long to answer`;
      case "too_large":
        return `The page at ${url} is too large to read`;
      case "status":
        return `${url} answered with HTTP ${error.status ?? "an error"}`;
      default:
        return `${url} could not be reached: ${error.message}`;
    }
  }
  return `${url} could not be read`;
}

async function setState(
  db: Db,
  workspaceId: string,
  state: Partial<{
    import_status: BrandImportStatus;
    import_progress: number;
    import_step: string;
    import_error: string | null;
    import_found: string;
    import_updated_at: string;
  }>,
) {
  await db.updateTable("site_branding").set(state).where("workspace_id", "=", workspaceId).execute();
}

async function fail(db: Db, workspaceId: string, message: string) {
  await setState(db, workspaceId, {
    import_status: "failed",
    import_step: "The import stopped",
    import_error: message,
    import_updated_at: isoNow(),
  });
}
