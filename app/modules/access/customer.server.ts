/**
 * The customer guards (ADR 005's `/api/v1/*` row and the portal pages; ADR 029).
 *
 * - `requireSite` — the customer API's site: the `X-Atrium-Site` header or the `site` query parameter, never the
 *   body; on a site's custom domain, the host (ADR 025). No site, or an unknown one: 404; a suspended owner's
 *   site: the spec's 403. Every `/api/v1/*` request is counted here, per client address and site (and per
 *   customer, once known), with the `X-RateLimit-*` headers on its answer.
 * - `requireCustomer` — the site plus a signed-in customer of that site: its session cookie, or an
 *   `Authorization: Bearer` token from the same sign-in. An unsafe request the cookie authenticates passes
 *   ADR 004's Origin check. None: 401.
 * - `requirePortalCustomer` — a portal page's customer: signed in on this site, or sent to its sign-in page
 *   and back. `portalVisitor` also lets in a guest holding a manage link for one record (`manage`).
 */
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { parse, serialize } from "cookie";
import { defineGuard } from "~/lib/callers.server";
import { now } from "~/lib/clock.server";
import { notFound, unauthenticated } from "~/lib/errors";
import { setResponseHeaders } from "~/lib/http.server";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import type { Customer } from "~/modules/customers/customers.server";
import { callerOf, idempotent } from "~/modules/customers/idempotency.server";
import { grantOfToken, type ManageGrant } from "~/modules/customers/manage-tokens.server";
import { readCustomerSession, type CustomerSession } from "~/modules/customers/sessions.server";
import { linkBase } from "~/modules/sites/address.server";
import { resolveSiteBySlug, resolveSiteOfApiRequest, siteOfPath, type ResolvedSite } from "./site.server";

async function countRequest(context: AppLoadContext, site: ResolvedSite, customerId: string | null) {
  const state = await context.services.customerThrottle
    .takeRequest(site.workspace.id, context.request.ip, customerId)
    .catch((error: unknown) => {
      setResponseHeaders(context, { "X-RateLimit-Remaining": "0" });
      throw error;
    });
  setResponseHeaders(context, {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(Math.floor(now().getTime() / 1000) + state.resetSeconds),
  });
}

async function siteOf(request: Request, context: AppLoadContext): Promise<ResolvedSite> {
  const site = await resolveSiteOfApiRequest(context.services.db, request, context.request.siteHost);
  if (!site) {
    context.request.log.failure = "missing-data";
    throw notFound("No site at that address: name it with the X-Atrium-Site header or the site query parameter");
  }
  return site;
}

export const requireSite = defineGuard(
  "customer",
  async function requireSite(request: Request, context: AppLoadContext): Promise<ResolvedSite> {
    const site = await siteOf(request, context);
    await countRequest(context, site, null);
    return site;
  },
);

export interface SignedInCustomer {
  site: ResolvedSite;
  customer: Customer;
  session: CustomerSession;
}

/** The signed-in customer of the request's site, if any (cookie or bearer), without counting the request. */
export async function customerOfSite(
  request: Request,
  context: AppLoadContext,
  site: ResolvedSite,
): Promise<CustomerSession | null> {
  const session = await readCustomerSession(context, request, site.workspace, { bearer: true });
  if (session?.kind === "cookie") assertSameOrigin(request, context);
  return session;
}

export const requireCustomer = defineGuard(
  "customer",
  async function requireCustomer(request: Request, context: AppLoadContext): Promise<SignedInCustomer> {
    const site = await siteOf(request, context);
    const session = await customerOfSite(request, context, site);
    await countRequest(context, site, session?.customer.id ?? null);
    if (!session) {
      context.request.log.failure = "authorization";
      throw unauthenticated("Sign in on this site to continue", "Bearer");
    }
    return { site, customer: session.customer, session };
  },
);

/**
 * A customer-API write by the signed-in customer, run under their `Idempotency-Key` when they send one (ADR 030):
 * a retry with the same key and body answers the first answer again instead of running twice.
 */
export async function customerWrite(
  request: Request,
  context: AppLoadContext,
  run: (caller: SignedInCustomer) => Promise<Response>,
): Promise<Response> {
  const caller = await requireCustomer(request, context);
  const scope = { workspaceId: caller.site.workspace.id, caller: callerOf(caller.customer, context) };
  return idempotent(request, context, scope, () => run(caller));
}

/**
 * For `/api/v1` routes open to everyone that do more for a signed-in customer (`POST /api/v1/contact`): the
 * site, counted, and its customer when the request carries one.
 */
export const siteWithOptionalCustomer = defineGuard(
  "customer",
  async function siteWithOptionalCustomer(
    request: Request,
    context: AppLoadContext,
  ): Promise<{ site: ResolvedSite; customer: Customer | null }> {
    const site = await siteOf(request, context);
    const session = await customerOfSite(request, context, site);
    await countRequest(context, site, session?.customer.id ?? null);
    return { site, customer: session?.customer ?? null };
  },
);

/** Who talks to a site's assistant (ADR 037): its signed-in customer, or an anonymous visitor's cookie (if any). */
export interface AssistantCaller {
  site: ResolvedSite;
  customer: Customer | null;
}

/**
 * The site assistant's routes (`/api/v1/{site}/chat/session…`): the site named by the path — on a custom domain, only
 * that domain's own — counted like every customer API request, with its signed-in customer when the request carries
 * one. Cookies authenticate these requests, so an unsafe one must come from the site's own pages (ADR 004).
 */
