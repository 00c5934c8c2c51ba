// GET /api/internal/domains/ask?domain=x — Caddy's on-demand TLS `ask` (README "Custom domains and HTTPS"):
// 200 when this server serves x (a verified custom domain, or its own host name), 404 otherwise, so Caddy
// gets certificates only for names that are ours to serve.
import { z } from "zod";
import { apiRoute } from "~/lib/routes.server";
import { invalid } from "~/lib/errors";
import { requireAskCaller } from "~/modules/domains/ask.server";
import { isServedHostname } from "~/modules/domains/domains.server";
import { notFound } from "~/lib/errors";

const Domain = z.string().trim().min(1).max(253);

export const loader = apiRoute({
  caller: "internal",
  internal: true,
  GET: {
    summary: "Whether the reverse proxy may get a certificate for a host name",
    errors: [400, 403, 404],
    handle: async ({ request, context }) => {
      await requireAskCaller(request, context);
      const parsed = Domain.safeParse(new URL(request.url).searchParams.get("domain") ?? "");
      if (!parsed.success) throw invalid("Give the host name as ?domain=", [{ field: "domain", message: "Required" }]);
      const { siteDomains, customDomains } = context.services;
      if (!(await isServedHostname(siteDomains, customDomains.config, parsed.data))) {
        throw notFound(`${parsed.data} is not served here`);
      }
      return Response.json({ domain: parsed.data, served: true }, { headers: { "Cache-Control": "no-store" } });
    },
  },
});

export const action = loader;
