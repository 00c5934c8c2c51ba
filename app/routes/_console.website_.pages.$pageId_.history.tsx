// /website/pages/{id}/history — every save, publish and restore of a page, newest first, each with a preview;
// restoring one makes it the draft again (publish to show it). Editors and above restore; viewers read.
import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { parseForm, runForm, type FormResult } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { KEPT_REVISIONS } from "~/modules/sites/blocks";
import { pagesOf } from "~/modules/sites/pages.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { ConfirmForm } from "~/ui/confirm-form";
import { FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import editorCss from "~/styles/website-editor.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `History of ${data?.page.title ?? "a page"} · Pages · Atrium` },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: editorCss }];

const PAGE_SIZE = 20;

const KIND_LABELS: Record<string, string> = {
  created: "Created",
  saved: "Draft saved",
  published: "Published",
  restored: "Restored",
};

export const loader = page("operator", async ({ request, context, params }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const pages = pagesOf(context.services.db, workspace.id);
  const found = await pages.get(params.pageId!);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const { revisions, total } = await pages.revisions(found.id, window);
  return {
    page: { id: found.id, title: found.title },
    revisions,
    page_: page,
    pages: pageCount(total, PAGE_SIZE),
    canEdit: roleAtLeast(role, "editor"),
  };
});

const RestoreForm = z.object({ revisionId: z.string().min(1, "Choose a revision") });

export const action = page("operator", async ({ request, context, params }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "editor");
  const pages = pagesOf(context.services.db, workspace.id);
  const found = await pages.get(params.pageId!);
  return runForm(request, context, async (values): Promise<FormResult> => {
    const { revisionId } = parseForm(RestoreForm, values);
    const { number } = await pages.revision(found.id, revisionId);
    await pages.restore({ userId: session.user.id, ip: context.request.ip }, found.id, revisionId);
    throw redirect(`/website/pages/${found.id}?restored=${number}`);
  });
});

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

export default function PageHistory() {
  const { page, revisions, page_, pages, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <p>
        <Link to={`/website/pages/${page.id}`}>Back to {page.title}</Link>
      </p>
      <h1>History of {page.title}</h1>
      <p>
        Every save, publish and restore, newest first (the latest {KEPT_REVISIONS} are kept). Restoring one makes it the
        draft again; visitors see it once you publish.
      </p>
      {result && !result.ok ? <FormMessage message={result.message} /> : null}
      <section className="panel" aria-labelledby="revisions">
        <h2 id="revisions">Revisions</h2>
        {revisions.length === 0 ? (
          <p className="empty">No revisions yet: save the page to start its history.</p>
        ) : (
          <div className="table-scroll">
            <table className="pages-table">
              <thead>
                <tr>
                  <th scope="col">Revision</th>
                  <th scope="col">What</th>
                  <th scope="col">Title</th>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {revisions.map((r) => (
                  <tr key={r.id}>
                    <td>{`#${r.number}`}</td>
                    <td>{KIND_LABELS[r.kind] ?? r.kind}</td>
                    <td>{r.title}</td>
                    <td>{when(r.createdAt)}</td>
                    <td>{r.authorEmail ?? "—"}</td>
                    <td>
                      <div className="page-actions">
                        <Link to={`/website/pages/${page.id}/preview?revision=${r.id}`} target="_blank" rel="noopener">
                          Preview<span className="visually-hidden">{` revision ${r.number} (opens in a new tab)`}</span>
                        </Link>
                        {canEdit ? (
                          <ConfirmForm
                            confirm={`Restore revision ${r.number} as the draft? The current draft stays in the history.`}
                            fields={{ revisionId: r.id }}
                          >
                            <button type="submit" className="secondary">
                              Restore<span className="visually-hidden">{` revision ${r.number}`}</span>
                            </button>
                          </ConfirmForm>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page_} pages={pages} label="Pages of the history" />
      </section>
    </>
  );
}
