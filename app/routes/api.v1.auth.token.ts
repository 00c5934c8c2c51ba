// POST   /api/v1/auth/token { challengeId, code } — exchanges an e-mailed code for a customer access token of the
//        site (ADR 029): `Authorization: Bearer <token>` on its /api/v1 routes, never on another site's.
// DELETE /api/v1/auth/token — revokes the token the request presents (signing the app out).
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireCustomer, requireSite } from "~/modules/access/customer.server";
import { endCustomerToken, createCustomerSession } from "~/modules/customers/sessions.server";
import { customerAuthenticator } from "~/modules/customers/sign-in.server";

const TokenInput = z.object({ challengeId: z.string().max(64), code: z.string().max(16) });
const TokenOutput = z.object({
  accessToken: z.string(),
  tokenType: z.literal("Bearer"),
  expiresAt: z.string(),
});

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Exchange an e-mailed code for a customer access token",
    description:
      "A wrong code counts against the challenge (5 tries); the right one works once, within 15 minutes. The " +
      "customer is created where the site lets anyone sign up.",
    input: TokenInput,
    output: TokenOutput,
    status: 201,
    errors: [401],
    handle: async ({ request, context }) => {
      const site = await requireSite(request, context);
      const { challengeId, code } = await readJson(request, TokenInput, context);
      const customer = await customerAuthenticator(context, site.workspace).authenticate(
        "email-challenge",
        new Request(request.url, { method: "POST", body: new URLSearchParams({ challenge: challengeId, code }) }),
      );
      const { secret, expiresAt } = await createCustomerSession(
        context,
        request,
        site.workspace,
        customer.id,
        "bearer",
      );
      return Response.json(
        { accessToken: secret, tokenType: "Bearer", expiresAt: expiresAt.toISOString() },
        { status: 201, headers: { "Cache-Control": "no-store" } },
      );
    },
  },
  DELETE: {
    summary: "Revoke the customer access token this request presents",
    status: 204,
    errors: [401],
    handle: async ({ request, context }) => {
      const { site, session } = await requireCustomer(request, context);
      await endCustomerToken(context.services.db, site.workspace.id, session.id);
      return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    },
  },
});
export const action = loader;
