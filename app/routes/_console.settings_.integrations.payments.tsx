// /settings/integrations/payments — how the shop gets paid (ADR 030): each payment provider with its connection
// state, and the manual provider's settings — bank transfer with the instructions customers get, pay on pickup,
// how long an unpaid order holds its stock, and how long a customer may cancel it. Card providers (Stripe, PayPal)
// join this list with the next commerce issue. Admins change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, runForm } from "~/lib/forms.server";
import { parseInput } from "~/lib/errors";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { PAYMENT_PROVIDERS } from "~/modules/commerce/payments.server";
import { CommerceSettingsInput, commerceSettingsOf } from "~/modules/commerce/settings.server";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Payments · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const settings = await commerceSettingsOf(context.services.db, workspace.id).get();
  return { settings, providers: PAYMENT_PROVIDERS.map((p) => ({ id: p.id, name: p.name, ...p.connection(settings) })) };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "admin");
  return runForm(request, context, async (values): Promise<FormResult> => {
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
        <p className="hint">
          Card payments (Stripe, PayPal) are coming; until then customers pay by transfer or when they collect.
        </p>
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
