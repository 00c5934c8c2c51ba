// /shop/taxes — tax rates by country (and region, where it differs), and whether prices include tax and shipping is
// taxed (ADR 030). The cart charges the rate of the customer's address: its region's if set, else its country's,
// else none. Editors change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { taxRatesOf } from "~/modules/commerce/prices.server";
import { commerceSettingsOf } from "~/modules/commerce/settings.server";
import { countryList, profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { SHOP_TABS } from "~/console/shop";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Taxes · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const [rates, settings, profile] = await Promise.all([
    taxRatesOf(db, workspace.id).list(),
    commerceSettingsOf(db, workspace.id).get(),
    profileOf(db, workspace.id).get(),
  ]);
  const countries = countryList();
  const name = new Map(countries.map((c) => [c.code, c.name]));
  return {
    canEdit: roleAtLeast(role, "editor"),
    countries,
    homeCountry: profile.address.country,
    settings,
    rates: rates.map((r) => ({
      id: r.id,
      country: name.get(r.country) ?? r.country,
      region: r.region,
      name: r.name,
      percent: (r.rate_bp / 100).toLocaleString("en", { maximumFractionDigits: 2 }),
    })),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  return runForm(request, context, async (values): Promise<FormResult> => {
    switch (values.intent) {
      case "rate": {
        const percent = Number((values.percent ?? "").replace(",", "."));
        if ((values.percent ?? "").trim() === "" || !Number.isFinite(percent))
          throw invalid("Enter the rate", [{ field: "ratePercent", message: "A percentage, like 20 or 8.875" }]);
        await taxRatesOf(db, workspace.id).save(
          { country: values.country ?? "", region: values.region ?? "", name: values.name ?? "", ratePercent: percent },
          session.user.id,
        );
        return { ok: true, intent: "rate", message: "Rate saved. Carts to that address charge it now." };
      }
      case "remove":
        await taxRatesOf(db, workspace.id).remove(values.id ?? "", session.user.id);
        return { ok: true, intent: "remove", message: "Rate removed." };
      case "settings": {
        const settings = commerceSettingsOf(db, workspace.id);
        const current = await settings.get();
        await settings.update(
          { ...current, pricesIncludeTax: values.pricesIncludeTax === "yes", taxShipping: values.taxShipping === "on" },
          session.user.id,
        );
        return { ok: true, intent: "settings", message: "Saved." };
      }
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function Taxes() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  return (
    <>
      <div className="page-header">
        <h1>Taxes</h1>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <Form method="post" className="panel">
        <h2>How your prices are shown</h2>
        <input type="hidden" name="intent" value="settings" />
        <fieldset className="choice-list">
          <legend>Your prices</legend>
          <label>
            <input type="radio" name="pricesIncludeTax" value="yes" defaultChecked={d.settings.pricesIncludeTax} />{" "}
            include tax (usual for shops selling to consumers in Europe, the UK, Australia)
          </label>
          <label>
            <input type="radio" name="pricesIncludeTax" value="no" defaultChecked={!d.settings.pricesIncludeTax} />{" "}
            exclude tax: it is added at checkout (usual in the US and Canada)
          </label>
        </fieldset>
        <label>
          <input type="checkbox" name="taxShipping" defaultChecked={d.settings.taxShipping} /> Charge tax on delivery
          too
        </label>
        <p>
          <button type="submit" className="secondary" disabled={!d.canEdit}>
            Save
          </button>
        </p>
      </Form>
      <section className="panel" aria-labelledby="rates-heading">
        <h2 id="rates-heading">Rates</h2>
        {d.rates.length === 0 ? (
          <p className="hint">
            No tax rates yet: carts charge no tax. Add the rate of each country (or state) you must charge.
          </p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Tax rates">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Where</th>
                  <th scope="col">Name</th>
                  <th scope="col" className="amount">
                    Rate
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.rates.map((r) => (
                  <tr key={r.id}>
                    <td>
                      {r.country}
                      {r.region ? ` · ${r.region}` : ""}
                    </td>
                    <td>{r.name}</td>
                    <td className="amount">{r.percent} %</td>
                    <td>
                      {d.canEdit ? (
                        <Form method="post">
                          <input type="hidden" name="id" value={r.id} />
                          <button type="submit" name="intent" value="remove" className="text-button">
                            Remove<span className="visually-hidden"> the rate of {r.country}</span>
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {d.canEdit ? (
          <Form method="post" className="tax-form">
            <input type="hidden" name="intent" value="rate" />
            <DescribedField id="tax-country" label="Country" error={errors.country}>
              {(describedBy) => (
                <select id="tax-country" name="country" defaultValue={d.homeCountry} aria-describedby={describedBy}>
                  <option value="">Choose…</option>
                  {d.countries.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
              )}
            </DescribedField>
            <Field label="Region (optional)" name="region" hint="A state's code, e.g. CA" error={errors.region} />
            <Field label="Name" name="name" defaultValue="VAT" error={errors.name} />
            <Field label="Rate (%)" name="percent" error={errors.ratePercent} />
            <button type="submit" className="secondary">
              Save rate
            </button>
          </Form>
        ) : null}
      </section>
    </>
  );
}
