// GET /api/routing-test[?path=/some/path | ?url=https://host/path][&site=slug] — how this request (or `path` on
// this request's host, or `url` on one of this deployment's hosts) is routed: which host kind answered (the
// deployment's, or a site's custom domain, ADR 025), the path Remix matches after the host's rewrite, the 301
// that applies instead if any, the site, caller and credential of that route, and `cache`: whether the page
// cache may keep that answer (or why not) and whether it holds one (ADR 026 "Diagnosis"). Only to an operator
// whose console session is a member of the site's workspace: the target, the page (its published title), the
// cache's key, hits, tags and what purges each (attacker review #1: the route is public). The method and cookies
// of this request stand for those of the one asked about. Throttled per client address.
import { contractFor } from "~/lib/access-contract.server";
import { invalid } from "~/lib/errors";
import { apiRoute } from "~/lib/routes.server";
import { resolveSiteBySlug, resolveSiteOfApiRequest } from "~/modules/access/site.server";
import { cookieName, readSession } from "~/modules/auth/sessions.server";
import { cookieNames, routingDiagnosis } from "~/modules/diagnosis/page-status.server";
import { routeHost } from "~/modules/hosts/routing.server";

export const loader = apiRoute({
  caller: "public",
  internal: true,
  GET: async ({ request, context }) => {
    const url = new URL(request.url);
    const { db, siteDomains, hosts, routingTestThrottle } = context.services;
    await routingTestThrottle.take(context.request.ip);
    const asked = url.searchParams.get("url");
    let host = url.host;
    let path = url.searchParams.get("path") ?? url.pathname;
    if (asked !== null) {
      let target: URL;
      try {
        target = new URL(asked);
      } catch {
        throw invalid("url must be an absolute http(s) URL");
      }
      if (!/^https?:$/.test(target.protocol)) throw invalid("url must be an absolute http(s) URL");
      if (!(await hosts.serves(target.host))) throw invalid(`${target.hostname} is not a host this deployment serves`);
      host = target.host;
      path = `${target.pathname}${target.search}`;
    }
    const route = await routeHost(siteDomains, host, path);
    const routed = route.url.split(/[?#]/)[0]!;
    const contract = contractFor(routed);
    // A page path names its site in its first segment (after the custom domain's rewrite); an API request by
    // its host, header or query. Each refuses a suspended owner's site with the spec's 403, as the customer
    // API does.
    const site =
      routed.startsWith("/api/") || contract.caller === "operator"
        ? await resolveSiteOfApiRequest(db, request, route.site ?? undefined)
        : await resolveSiteBySlug(db, routed.split("/")[1], route.site ? "host" : "path");
    const session = await readSession(request, context);
    // A signed-in operator's session cookie is who asks, not part of the request asked about: left out, so an
    // operator sees what an anonymous visitor gets (any other cookie still stands for the visitor's).
    const cookies = cookieNames(request.headers.get("cookie")).filter(
      (name) => !session || name !== cookieName(context),
    );
    const diagnosis = await routingDiagnosis(
      context.services,
      { host, pathWithQuery: path, method: request.method, cookies },
      session?.user.id ?? null,
    );
    return Response.json(
      {
        host,
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
        target: diagnosis.target,
        page: diagnosis.page,
        cache: diagnosis.cache,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});

export const action = loader;
