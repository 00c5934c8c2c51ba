// POST /api/v1/auth/code { email } — e-mails a sign-in code for the site (ADR 029), for a site's own app that
// signs customers in with `POST /api/v1/auth/token`. Answers the same whether or not the address has an account;
// throttled per e-mail and per client address.
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { callerOf, idempotent } from "~/modules/customers/idempotency.server";
import { requireSite } from "~/modules/access/customer.server";
import { CHALLENGE_MINUTES } from "~/modules/customers/limits";
import { mailOrigin } from "~/modules/customers/portal.server";
import { requestSignInCode } from "~/modules/customers/sign-in.server";

const CodeInput = z.object({ email: z.string().max(254) });
const CodeOutput = z.object({
  challengeId: z.string().describe("Send it back with the code to POST /api/v1/auth/token"),
  expiresInSeconds: z.number().int(),
});

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "E-mail a customer sign-in code",
    input: CodeInput,
    output: CodeOutput,
    status: 202,
    errors: [503],
    idempotent: true,
    handle: async ({ request, context }) => {
      const site = await requireSite(request, context);
      // A retry with the same key answers the first challenge instead of mailing a second code, which would
      // retire the first one the customer may already be typing.
      return idempotent(
        request,
        context,
        { workspaceId: site.workspace.id, caller: callerOf(null, context) },
        async () => {
          const { email } = await readJson(request, CodeInput, context);
          const sent = await requestSignInCode(
            context,
            site.workspace,
            { email },
            { origin: await mailOrigin(request, context) },
          );
          return Response.json(
            { challengeId: sent.challengeId, expiresInSeconds: CHALLENGE_MINUTES * 60 },
            { status: 202, headers: { "Cache-Control": "no-store" } },
          );
        },
      );
    },
  },
});
export const action = loader;
