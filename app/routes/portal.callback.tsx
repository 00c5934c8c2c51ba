// /portal/callback?token=… — a manage link from an e-mail (ADR 029): it lets its holder act on one record without
// an account. The token moves into the site's manage cookie (out of the address bar and the history) and the
// visitor lands on the record's page. Unlike a sign-in link it is not spent by opening, so a mail scanner that
// fetches it takes nothing away. An unknown, expired or revoked link, or another site's on a custom domain, gets
// a page that says so.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { linkTokenOf } from "~/lib/link-tokens.server";
import { page } from "~/lib/routes.server";
import { manageCookie } from "~/modules/access/customer.server";
import { grantOfToken, touchManageToken } from "~/modules/customers/manage-tokens.server";
import { PRIVATE, siteOfCredential } from "~/modules/customers/portal.server";
import { linkBase } from "~/modules/sites/address.server";
import type { RouteHandle } from "~/ui/handle";
import siteCss from "~/styles/site.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteCss }];

/** The portal page of each kind of record a manage link can name. */
const RECORD_PAGES: Record<string, (id: string) => string> = {
  ticket: (id) => `/tickets/${encodeURIComponent(id)}`,
  order: (id) => `/orders/${encodeURIComponent(id)}`,
  booking: (id) => `/account/my-bookings?booking=${encodeURIComponent(id)}`,
};

export const loader = page(
  "customer",
  async ({ request, context }: LoaderFunctionArgs) => {
    const token = linkTokenOf(request);
    const grant = await grantOfToken(context.services.db, token);
    const site = grant ? await siteOfCredential(context, grant.workspaceId) : undefined;
    const recordPage = grant && RECORD_PAGES[grant.subjectType];
    if (!grant || !site || !recordPage) {
      context.request.log.failure = "authorization";
      return null;
    }
    await touchManageToken(context.services.db, token);
    throw redirect(`${linkBase(context, site.slug)}${recordPage(grant.subjectId)}`, {
      status: 303,
      headers: { "Set-Cookie": manageCookie(context, site.slug, token), ...PRIVATE, "Referrer-Policy": "no-referrer" },
    });
  },
  { unguarded: "where a guest with an e-mailed manage link obtains access to one record" },
);

export const headers: HeadersFunction = () => PRIVATE;

export const meta: MetaFunction = () => [
  { title: "This link no longer works" },
  { name: "robots", content: "noindex, nofollow" },
  { name: "referrer", content: "no-referrer" },
];

export default function ManageLinkExpired() {
  return (
    <main className="site-main site-message">
      <h1>This link no longer works</h1>
      <p>
        It may have expired, or the business may have replaced it with a newer one. Look for a more recent e-mail from
        them, or sign in on their site with your e-mail address to see everything you have with them.
      </p>
    </main>
  );
}
