// GET   /api/v1/profile — the signed-in customer's profile and notification settings (ADR 029).
// PATCH /api/v1/profile { name?, phone?, notifications?, marketingConsent? } — changes them.
// The customer is the site's session cookie or a customer bearer token; never an id from the body.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { customerWrite, requireCustomer } from "~/modules/access/customer.server";
import { ProfileOutput } from "~/modules/customers/api";
import { ProfileInput, ownProfile, updateOwnProfile } from "~/modules/customers/profile.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "The signed-in customer's profile",
    output: ProfileOutput,
    errors: [401],
    handle: async ({ request, context }) => {
      const { customer } = await requireCustomer(request, context);
      return Response.json(ownProfile(customer), { headers: NO_STORE });
    },
  },
  PATCH: {
    summary: "Change the signed-in customer's profile and notification settings",
    description:
      "Every field is optional; `notifications` may name some of its settings. A change of `marketingConsent` " +
      "records when and that it came through the API. The e-mail address changes only by a code sent to the new " +
      "address (the site's profile page).",
    input: ProfileInput,
    output: ProfileOutput,
    errors: [401],
    idempotent: true,
    handle: async ({ request, context }) => {
      return customerWrite(request, context, async ({ customer }) => {
        const input = await readJson(request, ProfileInput, context);
        const updated = await updateOwnProfile(context.services.db, customer, input, "api");
        return Response.json(ownProfile(updated), { headers: NO_STORE });
      });
    },
  },
});
export const action = loader;
