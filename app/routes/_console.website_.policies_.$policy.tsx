// /website/policies/{privacy|terms|refund|shipping} — write one policy in Markdown, publish or unpublish it,
// delete it. A policy not written yet starts from a template with the workspace's name. Editors and above.
import { slugBase } from "~/lib/link-base";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid, notFound } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { policiesOf } from "~/modules/sites/policies.server";
import { POLICY_LABELS, POLICY_MAX_LENGTH, isPolicyKind, policyPath } from "~/modules/sites/policy-kinds";
import { policyTemplate } from "~/modules/sites/policy-templates";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { MissingRecord } from "~/console/missing-record";
import { ConfirmForm } from "~/ui/confirm-form";
import { Field, FormMessage } from "~/ui/form";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.policy.title ?? "Policy"} · Policies · Atrium` },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

function kindOf(value: string | undefined) {
  if (!isPolicyKind(value)) throw notFound("There is no such policy: choose privacy, terms, refund or shipping");
  return value;
}

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const kind = kindOf(params.policy);
  const saved = await policiesOf(context.services.db, workspace.id).get(kind);
  return {
    slug: workspace.slug,
    canEdit: roleAtLeast(role, "editor"),
    written: Boolean(saved),
    policy: saved ?? {
      kind,
      title: POLICY_LABELS[kind].title,
      markdown: policyTemplate(kind, { businessName: workspace.name }),
      published: false,
      updatedAt: null,
    },
    about: POLICY_LABELS[kind].about,
  };
});

type PolicyResult = FormResult & { draft?: { title: string; markdown: string; published: boolean } };

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const kind = kindOf(params.policy);
  const policies = policiesOf(context.services.db, workspace.id);
  const actor = session.user.id;
  return runForm(
    request,
    context,
    async (values): Promise<PolicyResult | Response> => {
      switch (values.intent) {
        case "save": {
          const saved = await policies.save(actor, kind, {
            title: values.title ?? "",
            markdown: values.markdown ?? "",
            published: values.published === "on",
          });
          return {
            ok: true,
            intent: "save",
            message: saved.published ? "Saved and published on your site." : "Saved as a draft: not on your site.",
          };
        }
        case "unpublish":
          await policies.setPublished(actor, kind, false);
          return { ok: true, intent: "save", message: "Unpublished: it is no longer on your site." };
        case "delete":
          await policies.remove(actor, kind);
          return redirect("/website/policies");
        default:
          throw invalid("Unknown action");
      }
    },
    // What the operator typed comes back with the refusal, so nothing is lost on a page without JavaScript.
    (values) => ({
      draft: { title: values.title ?? "", markdown: values.markdown ?? "", published: values.published === "on" },
    }),
  );
});

const updated = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

export default function PolicyEditor() {
  const { slug, canEdit, written, policy, about } = useLoaderData<typeof loader>();
  const result = useActionData<PolicyResult>();
  const draft = result?.draft ?? policy;
  const errors = result?.fieldErrors ?? {};
  const markdownError = errors.markdown;
  return (
    <>
      <Link to="/website/policies" className="back-link">
        ← Policies
      </Link>
      <h1>
        {policy.title}
        <span className={`status-tag ${!written ? "not-written" : policy.published ? "published" : "draft"}`}>
          {!written ? "Not written" : policy.published ? "Published" : "Draft"}
        </span>
      </h1>
      <p className="page-intro">
        {about}{" "}
        {policy.published ? (
          <>
            On your site at{" "}
            <a href={policyPath(slugBase(slug), policy.kind)}>{policyPath(slugBase(slug), policy.kind)}</a>.
          </>
        ) : null}
        {policy.updatedAt ? ` Last saved ${updated.format(new Date(policy.updatedAt))} UTC.` : ""}
      </p>
      {!canEdit ? (
        <p className="form-message error" role="note">
          You have viewer access: you can read this policy but not change it.
        </p>
      ) : null}
      <FormMessage message={result?.message} tone={result?.ok ? "success" : "error"} />

      <section className="panel" aria-labelledby="policy-form">
        <h2 id="policy-form">{written ? "Edit the policy" : "Write the policy"}</h2>
        {!written ? (
          <p className="template-note">
            We have started you off with a template for a small business. Read it through and change what does not match
            how you work — it is a starting point, not legal advice.
          </p>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="save" />
          <fieldset disabled={!canEdit} className="plain">
            <Field label="Title" name="title" defaultValue={draft.title} error={errors.title} required />
            <div className="field">
              <label htmlFor="field-markdown">Text</label>
              <textarea
                id="field-markdown"
                name="markdown"
                className="markdown"
                defaultValue={draft.markdown}
                required
                maxLength={POLICY_MAX_LENGTH}
                aria-invalid={markdownError ? true : undefined}
                aria-describedby={`field-markdown-hint${markdownError ? " field-markdown-error" : ""}`}
              />
              <p className="hint" id="field-markdown-hint">
                Markdown: <code>## Heading</code>, <code>**bold**</code>, <code>- list item</code>,{" "}
                <code>[link text](https://example.com)</code>. HTML is not allowed.
              </p>
              {markdownError ? (
                <p className="field-error" id="field-markdown-error" role="alert">
                  {markdownError}
                </p>
              ) : null}
            </div>
            <div className="check-field">
              <input id="field-published" type="checkbox" name="published" defaultChecked={draft.published} />
              <div>
                <label htmlFor="field-published">Published</label>
                <p className="hint">
                  Shown on your site and linked from its footer. Unticked, it is a draft only you see.
                </p>
              </div>
            </div>
            <div className="form-actions">
              <button type="submit">Save</button>
            </div>
          </fieldset>
        </Form>
      </section>

      {canEdit && written ? (
        <section className="panel danger" aria-labelledby="policy-remove">
          <h2 id="policy-remove">Take it down</h2>
          <p>Unpublishing keeps the text as a draft. Deleting removes it; you can start again from the template.</p>
          <div className="form-actions">
            {policy.published ? (
              <Form method="post">
                <input type="hidden" name="intent" value="unpublish" />
                <button type="submit" className="secondary">
                  Unpublish
                </button>
              </Form>
            ) : null}
            <ConfirmForm
              confirm={`Delete the ${policy.title.toLowerCase()}? This cannot be undone.`}
              fields={{ intent: "delete" }}
            >
              <button type="submit" className="danger">
                Delete policy
              </button>
            </ConfirmForm>
          </div>
        </section>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Policy" back={{ to: "/website/policies", label: "Back to the policies" }} />;
}
