// /settings/integrations/oauth-apps — apps this operator registered with Atrium's OAuth provider: register
// (client_id shown, client_secret shown once), rotate the secret, delete. Per account, like API keys.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { AppFields, oauthAppsOf } from "~/modules/oauth/clients.server";
import { issuerOf } from "~/modules/oauth/issuer.server";
import { requireOperator } from "~/modules/access/operator.server";
import { FormMessage } from "~/ui/form";
import { ConfirmForm } from "~/ui/confirm-form";
import { page } from "~/lib/routes.server";

export const meta: MetaFunction = () => [{ title: "OAuth apps · Atrium" }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  return {
    apps: await oauthAppsOf(context.services.db, session.user.id).list(),
    issuer: await issuerOf(request, context),
  };
});

const AppForm = z.object({ clientId: z.string().min(1) });
type AppsResult = FormResult & { issued?: { clientId: string; secret: string | null; name: string } };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const session = await requireOperator(request, context);
  const apps = oauthAppsOf(context.services.db, session.user.id);
  const actor = { userId: session.user.id, ip: context.request.ip };
  return runForm(request, context, async (values): Promise<AppsResult> => {
    switch (values.intent) {
      case "register": {
        const { app, secret } = await apps.register(actor, parseForm(AppFields, values));
        return { ok: true, intent: "register", issued: { clientId: app.clientId, secret, name: app.name } };
      }
      case "rotate": {
        const { app, secret } = await apps.rotateSecret(actor, parseForm(AppForm, values).clientId);
        return { ok: true, intent: "rotate", issued: { clientId: app.clientId, secret, name: app.name } };
      }
      case "delete": {
        const { clientId } = parseForm(AppForm, values);
        await apps.remove(actor, clientId);
        return { ok: true, intent: "delete", message: "App deleted: its tokens stopped working at once." };
      }
      default:
        throw invalid("Unknown action");
    }
  });
});

function Issued({ issued }: { issued: NonNullable<AppsResult["issued"]> }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="panel new-key" aria-labelledby="issued" role="status">
      <h2 id="issued">{`Credentials of “${issued.name}”`}</h2>
      <p>
        client_id: <code data-testid="client-id">{issued.clientId}</code>
      </p>
      {issued.secret ? (
        <>
          <p>
            <strong>Copy the client secret now: it will not be shown again.</strong> Keep it on your server only.
          </p>
          <p className="key-line">
            <code data-testid="client-secret">{issued.secret}</code>
            <button
              type="button"
              className="secondary"
              onClick={() => void navigator.clipboard?.writeText(issued.secret!).then(() => setCopied(true))}
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </p>
        </>
      ) : (
        <p>A public app has no secret: it must use PKCE (S256).</p>
      )}
    </section>
  );
}

export default function OAuthApps() {
  const { apps, issuer } = useLoaderData<typeof loader>();
  const result = useActionData<AppsResult>();
  const errors = result?.intent === "register" ? result.fieldErrors : undefined;
  return (
    <>
      <h1>OAuth apps</h1>
      <p>
        {"Register an app to let people connect it to their Atrium account. Discovery: "}
        <code>{`${issuer}/.well-known/oauth-authorization-server`}</code>
      </p>
      {result?.issued ? <Issued issued={result.issued} /> : null}
      {result?.message ? <FormMessage message={result.message} tone={result.ok ? "success" : "error"} /> : null}
      <section className="panel" aria-labelledby="register">
        <h2 id="register">Register an app</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="register" />
          <div className="field">
            <label htmlFor="app-name">Name</label>
            <input
              id="app-name"
              name="name"
              required
              aria-invalid={errors?.name ? true : undefined}
              aria-describedby={errors?.name ? "app-name-error" : undefined}
            />
            {errors?.name ? (
              <p className="field-error" id="app-name-error" role="alert">
                {errors.name}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="app-redirects">Redirect URIs</label>
            <textarea
              id="app-redirects"
              name="redirectUris"
              rows={3}
              required
              aria-describedby={errors?.redirectUris ? "app-redirects-hint app-redirects-error" : "app-redirects-hint"}
              aria-invalid={errors?.redirectUris ? true : undefined}
            />
            <p className="hint" id="app-redirects-hint">
              One per line, matched exactly. https, or http for localhost.
            </p>
            {errors?.redirectUris ? (
              <p className="field-error" id="app-redirects-error" role="alert">
                {errors.redirectUris}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="app-type">Type</label>
            <select id="app-type" name="clientType" defaultValue="confidential">
              <option value="confidential">Confidential (a server that can keep a secret)</option>
              <option value="public">Public (single-page or native app, PKCE only)</option>
            </select>
          </div>
          <button type="submit">Register app</button>
        </Form>
      </section>
      <section className="panel" aria-labelledby="apps">
        <h2 id="apps">Your apps</h2>
        {apps.length === 0 ? (
          <p className="empty">No apps yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">client_id</th>
                <th scope="col">Redirect URIs</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.map((app) => (
                <tr key={app.clientId}>
                  <td>
                    {app.name}
                    <div className="hint">{app.clientType}</div>
                  </td>
                  <td>
                    <code>{app.clientId}</code>
                  </td>
                  <td>
                    {app.redirectUris.map((uri) => (
                      <div key={uri}>
                        <code>{uri}</code>
                      </div>
                    ))}
                  </td>
                  <td>
                    <div className="key-actions">
                      {app.clientType === "confidential" ? (
                        <ConfirmForm
                          confirm={`Rotate the secret of “${app.name}”? The current one stops at once.`}
                          fields={{ intent: "rotate", clientId: app.clientId }}
                        >
                          <button type="submit" className="secondary" aria-label={`Rotate secret of ${app.name}`}>
                            Rotate secret
                          </button>
                        </ConfirmForm>
                      ) : null}
                      <ConfirmForm
                        confirm={`Delete “${app.name}”? Everyone connected loses access at once.`}
                        fields={{ intent: "delete", clientId: app.clientId }}
                      >
                        <button type="submit" className="danger" aria-label={`Delete ${app.name}`}>
                          Delete
                        </button>
                      </ConfirmForm>
                    </div>
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
