// /settings/integrations/connected-apps — the apps this user authorized: scopes, last use, "Revoke access".
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { connectedAppsOf } from "~/modules/oauth/connected-apps.server";
import { requireOperator } from "~/modules/access/operator.server";
import { FormMessage } from "~/ui/form";
import { ConfirmForm } from "~/ui/confirm-form";
import { page } from "~/lib/routes.server";

export const meta: MetaFunction = () => [{ title: "Connected apps · Atrium" }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  return { apps: await connectedAppsOf(context.services.db, session.user.id).list() };
});

const RevokeForm = z.object({ grantId: z.string().min(1) });

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const session = await requireOperator(request, context);
  return runForm(request, context, async (values): Promise<FormResult> => {
    const { grantId } = parseForm(RevokeForm, values);
    const actor = { userId: session.user.id, ip: context.request.ip };
    await connectedAppsOf(context.services.db, session.user.id).revoke(actor, grantId);
    return { ok: true, message: "Access revoked: the app's tokens stopped working at once." };
  });
});

export default function ConnectedApps() {
  const { apps } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <h1>Connected apps</h1>
      <p>Apps you allowed to use your Atrium account. Revoking access stops them at once.</p>
      {result?.message ? <FormMessage message={result.message} tone={result.ok ? "success" : "error"} /> : null}
      <section className="panel" aria-labelledby="connected">
        <h2 id="connected">Apps with access</h2>
        {apps.length === 0 ? (
          <p className="empty">No app has access to your account.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Scopes</th>
                <th scope="col">Authorized</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.map((app) => (
                <tr key={app.grantId} data-client-id={app.clientId}>
                  <td>{app.app}</td>
                  <td>{app.scopes.join(", ")}</td>
                  <td>{app.authorizedAt.slice(0, 10)}</td>
                  <td>{app.lastUsedAt ? app.lastUsedAt.slice(0, 16).replace("T", " ") : "Never"}</td>
                  <td>
                    <ConfirmForm confirm={`Revoke the access of “${app.app}”?`} fields={{ grantId: app.grantId }}>
                      <button type="submit" className="danger" aria-label={`Revoke access of ${app.app}`}>
                        Revoke access
                      </button>
                    </ConfirmForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