export const siteAssistantCaller = defineGuard(
  "customer",
  async function siteAssistantCaller(
    request: Request,
    context: AppLoadContext,
    slug: string | undefined,
  ): Promise<AssistantCaller> {
    const siteHost = context.request.siteHost;
    const site = siteHost && siteHost.slug !== slug ? null : await resolveSiteBySlug(context.services.db, slug, "path");
    if (!site) {
      context.request.log.failure = "missing-data";
      throw notFound("No site at that address");
    }
    assertSameOrigin(request, context);
    const session = await customerOfSite(request, context, site);
    await countRequest(context, site, session?.customer.id ?? null);
    return { site, customer: session?.customer ?? null };
  },
);

/** A portal page's site, by the path's slug (server.ts rewrote a custom domain's paths to it). */
const portalSite = (context: AppLoadContext, slug: string | undefined) => siteOfPath(context.services.db, slug);

/** `{base}/login?next=…`: where a visitor without a session is sent, to come back here after. */
function toSignIn(context: AppLoadContext, request: Request, slug: string): Response {
  const url = new URL(request.url);
  const base = linkBase(context, slug);
  const here = `${base}${url.pathname.slice(slug.length + 1)}${url.search}` || "/";
  context.request.log.failure = "authorization";
  return redirect(`${base}/login?${new URLSearchParams({ next: here })}`, {
    status: 302,
    headers: { "Cache-Control": "no-store" },
  });
}

export const requirePortalCustomer = defineGuard(
  "customer",
  async function requirePortalCustomer(
    request: Request,
    context: AppLoadContext,
    slug: string | undefined,
  ): Promise<SignedInCustomer> {
    const site = await portalSite(context, slug);
    const session = await readCustomerSession(context, request, site.workspace);
    if (!session) throw toSignIn(context, request, site.workspace.slug);
    return { site, customer: session.customer, session };
  },
);

/** The cookie that holds a guest's manage link on one site (set by `/portal/callback`). */
export function manageCookieName(context: AppLoadContext, slug: string): string {
  const name = context.request.siteHost ? "atrium_customer_manage" : `atrium_customer_manage_${slug}`;
  return context.services.env.cookieSecure ? `__Host-${name}` : name;
}

/** How long the manage cookie lasts in the browser: a day; the token's own expiry still rules. */
export const MANAGE_COOKIE_SECONDS = 86_400;

export function manageCookie(context: AppLoadContext, slug: string, token: string): string {
  return serialize(manageCookieName(context, slug), token, {
    httpOnly: true,
    sameSite: "lax",
    secure: context.services.env.cookieSecure,
    path: "/",
    maxAge: token ? MANAGE_COOKIE_SECONDS : 0,
  });
}

export type PortalVisitor =
  ({ kind: "customer" } & SignedInCustomer) | { kind: "guest"; site: ResolvedSite; grant: ManageGrant };

/**
 * A portal page about one record: its signed-in customer, or a guest whose manage link (held in the site's
 * manage cookie) names exactly this record. Anyone else is sent to sign in.
 */
export const portalVisitor = defineGuard(
  "customer",
  async function portalVisitor(
    request: Request,
    context: AppLoadContext,
    slug: string | undefined,
    record: { type: ManageGrant["subjectType"]; id: string },
  ): Promise<PortalVisitor> {
    const site = await portalSite(context, slug);
    const session = await readCustomerSession(context, request, site.workspace);
    if (session) return { kind: "customer", site, customer: session.customer, session };
    const token = parse(request.headers.get("cookie") ?? "")[manageCookieName(context, site.workspace.slug)];
    const grant = token ? await grantOfToken(context.services.db, token) : undefined;
    if (
      grant &&
      grant.workspaceId === site.workspace.id &&
      grant.subjectType === record.type &&
      grant.subjectId === record.id &&
      grant.actions.includes("view")
    ) {
      return { kind: "guest", site, grant };
    }
    throw toSignIn(context, request, site.workspace.slug);
  },
);

/** The header a guest's app or page sends the manage link's token in, for the one record it names. */
export const MANAGE_TOKEN_HEADER = "x-atrium-manage-token";

export interface RecordCaller {
  site: ResolvedSite;
  customer: Customer | null;
  /** A guest's manage link for one record of this site (the header, or the site's manage cookie). */
  grant: ManageGrant | null;
}

/**
 * For customer-API routes about one record a guest may hold a link to (a booking): the signed-in customer, or a
 * live manage token of this site from the `X-Atrium-Manage-Token` header or the manage cookie. Neither: 401. The
 * module still checks the record is theirs (another's is a 404).
 */
export const requireRecordCaller = defineGuard(
  "customer",
  async function requireRecordCaller(request: Request, context: AppLoadContext): Promise<RecordCaller> {
    const site = await siteOf(request, context);
    const session = await customerOfSite(request, context, site);
    await countRequest(context, site, session?.customer.id ?? null);
    if (session) return { site, customer: session.customer, grant: null };
    const token =
      request.headers.get(MANAGE_TOKEN_HEADER) ??
      parse(request.headers.get("cookie") ?? "")[manageCookieName(context, site.workspace.slug)];
    const grant = token ? await grantOfToken(context.services.db, token) : undefined;
    if (grant && grant.workspaceId === site.workspace.id) {
      // The cookie is ambient: a cross-site form must not spend it (the header cannot be sent across sites).
      if (!request.headers.get(MANAGE_TOKEN_HEADER) && request.method !== "GET") assertSameOrigin(request, context);
      return { site, customer: null, grant };
    }
    context.request.log.failure = "authorization";
    throw unauthenticated("Sign in on this site, or open the link in your confirmation e-mail", "Bearer");
  },
);
