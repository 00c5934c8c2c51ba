// /discovery/redirects — the site's redirects: an old address (a path on the site) sent to a new one (a path,
// or an address elsewhere) with 301 or 302. Listed 50 a page, newest first, with a search; add, edit, delete
// (after a confirmation). A redirect applies only where no page answers: a published page at the same address
// wins. Loops are refused. Every member sees; editors change (ADR 021).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { consoleDiscovery } from "~/modules/discovery/console.server";
import { REDIRECT_IMPORT_MAX, RedirectInput, parseRedirectLines } from "~/modules/discovery/rules";
import { ConfirmForm } from "~/ui/confirm-form";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { DISCOVERY_TABS, SectionTabs } from "~/ui/section-tabs";
import discoveryCss from "~/styles/console-discovery.css?url";

export const meta: MetaFunction = () => [{ title: "Redirects · Discovery · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: discoveryCss }];

const PAGE_SIZE = 50;
const DONE = {
  added: "Redirect added.",
  updated: "Redirect saved.",
  deleted: "Redirect deleted.",
  imported: "Redirects imported.",
} as const;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, canEdit, discovery, url } = await consoleDiscovery(request, context);
  const params = new URL(request.url).searchParams;
  const search = (params.get("q") ?? "").trim().slice(0, 200);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const { redirects, total } = await discovery.redirects.list({ ...window, search });
  const editId = params.get("edit");
  const editing = editId && canEdit ? await discovery.redirects.get(editId) : null;
  const done = params.get("done");
  return {
    slug: workspace.slug,
    siteUrl: url(),
    canEdit,
    search,
    redirects,
    total,
    page,
    pages: pageCount(total, PAGE_SIZE),
    editing,
    done:
      done === "imported"
        ? `${Number(params.get("n")) || 0} redirects imported.`
        : done && done in DONE
          ? DONE[done as keyof typeof DONE]
          : null,
  };
});

type RedirectResult = FormResult & { draft?: Record<string, string> };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { discovery, actor } = await consoleDiscovery(request, context, "editor");
  return runForm(
    request,
    context,
    async (values): Promise<RedirectResult | Response> => {
      switch (values.intent) {
        case "add":
          await discovery.redirects.create(actor, parseForm(RedirectInput, values));
          return redirect("/discovery/redirects?done=added");
        case "edit":
          await discovery.redirects.update(actor, values.id ?? "", parseForm(RedirectInput, values));
          return redirect("/discovery/redirects?done=updated");
        case "import": {
          const { lines, errors } = parseRedirectLines(values.lines ?? "");
          if (errors.length)
            throw invalid(
              errors.length === 1 ? "One line is not a redirect" : `${errors.length} lines are not redirects`,
              [{ field: "lines", message: errors.slice(0, 20).join("\n") }],
            );
          const added = await discovery.redirects.importMany(actor, lines);
          return redirect(`/discovery/redirects?done=imported&n=${added}`);
        }
        case "delete":
          await discovery.redirects.remove(actor, values.id ?? "");
          return redirect("/discovery/redirects?done=deleted");
        default:
          throw invalid("Unknown action");
      }
    },
    (values) => ({ draft: values }),
  );
});

function listHref(search: string, page: number) {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `/discovery/redirects${query ? `?${query}` : ""}`;
}

