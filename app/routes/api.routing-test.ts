// GET /api/routing-test[?path=/some/path][&site=slug] — how this request (or `path`) is routed.
import { contractFor } from "~/lib/access-contract.server";
import { apiRoute } from "~/lib/routes.server";
import { resolveSiteBySlug, resolveSiteOfApiRequest } from "~/modules/access/site.server";

export const loader = apiRoute({
  caller: "public",
  internal: true,
  GET: async ({ request, context }) => {
    const url = new URL(request.url);
    const path = url.searchParams.get("path") ?? url.pathname;
    const contract = contractFor(path);
    const { db } = context.services;
    // A page path names its site in its first segment; an API request by header or query. Both refuse a
    // suspended owner's site with the spec's 403, as the customer API does.
    const site =
      path.startsWith("/api/") || contract.caller === "operator"
        ? await resolveSiteOfApiRequest(db, request)
        : await resolveSiteBySlug(db, path.split("/")[1]);
    return Response.json(
      {
        host: url.host,
        protocol: url.protocol.replace(":", ""),
        clientIp: context.request.ip,
        requestId: context.request.id,
        path,
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
