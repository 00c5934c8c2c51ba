// /website/pages/{id} — the page editor: title, address, description and the page's blocks (add, move, remove,
// fill in), saved as a draft, previewed unsaved, published; unpublish, make home, history, delete. Works
// without JavaScript: every step is a form post. Editors and above write; viewers read.
// A route folder: this file is the route (loader, action, page); its panels are the files beside it.
import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { BLOCK_LABELS, BLOCK_TYPES } from "~/modules/sites/blocks";
import { draftFromForm, draftOfBlocks, editDraft, parseDraft } from "~/modules/sites/page-form";
import { editableBlocks, mediaChoices, pagesOf } from "~/modules/sites/pages.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { FormMessage } from "~/ui/form";
import editorCss from "~/styles/website-editor.css?url";
import { StatusBadge } from "~/console/page-status";
import { DraftEditor } from "./draft-editor";
import { SidePanel } from "./side-panel";
import type { EditorResult } from "./types";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.page.title ?? "Page"} · Pages · Atrium` },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: editorCss }];

// Another workspace's page, or a deleted one, is a 404 (page() maps the not-found).
export const loader = page("operator", async ({ request, context, params }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const { db } = context.services;
  const found = await pagesOf(db, workspace.id).get(params.pageId!);
  const canEdit = roleAtLeast(role, "editor");
  const url = new URL(request.url);
  return {
    site: { slug: workspace.slug, name: workspace.name },
    page: {
      id: found.id,
      title: found.title,
      slug: found.slug,
      isHome: found.isHome,
      status: found.status,
      hasChanges: found.hasChanges,
      publishedAt: found.publishedAt,
      updatedAt: found.updatedAt,
    },
    draft: draftOfBlocks(
      { title: found.draft.title, slug: found.slug, description: found.draft.description },
      editableBlocks(found.draft),
    ),
    media: canEdit ? await mediaChoices(db, workspace.id, workspace.slug) : [],
    blockTypes: BLOCK_TYPES.map((type) => ({ type, ...BLOCK_LABELS[type] })),
    canEdit,
    notice: url.searchParams.has("created")
      ? "Page created. Fill in its blocks, save the draft, and publish when it is ready."
      : url.searchParams.has("restored")
        ? `Revision ${url.searchParams.get("restored")} is the draft again. Publish to show it to visitors.`
        : null,
  };
});

export const action = page("operator", async ({ request, context, params }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "editor");
  const pages = pagesOf(context.services.db, workspace.id);
  const current = await pages.get(params.pageId!);
  const actor = { userId: session.user.id, ip: context.request.ip };

  return runForm(
    request,
    context,
    async (values): Promise<EditorResult> => {
      const intent = values.intent ?? "";
      const edited = editDraft(intent, values);
      if (edited) return { ok: true, intent: "draft", draft: edited, message: "Unsaved changes: save to keep them." };
      switch (intent) {
        case "save": {
          await pages.saveDraft(actor, current.id, parseDraft(draftFromForm(values)));
          return {
            ok: true,
            intent: "draft",
            message:
              current.status === "published"
                ? "Draft saved. Visitors still see the published version until you publish."
                : "Draft saved.",
          };
        }
        case "publish": {
          await pages.publish(actor, current.id, parseDraft(draftFromForm(values)));
          return { ok: true, intent: "draft", message: "Published: visitors see this version now." };
        }
        case "unpublish":
          await pages.unpublish(actor, current.id);
          return { ok: true, intent: "status", message: "Unpublished: visitors get “page not found” at its address." };
        case "make-home":
          await pages.makeHome(actor, current.id);
          return { ok: true, intent: "status", message: `This is now your home page, at /${workspace.slug}.` };
        case "delete":
          await pages.remove(actor, current.id);
          throw redirect(`/website?deleted=${encodeURIComponent(current.title)}`);
        default:
          throw invalid("Unknown action");
      }
    },
    // A refused save shows the editor again with what was typed, not what is stored.
    (values) =>
      values.intent === "save" || values.intent === "publish" ? { intent: "draft", draft: draftFromForm(values) } : {},
  );
});

export default function PageEditor() {
  const { site, page, notice } = useLoaderData<typeof loader>();
  const result = useActionData<EditorResult>();
  const address = page.isHome ? `/${site.slug}` : `/${site.slug}/${page.slug}`;
  return (
    <>
      <p>
        <Link to="/website">All pages</Link>
      </p>
      <h1>{page.title}</h1>
      <p className="page-meta">
        <StatusBadge page={page} /> {page.isHome ? <span className="status status-home">Home page</span> : null}{" "}
        {page.status === "published" ? (
          <a href={address}>{address}</a>
        ) : (
          <code title="Visitors see this address once the page is published">{address}</code>
        )}
      </p>
      {notice && !result ? <FormMessage message={notice} tone="success" /> : null}
      {result?.intent === "status" || (result && !result.ok && result.intent !== "draft") ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}
      <div className="editor-layout">
        <DraftEditor />
        <SidePanel />
      </div>
    </>
  );
}
