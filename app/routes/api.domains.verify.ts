// POST /api/domains/verify {hostname} — checks a claimed custom domain's DNS now and answers the verdict
// (admin): the same `domainsOf(...).check` as the console's "Check now". A name another workspace holds
// answers 409 with the message; its diagnostics are kept for GET.
// GET /api/domains/verify?hostname= — the last check's result, without asking DNS (admin).
import { z } from "zod";
import { conflict } from "~/lib/errors";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { domainsOf, type DomainView } from "~/modules/domains/domains.server";
import { invalid } from "~/lib/errors";

const NO_STORE = { "Cache-Control": "no-store" };
const VerifyInput = z.object({ hostname: z.string({ message: "Give the domain as hostname" }).max(300) });

const json = (domain: DomainView) => ({
  hostname: domain.hostname,
  status: domain.status,
  serving: domain.serving,
  primary: domain.primary,
  diagnostics: domain.diagnostics,
  records: domain.records,
  lastCheckedAt: domain.lastCheckedAt,
  nextCheckAt: domain.nextCheckAt,
  verifiedAt: domain.verifiedAt,
});

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "A custom domain's last verification result",
    errors: [400, 404],
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "admin", "api");
      const hostname = new URL(request.url).searchParams.get("hostname");
      if (!hostname) throw invalid("Give the domain as ?hostname=", [{ field: "hostname", message: "Required" }]);
      const domain = await domainsOf(context.services.customDomains, workspace.id).get(hostname);
      return Response.json(json(domain), { headers: NO_STORE });
    },
  },
  POST: {
    summary: "Check a custom domain's DNS records now",
    input: VerifyInput,
    errors: [400, 404, 409],
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "admin", "api");
      const { hostname } = await readJson(request, VerifyInput, context);
      const outcome = await domainsOf(context.services.customDomains, workspace.id).check(hostname);
      if (outcome.claimedElsewhere) {
        throw conflict(outcome.domain.diagnostics.find((d) => d.code === "claimed-elsewhere")!.message);
      }
      return Response.json(json(outcome.domain), { headers: NO_STORE });
    },
  },
});

export const action = loader;
