// POST /api/v1/bookings/{id}/checkout { paymentMethod? } — the provider's payment page for what the booking owes
// now (ADR 036): the deposit while it is held, then the rest of the price. The page already open for it is
// answered again; the customer comes back to the booking in the portal, which applies the payment (so does the
// provider's event, whichever comes first, once). Nothing owed, or a hold that ran out: 409.
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { mailOrigin } from "~/modules/customers/portal.server";
import { PRIVATE, bookingWrite } from "~/modules/scheduling/customer-api.server";
import { openBookingCheckout } from "~/modules/scheduling/payments.server";
import { linkBase } from "~/modules/sites/address.server";

const CheckoutInput = z.object({
  /** `stripe:card` or `paypal:wallet`; the first connected provider's when absent. */
  paymentMethod: z.string().max(40).nullish(),
});

const CheckoutOutput = z.object({
  checkoutUrl: z.string(),
  orderId: z.string(),
  kind: z.enum(["deposit", "balance"]),
  amount: z.number().int(),
  currency: z.string(),
});

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Pay a booking's deposit or balance",
    description: "Signed in as its customer, or with its manage token in the X-Atrium-Manage-Token header.",
    input: CheckoutInput,
    output: CheckoutOutput,
    errors: [400, 401, 403, 404, 409, 415, 503],
    idempotent: true,
    handle: async ({ request, params, context }) =>
      bookingWrite(request, context, "view", async ({ caller, actor, workspaceId }) => {
        const input = await readJson(request, CheckoutInput, context);
        const origin = await mailOrigin(request, context);
        const id = params.bookingId ?? "";
        const { workspace } = caller.site;
        const answer = await openBookingCheckout(context.services, workspaceId, id, actor, {
          paymentMethod: input.paymentMethod ?? null,
          origin,
          returnUrl: `${origin}${linkBase(context, workspace.slug)}/account/my-bookings?booking=${encodeURIComponent(id)}`,
          site: workspace.slug,
          brand: workspace.name,
        });
        return Response.json(answer, { headers: PRIVATE });
      }),
  },
});
export const action = loader;
