// GET /api/routing-test[?path=/some/path][&site=slug] — how this request (or `path`) is routed: which host
// kind answered (the deployment's, or a site's custom domain, ADR 025), the path Remix matches after the
// host's rewrite, the 301 that applies instead if any, and the site, caller and credential of that route.
import { contractFor } from "~/lib/access-contract.server";
import { apiRoute } from "~/lib/routes.server";
import { resolveSiteBySlug, resolveSiteOfApiRequest } from "~/modules/access/site.server";
import { routeHost } from "~/modules/hosts/routing.server";

export const loader = apiRoute({
  caller: "public",
  internal: true,
  GET: async ({ request, context }) => {
    const url = new URL(request.url);
    const path = url.searchParams.get("path") ?? url.pathname;
    const { db, siteDomains } = context.services;
    const route = await routeHost(siteDomains, url.host, path);
    const routed = route.url.split(/[?#]/)[0]!;
    const contract = contractFor(routed);
    // A page path names its site in its first segment (after the custom domain's rewrite); an API request by
    // its host, header or query. Each refuses a suspended owner's site with the spec's 403, as the customer
    // API does.
    const site =
      routed.startsWith("/api/") || contract.caller === "operator"
        ? await resolveSiteOfApiRequest(db, request, route.site ?? undefined)
        : await resolveSiteBySlug(db, routed.split("/")[1], route.site ? "host" : "path");
    return Response.json(
      {
        host: url.host,
        kind: route.kind,
        protocol: url.protocol.replace(":", ""),
        clientIp: context.request.ip,
        requestId: context.request.id,
        path,
        rewrittenPath: route.redirect === null ? routed : null,
        redirect: route.redirect,
        site: site ? { slug: site.workspace.slug, name: site.workspace.name, via: site.via } : null,
        callerType: contract.caller,
        credential: contract.credential,
        route: context.request.log.route,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});

export const action = loader;
