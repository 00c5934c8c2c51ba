// /discovery/indexnow — IndexNow (ADR 022): on/off, the site's key and its key file, a new key (asked first),
// and the recent submissions with their outcome. Every member sees it; editors change it. The editor API's
// /api/editor/discovery/seo/indexnow calls the same module functions.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { indexNowOf, indexNowView, type SubmissionStatus } from "~/modules/discovery/indexnow.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import consoleIndexNowCss from "~/styles/console-indexnow.css?url";
import { ConfirmForm } from "~/ui/confirm-form";
import { FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import { DISCOVERY_TABS, SectionTabs } from "~/ui/section-tabs";

export const meta: MetaFunction = () => [{ title: "IndexNow · Discovery · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleIndexNowCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const view = await indexNowView(request, context, workspace);
  return {
    canEdit: roleAtLeast(role, "editor"),
    enabled: view.enabled,
    key: view.key,
    keyUrl: view.keyUrl,
    siteBase: view.keyUrl.replace(/\/indexnow$/, ""),
    submissionsSkipped: view.submissionsSkipped,
    submissions: view.submissions.items,
    page: view.submissions.page,
    pages: view.submissions.pages,
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "editor");
  const repo = indexNowOf(context.services.db, workspace.id);
  return runForm(request, context, async (values): Promise<FormResult> => {
    const current = await repo.settings();
    switch (values.intent) {
      case "enable":
        await repo.update(session.user.id, { enabled: true });
        return { ok: true, intent: "enable", message: "IndexNow is on: your next publish is sent within seconds." };
      case "disable":
        await repo.update(session.user.id, { enabled: false });
        return { ok: true, intent: "disable", message: "IndexNow is off: nothing more is submitted." };
      case "regenerate":
        await repo.update(session.user.id, { enabled: current.enabled, regenerateKey: true });
        return { ok: true, intent: "regenerate", message: "A new key is in place; the old one stopped working." };
      default:
        throw invalid("Unknown action");
    }
  });
});

const STATUS_LABEL: Record<SubmissionStatus, string> = {
  queued: "Waiting",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  skipped: "Skipped",
};

const when = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

export default function IndexNowPage() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const { canEdit, enabled, key, keyUrl, siteBase } = data;
  // A queued row holds site paths (`""` is the home page); a sent one, the absolute URLs it sent.
  const shown = (url: string) => (/^https?:/.test(url) ? url : `${siteBase}${url}` || "/");
  return (
    <>
      <h1>Discovery</h1>
      <SectionTabs label="Discovery" tabs={DISCOVERY_TABS} />
      <p className="page-intro">
        IndexNow tells Bing, Yandex, Seznam, Naver and other search engines that take part the moment you publish,
        unpublish or change your home page, so they look at those pages again within minutes instead of weeks. Google
        does not take part: it reads your sitemap.
      </p>
      {result?.message ? <FormMessage message={result.message} tone={result.ok ? "success" : "error"} /> : null}

      <section className="panel indexnow-settings" aria-labelledby="indexnow-status">
        <h2 id="indexnow-status">
          IndexNow <span className={`status-tag ${enabled ? "on" : "off"}`}>{enabled ? "On" : "Off"}</span>
        </h2>
        {enabled && key ? (
          <>
            <dl className="indexnow-key">
              <dt>Your key</dt>
              <dd>
                <code data-testid="indexnow-key">{key}</code>
              </dd>
              <dt>Key file</dt>
              <dd>
                <a href={keyUrl}>{keyUrl}</a>
                <p className="hint">Search engines read your key there to check that submissions come from you.</p>
              </dd>
            </dl>
            {data.submissionsSkipped ? (
              <p className="form-message error" role="status">
                Your site has no public address yet, so submissions are skipped: set <code>PUBLIC_URL</code> to this
                server's public address (or verify a custom domain) and they are sent.
              </p>
            ) : null}
            {canEdit ? (
              <div className="indexnow-actions">
                <ConfirmForm
                  confirm="Generate a new key? The current key stops working at once; search engines pick up the new one with your next submission."
                  fields={{ intent: "regenerate" }}
                >
                  <button type="submit" className="secondary">
                    Generate a new key
                  </button>
                </ConfirmForm>
                <Form method="post">
                  <input type="hidden" name="intent" value="disable" />
                  <button type="submit" className="secondary">
                    Turn off IndexNow
                  </button>
                </Form>
              </div>
            ) : null}
          </>
        ) : (
          <>
            <p>
              Off: search engines find your changes when they next crawl your site.
              {canEdit ? " Turning it on creates your site's key and its key file." : ""}
            </p>
            {canEdit ? (
              <Form method="post">
                <input type="hidden" name="intent" value="enable" />
                <button type="submit">Turn on IndexNow</button>
              </Form>
            ) : (
              <p className="hint">Only editors and admins can turn it on.</p>
            )}
          </>
        )}
      </section>

      <section className="panel" aria-labelledby="indexnow-submissions">
        <h2 id="indexnow-submissions">Recent submissions</h2>
        {data.submissions.length === 0 ? (
          <p className="empty">
            {enabled
              ? "Nothing submitted yet. Publish a page and it is sent within a few seconds."
              : "Nothing submitted yet. Turn IndexNow on, then publish a page."}
          </p>
        ) : (
          <div className="table-scroll">
            <table className="indexnow-submissions">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Status</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Response</th>
                </tr>
              </thead>
              <tbody>
                {data.submissions.map((s) => (
                  <tr key={s.id} data-status={s.status}>
                    <td data-label="When">{when.format(new Date(s.createdAt))}</td>
                    <td data-label="Status">
                      <span className={`status-tag ${s.status}`}>{STATUS_LABEL[s.status]}</span>
                    </td>
                    <td data-label="Pages">
                      <details>
                        <summary>{s.urls.length === 1 ? "1 page" : `${s.urls.length} pages`}</summary>
                        <ul>
                          {s.urls.map((url) => (
                            <li key={url}>{shown(url)}</li>
                          ))}
                        </ul>
                      </details>
                    </td>
                    <td data-label="Response">
                      <span>
                        {s.responseStatus ? <strong>{s.responseStatus}</strong> : null}
                        {s.error ? <span className="indexnow-reason"> {s.error}</span> : null}
                        {!s.responseStatus && !s.error ? "—" : null}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={data.page} pages={data.pages} label="Pages of submissions" />
      </section>
    </>
  );
}
