// /settings/page-status — "Page status" (any member): for a public address of the selected workspace's site (its
// home page unless asked), how its host and path resolve, which page answers, whether the page cache keeps it
// and since when, its tags in words and what refreshes each (console pages, event families). "Refresh now"
// (admin) purges the address's tags; a save never needs it. The same diagnosis as /api/routing-test (ADR 026).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { invalid } from "~/lib/errors";
import { requireWorkspace } from "~/modules/access/operator.server";
import { pageStatusOf, refreshPage, siteHomeUrl, type UrlDiagnosis } from "~/modules/diagnosis/page-status.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { Field, FormMessage } from "~/ui/form";
import pageStatusCss from "~/styles/console-page-status.css?url";

export const meta: MetaFunction = () => [{ title: "Page status · Settings · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: pageStatusCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const origin = await publicOrigin(request, context);
  const home = await siteHomeUrl(context.services, workspace, origin);
  const asked = new URL(request.url).searchParams.get("url")?.trim() || home;
  return {
    home,
    siteName: workspace.name,
    canRefresh: roleAtLeast(role, "admin"),
    answer: await pageStatusOf(context.services, workspace, origin, asked.slice(0, 2000)),
  };
});

const RefreshForm = z.object({ url: z.string().trim().min(1, "Enter an address").max(2000) });

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const origin = await publicOrigin(request, context);
  return runForm(request, context, async (values): Promise<FormResult> => {
    const { url } = parseForm(RefreshForm, values);
    const answer = await pageStatusOf(context.services, workspace, origin, url);
    if (answer.state !== "answered" || !answer.diagnosis.site) throw invalid("That address is not a page of your site");
    const purged = await refreshPage(
      context.services.db,
      workspace.id,
      { userId: session.user.id, ip: context.request.ip },
      { url: answer.url, tags: answer.diagnosis.cache.tags },
    );
    return {
      ok: true,
      intent: "refresh",
      message: purged.length
        ? `Refreshed: the cache dropped what it kept under ${purged.length === 1 ? "this tag" : `these ${purged.length} tags`}; the next visit renders the page again.`
        : "Nothing to refresh: this address carries no tag of your site.",
    };
  });
});

const when = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

