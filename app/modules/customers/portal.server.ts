/**
 * What the portal's routes share: the origin a customer's e-mailed links point at, finishing a sign-in (the
 * session cookie and where to go next), and the answers every portal page gives (never cached).
 */
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { resolveSiteBySlug, type ResolvedSite } from "~/modules/access/site.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { lockedChrome, safeNext } from "~/modules/site-access/gate.server";
import { siteAccessOf } from "~/modules/site-access/visibility.server";
import { siteFrameOf } from "~/modules/sites/chrome.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import type { SiteChrome } from "~/site/chrome";
import { linkBase } from "~/modules/sites/address.server";
import type { Customer } from "./customers.server";
import { startCustomerSession } from "./sessions.server";

/** Portal answers are the visitor's own: no shared or browser cache keeps them. */
export const PRIVATE = { "Cache-Control": "private, no-store" } as const;

/**
 * The origin of links e-mailed from this request: the site's custom domain when the customer is on it (the
 * link must set its cookie there), else the deployment's public origin.
 */
export async function mailOrigin(request: Request, context: AppLoadContext): Promise<string> {
  if (context.request.siteHost) return new URL(request.url).origin;
  return publicOrigin(request, context);
}

/** Where a customer goes once signed in: the page they came from on this site, or their account. */
export function afterSignIn(context: AppLoadContext, slug: string, next: string | null | undefined): string {
  const home = `${linkBase(context, slug)}/account`;
  const target = safeNext(context, slug, next);
  const siteHome = linkBase(context, slug) || "/";
  return target === siteHome || target.endsWith("/login") ? home : target;
}

/** Signs `customer` in on the site (a fresh session cookie) and sends them on with a 303. */
export async function finishSignIn(
  context: AppLoadContext,
  request: Request,
  site: { id: string; slug: string },
  customer: Customer,
  next: string | null | undefined,
): Promise<Response> {
  const cookie = await startCustomerSession(context, request, site, customer.id);
  return redirect(afterSignIn(context, site.slug, next), {
    status: 303,
    headers: { "Set-Cookie": cookie, ...PRIVATE },
  });
}

/**
 * The site an e-mailed credential (a sign-in link, a manage link) belongs to, when this request may use it:
 * on a site's custom domain only that site's own. Undefined otherwise (the page says the link does not work).
 */
export async function siteOfCredential(
  context: AppLoadContext,
  workspaceId: string,
): Promise<ResolvedSite["workspace"] | undefined> {
  const { db } = context.services;
  if (context.request.siteHost && context.request.siteHost.workspaceId !== workspaceId) return undefined;
  const row = await db.selectFrom("workspaces").select("slug").where("id", "=", workspaceId).executeTakeFirst();
  const site = row ? await resolveSiteBySlug(db, row.slug) : null;
  return site?.workspace;
}

/**
 * The site's frame for a page outside `/{site}` (the link pages at `/auth/callback` and `/portal/callback`):
 * its brand and navigation, or its brand alone while the site is protected.
 */
export async function standaloneChrome(
  request: Request,
  context: AppLoadContext,
  workspace: ResolvedSite["workspace"],
): Promise<SiteChrome> {
  const access = await siteAccessOf(context.services.db, workspace.id).get();
  const protectedSite = access.visibility !== "public";
  const address = await publicAddressOf(request, context, workspace);
  const { chrome } = await siteFrameOf(context.services, workspace, address, protectedSite);
  return protectedSite ? lockedChrome(chrome) : chrome;
}
