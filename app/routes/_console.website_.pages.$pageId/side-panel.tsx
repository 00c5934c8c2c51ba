/** Beside the draft: publishing state, the home page, the history and deleting. */
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ConfirmForm } from "~/ui/confirm-form";
import type { loader } from "./route";

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

export function SidePanel() {
  const { site, page, canEdit } = useLoaderData<typeof loader>();
  const address = page.isHome ? `/${site.slug}` : `/${site.slug}/${page.slug}`;
  return (
    <aside className="editor-side" aria-label="Page status">
      <section className="panel" aria-labelledby="publishing">
        <h2 id="publishing">Publishing</h2>
        {page.status === "published" ? (
          <p>
            {`Published ${page.publishedAt ? when(page.publishedAt) : ""} UTC. `}
            {page.hasChanges ? "The draft has changes visitors do not see yet." : "Visitors see the latest draft."}
          </p>
        ) : (
          <p>Not published: visitors get “page not found” at {address}.</p>
        )}
        <p>
          <Link to={`/website/pages/${page.id}/preview`} target="_blank" rel="noopener">
            Preview the saved draft<span className="visually-hidden"> (opens in a new tab)</span>
          </Link>
        </p>
        {canEdit && page.status === "published" ? (
          <ConfirmForm
            confirm={`Unpublish “${page.title}”? Visitors get “page not found” at ${address} until you publish again.`}
            fields={{ intent: "unpublish" }}
          >
            <button type="submit" className="secondary">
              Unpublish
            </button>
          </ConfirmForm>
        ) : null}
      </section>
      <section className="panel" aria-labelledby="home-page">
        <h2 id="home-page">Home page</h2>
        {page.isHome ? (
          <p>This page is your home page, at {`/${site.slug}`}.</p>
        ) : (
          <>
            <p>Make this the page visitors see first, at {`/${site.slug}`}.</p>
            {canEdit ? (
              <Form method="post">
                <input type="hidden" name="intent" value="make-home" />
                <button type="submit" className="secondary">
                  Make home page
                </button>
              </Form>
            ) : null}
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="history">
        <h2 id="history">History</h2>
        <p>Every save and publish is kept; restore an earlier version from the history.</p>
        <p>
          <Link to={`/website/pages/${page.id}/history`}>See the history</Link>
        </p>
      </section>
      {canEdit ? (
        <section className="panel danger" aria-labelledby="delete-page">
          <h2 id="delete-page">Delete</h2>
          <p>Deletes the page, its history and its menu links. This cannot be undone.</p>
          {page.isHome ? (
            <p>While your site has other pages, make one of them the home page before deleting this one.</p>
          ) : null}
          <ConfirmForm
            confirm={`Delete “${page.title}”? Its address stops working and its history is deleted too.`}
            fields={{ intent: "delete" }}
          >
            <button type="submit" className="danger">
              Delete page
            </button>
          </ConfirmForm>
        </section>
      ) : null}
    </aside>
  );
}
