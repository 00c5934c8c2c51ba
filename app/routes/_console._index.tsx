import {
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { selectWorkspace } from "~/modules/auth/sessions.server";
import { retryAfterOf } from "~/modules/auth/sign-in.server";
import { operatorWorkspaces, requireOperator } from "~/modules/access/operator.server";
import { SlugSchema, WorkspaceNameSchema } from "~/modules/tenancy/slug";
import { switchWorkspace } from "~/modules/tenancy/editor-session.server";
import { openWorkspace } from "~/modules/tenancy/workspaces.server";
import { Field, FormMessage } from "~/ui/form";
import { page } from "~/lib/routes.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";

export const meta: MetaFunction = () => [{ title: "Workspaces · Atrium" }];

/** A throttled creation's page carries the action's Retry-After. */
export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  const workspaces = await operatorWorkspaces(context, session);
  return {
    workspaces,
    selectedId: session.selectedWorkspaceId,
    origin: new URL(await publicOrigin(request, context)).host,
  };
});

const NewWorkspace = z.object({ name: WorkspaceNameSchema, slug: SlugSchema });

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const session = await requireOperator(request, context);
  return runForm(request, context, async (values) => {
    if (values.intent === "create") {
      const workspace = await openWorkspace(context.services, session.user.id, parseForm(NewWorkspace, values));
      await selectWorkspace(context.services.db, session.id, workspace.id);
    } else if (values.intent === "select") {
      await switchWorkspace(context, session, values.workspaceId ?? "");
    } else {
      throw invalid("Unknown action");
    }
    return redirect("/get-started");
  });
});

export default function WorkspacePicker() {
  const { workspaces, selectedId, origin } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const busy = useNavigation().state === "submitting";
  const errors = result?.intent === "create" ? result.fieldErrors : undefined;
  return (
    <>
      <h1>Your workspaces</h1>
      {result?.intent === "select" ? <FormMessage message={result.message} /> : null}
      {workspaces.length === 0 ? (
        <p className="empty">You have no workspaces yet. Create one for your business below.</p>
      ) : (
        <ul className="workspace-list" aria-label="Workspaces">
          {workspaces.map((w) => (
            <li key={w.id}>
              <div>
                <strong>{w.name}</strong>
                <div className="meta">
                  /{w.slug} · {w.role}
                  {w.id === selectedId ? " · current" : ""}
                </div>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="select" />
                <input type="hidden" name="workspaceId" value={w.id} />
                <button type="submit" className="secondary" aria-label={`Open ${w.name}`}>
                  Open
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      <section className="panel" aria-labelledby="new-workspace">
        <h2 id="new-workspace">New workspace</h2>
        {result?.intent === "create" && !errors?.name && !errors?.slug ? (
          <FormMessage message={result.message} />
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="create" />
          <Field
            label="Name"
            name="name"
            error={errors?.name}
            required
            hint="Your business's name, as customers see it."
          />
          <Field
            label="Site address"
            name="slug"
            prefix={`${origin}/`}
            error={errors?.slug}
            required
            hint="Lowercase letters, digits and hyphens. This is where your public site lives."
          />
          <button type="submit" disabled={busy}>
            Create workspace
          </button>
        </Form>
      </section>
    </>
  );
}
