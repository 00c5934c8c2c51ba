// /settings/sops — the workspace's stored operating procedures: list and create. Admins write; everyone reads.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { SopFields, sopsOf } from "~/modules/sops/sops.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { Field, FormMessage } from "~/ui/form";
import { page } from "~/lib/routes.server";

export const meta: MetaFunction = () => [{ title: "SOPs · Atrium" }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const sops = await sopsOf(context.services.db, workspace.id, context.services.secrets).list();
  return { sops, canEdit: roleAtLeast(role, "admin"), workspaceName: workspace.name };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  return runForm(request, context, async (values): Promise<FormResult> => {
    const fields = parseForm(SopFields, { ...values, callbackUrl: "" });
    const actor = { userId: session.user.id, ip: context.request.ip };
    const sop = await sopsOf(context.services.db, workspace.id, context.services.secrets).create(actor, fields, []);
    throw redirect(`/settings/sops/${sop.id}?created=1`);
  });
});

export default function Sops() {
  const { sops, canEdit, workspaceName } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <h1>SOPs</h1>
      <p>
        Stored operating procedures of {workspaceName}: ordered steps that another system starts with a signed request
        to <code>POST /api/sops/&#123;slug&#125;/trigger</code>.
      </p>
      <section className="panel" aria-labelledby="sop-list">
        <h2 id="sop-list">Procedures</h2>
        {sops.length === 0 ? (
          <p className="empty">No SOPs yet.{canEdit ? " Create the first one below." : ""}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Steps</th>
                <th scope="col">Status</th>
                <th scope="col">Trigger</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {sops.map((sop) => (
                <tr key={sop.id}>
                  <td>
                    <Link to={`/settings/sops/${sop.id}`}>{sop.name}</Link>
                  </td>
                  <td>
                    <code>{sop.slug}</code>
                  </td>
                  <td>{sop.steps.length}</td>
                  <td>{sop.enabled ? "Enabled" : "Disabled"}</td>
                  <td>{sop.triggerId ? "Yes" : "None"}</td>
                  <td>
                    {sop.lastRun
                      ? `${sop.lastRun.status}, ${sop.lastRun.createdAt.slice(0, 16).replace("T", " ")}`
                      : "Never"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {canEdit ? (
        <section className="panel" aria-labelledby="new-sop">
          <h2 id="new-sop">New SOP</h2>
          <Form method="post">
            <Field label="Name" name="name" required error={result?.fieldErrors?.name} />
            <Field
              label="Slug"
              name="slug"
              required
              error={result?.fieldErrors?.slug}
              hint="Names the SOP in its trigger URL; unique across this Atrium. Lowercase letters, digits, hyphens."
            />
            <Field label="Description" name="description" error={result?.fieldErrors?.description} />
            {result && !result.ok && !Object.keys(result.fieldErrors ?? {}).length ? (
              <FormMessage message={result.message} />
            ) : null}
            <button type="submit">Create SOP</button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
