// /settings/integrations/payments — how the shop gets paid (ADR 030, 032, 035): each payment provider with its
// connection state; PayPal connected with its REST app's id, secret and webhook id (checked with PayPal); Stripe connected with the shop's own secret key (checked with Stripe, sealed, its webhook
// endpoint registered by Atrium unless a signing secret is given), checked again or disconnected; and the manual
// provider's settings — bank transfer with the instructions customers get, pay on pickup, how long an unpaid order
// holds its stock, and how long a customer may cancel it. Admins change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, runForm } from "~/lib/forms.server";
import { parseInput } from "~/lib/errors";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { paymentConnectionsOf } from "~/modules/commerce/connections.server";
import { PAYMENT_PROVIDERS, paymentSetupOf } from "~/modules/commerce/payments.server";
import { type PayPalCredentials, checkPayPal, connectPayPal, disconnectPayPal } from "~/modules/commerce/paypal.server";
import { checkStripe, connectStripe, disconnectStripe } from "~/modules/commerce/stripe.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { CommerceSettingsInput, commerceSettingsOf } from "~/modules/commerce/settings.server";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { ProviderConnection } from "~/ui/provider-connection";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Payments · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const setup = await paymentSetupOf(context.services.db, workspace.id);
  const connections = paymentConnectionsOf(context.services, workspace.id);
  const [stripe, paypal] = await Promise.all([connections.get("stripe"), connections.get("paypal")]);
  const paypalKeys = paypal ? await connections.credentials<PayPalCredentials>("paypal") : null;
  return {
    settings: setup.settings,
    providers: PAYMENT_PROVIDERS.map((p) => ({ id: p.id, name: p.name, ...p.connection(setup) })),
    stripe: stripe && {
      status: stripe.status,
      accountName: stripe.accountName,
      accountId: stripe.accountId,
      registered: stripe.webhookEndpointId !== null,
      detail: stripe.detail,
      checkedAt: stripe.checkedAt,
    },
    paypal: paypal && {
      status: paypal.status,
      accountName: paypal.accountName,
      mode: paypalKeys?.mode ?? "sandbox",
      clientId: paypalKeys?.clientId ?? "",
      webhookId: paypal.webhookEndpointId,
      detail: paypal.detail,
    },
    webhookUrl: await webhookUrlOf(request, context, workspace.id),
  };
});

const webhookUrlOf = async (request: Request, context: LoaderFunctionArgs["context"], workspaceId: string) =>
  `${await publicOrigin(request, context)}/api/webhooks/payments?workspace=${workspaceId}`;

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "admin");
  return runForm(request, context, async (values): Promise<FormResult> => {
    const { services } = context;
    if (values.intent === "stripe-connect") {
      await connectStripe(
        services,
        workspace.id,
        { secretKey: values.secretKey ?? "", webhookSecret: values.webhookSecret ?? "" },
        await webhookUrlOf(request, context, workspace.id),
        session.user.id,
      );
      return { ok: true, message: "Stripe is connected. Customers can pay by card at checkout." };
    }
    if (values.intent === "stripe-check") {
      await checkStripe(services, workspace.id);
      return { ok: true, message: "Stripe answered: the connection works." };
    }
    if (values.intent === "stripe-disconnect") {
      await disconnectStripe(services, workspace.id, session.user.id, await publicOrigin(request, context));
      return { ok: true, message: "Stripe is disconnected. Orders already paid by card keep their payments." };
    }
    if (values.intent === "paypal-connect") {
      await connectPayPal(
        services,
        workspace.id,
        {
          clientId: values.clientId ?? "",
          clientSecret: values.clientSecret ?? "",
          webhookId: values.webhookId ?? "",
          mode: values.mode ?? "",
        },
        session.user.id,
      );
      return { ok: true, message: "PayPal is connected. Customers can pay with PayPal at checkout." };
    }
    if (values.intent === "paypal-check") {
      await checkPayPal(services, workspace.id);
      return { ok: true, message: "PayPal answered: the connection works." };
    }
    if (values.intent === "paypal-disconnect") {
      await disconnectPayPal(services, workspace.id, session.user.id);
      return { ok: true, message: "PayPal is disconnected. Orders already paid with PayPal keep their payments." };
    }
    const current = await commerceSettingsOf(context.services.db, workspace.id).get();
    const input = parseInput(CommerceSettingsInput, {
      ...current,
      bankTransfer: values.bankTransfer === "on",
      bankInstructions: values.bankInstructions ?? "",
      payOnPickup: values.payOnPickup === "on",
      holdDays: Number(values.holdDays),
      cancelWindowHours: Number(values.cancelWindowHours),
    });
    await commerceSettingsOf(context.services.db, workspace.id).update(input, session.user.id);
    return { ok: true, message: "Payment settings saved." };
  });
});

