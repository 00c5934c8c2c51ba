// /shop/coupons — discount codes (ADR 030): a percentage or an amount off, from a minimum order value, between two
// dates, for the whole cart or some products or collections, with a limit in all and per customer (both enforced
// when an order is placed, so two customers using the last one at once cannot both get it). Editors change them.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { collectionsOf } from "~/modules/commerce/catalogue.server";
import { formatMoney, parseMoney } from "~/modules/commerce/money";
import { couponsOf } from "~/modules/commerce/prices.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { SHOP_TABS } from "~/console/shop";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Coupons · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const [coupons, collections, profile] = await Promise.all([
    couponsOf(db, workspace.id).list(),
    collectionsOf(db, workspace.id).list(),
    profileOf(db, workspace.id).get(),
  ]);
  const money = (n: number) => formatMoney(n, profile.currency);
  const day = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: profile.timeZone }).format(new Date(iso))
      : null;
  const collectionName = new Map(collections.map((c) => [c.id, c.title]));
  return {
    canEdit: roleAtLeast(role, "editor"),
    currency: profile.currency,
    collections: collections.map((c) => ({ id: c.id, title: c.title })),
    coupons: coupons.map((c) => ({
      id: c.id,
      code: c.code,
      active: c.active,
      value: c.kind === "percent" ? `${c.value} % off` : `${money(c.value)} off`,
      conditions: [
        c.minSubtotal ? `from ${money(c.minSubtotal)}` : null,
        c.collectionIds.length
          ? `on ${c.collectionIds.map((id) => collectionName.get(id) ?? "a removed collection").join(", ")}`
          : null,
        c.startsAt || c.endsAt
          ? [day(c.startsAt) ? `from ${day(c.startsAt)}` : null, day(c.endsAt) ? `until ${day(c.endsAt)}` : null]
              .filter(Boolean)
              .join(" ")
          : null,
        c.perCustomerLimit ? `${c.perCustomerLimit} per customer` : null,
      ].filter(Boolean),
      used: c.usageLimit === null ? `${c.usedCount} used` : `${c.usedCount} of ${c.usageLimit} used`,
    })),
  };
});

const dateOrNull = (text: string | undefined, endOfDay: boolean) => {
  const t = (text ?? "").trim();
  if (!t) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t))
    throw invalid("Enter a date", [{ field: endOfDay ? "endsAt" : "startsAt", message: "A date, like 2026-12-24" }]);
  return new Date(`${t}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z`).toISOString();
};
const wholeOrNull = (field: string, text: string | undefined) => {
  const t = (text ?? "").trim();
  if (!t) return null;
  const n = Number(t);
  if (!Number.isInteger(n) || n < 1)
    throw invalid("Enter a whole number", [{ field, message: "A whole number, 1 or more" }]);
  return n;
};

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const coupons = couponsOf(db, workspace.id);
  return runForm(request, context, async (values): Promise<FormResult> => {
    if (values.intent === "toggle") {
      await coupons.setActive(values.id ?? "", values.active === "1", session.user.id);
      return {
        ok: true,
        intent: "toggle",
        message: values.active === "1" ? "Coupon turned on." : "Coupon turned off: it can no longer be used.",
      };
    }
    if (values.intent !== "create") throw invalid("Unknown action");
    const currency = (await profileOf(db, workspace.id).get()).currency;
    const kind = values.kind === "fixed" ? "fixed" : "percent";
    const raw = (values.value ?? "").trim();
    const value = kind === "fixed" ? parseMoney(raw, currency) : Number(raw);
    if (!raw || value === null || !Number.isInteger(value) || value < 1)
      throw invalid("Enter the discount", [
        { field: "value", message: kind === "fixed" ? `An amount in ${currency}` : "A whole percentage, 1 to 100" },
      ]);
    const min = (values.minSubtotal ?? "").trim();
    const minSubtotal = min ? parseMoney(min, currency) : 0;
    if (minSubtotal === null)
      throw invalid("Check the minimum", [{ field: "minSubtotal", message: `An amount in ${currency}` }]);
    const coupon = await coupons.create(
      {
        code: values.code ?? "",
        kind,
        value,
        minSubtotal,
        startsAt: dateOrNull(values.startsAt, false),
        endsAt: dateOrNull(values.endsAt, true),
        usageLimit: wholeOrNull("usageLimit", values.usageLimit),
        perCustomerLimit: wholeOrNull("perCustomerLimit", values.perCustomerLimit),
        collectionIds: values.collectionId ? [values.collectionId] : [],
      },
      session.user.id,
    );
    return { ok: true, intent: "create", message: `Coupon ${coupon.code} created: customers enter it in their cart.` };
  });
});

export default function Coupons() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  return (
    <>
      <div className="page-header">
        <h1>Coupons</h1>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      {d.coupons.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No coupons yet.</strong> Create a code below — a welcome discount, free delivery over an amount is a
            delivery rate instead.
          </p>
        </div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Coupons">
          <table className="customer-table">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Discount</th>
                <th scope="col">Conditions</th>
                <th scope="col">Used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {d.coupons.map((c) => (
                <tr key={c.id}>
                  <td>
                    <span className="customer-name coupon-code">{c.code}</span>
                    {!c.active ? <span className="status-pill status-pill--archived">Off</span> : null}
                  </td>
                  <td>{c.value}</td>
                  <td>{c.conditions.length ? c.conditions.join(" · ") : "Any order"}</td>
                  <td>{c.used}</td>
                  <td>
                    {d.canEdit ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={c.id} />
                        <input type="hidden" name="active" value={c.active ? "0" : "1"} />
                        <button type="submit" name="intent" value="toggle" className="text-button">
                          {c.active ? "Turn off" : "Turn on"}
                          <span className="visually-hidden"> {c.code}</span>
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
        <Form method="post" className="panel coupon-form">
          <h2>New coupon</h2>
          <input type="hidden" name="intent" value="create" />
          <div className="inline-fields">
            <Field label="Code" name="code" hint="What customers type, e.g. WELCOME10" error={errors.code} />
            <DescribedField id="coupon-kind" label="Type">
              {(describedBy) => (
                <select id="coupon-kind" name="kind" aria-describedby={describedBy}>
                  <option value="percent">Percentage off</option>
                  <option value="fixed">Amount off ({d.currency})</option>
                </select>
              )}
            </DescribedField>
            <Field label="Value" name="value" hint="10 for 10 %, or an amount" error={errors.value} />
            <Field
              label={`Minimum order (${d.currency})`}
              name="minSubtotal"
              hint="Optional"
              error={errors.minSubtotal}
            />
          </div>
          <div className="inline-fields">
            <Field label="Starts" name="startsAt" type="date" error={errors.startsAt} />
            <Field label="Ends" name="endsAt" type="date" error={errors.endsAt} />
            <Field
              label="Uses in all"
              name="usageLimit"
              type="number"
              hint="Empty: no limit"
              error={errors.usageLimit}
            />
            <Field
              label="Uses per customer"
              name="perCustomerLimit"
              type="number"
              hint="Empty: no limit"
              error={errors.perCustomerLimit}
            />
            {d.collections.length ? (
              <DescribedField id="coupon-collection" label="Only on">
                {(describedBy) => (
                  <select id="coupon-collection" name="collectionId" aria-describedby={describedBy}>
                    <option value="">Everything</option>
                    {d.collections.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.title}
                      </option>
                    ))}
                  </select>
                )}
              </DescribedField>
            ) : null}
          </div>
          <button type="submit">Create coupon</button>
        </Form>
      ) : null}
    </>
  );
}
