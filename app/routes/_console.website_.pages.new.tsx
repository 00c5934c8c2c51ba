// /website/pages/new — a new page: title, address, whether it goes in the site's menu. It opens in the editor
// with a first block to fill in. Editors and above.
import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { parseForm, runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { PageDescription, PageSlug, PageTitle, type BlockInput } from "~/modules/sites/blocks";
import { pagesOf } from "~/modules/sites/pages.server";
import { Field, FormMessage } from "~/ui/form";
import editorCss from "~/styles/website-editor.css?url";

export const meta: MetaFunction = () => [{ title: "New page · Website · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: editorCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "editor");
  const count = await pagesOf(context.services.db, workspace.id).count();
  return { site: { slug: workspace.slug }, first: count === 0 };
});

const NewPageForm = z.object({
  title: PageTitle,
  // Left empty (or not sent at all), the address is made from the title.
  slug: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .pipe(PageSlug.optional()),
  description: PageDescription,
  inNavigation: z
    .string()
    .optional()
    .transform((v) => v === "on"),
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "editor");
  const pages = pagesOf(context.services.db, workspace.id);
  const actor = { userId: session.user.id, ip: context.request.ip };
  return runForm(
    request,
    context,
    async (values): Promise<FormResult> => {
      const input = parseForm(NewPageForm, values);
      // A page opens with a hero carrying its title, ready to fill in and already presentable.
      const opening: BlockInput[] = [
        { type: "hero", heading: input.title, text: "", imageId: null, ctaLabel: "", ctaHref: "" },
      ];
      const created = await pages.create(actor, input, opening);
      throw redirect(`/website/pages/${created.id}?created=1`);
    },
    (values) => ({ values }),
  );
});

export default function NewPage() {
  const { site, first } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult & { values?: Record<string, string> }>();
  const errors = result?.fieldErrors ?? {};
  const values = result?.values ?? {};
  return (
    <>
      <p>
        <Link to="/website">All pages</Link>
      </p>
      <h1>New page</h1>
      {first ? (
        <p>This is your site&apos;s first page: it becomes your home page, at {`/${site.slug}`}.</p>
      ) : (
        <p>Give the page a title and an address; you add its content next.</p>
      )}
      <section className="panel">
        <Form method="post">
          <Field label="Title" name="title" defaultValue={values.title} error={errors.title} required />
          <Field
            label="Address"
            name="slug"
            prefix={`/${site.slug}/`}
            defaultValue={values.slug}
            error={errors.slug}
            hint="Lowercase letters, digits and hyphens. Leave it empty to make one from the title."
          />
          <div className="field">
            <label htmlFor="field-description">Description (optional)</label>
            <textarea
              id="field-description"
              name="description"
              rows={2}
              maxLength={300}
              defaultValue={values.description}
              aria-describedby="field-description-hint"
            />
            <p className="hint" id="field-description-hint">
              Shown by search engines and when the page is shared. One or two sentences.
            </p>
            {errors.description ? <p className="field-error">{errors.description}</p> : null}
          </div>
          <div className="field">
            <label>
              <input
                type="checkbox"
                name="inNavigation"
                defaultChecked={values.inNavigation ? values.inNavigation === "on" : true}
              />{" "}
              Show it in the site&apos;s menu
            </label>
          </div>
          {result && !result.ok && !Object.keys(errors).length ? <FormMessage message={result.message} /> : null}
          <button type="submit">Create page</button>
        </Form>
      </section>
    </>
  );
}
