// /{site}/tickets/{id} — one support request and its conversation (ADR 029): reply, or close it. Open to its
// customer (signed in on this site) or to a guest holding this ticket's manage link; another customer's ticket
// is a 404. Never cached.
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
import { page } from "~/lib/routes.server";
import { portalVisitor, type PortalVisitor } from "~/modules/access/customer.server";
import { assertGrants } from "~/modules/customers/manage-tokens.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { TicketBody, ticketsOf } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { linkBase } from "~/modules/sites/address.server";
import { z } from "zod";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { AuthCard, Field, FormNotice, PortalFrame, STATUS_LABELS, formatWhen } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

function ticketsFor(context: LoaderFunctionArgs["context"], visitor: PortalVisitor) {
  return ticketsOf(context.services.db, visitor.site.workspace.id).ofOwner(
    visitor.kind === "customer" ? { customerId: visitor.customer.id } : { ticketId: visitor.grant.subjectId },
  );
}

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const id = params.ticketId ?? "";
  const visitor = await portalVisitor(request, context, params.site, { type: "ticket", id });
  const { ticket, messages } = await ticketsFor(context, visitor).detail(id);
  const can = (action: "reply" | "close") => visitor.kind === "customer" || visitor.grant.actions.includes(action);
  return {
    ticket,
    messages,
    base: linkBase(context, visitor.site.workspace.slug),
    guest: visitor.kind === "guest",
    who: visitor.kind === "customer" ? visitor.customer.name || visitor.customer.email : ticket.email,
    canReply: can("reply"),
    canClose: can("close"),
    opened: new URL(request.url).searchParams.has("opened"),
  };
});

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const id = params.ticketId ?? "";
  const visitor = await portalVisitor(request, context, params.site, { type: "ticket", id });
  const mine = ticketsFor(context, visitor);
  const back = `${linkBase(context, visitor.site.workspace.slug)}/tickets/${id}`;
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    if (values.intent === "close") {
      if (visitor.kind === "guest") assertGrants(visitor.grant, "close");
      await mine.close(id);
      return redirect(back, { status: 303, headers: PRIVATE });
    }
    if (visitor.kind === "guest") assertGrants(visitor.grant, "reply");
    const { body } = parseForm(z.object({ body: TicketBody }), values);
    await mine.reply(id, body, await publicOrigin(request, context));
    context.services.jobRunner.wake();
    return redirect(`${back}#latest`, { status: 303, headers: PRIVATE });
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  const title = data ? `#${data.ticket.number} ${data.ticket.subject}` : "Support request";
  return [{ title: chrome ? `${title} · ${chrome.name}` : title }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function TicketPage() {
  const data = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const answer = useActionData<FormResult>();
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  const { ticket, messages } = data;
  const conversation = (
    <>
      <p className="portal-back">{data.guest ? null : <a href={`${data.base}/tickets`}>← All requests</a>}</p>
      <div className="portal__heading">
        <h1 className="portal__title">
          <span className="portal-muted">#{ticket.number}</span> {ticket.subject}
        </h1>
        <span className={`portal-status portal-status--${ticket.status}`}>{STATUS_LABELS[ticket.status]}</span>
      </div>
      {data.opened ? (
        <p className="portal-notice portal-notice--ok" role="status">
          Your request is sent. {chrome?.name ?? "The business"} will answer here and by e-mail.
        </p>
      ) : null}
      <ol className="portal-thread" aria-label="Conversation">
        {messages.map((m, i) => (
          <li
            key={m.id}
            id={i === messages.length - 1 ? "latest" : undefined}
            className={`portal-message portal-message--${m.author}`}
          >
            <p className="portal-message__meta">
              <strong>{m.author === "customer" ? "You" : (chrome?.name ?? "The business")}</strong>{" "}
              <span className="portal-muted">{formatWhen(m.createdAt, timeZone)}</span>
            </p>
            <p className="portal-message__body">{m.body}</p>
          </li>
        ))}
      </ol>
      {data.canReply ? (
        <section className="portal-panel" aria-labelledby="reply-heading">
          <h2 id="reply-heading">{ticket.status === "closed" ? "Write again to reopen it" : "Reply"}</h2>
          <FormNotice result={answer} />
          <form method="post" className="portal-form">
            <Field label="Your message" name="body" error={answer?.fieldErrors?.body}>
              {(props) => <textarea {...props} rows={5} maxLength={10000} required />}
            </Field>
            <div className="portal-form__actions">
              <button type="submit" name="intent" value="reply" className="site-button">
                Send reply
              </button>
            </div>
          </form>
          {data.canClose && ticket.status !== "closed" ? (
            <form method="post" className="portal-close">
              <p className="portal-muted">
                Solved?{" "}
                <button type="submit" name="intent" value="close" className="portal__link-button">
                  Close this request
                </button>
              </p>
            </form>
          ) : null}
        </section>
      ) : null}
    </>
  );
  if (data.guest) {
    return (
      <AuthCard title="Your support request">
        <div className="portal-guest">{conversation}</div>
        <p className="portal-card__fine">
          You opened this page with a link from an e-mail. <a href={`${data.base}/login`}>Sign in</a> to see all your
          requests.
        </p>
      </AuthCard>
    );
  }
  return (
    <PortalFrame base={data.base} current="/tickets" who={data.who}>
      {conversation}
    </PortalFrame>
  );
}
