// /settings/integrations/shipping — how the shop ships (ADR 034): the manual provider (always there: the carrier
// and tracking number are entered on an order) and EasyPost, connected with the shop's own API key (checked with
// EasyPost, sealed, its webhook registered by Atrium with a secret of its own), checked again or disconnected.
// Admins change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { connectionStatesOf } from "~/modules/commerce/connections.server";
import { checkEasyPost, connectEasyPost, disconnectEasyPost } from "~/modules/commerce/easypost.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { profileOf } from "~/modules/sites/profile.server";
import { ProviderConnection } from "~/ui/provider-connection";
import { Field, FormMessage } from "~/ui/form";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Shipping labels · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const webhookUrlOf = async (request: Request, context: LoaderFunctionArgs["context"], workspaceId: string) =>
  `${await publicOrigin(request, context)}/api/webhooks/shipping/provider?workspace=${workspaceId}`;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const [easypost, profile] = await Promise.all([
    connectionStatesOf(context.services.db, workspace.id).get("easypost"),
    profileOf(context.services.db, workspace.id).get(),
  ]);
  return {
    easypost: easypost && {
      status: easypost.status,
      accountName: easypost.accountName,
      accountId: easypost.accountId,
      detail: easypost.detail,
    },
    hasAddress: Boolean(profile.address.street && profile.address.postalCode && profile.address.country),
    webhookUrl: await webhookUrlOf(request, context, workspace.id),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "admin");
  return runForm(request, context, async (values): Promise<FormResult> => {
    const { services } = context;
    switch (values.intent) {
      case "easypost-connect":
        await connectEasyPost(
          services,
          workspace.id,
          { apiKey: values.apiKey ?? "" },
          await webhookUrlOf(request, context, workspace.id),
          session.user.id,
        );
        return { ok: true, message: "EasyPost is connected. Buy labels from an order's page." };
      case "easypost-check":
        await checkEasyPost(services, workspace.id);
        return { ok: true, message: "EasyPost answered: the connection works." };
      case "easypost-disconnect":
        await disconnectEasyPost(services, workspace.id, session.user.id);
        return { ok: true, message: "EasyPost is disconnected. Packages already sent keep their tracking numbers." };
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function ShippingSettings() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  return (
    <>
      <div className="page-header">
        <h1>Shipping labels</h1>
        <Link className="button secondary" to="/shipping">
          Shipments
        </Link>
      </div>
      <p className="page-intro">How you send orders, and how customers follow their parcels.</p>
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <section className="panel" aria-labelledby="manual-heading">
        <h2 id="manual-heading">By hand</h2>
        <p className="hint">
          Always on. On an order&apos;s page, choose the carrier and enter the tracking number of a label you bought at
          the post office or the carrier&apos;s site: the customer is e-mailed a link to follow the parcel.
        </p>
      </section>
      <section className="panel" aria-labelledby="easypost-heading">
        <h2 id="easypost-heading">EasyPost</h2>
        {d.easypost ? (
          <ProviderConnection
            name="EasyPost"
            intent="easypost"
            status={d.easypost.status}
            accountName={d.easypost.accountName}
            account={d.easypost.accountId}
            detail={d.easypost.detail}
            events={
              <>
                Atrium registered its webhook with EasyPost, so tracking updates arrive on their own:{" "}
                <code>{d.webhookUrl}</code>
              </>
            }
            disconnectWarning="You can no longer buy labels here; packages already sent keep their tracking numbers, but their tracking stops updating."
          />
        ) : (
          <p className="hint">
            Compare the rates of your carriers (USPS, UPS, FedEx, DHL and more) and buy the label from an order&apos;s
            page; tracking then updates by itself. Labels are paid from your own EasyPost account.
          </p>
        )}
        {!d.hasAddress ? (
          <p className="field-error">
            Carriers need the address parcels leave from: add your address to the{" "}
            <Link to="/website/profile">business profile</Link> first.
          </p>
        ) : null}
        <Form method="post" autoComplete="off" className={d.easypost ? "provider-keys" : undefined}>
          <input type="hidden" name="intent" value="easypost-connect" />
          <Field
            label={d.easypost ? "Replace the API key" : "API key"}
            name="apiKey"
            type="password"
            error={errors.apiKey}
            hint="From EasyPost's dashboard, Account settings → API keys: EZAK… (production) or EZTK… (test). It is checked with EasyPost and stored encrypted."
          />
          <button type="submit">{d.easypost ? "Save and check" : "Connect EasyPost"}</button>
        </Form>
      </section>
    </>
  );
}
