// /shipping/rates — delivery (ADR 030): zones (the countries you ship to) with their rates — a flat price, a price by
// weight, free over an order value — and local pickup, which needs no zone. The checkout offers a customer the
// rates of their country's zone that fit their cart, and pickup. Editors change it; every member reads.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney, parseMoney } from "~/modules/commerce/money";
import { shippingOf } from "~/modules/commerce/prices.server";
import { countryList, profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { SHIPPING_TABS } from "~/console/shop";
import { ConfirmForm } from "~/ui/confirm-form";
import { SectionTabs } from "~/ui/section-tabs";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Zones and rates · Shipping · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const shipping = shippingOf(context.services.db, workspace.id);
  const [zones, rates, profile] = await Promise.all([
    shipping.zones(),
    shipping.rates(),
    profileOf(context.services.db, workspace.id).get(),
  ]);
  const countries = countryList();
  const name = new Map(countries.map((c) => [c.code, c.name]));
  const money = (n: number) => formatMoney(n, profile.currency);
  const describe = (r: (typeof rates)[number]) =>
    [
      r.price === 0 ? "Free" : money(r.price),
      r.kind === "weight"
        ? `for ${(r.minWeightGrams ?? 0) / 1000}–${r.maxWeightGrams === null ? "∞" : r.maxWeightGrams / 1000} kg`
        : null,
      r.freeOver !== null ? `free from ${money(r.freeOver)}` : null,
    ]
      .filter(Boolean)
      .join(" · ");
  return {
    canEdit: roleAtLeast(role, "editor"),
    currency: profile.currency,
    homeCountry: profile.address.country,
    countries,
    zones: zones.map((z) => ({
      id: z.id,
      name: z.name,
      countries: z.countries.map((c) => name.get(c) ?? c),
      rates: rates.filter((r) => r.zoneId === z.id).map((r) => ({ id: r.id, name: r.name, detail: describe(r) })),
    })),
    pickup: rates
      .filter((r) => r.kind === "pickup")
      .map((r) => ({ id: r.id, name: r.name, detail: describe(r), instructions: r.instructions })),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const shipping = shippingOf(db, workspace.id);
  const actor = session.user.id;
  return runForm(request, context, async (values): Promise<FormResult> => {
    const currency = (await profileOf(db, workspace.id).get()).currency;
    const amount = (field: string, required: boolean) => {
      const text = (values[field] ?? "").trim();
      if (text === "") {
        if (required) throw invalid("Enter a price", [{ field, message: "Enter a price (0 for free)" }]);
        return null;
      }
      const minor = parseMoney(text, currency);
      if (minor === null)
        throw invalid(`Enter an amount in ${currency}`, [{ field, message: `An amount in ${currency}, like 4.90` }]);
      return minor;
    };
    const kilos = (field: string) => {
      const text = (values[field] ?? "").trim();
      if (text === "") return null;
      const n = Number(text);
      if (!Number.isFinite(n) || n < 0)
        throw invalid("Enter a weight in kg", [{ field, message: "A weight in kg, like 2.5" }]);
      return Math.round(n * 1000);
    };
    switch (values.intent) {
      case "zone": {
        const countries = (values.countries ?? "")
          .split(",")
          .map((c) => c.trim().toUpperCase())
          .filter(Boolean);
        await shipping.addZone(values.name ?? "", countries, actor);
        return { ok: true, intent: "zone", message: "Zone added. Now give it a rate." };
      }
      case "rate":
        await shipping.addRate(
          {
            zoneId: values.zoneId || null,
            name: values.name ?? "",
            kind: values.kind === "weight" ? "weight" : "flat",
            price: amount("price", true) ?? 0,
            minWeightGrams: kilos("minKg"),
            maxWeightGrams: kilos("maxKg"),
            freeOver: amount("freeOver", false),
          },
          actor,
        );
        return { ok: true, intent: `rate-${values.zoneId}`, message: "Rate added." };
      case "pickup":
        await shipping.addRate(
          {
            zoneId: null,
            kind: "pickup",
            name: values.name ?? "",
            price: amount("price", false) ?? 0,
            instructions: values.instructions ?? "",
          },
          actor,
        );
        return { ok: true, intent: "pickup", message: "Pickup added: customers can choose it at checkout." };
      case "remove-rate":
        await shipping.removeRate(values.id ?? "", actor);
        return { ok: true, intent: "removed", message: "Rate removed." };
      case "remove-zone":
        await shipping.removeZone(values.id ?? "", actor);
        return { ok: true, intent: "removed", message: "Zone and its rates removed." };
      default:
        throw invalid("Unknown action");
    }
  });
});

