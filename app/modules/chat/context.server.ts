/**
 * The context a turn's tools run in (ADR 037): the workspace as the answers name it (its time zone and currency from
 * the business profile), the caller, the moment, and how to link — the site at its final address (its primary domain
 * when it has one), the console at the deployment's address. One builder for the token API's chat and the site's.
 */
import type { AppLoadContext } from "@remix-run/node";
import { now } from "~/lib/clock.server";
import { resolveOrigin } from "~/modules/hosts/hosts.server";
import { siteAddressOf, siteUrl } from "~/modules/sites/address.server";
import { rememberedProfile } from "~/modules/sites/profile.server";
import type { ChatCaller, ToolContext } from "./tools";

export async function toolContextFor(
  request: Request,
  context: AppLoadContext,
  workspace: { id: string; slug: string; name: string },
  caller: ChatCaller,
): Promise<ToolContext> {
  const { services } = context;
  const [profile, origin] = await Promise.all([
    rememberedProfile(services, workspace.id),
    resolveOrigin(request, context),
  ]);
  const address = await siteAddressOf(services, workspace, origin);
  const deployment = (services.env.PUBLIC_URL ?? origin.origin).replace(/\/$/, "");
  return {
    services,
    workspace: {
      id: workspace.id,
      slug: workspace.slug,
      name: workspace.name,
      timeZone: profile.timeZone,
      currency: profile.currency,
    },
    caller,
    at: now(),
    siteUrl: (path) => (address ? siteUrl(address, path) : `${origin.origin}/${workspace.slug}${path}`),
    // Public answers never link to the console: only an operator's do.
    consoleUrl: (path) => (caller.kind === "operator" ? `${deployment}${path}` : ""),
  };
}