export default function Redirects() {
  const {
    slug,
    siteUrl,
    canEdit,
    search,
    redirects,
    total,
    page: current,
    pages,
    editing,
    done,
  } = useLoaderData<typeof loader>();
  const result = useActionData<RedirectResult>();
  const navigation = useNavigation();
  const errors = result?.fieldErrors ?? {};
  const draft = result?.draft;
  const mode = editing ? "edit" : "add";
  const value = (name: "from" | "to" | "status") =>
    (draft && draft.intent === mode ? draft[name] : undefined) ??
    (editing ? String(name === "from" ? editing.from : name === "to" ? editing.to : editing.status) : "");
  return (
    <>
      <h1>Discovery</h1>
      <SectionTabs label="Discovery" tabs={DISCOVERY_TABS} />
      <p className="discovery-intro">
        Send visitors and search engines from an old address to its new one — after a page was renamed, or when you
        moved from another website. A redirect applies only where no page answers: a published page at the same address
        is shown instead.
      </p>
      {!canEdit ? (
        <p className="form-message error" role="note">
          You have viewer access: you can see the redirects but not change them.
        </p>
      ) : null}
      {done && navigation.state === "idle" && !result ? <FormMessage message={done} tone="success" /> : null}
      <FormMessage
        message={
          result?.ok === false && result.intent !== mode && result.intent !== "import" ? result.message : undefined
        }
      />

      {canEdit ? (
        <section className="panel" aria-labelledby="redirect-form-heading">
          <h2 id="redirect-form-heading">{editing ? "Edit the redirect" : "Add a redirect"}</h2>
          <FormMessage message={result?.ok === false && result.intent === mode ? result.message : undefined} />
          <Form method="post" className="redirect-form" key={editing?.id ?? "new"}>
            <input type="hidden" name="intent" value={mode} />
            {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
            <Field
              label="Old address"
              name="from"
              defaultValue={value("from")}
              error={errors.from}
              prefix={`/${slug}`}
              hint="A path on your site, such as /old-menu. Capitals, a trailing slash and ?query do not matter."
              required
            />
            <Field
              label="New address"
              name="to"
              defaultValue={value("to")}
              error={errors.to}
              hint="A path on your site (/menu; /your-site/menu works too, and follows the site to its own domain) or a full address (https://…)."
              required
            />
            <DescribedField id="field-status" label="Type" error={errors.status} hint="301 for good; 302 for now.">
              {(describedBy) => (
                <select
                  id="field-status"
                  name="status"
                  defaultValue={value("status") || "301"}
                  aria-describedby={describedBy}
                >
                  <option value="301">301 · Moved for good</option>
                  <option value="302">302 · Moved for now</option>
                </select>
              )}
            </DescribedField>
            <div className="form-actions">
              <button type="submit">{editing ? "Save redirect" : "Add redirect"}</button>
              {editing ? (
                <Link to={listHref(search, current)} className="button secondary">
                  Cancel
                </Link>
              ) : null}
            </div>
          </Form>
        </section>
      ) : null}

      {canEdit && !editing ? (
        <details className="panel import-panel" open={draft?.intent === "import"}>
          <summary>Import many at once</summary>
          <p className="hint">
            One redirect a line: the old address, the new one and optionally 301 or 302, separated by spaces — for
            example <code>/old-menu /menu 301</code>. All are added or, if one line is refused, none. Up to{" "}
            {REDIRECT_IMPORT_MAX.toLocaleString("en")} lines.
          </p>
          <FormMessage message={result?.ok === false && result.intent === "import" ? result.message : undefined} />
          <Form method="post">
            <input type="hidden" name="intent" value="import" />
            <DescribedField id="field-lines" label="Redirects to import" error={errors.lines}>
              {(describedBy) => (
                <textarea
                  id="field-lines"
                  name="lines"
                  defaultValue={draft?.intent === "import" ? draft.lines : ""}
                  aria-invalid={errors.lines ? true : undefined}
                  aria-describedby={describedBy}
                  placeholder={"/old-menu /menu 301\n/2019/about-us /about"}
                />
              )}
            </DescribedField>
            <div className="form-actions">
              <button type="submit" className="secondary">
                Import redirects
              </button>
            </div>
          </Form>
        </details>
      ) : null}

      <section className="panel" aria-labelledby="redirects-heading">
        <h2 id="redirects-heading">
          {search ? `${total} matching “${search}”` : total === 1 ? "1 redirect" : `${total} redirects`}
        </h2>
        <Form method="get" className="search-form" role="search">
          <Field label="Search redirects" name="q" type="search" defaultValue={search} />
          <button type="submit" className="secondary">
            Search
          </button>
          {search ? <Link to="/discovery/redirects">Clear</Link> : null}
        </Form>
        {redirects.length === 0 ? (
          <div className="empty">
            {search ? (
              <p>No redirect has “{search}” in its old or new address.</p>
            ) : (
              <p>
                <strong>No redirects yet.</strong> When you rename a page or move from another website, add one here so
                that old links and search results still lead somewhere.
              </p>
            )}
          </div>
        ) : (
          <div className="table-scroll">
            <table className="redirects-table">
              <thead>
                <tr>
                  <th scope="col">Old address</th>
                  <th scope="col">New address</th>
                  <th scope="col">Type</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {redirects.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <code>{r.from}</code>
                    </td>
                    <td>
                      <code>{r.to}</code>
                    </td>
                    <td>{r.status === 301 ? "301 · for good" : "302 · for now"}</td>
                    <td>
                      <div className="row-actions">
                        <a href={`${siteUrl.replace(/\/$/, "")}${r.from === "/" ? "" : r.from}`}>
                          Try<span className="visually-hidden">{` ${r.from}`}</span>
                        </a>
                        {canEdit ? (
                          <>
                            <Link to={`?edit=${r.id}${search ? `&q=${encodeURIComponent(search)}` : ""}`}>
                              Edit<span className="visually-hidden">{` the redirect from ${r.from}`}</span>
                            </Link>
                            <ConfirmForm
                              confirm={`Delete the redirect from ${r.from}? Visitors to it will see “Page not found”.`}
                              fields={{ intent: "delete", id: r.id }}
                            >
                              <button type="submit" className="link-danger">
                                Delete<span className="visually-hidden">{` the redirect from ${r.from}`}</span>
                              </button>
                            </ConfirmForm>
                          </>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 ? (
          <nav aria-label="Pages of the redirect list" className="pager">
            {current > 1 ? <Link to={listHref(search, current - 1)}>Newer</Link> : null}
            <span>{`Page ${current} of ${pages}`}</span>
            {current < pages ? <Link to={listHref(search, current + 1)}>Older</Link> : null}
          </nav>
        ) : null}
      </section>
    </>
  );
}
