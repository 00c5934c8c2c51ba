/**
 * Enforcing a protected site (ADR 023). One question per request — may this visitor read this site? — asked
 * by the `$site` layout's loader (every page route under it), the media route, and the data requests of page
 * routes (entry.server.tsx), and answered here:
 *
 * - a public site, or a valid unlock cookie: yes. A protected site's answer is then marked private, so no
 *   shared cache keeps a page that only unlocked visitors may see (`isPrivateSiteAnswer`).
 * - otherwise: a 302 (`no-store`) to `{base}/unlock?next=<the path asked for>`; the unlock page itself is let
 *   through in a "locked" state, which shows the site's brand and none of its content.
 *
 * The site is always the one the request resolved to (by path, or by custom domain before routing): the
 * cookie carries no workspace id to trust.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { Db } from "~db/client";
import { now } from "~/lib/clock.server";
import { brandingOf } from "~/modules/sites/branding.server";
import { readSession } from "~/modules/auth/sessions.server";
import { findWorkspaceBySlug, workspaceOf } from "~/modules/tenancy/workspaces.server";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";
import { linkBase } from "~/modules/sites/address.server";
import type { SiteChrome } from "~/site/chrome";
import {
  UNLOCK_KEY_PURPOSE,
  signUnlock,
  unlockCookieHeader,
  unlockCookieValues,
  verifyUnlock,
} from "./unlock-cookie.server";
import { siteAccessOf } from "./visibility.server";

interface SiteRef {
  id: string;
  slug: string;
}

export type SiteGate =
  /** A public site: nothing to check. */
  | { state: "public" }
  /** A protected site, and this visitor holds a valid unlock cookie. */
  | { state: "unlocked" }
  /** A protected site, no valid cookie, on the unlock page itself (other paths were redirected). */
  | { state: "locked" };

/** Answers of a protected site: never kept by a shared cache (read by entry.server.tsx). */
const privateAnswers = new WeakSet<object>();

export const isPrivateSiteAnswer = (context: AppLoadContext): boolean => privateAnswers.has(context.request);

const unlockKey = (context: AppLoadContext) => context.services.secrets.deriveKey(UNLOCK_KEY_PURPOSE);

/** The path of the request as the visitor sees it: `/{slug}/about` here, `/about` on the site's own domain. */
function visiblePath(context: AppLoadContext, url: URL, slug: string): string {
  const base = linkBase(context, slug);
  const rest = url.pathname.slice(slug.length + 1);
  return `${base}${rest}` || "/";
}

/** `{base}/unlock` for this request: where the password form is. */
export const unlockPath = (context: AppLoadContext, slug: string) => `${linkBase(context, slug)}/unlock`;

/** Is `url` the site's unlock page? (The path Remix sees is always `/{slug}/…`, custom domain or not.) */
const isUnlockPage = (url: URL, slug: string) => url.pathname.replace(/\/+$/, "") === `/${slug}/unlock`;

/** Whether the request carries a valid unlock cookie for `site` at its current version. */
function holdsUnlock(context: AppLoadContext, request: Request, site: SiteRef, cookieVersion: number): boolean {
  const values = unlockCookieValues(request.headers.get("cookie"));
  if (values.length === 0) return false;
  const key = unlockKey(context);
  const at = now().getTime();
  return values.some((value) => verifyUnlock(key, value, site.id, cookieVersion, at));
}

/**
 * The gate of `site` for this request: throws the redirect to the unlock page when the site is protected and
 * the visitor has not unlocked it (except on the unlock page itself, answered `locked`).
 */
export async function siteGate(context: AppLoadContext, request: Request, site: SiteRef): Promise<SiteGate> {
  const access = await siteAccessOf(context.services.db, site.id).get();
  if (access.visibility === "public") return { state: "public" };
  privateAnswers.add(context.request);
  if (holdsUnlock(context, request, site, access.cookieVersion)) return { state: "unlocked" };
  const url = new URL(request.url);
  if (isUnlockPage(url, site.slug)) return { state: "locked" };
  context.request.log.failure = "authorization";
  throw lockedRedirect(context, url, site.slug);
}

/**
 * Whether this visitor may read `site`'s content outside a page (the site assistant, ADR 037): a public site, or a
 * protected one they unlocked. Unlike `siteGate` it redirects nowhere: an API answers the refusal itself.
 */
export async function siteIsOpenTo(context: AppLoadContext, request: Request, site: SiteRef): Promise<boolean> {
  const access = await siteAccessOf(context.services.db, site.id).get();
  return access.visibility === "public" || holdsUnlock(context, request, site, access.cookieVersion);
}

function lockedRedirect(context: AppLoadContext, url: URL, slug: string): Response {
  const next = `${visiblePath(context, url, slug)}${url.search}`;
  const location = `${unlockPath(context, slug)}?${new URLSearchParams({ next })}`;
  // 302, not 301 or 308: the page is there, only closed to this visitor for now.
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
}

/**
 * The gate for a page's data request (`/{slug}/about.data`). Remix lets such a request name the routes whose
 * loaders run (`?_routes=`), which can leave out the `$site` layout and its gate, so entry.server.tsx's
 * `handleDataRequest` asks here for every data request under a site: the redirect to the unlock page when
 * locked (replacing whatever the loaders answered), else null.
 */