function Resolution({ d }: { d: UrlDiagnosis }) {
  return (
    <dl className="facts">
      <dt>Host</dt>
      <dd>
        <code>{d.host}</code> —{" "}
        {d.hostKind === "custom-domain" ? "a custom domain of the site" : "this deployment's own host"}
      </dd>
      {d.refused ? (
        <>
          <dt>Refused</dt>
          <dd>{d.refused} (400)</dd>
        </>
      ) : d.redirect ? (
        <>
          <dt>Redirect</dt>
          <dd>
            Answers 301 to <code>{d.redirect}</code>
          </dd>
        </>
      ) : (
        <>
          <dt>Path the app matches</dt>
          <dd>
            <code>{d.rewrittenPath}</code>
            {d.hostKind === "custom-domain" ? " (rewritten from the domain's path)" : null}
          </dd>
        </>
      )}
      <dt>Site</dt>
      <dd>{d.site ? d.site.name : d.movedTo ? `A former address: now ${d.movedTo}` : "No site"}</dd>
      {d.target ? (
        <>
          <dt>Answered by</dt>
          <dd>
            {d.page
              ? d.page.title === null
                ? `${d.target.kind === "home" ? "The home page" : "A page"}: a draft, not published`
                : `${d.target.kind === "home" ? "The home page" : "The page"} '${d.page.title}'`
              : d.target.kind === "page"
                ? "No page has this address: the site's 404"
                : d.target.label}
            {d.page ? (
              <>
                {" · "}
                <Link to={`/website/pages/${d.page.id}`}>Edit</Link>
              </>
            ) : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function CacheState({ d }: { d: UrlDiagnosis }) {
  const { cache } = d;
  return (
    <>
      <p
        className={`cache-verdict ${cache.cached ? "cached" : cache.cacheable ? "not-yet" : "bypass"}`}
        data-testid="cache-verdict"
      >
        <strong>{cache.cached ? "Cached" : cache.cacheable ? "Not cached right now" : "Not cached"}</strong>
        {" — "}
        {cache.cached
          ? "visitors get the stored copy until something it shows changes."
          : cache.cacheable
            ? "no visitor asked for it since it was last refreshed (or since the server started); the next visit renders and stores it."
            : cache.why}
      </p>
      {cache.cached ? (
        <dl className="facts">
          <dt>Rendered</dt>
          <dd>{cache.renderedAt ? when.format(new Date(cache.renderedAt)) : "—"}</dd>
          <dt>Kept until</dt>
          <dd>{cache.expiresAt ? when.format(new Date(cache.expiresAt)) : "—"} (or until a change purges it)</dd>
          <dt>Served from the cache</dt>
          <dd>
            {cache.hits} {cache.hits === 1 ? "time" : "times"}
          </dd>
        </dl>
      ) : null}
    </>
  );
}

function Refreshers({ d }: { d: UrlDiagnosis }) {
  const { cache } = d;
  if (cache.purgedBy.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="what-refreshes">
      <h2 id="what-refreshes">What refreshes it</h2>
      <p className="hint">
        {cache.tagsFrom === "cache"
          ? "The page shows these things (its tags, as the cache stored them). A change to any of them refreshes it at once:"
          : "The page is expected to show these things (its tags, once rendered). A change to any of them refreshes it at once:"}
      </p>
      <div className="table-scroll">
        <table className="refreshers">
          <thead>
            <tr>
              <th scope="col">Shows</th>
              <th scope="col">Saved in the console</th>
              <th scope="col">Or an event</th>
            </tr>
          </thead>
          <tbody>
            {cache.purgedBy.map((r) => (
              <tr key={r.tag}>
                <td data-label="Shows">
                  {r.label}
                  <br />
                  <code className="tag">{r.tag}</code>
                </td>
                <td data-label="Saved in the console">
                  {r.consolePages.length
                    ? r.consolePages.map((p, i) => (
                        <span key={p.path}>
                          {i ? ", " : null}
                          <Link to={p.path}>{p.label}</Link>
                        </span>
                      ))
                    : "—"}
                </td>
                <td data-label="Or an event">
                  {r.families.length
                    ? r.families.map((f, i) => (
                        <span key={f}>
                          {i ? ", " : null}
                          <code>{`/api/webhooks/${f}`}</code>
                        </span>
                      ))
                    : r.kind === "workspace"
                      ? "None: suspending the workspace, deleting it or changing its address"
                      : "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default function PageStatus() {
  const { home, siteName, canRefresh, answer } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const navigation = useNavigation();
  const refreshing = navigation.state !== "idle" && navigation.formData?.get("intent") === "refresh";
  const d = answer.state === "answered" ? answer.diagnosis : null;
  return (
    <>
      <h1>Page status</h1>
      <p className="page-intro">
        Is a page of {siteName}'s site showing something old? Ask about its address: how it is routed, whether visitors
        get a cached copy, and which saves or events refresh it.
      </p>
      <section className="panel" aria-labelledby="ask">
        <h2 id="ask">Address</h2>
        <Form method="get" className="ask-form">
          <Field
            label="Public address or path"
            name="url"
            defaultValue={answer.url}
            error={answer.state === "invalid" ? answer.message : undefined}
            hint={
              <>
                A full address, or a path of your site such as <code>/about</code>. Your home page is{" "}
                <code>{home}</code>.
              </>
            }
            autoComplete="off"
            required
          />
          <button type="submit">Check</button>
        </Form>
      </section>
      {answer.state === "other-site" ? (
        <div className="empty" data-testid="other-site">
          <h2>Another workspace's site</h2>
          <p>
            <code>{answer.url}</code> is {answer.siteName}'s site, not {siteName}'s. Switch to that workspace to see its
            status.
          </p>
        </div>
      ) : null}
      {d ? (
        <section className="panel" aria-labelledby="answer" data-testid="answer">
          <h2 id="answer">
            <code>{answer.url}</code>
          </h2>
          <Resolution d={d} />
          <CacheState d={d} />
          {!d.site && !d.movedTo ? (
            <p className="hint">
              Nothing of {siteName}'s site answers this address. Check for a typo, or start from the home page.
            </p>
          ) : null}
        </section>
      ) : null}
      {/* An answer the cache never keeps has nothing to refresh: its next request renders it anyway. */}
      {d && (d.cache.cacheable || d.cache.cached) ? <Refreshers d={d} /> : null}
      {d?.site && canRefresh && (d.cache.cacheable || d.cache.cached) && d.cache.tags.length ? (
        <section className="panel" aria-labelledby="refresh">
          <h2 id="refresh">Refresh now</h2>
          <p className="hint">
            Never needed after a save: every save in the console, the editor API and every signed event refreshes the
            pages it changes at once. Use this if a page still looks old, and tell us: it is a bug. It drops every
            cached page that shares this page's tags (with the whole-site tag, every page of the site); each renders
            again at its next visit.
          </p>
          {result?.intent === "refresh" || result?.message ? (
            <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
          ) : null}
          <Form method="post" action={`?url=${encodeURIComponent(answer.url)}`}>
            <input type="hidden" name="url" value={answer.url} />
            <button type="submit" name="intent" value="refresh" className="secondary" disabled={refreshing}>
              {refreshing ? "Refreshing…" : "Refresh now"}
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
