/**
 * A site's generated share image (ADR 022): what `/{site}/og-image?title=…` answers. Rendering costs tens of
 * milliseconds of CPU, so the PNG is cached in memory by its inputs (the theme's hash, the logo, the site's
 * name and the title): an LRU bounded by bytes, with concurrent requests for the same image sharing one render
 * and at most two renders running at once (a burst of new titles queues rather than taking every core; past
 * 64 waiting, or 8 of one site, a request is answered 503 with Retry-After rather than queued). Sites take
 * turns at the queue, and a client address may start only so many new renders a minute (the route asks the
 * rate-limit module's `ogImageThrottle`; cached images are free).
 */
import { createHash } from "node:crypto";
import type { Db } from "~db/client";
import { slugBase } from "~/lib/link-base";
import { originalKey, type BlobStore } from "~/modules/files/storage.server";
import { mediaSrc, type MediaItem } from "~/modules/files/media.server";
import { brandingOf } from "~/modules/sites/branding.server";
import { contrastRatio, textOn } from "~/modules/sites/contrast";
import { themeHref } from "~/modules/sites/theme.server";
import { rasteriseSvg, renderOgImage, type OgImageInput } from "./render.server";
import { ogImageVersion, ogTitle } from "./version";

/** Least recently used entries go first once the total passes `maxBytes`. */
export class ByteLru {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    if (value.byteLength > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.byteLength;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.bytes += value.byteLength;
    for (const [oldest, buffer] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= buffer.byteLength;
    }
  }

  get size(): number {
    return this.bytes;
  }
}

/** Thrown when more renders wait than the queue holds: a flood of new titles is refused, not queued forever. */
export class OgImageBusy extends Error {
  constructor() {
    super("Too many share images are being drawn at the moment");
  }
}

/**
 * A counting semaphore whose waiting requests queue per group (a site), served in turn: when a slot frees, the
 * next group in line gets it and goes to the back, so a site flooding its own queue delays itself, not the
 * others. Each group may have `maxWaitingPerGroup` waiting, and all of them together `maxWaiting`. A freed slot
 * is handed straight to the waiter it wakes, so a request arriving meanwhile cannot take it too.
 */
function limiter(max: number, maxWaiting: number, maxWaitingPerGroup: number) {
  let active = 0;
  let waiting = 0;
  // Insertion order is the turn order: a group served goes to the back.
  const queues = new Map<string, Array<() => void>>();
  const handOver = (): boolean => {
    const first = queues.entries().next();
    if (first.done) return false;
    const [group, queue] = first.value;
    queues.delete(group);
    const wake = queue.shift()!;
    if (queue.length) queues.set(group, queue);
    waiting--;
    wake();
    return true;
  };
  return async function run<T>(group: string, work: () => Promise<T>): Promise<T> {
    if (active < max) active++;
    else {
      const queue = queues.get(group) ?? [];
      if (waiting >= maxWaiting || queue.length >= maxWaitingPerGroup) throw new OgImageBusy();
      waiting++;
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        if (!queues.has(group)) queues.set(group, queue);
      });
    }
    try {
      return await work();
    } finally {
      if (!handOver()) active--;
    }
  };
}

export interface OgImageCacheRequest {
  /** Whose queue a render waits in (the site): one site's flood does not fill the queue for the others. */
  group: string;
  /**
   * Called before a render, never for a cached image or one already being drawn: throws to refuse it (the
   * per-address limit on new renders, so asking for cached images is free).
   */
  admit?: () => Promise<void>;
}

export interface OgImageCache {
  /** The PNG for `key`, rendering it (once, however many ask at the same time) when it is not cached. */
  get(key: string, render: () => Promise<Buffer>, request?: OgImageCacheRequest): Promise<Buffer>;
  /** How many renders have run (tests and the ADR's measurement read it). */
  readonly renders: number;
}

