// /{site}/tickets — the signed-in customer's support requests (ADR 029): the list, newest activity first, and a
// form to open a new one. Requires the site's customer session; never cached.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { parseForm, runForm, type FormResult } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { NewTicketInput, ticketsOf } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { Field, FormNotice, PortalFrame, PortalPages, TicketList } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

const PAGE_SIZE = 20;

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const mine = ticketsOf(context.services.db, site.workspace.id).ofOwner({ customerId: customer.id });
  const paging = pageOf(request, PAGE_SIZE);
  const [tickets, total] = await Promise.all([mine.list(paging), mine.count()]);
  return {
    who: customer.name || customer.email,
    base: linkBase(context, site.workspace.slug),
    tickets,
    page: paging.page,
    pages: pageCount(total, PAGE_SIZE),
    opening: new URL(request.url).searchParams.has("new") || total === 0,
  };
});

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    const input = parseForm(NewTicketInput, values);
    const ticket = await ticketsOf(context.services.db, site.workspace.id).open(
      input,
      { customerId: customer.id, email: customer.email, name: customer.name },
      await publicOrigin(request, context),
    );
    context.services.jobRunner.wake();
    return redirect(`${linkBase(context, site.workspace.slug)}/tickets/${ticket.id}?opened=1`, {
      status: 303,
      headers: PRIVATE,
    });
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Support · ${chrome.name}` : "Support" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function Tickets() {
  const { who, base, tickets, page: current, pages, opening } = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  const answer = useActionData<FormResult>();
  const errors = answer?.fieldErrors ?? {};
  return (
    <PortalFrame base={base} current="/tickets" who={who}>
      <div className="portal__heading">
        <h1 className="portal__title">Support</h1>
        {opening || answer ? null : (
          <a className="site-button" href={`${base}/tickets?new=1#new-request`}>
            New request
          </a>
        )}
      </div>

      {opening || answer ? (
        <section className="portal-panel" id="new-request" aria-labelledby="new-heading">
          <h2 id="new-heading">Ask {chrome?.name ?? "us"} for help</h2>
          <FormNotice result={answer} />
          <form method="post" className="portal-form">
            <Field label="Subject" name="subject" error={errors.subject}>
              {(props) => <input {...props} maxLength={150} required />}
            </Field>
            <Field label="How can we help?" name="message" error={errors.message}>
              {(props) => <textarea {...props} rows={6} maxLength={10000} required />}
            </Field>
            <div className="portal-form__actions">
              <button type="submit" className="site-button">
                Send request
              </button>
              {tickets.length > 0 ? <a href={`${base}/tickets`}>Cancel</a> : null}
            </div>
          </form>
        </section>
      ) : null}

      {tickets.length === 0 ? (
        <p className="portal-empty">
          You have no support requests yet. Your requests and the answers will appear here.
        </p>
      ) : (
        <TicketList tickets={tickets} base={base} timeZone={timeZone} />
      )}
      <PortalPages href={`${base}/tickets`} current={current} pages={pages} label="Pages" />
    </PortalFrame>
  );
}
