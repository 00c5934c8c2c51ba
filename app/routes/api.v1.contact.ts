// POST /api/v1/contact?site={slug} (or X-Atrium-Site) — a visitor's message to the site's business, from the
// contact form (a form post: 303 back to the site's contact page) or from a script (JSON: 201); tied to the
// site's signed-in customer when the request carries their session.
import { linkBase } from "~/modules/sites/address.server";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { isDomainError, issuesOf } from "~/lib/errors";
import { readForm } from "~/lib/forms.server";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { siteWithOptionalCustomer } from "~/modules/access/customer.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { ContactMessageInput, contactMessagesOf } from "~/modules/contacts/messages.server";
import { CONTACT_HONEYPOT, contactFormAnswer, type ContactFormError } from "~/site/contact-form-state";

const ContactRequest = ContactMessageInput.extend({
  /** The form's trap for robots: hidden from people, so anything in it means the sender is not one. */
  [CONTACT_HONEYPOT]: z.string().max(2000).optional(),
});
const Received = z.object({ received: z.literal(true) });

const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Send a message to the site's business (the contact form)",
    description:
      "The site is named by the X-Atrium-Site header or the site query parameter, never the body. A form post " +
      "(application/x-www-form-urlencoded) is answered 303 to the site's contact page, with `sent=1` or the " +
      "refused fields; JSON is answered 201. An Idempotency-Key header makes a retry store nothing new. Limited " +
      "per client address and site (429 with Retry-After).",
    query: z.object({ site: z.string().optional() }),
    input: ContactRequest,
    output: Received,
    status: 201,
    errors: [400, 415, 429],
    handle: async ({ request, context }) => {
      const { site, customer } = await siteWithOptionalCustomer(request, context);
      const { db, contactThrottle } = context.services;
      const messages = contactMessagesOf(db, site.workspace.id);
      const idempotencyKey = request.headers.get("idempotency-key")?.trim().slice(0, 200) || undefined;
      const receive = async (input: z.output<typeof ContactRequest>) => {
        // A robot filled the hidden field: it is told its message went, and nothing is stored or counted.
        if (input[CONTACT_HONEYPOT]) return;
        // A retry of a message already stored (same Idempotency-Key) is answered as before without using up
        // the sender's allowance: a flaky connection must not turn one message into a 429.
        if (await messages.isRetry(idempotencyKey)) return;
        await contactThrottle.take(site.workspace.id, context.request.ip);
        await messages.receive(input, {
          idempotencyKey,
          notify: { origin: await publicOrigin(request, context) },
          // Tied to the signed-in customer of this site, when there is one (ADR 029); never to an id sent.
          customerId: customer?.id ?? null,
        });
        context.services.jobRunner.wake();
      };

      if (!FORM_TYPE.test(request.headers.get("content-type") ?? "")) {
        await receive(await readJson(request, ContactRequest, context));
        return Response.json({ received: true }, { status: 201, headers: { "Cache-Control": "no-store" } });
      }

      // A browser's form post: answered with the contact page (Post/Redirect/Get), which shows the outcome from
      // the query alone, so it stays the same cacheable page for everyone (nothing the visitor typed in it).
      const back = (answer: { sent: true } | { error: ContactFormError; fields?: string[] }) =>
        redirect(contactFormAnswer(linkBase(context, site.workspace.slug), answer), {
          status: 303,
          headers: { "Cache-Control": "no-store" },
        });
      const values = await readForm(request, context);
      const parsed = ContactRequest.safeParse(values);
      if (!parsed.success) {
        context.request.log.failure = "validation";
        return back({ error: "invalid", fields: [...new Set(issuesOf(parsed.error).map((i) => i.field))] });
      }
      try {
        await receive(parsed.data);
      } catch (error) {
        if (isDomainError(error) && error.kind === "rate-limited") {
          context.request.log.failure = "validation";
          return back({ error: "rate-limited" });
        }
        throw error;
      }
      return back({ sent: true });
    },
  },
});
export const action = loader;