export function createOgImageCache(
  maxBytes: number,
  maxConcurrentRenders = 2,
  maxWaiting = 64,
  maxWaitingPerSite = 8,
): OgImageCache {
  const lru = new ByteLru(maxBytes);
  const inFlight = new Map<string, Promise<Buffer>>();
  const limit = limiter(maxConcurrentRenders, maxWaiting, maxWaitingPerSite);
  let renders = 0;
  return {
    get(key, render, request = { group: "" }) {
      const cached = lru.get(key);
      if (cached) return Promise.resolve(cached);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const made = (async () => {
        await request.admit?.();
        return limit(request.group, async () => {
          renders++;
          return render();
        });
      })()
        .then((png) => {
          lru.set(key, png);
          return png;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, made);
      return made;
    },
    get renders() {
      return renders;
    },
  };
}

/** One per process: 32 MB holds about a thousand images (a typical one is 25–40 kB). */
export const ogImages = createOgImageCache(32 * 1024 * 1024);

export interface OgImageAnswer {
  /** The PNG, from the cache or rendered now; `admit` is asked first when it has to be rendered. */
  png(admit?: () => Promise<void>): Promise<Buffer>;
  /** Strong: the hash of the inputs, so it is known before rendering (a 304 renders nothing). */
  etag: string;
  /** The `v=` the page head gives this site's images today. */
  version: string;
}

/**
 * The box an SVG logo is rasterised into: twice the 420×120 the image draws it at (render.server.ts's markup),
 * so it stays sharp, and never more (ADR 022).
 */
export const LOGO_BOX = { width: 840, height: 240 } as const;

export interface LogoRasters {
  /** The logo as satori can draw it: PNG and JPEG as they are, SVG rasterised once per file; else null. */
  of(store: BlobStore, logo: MediaItem | null): Promise<OgImageInput["logo"]>;
  /** How many SVGs have been rasterised (tests read it). */
  readonly rasterised: number;
}

/**
 * SVG logos rasterised once per file (by its sha256), not once per title: a site's every new title would
 * otherwise rasterise its logo again. An SVG that is refused or unreadable is remembered as "no logo" (an empty
 * entry), so it is not parsed again either.
 */
export function createLogoRasters(maxBytes: number): LogoRasters {
  const rasters = new ByteLru(maxBytes);
  let rasterised = 0;
  return {
    async of(store, logo) {
      if (!logo) return null;
      if (logo.contentType === "image/svg+xml") {
        let png = rasters.get(logo.sha256);
        if (!png) {
          const bytes = await store.get(originalKey(logo.sha256));
          if (!bytes) return null;
          try {
            rasterised++;
            png = rasteriseSvg(bytes, LOGO_BOX).png;
          } catch {
            // Refused (an absurd size) or unreadable: the image goes without a logo rather than failing.
            png = Buffer.alloc(0);
          }
          rasters.set(logo.sha256, png);
        }
        if (png.byteLength === 0) return null;
        // The size from the PNG's IHDR chunk (bytes 16–23): what was drawn, not what the SVG declared.
        const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
        return { dataUrl: `data:image/png;base64,${png.toString("base64")}`, width, height };
      }
      if ((logo.contentType !== "image/png" && logo.contentType !== "image/jpeg") || !logo.width || !logo.height) {
        return null;
      }
      const bytes = await store.get(originalKey(logo.sha256));
      if (!bytes) return null;
      return {
        dataUrl: `data:${logo.contentType};base64,${bytes.toString("base64")}`,
        width: logo.width,
        height: logo.height,
      };
    },
    get rasterised() {
      return rasterised;
    },
  };
}

/** One per process: a rasterised logo is a few to a few dozen kB. */
export const logoRasters = createLogoRasters(8 * 1024 * 1024);

/** The share image of a workspace's site with `rawTitle` (trimmed and cut to 120 characters, never refused). */
export async function ogImageOf(
  services: { db: Db; fileStore: BlobStore },
  workspace: { id: string; slug: string; name: string },
  rawTitle: string | null,
  cache: OgImageCache = ogImages,
  logos: LogoRasters = logoRasters,
): Promise<OgImageAnswer> {
  const brand = brandingOf(services.db, workspace.id);
  const branding = await brand.get();
  const { logo } = await brand.images(branding);
  const title = ogTitle(rawTitle) || workspace.name;
  const theme = themeHref(slugBase(workspace.slug), branding);
  const version = ogImageVersion(theme, logo ? mediaSrc(slugBase(workspace.slug), logo, 320) : null, workspace.name);
  const key = createHash("sha256")
    .update(JSON.stringify([theme, logo?.id ?? null, logo?.sha256 ?? null, workspace.name, title]))
    .digest("base64url")
    .slice(0, 32);
  const png = (admit?: () => Promise<void>) =>
    cache.get(
      key,
      async () =>
        renderOgImage({
          siteName: workspace.name,
          title,
          brand: branding.colors.brand,
          text: textOn(branding.colors.brand),
          // An accent too close to the background would draw nothing: then the text colour.
          accent:
            contrastRatio(branding.colors.accent, branding.colors.brand) >= 1.8
              ? branding.colors.accent
              : textOn(branding.colors.brand),
          logo: await logos.of(services.fileStore, logo),
        }),
      { group: workspace.id, admit },
    );
  return { png, etag: `"og-${key}"`, version };
}