export async function dataRequestGate(
  context: AppLoadContext,
  request: Request,
  slug: string | undefined,
): Promise<Response | null> {
  const site = slug && SLUG_PATTERN.test(slug) ? await findWorkspaceBySlug(context.services.db, slug) : undefined;
  if (!site) return null;
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  try {
    await siteGate(context, new Request(url, { headers: request.headers }), site);
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/**
 * The gate of a media file (`/{slug}/media/{name}`) of the site named `slug`, when that site exists: the
 * same as a page's, except that the site's logo and favicon stay open, as the unlock page shows them, and so
 * do all its files to a signed-in member of its workspace: the console's media library, page preview and
 * branding preview load their images from here. An answer of a protected site is made private
 * (`privateMedia`). Nothing to do for a slug that names no site: the media route answers its 404.
 */
export async function mediaGate(context: AppLoadContext, request: Request, slug: string, name: string): Promise<void> {
  const { db } = context.services;
  const site = SLUG_PATTERN.test(slug) ? await findWorkspaceBySlug(db, slug) : undefined;
  if (!site) return;
  try {
    await siteGate(context, request, site);
  } catch (thrown) {
    if (thrown instanceof Response && (await isBrandMark(db, site.id, name))) return;
    // Asked only when the gate refuses, so a public site's files (and an unlocked visitor's) cost no session read.
    if (thrown instanceof Response && (await isMemberOperator(context, request, site.id))) {
      context.request.log.failure = undefined;
      return;
    }
    throw thrown;
  }
}

/**
 * Whether the request carries a live operator session (the console's cookie, read as the operator guards
 * read it) of a member of `workspaceId`, whatever workspace the console has selected and whatever the role:
 * a viewer sees the same images in the console.
 */
async function isMemberOperator(context: AppLoadContext, request: Request, workspaceId: string): Promise<boolean> {
  const session = await readSession(request, context);
  if (!session) return false;
  return (await workspaceOf(context.services.db, workspaceId).roleOf(session.user.id)) !== undefined;
}

async function isBrandMark(db: Db, workspaceId: string, name: string): Promise<boolean> {
  const brand = brandingOf(db, workspaceId);
  const { logo, favicon } = await brand.images(await brand.get());
  // The original (`{sha256}.{ext}`) or one of its variants (`{sha256}-{width}.webp`).
  return [logo, favicon].some((item) => item && /^[a-f0-9]{64}/.exec(name)?.[0] === item.sha256);
}

/** A media answer of a protected site: the browser may keep it (it is immutable), a shared cache may not. */
export function privateMedia(context: AppLoadContext, answer: Response): Response {
  if (!isPrivateSiteAnswer(context)) return answer;
  const cacheControl = answer.headers.get("Cache-Control");
  if (cacheControl) answer.headers.set("Cache-Control", cacheControl.replace(/\bpublic\b/, "private"));
  return answer;
}

/**
 * Where to send a visitor once the site is open: `next` when it is a path of this site on this host (never
 * another origin, never another site's path, never the unlock page again), else the site's home page.
 */
export function safeNext(context: AppLoadContext, slug: string, next: string | null | undefined): string {
  const base = linkBase(context, slug);
  const home = base || "/";
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\s]/.test(next) || next.length > 2000) return home;
  let parsed: URL;
  try {
    parsed = new URL(next, "http://site.invalid");
  } catch {
    return home;
  }
  if (parsed.origin !== "http://site.invalid") return home;
  // The parser resolved dot segments: `/.//evil.example/` came in, `//evil.example/` came out, which a browser
  // reads as another host. What is checked is what is returned.
  const path = parsed.pathname;
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return home;
  const inSite = base === "" || path === base || path.startsWith(`${base}/`);
  if (!inSite || path.replace(/\/+$/, "") === `${base}/unlock`) return home;
  return `${path}${parsed.search}`;
}

/**
 * Whether the visitor reached us over https, as far as this server can know: the request's scheme (Express
 * takes X-Forwarded-Proto from a proxy TRUST_PROXY names, and Remix builds `request.url` from it), or, in
 * production, a PUBLIC_URL that is https (server.ts's HSTS rule): a TLS proxy that is not trusted, or sends
 * no X-Forwarded-Proto, still serves the deployment and its custom domains over https only.
 */
function reachedOverHttps(context: AppLoadContext, request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  const { env } = context.services;
  return env.production && (env.PUBLIC_URL?.startsWith("https:") ?? false);
}

export type UnlockResult = { ok: true; setCookie: string } | { ok: false };

/**
 * A visitor's password for `site`, through the per-address throttle (429 when spent, thrown as the rate-limit
 * domain error). Right: the Set-Cookie of a fresh unlock cookie, path-scoped to the site on this host.
 */
export async function unlockSite(
  context: AppLoadContext,
  request: Request,
  site: SiteRef,
  password: string,
): Promise<UnlockResult> {
  const { db, siteUnlockThrottle } = context.services;
  const attempt = await siteUnlockThrottle.begin(site.id, context.request.ip);
  const cookieVersion = await siteAccessOf(db, site.id).checkPassword(password);
  if (cookieVersion === null) return { ok: false };
  await attempt.succeeded();
  const value = signUnlock(unlockKey(context), site.id, cookieVersion, now().getTime());
  const setCookie = unlockCookieHeader(value, {
    path: linkBase(context, site.slug) || "/",
    secure: reachedOverHttps(context, request),
  });
  return { ok: true, setCookie };
}

/**
 * The frame of the unlock page for a visitor who has not unlocked: the site's name, logo and colours, and
 * nothing that is content (navigation, footer links, contact details, structured data).
 */
export function lockedChrome(chrome: SiteChrome): SiteChrome {
  return {
    ...chrome,
    navigation: [],
    footerLinks: [],
    policies: [],
    jsonLd: [],
    portal: false,
    shop: false,
    cartCount: null,
    assistant: null,
    socialImage: null,
    profile: { ...chrome.profile, tagline: "", addressLines: [], phone: "", email: "", hours: [], exceptions: [] },
  };
}
