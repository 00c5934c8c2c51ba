// /website — the site's pages: which is the home page, what is published, what has unpublished changes; a new
// page; the way to the navigation. Everyone in the workspace reads; editors and above create.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { pagesOf } from "~/modules/sites/pages.server";
import { StatusBadge } from "~/console/page-status";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { Pager } from "~/ui/pager";
import editorCss from "~/styles/website-editor.css?url";

export const meta: MetaFunction = () => [{ title: "Pages · Website · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: editorCss }];

const PAGE_SIZE = 25;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const pages = pagesOf(context.services.db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [list, total] = await Promise.all([pages.list(window), pages.count()]);
  return {
    site: { name: workspace.name, slug: workspace.slug },
    pages: list,
    total,
    page,
    pages_: pageCount(total, PAGE_SIZE),
    canEdit: roleAtLeast(role, "editor"),
    deleted: new URL(request.url).searchParams.get("deleted"),
  };
});

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

export default function WebsitePages() {
  const { site, pages, total, page, pages_, canEdit, deleted } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Pages</h1>
      <p>
        The pages of your site at <a href={`/${site.slug}`}>{`/${site.slug}`}</a>. Edit a page&apos;s draft as often as
        you like; visitors see it once you publish.
      </p>
      <div className="page-actions">
        {canEdit ? (
          <Link className="button" to="/website/pages/new">
            New page
          </Link>
        ) : null}
        <Link className="button secondary" to="/website/navigation">
          Navigation &amp; footer links
        </Link>
        <a className="button secondary" href={`/${site.slug}`}>
          View site
        </a>
      </div>
      {deleted ? (
        <p className="form-message success" role="status">
          {`Page “${deleted}” deleted.`}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="pages-heading">
        <h2 id="pages-heading">{total === 1 ? "1 page" : `${total} pages`}</h2>
        {pages.length === 0 ? (
          <div className="empty">
            <p>
              <strong>Your site has no pages yet.</strong> Visitors to <code>{`/${site.slug}`}</code> see a welcome that
              says your site is on its way until you publish one.
            </p>
            {canEdit ? (
              <p>
                <Link to="/website/pages/new">Create your first page</Link>: it becomes your home page. Start with a
                hero — a heading, a sentence and an image — then add text, a gallery or a contact form.
              </p>
            ) : (
              <p>An editor of this workspace can create the first page.</p>
            )}
          </div>
        ) : (
          <div className="table-scroll">
            <table className="pages-table">
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Address</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last edited</th>
                </tr>
              </thead>
              <tbody>
                {pages.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <Link to={`/website/pages/${p.id}`}>{p.title}</Link>{" "}
                      {p.isHome ? <span className="status status-home">Home page</span> : null}
                    </td>
                    <td>
                      <code>{p.isHome ? `/${site.slug}` : `/${site.slug}/${p.slug}`}</code>
                    </td>
                    <td>
                      <StatusBadge page={p} />
                    </td>
                    <td>{when(p.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pages={pages_} label="Pages of the page list" />
      </section>
    </>
  );
}