export default function Payments() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  return (
    <>
      <div className="page-header">
        <h1>Payments</h1>
      </div>
      <p className="page-intro">How customers pay for what they order in your shop.</p>
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <section className="panel" aria-labelledby="providers-heading">
        <h2 id="providers-heading">Providers</h2>
        <ul className="provider-list">
          {d.providers.map((p) => (
            <li key={p.id}>
              <strong>{p.name}</strong>{" "}
              <span className={`status-pill status-pill--${p.connected ? "active" : "archived"}`}>
                {p.connected ? "Connected" : "Not set up"}
              </span>
              <p className="hint">{p.detail}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-labelledby="stripe-heading">
        <h2 id="stripe-heading">Stripe</h2>
        {d.stripe ? (
          <ProviderConnection
            name="Stripe"
            intent="stripe"
            status={d.stripe.status}
            accountName={d.stripe.accountName}
            account={d.stripe.accountId}
            detail={d.stripe.detail}
            events={
              <>
                {d.stripe.registered
                  ? "Atrium registered its webhook endpoint with Stripe: "
                  : "Stripe sends events to the endpoint you added: "}
                <code>{d.webhookUrl}</code>
              </>
            }
            disconnectWarning="Customers can no longer pay by card; paid orders keep their payments."
          />
        ) : (
          <p className="hint">
            Take card payments on Stripe&apos;s secure checkout page. Payments go to your own Stripe account.
          </p>
        )}
        <Form method="post" autoComplete="off" className={d.stripe ? "provider-keys" : undefined}>
          <input type="hidden" name="intent" value="stripe-connect" />
          <Field
            label={d.stripe ? "Replace the secret key" : "Secret key"}
            name="secretKey"
            type="password"
            error={errors.secretKey}
            hint="From Stripe's dashboard, Developers → API keys: sk_live_…, sk_test_… or a restricted rk_… key. It is checked with Stripe and stored encrypted."
          />
          <Field
            label="Webhook signing secret (optional)"
            name="webhookSecret"
            type="password"
            error={errors.webhookSecret}
            hint={`Leave it empty and Atrium registers its endpoint with Stripe for you. Or add ${d.webhookUrl} in Stripe yourself and paste its whsec_… secret.`}
          />
          <button type="submit">{d.stripe ? "Save and check" : "Connect Stripe"}</button>
        </Form>
      </section>
      <section className="panel" aria-labelledby="paypal-heading">
        <h2 id="paypal-heading">PayPal</h2>
        {d.paypal ? (
          <ProviderConnection
            name="PayPal"
            intent="paypal"
            status={d.paypal.status}
            accountName={d.paypal.accountName}
            account={d.paypal.mode === "live" ? "Live" : "Sandbox"}
            detail={d.paypal.detail}
            events={
              <>
                PayPal sends events for webhook <code>{d.paypal.webhookId}</code> to <code>{d.webhookUrl}</code>
              </>
            }
            disconnectWarning="Customers can no longer pay with PayPal; paid orders keep their payments."
          />
        ) : (
          <p className="hint">
            Let customers pay with their PayPal account on PayPal&apos;s page. Payments go to your own PayPal business
            account.
          </p>
        )}
        <Form method="post" autoComplete="off" className={d.paypal ? "provider-keys" : undefined}>
          <input type="hidden" name="intent" value="paypal-connect" />
          <fieldset className="choice-list">
            <legend>Which PayPal</legend>
            <label>
              <input type="radio" name="mode" value="sandbox" defaultChecked={d.paypal?.mode !== "live"} /> Sandbox
              (test accounts, no real money)
            </label>
            <label>
              <input type="radio" name="mode" value="live" defaultChecked={d.paypal?.mode === "live"} /> Live
            </label>
            {errors.mode ? <p className="field-error">{errors.mode}</p> : null}
          </fieldset>
          <Field
            label="Client ID"
            name="clientId"
            defaultValue={d.paypal?.clientId}
            error={errors.clientId}
            hint="In PayPal's developer dashboard, Apps & Credentials: create an app (or open yours) and copy its client ID."
          />
          <Field
            label={d.paypal ? "Replace the secret" : "Secret"}
            name="clientSecret"
            type="password"
            error={errors.clientSecret}
            hint="The app's secret, beside its client ID. It is checked with PayPal and stored encrypted."
          />
          <Field
            label="Webhook ID"
            name="webhookId"
            defaultValue={d.paypal?.webhookId ?? undefined}
            error={errors.webhookId}
            hint={`In the app's settings, add a webhook for ${d.webhookUrl} with the events Checkout order approved, Payment capture completed and Payment capture refunded, then paste the ID PayPal shows for it.`}
          />
          <button type="submit">{d.paypal ? "Save and check" : "Connect PayPal"}</button>
        </Form>
      </section>
      <Form method="post" className="panel">
        <h2>Manual payments</h2>
        <fieldset className="choice-list">
          <legend>Customers may</legend>
          <label>
            <input type="checkbox" name="bankTransfer" defaultChecked={d.settings.bankTransfer} /> pay by bank transfer
          </label>
          <label>
            <input type="checkbox" name="payOnPickup" defaultChecked={d.settings.payOnPickup} /> pay when they collect
            their order
          </label>
        </fieldset>
        <DescribedField
          id="field-bankInstructions"
          label="Bank transfer instructions"
          error={errors.bankInstructions}
          hint="Shown after checkout and in the confirmation e-mail, with the order number as the reference."
        >
          {(describedBy) => (
            <textarea
              id="field-bankInstructions"
              name="bankInstructions"
              rows={4}
              defaultValue={d.settings.bankInstructions}
              aria-describedby={describedBy}
              aria-invalid={errors.bankInstructions ? true : undefined}
              className="wide-textarea"
              placeholder={"Account holder: …\nIBAN: …\nBIC: …"}
            />
          )}
        </DescribedField>
        <div className="inline-fields">
          <Field
            label="Hold stock for unpaid orders (days)"
            name="holdDays"
            type="number"
            defaultValue={String(d.settings.holdDays)}
            error={errors.holdDays}
            hint="Then the order is cancelled and its items go back on sale."
          />
          <Field
            label="Customers may cancel unpaid orders within (hours)"
            name="cancelWindowHours"
            type="number"
            defaultValue={String(d.settings.cancelWindowHours)}
            error={errors.cancelWindowHours}
          />
        </div>
        <button type="submit">Save</button>
      </Form>
    </>
  );
}