function RateTable({
  rates,
  canEdit,
}: {
  rates: ReadonlyArray<{ id: string; name: string; detail: string; instructions?: string }>;
  canEdit: boolean;
}) {
  return (
    <table className="customer-table rate-table">
      <thead>
        <tr>
          <th scope="col">Rate</th>
          <th scope="col">Price</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rates.map((r) => (
          <tr key={r.id}>
            <td>
              <span className="customer-name">{r.name}</span>
              {r.instructions ? <span className="customer-email">{r.instructions}</span> : null}
            </td>
            <td>{r.detail}</td>
            <td className="amount">
              {canEdit ? (
                <Form method="post">
                  <input type="hidden" name="id" value={r.id} />
                  <button type="submit" name="intent" value="remove-rate" className="text-button">
                    Remove<span className="visually-hidden"> {r.name}</span>
                  </button>
                </Form>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function Shipping() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errorsFor = (intent: string) =>
    result && !result.ok && result.intent === intent ? (result.fieldErrors ?? {}) : {};
  const messageFor = (intent: string) => (result?.intent === intent ? result : undefined);
  return (
    <>
      <div className="page-header">
        <h1>Shipping</h1>
      </div>
      <SectionTabs label="Shipping" tabs={SHIPPING_TABS} />
      <p className="page-intro">
        Where you deliver and what it costs. A customer sees the rates of their country's zone that fit their cart, and
        pickup if you offer it.
      </p>
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />

      {d.zones.length === 0 && d.pickup.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No delivery set up yet.</strong> Add a zone with the countries you ship to and its price, or offer
            local pickup — customers cannot check out physical products until you do.
          </p>
        </div>
      ) : null}

      {d.zones.map((z) => (
        <section key={z.id} className="panel" aria-labelledby={`zone-${z.id}`}>
          <div className="page-header">
            <h2 id={`zone-${z.id}`}>{z.name}</h2>
            {d.canEdit ? (
              <ConfirmForm
                confirm={`Remove the zone “${z.name}” and its rates?`}
                fields={{ intent: "remove-zone", id: z.id }}
              >
                <button type="submit" className="secondary">
                  Remove zone
                </button>
              </ConfirmForm>
            ) : null}
          </div>
          <p className="hint">{z.countries.join(", ")}</p>
          {z.rates.length === 0 ? (
            <p className="field-error">No rate yet: customers in these countries cannot check out.</p>
          ) : null}
          {z.rates.length > 0 ? <RateTable rates={z.rates} canEdit={d.canEdit} /> : null}
          {d.canEdit ? (
            <details open={z.rates.length === 0 || messageFor(`rate-${z.id}`) !== undefined}>
              <summary>Add a rate</summary>
              <Form method="post" className="rate-form">
                <input type="hidden" name="intent" value="rate" />
                <input type="hidden" name="zoneId" value={z.id} />
                <Field label="Name" name="name" hint="e.g. Standard, Express" error={errorsFor("rate").name} />
                <Field label={`Price (${d.currency})`} name="price" error={errorsFor("rate").price} />
                <DescribedField id={`kind-${z.id}`} label="Price by">
                  {(describedBy) => (
                    <select id={`kind-${z.id}`} name="kind" aria-describedby={describedBy}>
                      <option value="flat">Flat price</option>
                      <option value="weight">Weight range</option>
                    </select>
                  )}
                </DescribedField>
                <Field label="From kg" name="minKg" error={errorsFor("rate").minWeightGrams} />
                <Field label="To kg" name="maxKg" error={errorsFor("rate").maxWeightGrams} />
                <Field
                  label={`Free from (${d.currency})`}
                  name="freeOver"
                  hint="Optional"
                  error={errorsFor("rate").freeOver}
                />
                <button type="submit" className="secondary">
                  Add rate
                </button>
              </Form>
            </details>
          ) : null}
        </section>
      ))}

      {d.pickup.length > 0 ? (
        <section className="panel" aria-labelledby="pickup-heading">
          <h2 id="pickup-heading">Local pickup</h2>
          <RateTable rates={d.pickup} canEdit={d.canEdit} />
        </section>
      ) : null}

      {d.canEdit ? (
        <div className="customer-panels">
          <Form method="post" className="panel">
            <h2>Add a zone</h2>
            <input type="hidden" name="intent" value="zone" />
            <Field label="Name" name="name" hint="e.g. Domestic, Europe" error={errorsFor("zone").name} />
            <DescribedField
              id="zone-countries"
              label="Countries"
              hint="Hold Ctrl (⌘ on a Mac) to choose several."
              error={errorsFor("zone").countries}
            >
              {(describedBy) => (
                <select
                  id="zone-countries"
                  name="countries"
                  multiple
                  size={8}
                  defaultValue={d.homeCountry ? [d.homeCountry] : []}
                  aria-describedby={describedBy}
                  className="country-select"
                >
                  {d.countries.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
              )}
            </DescribedField>
            <button type="submit">Add zone</button>
          </Form>
          <Form method="post" className="panel">
            <h2>Offer local pickup</h2>
            <input type="hidden" name="intent" value="pickup" />
            <Field label="Name" name="name" defaultValue="Pickup at the shop" error={errorsFor("pickup").name} />
            <Field label={`Price (${d.currency})`} name="price" defaultValue="0" error={errorsFor("pickup").price} />
            <Field
              label="Instructions"
              name="instructions"
              hint="Where and when to collect"
              error={errorsFor("pickup").instructions}
            />
            <button type="submit" className="secondary">
              Add pickup
            </button>
          </Form>
        </div>
      ) : null}
    </>
  );
}
