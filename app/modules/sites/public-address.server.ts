/**
 * The two addresses a public page needs (ADR 025), in one call for every public loader: the link base of this
 * request (`linkBase`: "" on the site's custom domain, else `/{slug}`) for the links and files the page
 * renders, and the site's final address (`siteAddressOf`: its verified primary domain, else this deployment's
 * origin and `/{slug}`) for canonical URLs, Open Graph URLs and structured data — the same on every host the
 * page is served on, so search engines see one address.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { LinkBase } from "~/lib/link-base";
import { resolveOrigin } from "~/modules/hosts/hosts.server";
import { linkBase, siteAddressOf } from "./address.server";

export interface PublicAddress {
  /** Prefix of every link and file the page renders: `/{slug}`, or "" on the site's own domain. */
  base: LinkBase;
  /** The final origin (no trailing slash): `https://{primary domain}`, or the deployment's public origin. */
  origin: string;
  /** The final base path: "" with a primary domain, else `/{slug}`. A canonical URL is origin + finalBase + path. */
  finalBase: LinkBase;
  /** The final origin is the request's own (development without PUBLIC_URL): the answer is `no-store`. */
  fromRequest: boolean;
}

export async function publicAddressOf(
  request: Request,
  context: AppLoadContext,
  workspace: { id: string; slug: string },
): Promise<PublicAddress> {
  const fallback = await resolveOrigin(request, context);
  // Never null with a fallback: only a caller outside a request (a job) can lack an origin.
  const address = (await siteAddressOf(context.services, workspace, fallback))!;
  return {
    base: linkBase(context, workspace.slug),
    origin: address.origin,
    finalBase: address.base,
    fromRequest: address.fromRequest,
  };
}
