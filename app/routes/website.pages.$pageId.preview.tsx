// /website/pages/{id}/preview — the page as visitors would see it, through the public pages' block renderer:
// GET shows the saved draft (or, with ?revision=, an earlier revision); the editor's Preview button posts the
// unsaved draft here. Operators of the page's workspace only; never stored by a cache, never indexed.
// Outside the console's layout on purpose: it is styled as the public site is, not as the console.
import { slugBase } from "~/lib/link-base";
import {
  data,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useLoaderData, useActionData } from "@remix-run/react";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { draftFromForm, parseDraft } from "~/modules/sites/page-form";
import { imagesOf, pagesOf, renderDraft } from "~/modules/sites/pages.server";
import { PageContentView } from "~/site/blocks";
import type { RouteHandle } from "~/ui/handle";
import siteCss from "~/styles/site.css?url";
import blocksCss from "~/styles/site-blocks.css?url";
import type { PageContent, PublicImages } from "~/modules/sites/blocks";

export const handle: RouteHandle = { hydrate: false };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: siteCss },
  { rel: "stylesheet", href: blocksCss },
];

interface Preview {
  site: { slug: string; name: string };
  pageId: string;
  label: string;
  content: PageContent | null;
  images: PublicImages;
}

export const meta: MetaFunction = ({ data }) => {
  const preview = data as Preview | undefined;
  return [
    { title: `Preview: ${preview?.content?.title ?? "page"} · ${preview?.site.name ?? "Atrium"}` },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

export const headers: HeadersFunction = () => NO_STORE;

export const loader = page("operator", async ({ request, context, params }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context);
  const { db } = context.services;
  const pages = pagesOf(db, workspace.id);
  const found = await pages.get(params.pageId!);
  const revisionId = new URL(request.url).searchParams.get("revision");
  const revision = revisionId ? await pages.revision(found.id, revisionId) : null;
  const content = revision?.content ?? found.draft;
  const body: Preview = {
    site: { slug: workspace.slug, name: workspace.name },
    pageId: found.id,
    label: revision ? `Revision ${revision.number}` : "Saved draft",
    content,
    images: await imagesOf(db, workspace.id, slugBase(workspace.slug), content.blocks),
  };
  return data(body, { headers: NO_STORE });
});

export const action = page("operator", async ({ request, context, params }: ActionFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context);
  const { db } = context.services;
  const found = await pagesOf(db, workspace.id).get(params.pageId!);
  const base = { site: { slug: workspace.slug, name: workspace.name }, pageId: found.id, label: "Unsaved draft" };
  // Nothing is stored: the draft is read, rendered as the public page would render it, and shown.
  return runForm(
    request,
    context,
    async (values): Promise<Preview> => {
      const content = renderDraft(parseDraft(draftFromForm(values)));
      const images = await imagesOf(db, workspace.id, slugBase(workspace.slug), content.blocks);
      return { ...base, content, images };
    },
    () => ({ ...base, content: null, images: {} }),
  );
});

/** `blocks.2.heading` → "Block 3, heading". */
function fieldName(field: string): string {
  const match = /^blocks\.(\d+)\.?(.*)$/.exec(field);
  if (!match) return field || "Page";
  return match[2] ? `Block ${Number(match[1]) + 1}, ${match[2].replace(/\./g, " ")}` : `Block ${Number(match[1]) + 1}`;
}

export default function PagePreview() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const preview = (posted ?? loaded) as Preview & Partial<FormResult>;
  const errors = Object.entries(preview.fieldErrors ?? {});
  return (
    <div className="site">
      {/* The site's own theme (colours, fonts), as its public pages link it; a stylesheet link is allowed in the body. */}
      <link rel="stylesheet" href={`/${preview.site.slug}/theme.css`} />
      <div className="preview-bar" role="note">
        <span>{`Preview · ${preview.label} · not visible to visitors`}</span>
        <a href={`/website/pages/${preview.pageId}`}>Back to the editor</a>
      </div>
      <header className="preview-site-header">
        <span className="preview-site-name">{preview.site.name}</span>
      </header>
      <main className="site-main">
        {preview.content ? (
          <PageContentView content={preview.content} images={preview.images} siteSlug={preview.site.slug} />
        ) : (
          <div className="preview-errors" role="alert">
            <h1>This draft cannot be shown yet</h1>
            <p>Fix these fields in the editor, then preview again:</p>
            <ul>
              {errors.length ? (
                errors.map(([field, message]) => <li key={field}>{`${fieldName(field)}: ${message}`}</li>)
              ) : (
                <li>{preview.message}</li>
              )}
            </ul>
          </div>
        )}
      </main>
    </div>
  );
}
