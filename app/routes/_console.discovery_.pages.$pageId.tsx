// /discovery/pages/{pageId} — one page's search settings: its search title and description (with a preview
// of the result), canonical address, "hide from search engines", language and the page it translates. They
// apply at once, without publishing the page again. Every member reads; editors change (ADR 021).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { z } from "zod";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { checked, consoleDiscovery } from "~/modules/discovery/console.server";
import { pageSitePath } from "~/modules/sites/pages.server";
import { PageSeoInput, SEO_DESCRIPTION_MAX, SEO_TITLE_MAX } from "~/modules/discovery/rules";
import { MissingRecord } from "~/console/missing-record";
import { SearchSnippet } from "~/console/search-snippet";
import { DISCOVERY_TABS, SectionTabs } from "~/ui/section-tabs";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import discoveryCss from "~/styles/console-discovery.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.page.pageTitle ?? "Page"} · Search appearance · Atrium` },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: discoveryCss }];

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, canEdit, discovery, url } = await consoleDiscovery(request, context);
  const found = await discovery.page(params.pageId!);
  const all = await discovery.pages();
  return {
    siteName: workspace.name,
    canEdit,
    page: found,
    url: url(pageSitePath(found)),
    // What it may translate: another page that translates nothing itself (one level of translations).
    originals: found.translations.length
      ? []
      : all.filter((p) => p.id !== found.id && !p.seo.translationOf).map((p) => ({ id: p.id, title: p.pageTitle })),
  };
});

/** The API's input, with the checkbox as a browser posts it ("on", or absent). */
const PageSeoForm = PageSeoInput.extend({ noindex: z.string().optional().transform(checked) });

type SeoResult = FormResult & { draft?: Record<string, string> };

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { discovery, actor } = await consoleDiscovery(request, context, "editor");
  await discovery.page(params.pageId!);
  return runForm(
    request,
    context,
    async (values): Promise<SeoResult> => {
      const input = parseForm(PageSeoForm, values);
      await discovery.savePage(actor, params.pageId!, input);
      return { ok: true, message: "Saved: search engines see it at their next visit." };
    },
    (values) => ({ draft: values }),
  );
});

export default function PageSearchSettings() {
  const { siteName, canEdit, page: p, url, originals } = useLoaderData<typeof loader>();
  const result = useActionData<SeoResult>();
  const errors = result?.fieldErrors ?? {};
  const draft = result?.draft;
  const value = (name: keyof typeof p.seo) => draft?.[name] ?? (p.seo[name] as string | null) ?? "";
  const title = p.seo.title || (p.isHome && p.pageTitle === "Home" ? siteName : p.pageTitle);
  const description = p.seo.description || p.pageDescription;
  return (
    <>
      <Link to="/discovery" className="back-link">
        ← Search appearance
      </Link>
      <h1>{p.pageTitle}</h1>
      <SectionTabs label="Discovery" tabs={DISCOVERY_TABS} />
      {!p.published ? (
        <p className="form-message error" role="note">
          This page is not published: search engines cannot see it yet. Its settings apply once it is.
        </p>
      ) : null}
      {!canEdit ? (
        <p className="form-message error" role="note">
          You have viewer access: you can see these settings but not change them.
        </p>
      ) : null}
      <FormMessage message={result?.message} tone={result?.ok ? "success" : "error"} />

      <section className="panel" aria-labelledby="preview-heading">
        <h2 id="preview-heading">Preview in search results</h2>
        <div className="snippet-box">
          <SearchSnippet url={url} title={title} description={description} />
        </div>
        <p className="hint">As saved. Search engines may shorten the title and description, or choose their own.</p>
      </section>

      <section className="panel" aria-labelledby="settings-heading">
        <h2 id="settings-heading">Search settings</h2>
        {/* Keyed by what is saved: after a save the fields show the stored values (`en-gb` becomes `en-GB`). */}
        <Form method="post" key={JSON.stringify(p.seo)}>
          <fieldset disabled={!canEdit} className="plain">
            <Field
              label="Search title"
              name="title"
              defaultValue={value("title")}
              error={errors.title}
              hint={`Leave empty to use the page's title (“${p.pageTitle}”). Up to ${SEO_TITLE_MAX} characters; about 60 show.`}
            />
            <DescribedField
              id="field-description"
              label="Search description"
              error={errors.description}
              hint={`Leave empty to use the page's own description. Up to ${SEO_DESCRIPTION_MAX} characters; about 160 show.`}
            >
              {(describedBy) => (
                <textarea
                  id="field-description"
                  name="description"
                  defaultValue={value("description")}
                  maxLength={SEO_DESCRIPTION_MAX}
                  aria-invalid={errors.description ? true : undefined}
                  aria-describedby={describedBy}
                />
              )}
            </DescribedField>
            <Field
              label="Canonical address"
              name="canonical"
              defaultValue={value("canonical")}
              error={errors.canonical}
              hint="Only when this page copies another: its address (https://…) or a path on your site (/about, or /your-site/about), which follows the site to its own domain. Leave empty for this page's own address."
            />
            <div className="check-field">
              <input
                id="field-noindex"
                type="checkbox"
                name="noindex"
                defaultChecked={draft ? checkedValue(draft.noindex) : p.seo.noindex}
              />
              <div>
                <label htmlFor="field-noindex">Hide this page from search engines</label>
                <p className="hint">
                  It stays on your site for visitors, out of search results, the sitemap and llms.txt.
                </p>
              </div>
            </div>
            <Field
              label="Language"
              name="locale"
              defaultValue={value("locale")}
              error={errors.locale}
              hint="The page's language as a tag: en, fr, de-CH, pt-BR. Needed for a translation."
            />
            <DescribedField
              id="field-translationOf"
              label="Translation of"
              error={errors.translationOf}
              hint={
                p.translations.length
                  ? `Other pages translate this one (${p.translations.map((t) => t.title).join(", ")}), so it is an original.`
                  : "When this page is another page in a different language: search engines then show each visitor their language."
              }
            >
              {(describedBy) => (
                <select
                  id="field-translationOf"
                  name="translationOf"
                  defaultValue={value("translationOf")}
                  aria-invalid={errors.translationOf ? true : undefined}
                  aria-describedby={describedBy}
                  disabled={p.translations.length > 0}
                >
                  <option value="">Not a translation</option>
                  {originals.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.title}
                    </option>
                  ))}
                </select>
              )}
            </DescribedField>
            <div className="form-actions">
              <button type="submit">Save search settings</button>
            </div>
          </fieldset>
        </Form>
      </section>
    </>
  );
}

function checkedValue(value: string | undefined) {
  return value === "on" || value === "true";
}

export function ErrorBoundary() {
  return <MissingRecord what="Page" back={{ to: "/discovery", label: "Back to Search appearance" }} />;
}
