// /discovery — Search appearance: every page as a search result would show it (title, address, description),
// with its noindex and language state and a link to edit it; the whole site's "hide from search engines"
// switch. Every member sees; editors change (ADR 021).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { checked, consoleDiscovery } from "~/modules/discovery/console.server";
import { pageSitePath } from "~/modules/sites/pages.server";
import { SearchSnippet } from "~/console/search-snippet";
import { DISCOVERY_TABS, SectionTabs } from "~/ui/section-tabs";
import { FormMessage } from "~/ui/form";
import discoveryCss from "~/styles/console-discovery.css?url";

export const meta: MetaFunction = () => [{ title: "Search appearance · Discovery · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: discoveryCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, canEdit, discovery, url } = await consoleDiscovery(request, context);
  const [settings, pages] = await Promise.all([discovery.settings(), discovery.pages()]);
  return {
    canEdit,
    noindex: settings.noindex,
    pages: pages.map((p) => ({
      id: p.id,
      isHome: p.isHome,
      published: p.published,
      url: url(pageSitePath(p)),
      title: p.seo.title || (p.isHome && p.pageTitle === "Home" ? workspace.name : p.pageTitle),
      description: p.seo.description || p.pageDescription,
      customised: Boolean(p.seo.title || p.seo.description),
      noindex: p.seo.noindex,
      locale: p.seo.locale,
      translates: p.seo.translationOf ? (pages.find((o) => o.id === p.seo.translationOf)?.pageTitle ?? null) : null,
      translations: p.translations.length,
    })),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { discovery, actor } = await consoleDiscovery(request, context, "editor");
  return runForm(request, context, async (values): Promise<FormResult> => {
    if (values.intent !== "site") throw invalid("Unknown action");
    const saved = await discovery.saveSite(actor, { noindex: checked(values.noindex) });
    return {
      ok: true,
      intent: "site",
      message: saved.noindex
        ? "Your site now asks search engines not to index it. Pages already listed drop out as engines revisit them."
        : "Search engines may index your site again.",
    };
  });
});

export default function SearchAppearance() {
  const { canEdit, noindex, pages } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <h1>Discovery</h1>
      <SectionTabs label="Discovery" tabs={DISCOVERY_TABS} />
      <p className="discovery-intro">
        How your site appears in search results and to AI assistants. Each page's search title and description default
        to its own; change them here without publishing the page again.
      </p>
      {!canEdit ? (
        <p className="form-message error" role="note">
          You have viewer access: you can see these settings but not change them.
        </p>
      ) : null}
      <FormMessage message={result?.message} tone={result?.ok ? "success" : "error"} />

      <section className="panel" aria-labelledby="site-visibility">
        <div className="switch-row">
          <div>
            <h2 id="site-visibility" style={{ marginBottom: 0 }}>
              Search engines{" "}
              {noindex ? <span className="tag off">Hidden</span> : <span className="tag ok">Allowed</span>}
            </h2>
            <p className="hint">
              {noindex
                ? "Every page asks not to be indexed, robots.txt disallows the whole site and the sitemap is empty."
                : "Search engines may list your published pages. Hide the whole site while it is not ready."}
            </p>
          </div>
          {canEdit ? (
            <Form method="post">
              <input type="hidden" name="intent" value="site" />
              <input type="hidden" name="noindex" value={noindex ? "" : "on"} />
              <button type="submit" className={noindex ? undefined : "secondary"}>
                {noindex ? "Allow search engines" : "Hide site from search engines"}
              </button>
            </Form>
          ) : null}
        </div>
      </section>

      <section className="panel" aria-labelledby="pages-heading">
        <h2 id="pages-heading">Pages in search results</h2>
        {pages.length === 0 ? (
          <div className="empty">
            <p>
              <strong>Your site has no pages yet.</strong> Once you <Link to="/website/pages/new">create a page</Link>{" "}
              and publish it, it appears here with a preview of how search engines show it.
            </p>
          </div>
        ) : (
          <ul className="seo-list">
            {pages.map((p) => (
              <li key={p.id}>
                <SearchSnippet url={p.url} title={p.title} description={p.description} />
                <div className="seo-item-side">
                  <div className="seo-tags">
                    {!p.published ? <span className="tag">Not published</span> : null}
                    {p.isHome ? <span className="tag">Home page</span> : null}
                    {p.noindex ? <span className="tag off">Hidden from search</span> : null}
                    {p.customised ? <span className="tag ok">Custom search text</span> : null}
                    {p.locale ? (
                      <span className="tag">
                        <span className="visually-hidden">Language: </span>
                        {p.locale}
                      </span>
                    ) : null}
                    {p.translates ? <span className="tag">{`Translates “${p.translates}”`}</span> : null}
                    {p.translations ? (
                      <span className="tag">
                        {p.translations === 1 ? "1 translation" : `${p.translations} translations`}
                      </span>
                    ) : null}
                  </div>
                  <Link className="button secondary" to={`/discovery/pages/${p.id}`}>
                    {canEdit ? "Edit" : "View"}
                    <span className="visually-hidden">{` search settings of ${p.title}`}</span>
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
