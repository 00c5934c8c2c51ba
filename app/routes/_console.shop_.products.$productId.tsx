// /shop/products/{id} (and /shop/products/new) — a product's editor (ADR 030): name, description (Markdown),
// status, up to three options and a variant for each combination of their values (price, compare-at price,
// SKU, stock, weight), images, collections and what search engines show. Works without JavaScript: changing the
// options and saving adds the new combinations (at the product's default price) and drops the ones no longer
// listed. Editors change it; every member reads it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import type { FormResult } from "~/lib/forms.server";
import { slugBase } from "~/lib/link-base";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { collectionsOf, productsOf, type ProductInput, type VariantInput } from "~/modules/commerce/catalogue.server";
import { connectionStatesOf } from "~/modules/commerce/connections.server";
import {
  PRODUCT_STATUSES,
  SUBSCRIPTION_INTERVALS,
  type SubscriptionInterval,
  combinations,
  optionKey,
} from "~/modules/commerce/vocabulary";
import { moneyInput, parseMoney } from "~/modules/commerce/money";
import { filesOf } from "~/modules/files/files.server";
import { mediaOf } from "~/modules/files/media.server";
import { mediaSrc } from "~/modules/files/media-urls";
import { runUploadForm } from "~/modules/files/upload.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { PRODUCT_STATUS_LABELS } from "~/console/shop";
import { ConfirmForm } from "~/ui/confirm-form";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.product ? data.product.title : "New product"} · Atrium` },
];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const id = params.productId ?? "new";
  const [product, collections, profile, stripe] = await Promise.all([
    id === "new" ? null : productsOf(db, workspace.id).byId(id),
    collectionsOf(db, workspace.id).list(),
    profileOf(db, workspace.id).get(),
    connectionStatesOf(db, workspace.id).get("stripe"),
  ]);
  const media = product ? await mediaOf(db, workspace.id).byIds(product.images.map((i) => i.fileId)) : new Map();
  const base = slugBase(workspace.slug);
  const currency = profile.currency;
  return {
    currency,
    slug: workspace.slug,
    stripeConnected: stripe?.status === "connected",
    canEdit: roleAtLeast(role, "editor"),
    collections: collections.map((c) => ({ id: c.id, title: c.title })),
    saved: new URL(request.url).searchParams.get("saved"),
    product: product && {
      ...product,
      images: product.images.flatMap((i) => {
        const item = media.get(i.fileId);
        return item ? [{ id: i.id, alt: i.alt || item.alt, src: mediaSrc(base, item, 320) }] : [];
      }),
      variants: product.variants.map((v) => ({
        ...v,
        price: moneyInput(v.price, currency),
        compareAtPrice: v.compareAtPrice === null ? "" : moneyInput(v.compareAtPrice, currency),
      })),
    },
  };
});

const checked = (values: Record<string, string>, name: string) => values[name] === "on";
const splitList = (text: string | undefined) => [
  ...new Set(
    (text ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/** The posted form as the catalogue's input; amounts in the currency's decimals, refusals beside their field. */
function productInput(
  values: Record<string, string>,
  currency: string,
  existing: Map<string, VariantInput>,
): ProductInput {
  const problems: Array<{ field: string; message: string }> = [];
  const amount = (field: string, text: string | undefined, required: boolean): number | null => {
    const trimmed = (text ?? "").trim();
    if (trimmed === "") {
      if (required) problems.push({ field, message: "Enter a price" });
      return null;
    }
    const minor = parseMoney(trimmed, currency);
    if (minor === null)
      problems.push({ field, message: `Enter an amount in ${currency}, like ${moneyInput(1250, currency)}` });
    return minor;
  };
  const whole = (field: string, text: string | undefined, fallback: number): number => {
    const trimmed = (text ?? "").trim();
    if (trimmed === "") return fallback;
    const n = Number(trimmed);
    if (!Number.isInteger(n) || n < 0) {
      problems.push({ field, message: "Enter a whole number, 0 or more" });
      return fallback;
    }
    return n;
  };
  const options = [0, 1, 2]
    .map((i) => ({ name: (values[`option.${i}.name`] ?? "").trim(), values: splitList(values[`option.${i}.values`]) }))
    .filter((o) => o.name !== "" || o.values.length > 0);
  const defaultPrice = amount("price", values.price, false);
  const defaultStock = whole("stock", values.stock, 0);
  const variants: VariantInput[] = combinations(options).map((combo) => {
    const key = optionKey(combo);
    const index = Object.keys(values)
      .find((k) => /^v\.\d+\.key$/.test(k) && values[k] === key)
      ?.split(".")[1];
    const prior = existing.get(key);
    if (index === undefined) {
      // A new combination: the product's default price and stock, or those of the variant it replaces.
      const price = defaultPrice ?? prior?.price ?? [...existing.values()][0]?.price ?? null;
      if (price === null) problems.push({ field: "price", message: "Enter a price for the new variants" });
      return { ...prior, options: combo, price: price ?? 0, stock: prior?.stock ?? defaultStock };
    }
    const f = (name: string) => `v.${index}.${name}`;
    return {
      options: combo,
      price: amount(f("price"), values[f("price")], true) ?? 0,
      compareAtPrice: amount(f("compareAtPrice"), values[f("compareAtPrice")], false),
      sku: (values[f("sku")] ?? "").trim() || null,
      stock: whole(f("stock"), values[f("stock")], 0),
      weightGrams: whole(f("weightGrams"), values[f("weightGrams")], 0),
      inventoryTracked: checked(values, f("tracked")),
      continueSelling: checked(values, f("continue")),
      requiresShipping: !checked(values, f("digital")),
    };
  });
  const subscription =
    values.sold === "subscription"
      ? {
          interval: (SUBSCRIPTION_INTERVALS as readonly string[]).includes(values["subscription.interval"] ?? "")
            ? (values["subscription.interval"] as SubscriptionInterval)
            : "month",
          every: whole("subscription.every", values["subscription.every"], 1),
          trialDays: whole("subscription.trialDays", values["subscription.trialDays"], 0),
        }
      : null;
  if (problems.length) throw invalid("Check the highlighted fields", problems);
  return {
    subscription,
    title: values.title ?? "",
    slug: (values.slug ?? "").trim() || undefined,
    description: values.description ?? "",
    status: (PRODUCT_STATUSES as readonly string[]).includes(values.status ?? "")
      ? (values.status as ProductInput["status"])
      : "draft",
    vendor: values.vendor ?? "",
    productType: values.productType ?? "",
    tags: splitList(values.tags),
    seoTitle: values.seoTitle ?? "",
    seoDescription: values.seoDescription ?? "",
    options,
    variants,
    collectionIds: Object.keys(values)
      .filter((k) => k.startsWith("collection.") && values[k] === "on")
      .map((k) => k.slice("collection.".length)),
  };
}

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const id = params.productId === "new" ? null : (params.productId ?? null);
  const products = productsOf(db, workspace.id);
  const actor = session.user.id;
  return runUploadForm(request, context, async ({ values, file }): Promise<FormResult | Response> => {
    switch (values.intent) {
      case "save": {
        const currency = (await profileOf(db, workspace.id).get()).currency;
        const before = id ? await products.byId(id) : null;
        const existing = new Map<string, VariantInput>((before?.variants ?? []).map((v) => [optionKey(v.options), v]));
        let input = productInput(values, currency, existing);
        const collection = (values.newCollection ?? "").trim();
        if (collection) {
          const made = await collectionsOf(db, workspace.id).create({ title: collection }, actor);
          input = { ...input, collectionIds: [...(input.collectionIds ?? []), made.id] };
        }
        const saved = await products.save(id, input, actor);
        return redirect(`/shop/products/${saved.id}?saved=${id ? "updated" : "created"}`, 303);
      }
      case "image": {
        if (!id) throw invalid("Save the product first");
        if (!file)
          throw invalid("Choose an image to upload", [{ field: "file", message: "Choose an image to upload" }]);
        const item = await filesOf(context.services, workspace.id).upload({
          ...file,
          alt: values.alt ?? "",
          actorUserId: actor,
          ip: context.request.ip,
        });
        await products.addImage(id, item.id, values.alt ?? "");
        return redirect(`/shop/products/${id}?saved=image`, 303);
      }
      case "remove-image": {
        if (!id) throw invalid("Save the product first");
        await products.removeImage(id, values.imageId ?? "");
        return redirect(`/shop/products/${id}?saved=image-removed`, 303);
      }
      case "delete": {
        if (!id) throw invalid("Nothing to delete");
        await products.remove(id, actor);
        return redirect("/shop?deleted=1", 303);
      }
      default:
        throw invalid("Unknown action");
    }
  });
});

const SAVED: Record<string, string> = {
  created: "Product created. Add images, and make it active when it is ready to sell.",
  updated: "Product saved. The shop shows it at once.",
  image: "Image added.",
  "image-removed": "Image removed.",
};

export default function ProductEditor() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.fieldErrors ?? {};
  const p = d.product;
  const options = [0, 1, 2].map((i) => p?.options[i] ?? null);
  const hasOptions = (p?.options.length ?? 0) > 0;
  return (
    <>
      <p className="back-link">
        <Link to="/shop">← Products</Link>
      </p>
      <div className="page-header">
        <h1>{p ? p.title : "New product"}</h1>
        {p ? (
          <div className="page-actions">
            <span className={`status-pill status-pill--${p.status}`}>{PRODUCT_STATUS_LABELS[p.status]}</span>
            {p.status === "active" ? (
              <a className="button secondary" href={`/${d.slug}/shop/${p.slug}`} target="_blank" rel="noreferrer">
                View in shop
              </a>
            ) : null}
          </div>
        ) : null}
      </div>
      <FormMessage message={d.saved ? SAVED[d.saved] : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />

      <Form method="post" encType="multipart/form-data" className="product-form">
        <input type="hidden" name="intent" value="save" />
        <div className="product-form__main">
          <section className="panel">
            <Field label="Name" name="title" defaultValue={p?.title ?? ""} required error={errors.title} />
            <DescribedField
              id="field-description"
              label="Description"
              error={errors.description}
              hint="Markdown: **bold**, *italic*, lists with -, links as [text](https://…)."
            >
              {(describedBy) => (
                <textarea
                  id="field-description"
                  name="description"
                  rows={8}
                  defaultValue={p?.description ?? ""}
                  aria-describedby={describedBy}
                  aria-invalid={errors.description ? true : undefined}
                />
              )}
            </DescribedField>
          </section>

          <section className="panel" aria-labelledby="options-heading">
            <h2 id="options-heading">Options</h2>
            <p className="hint">
              Sizes, colours, flavours… A variant is made for each combination of values. Leave empty for a product sold
              one way.
            </p>
            <div className="option-rows">
              {options.map((o, i) => (
                <div key={i} className="option-row">
                  <Field
                    label={`Option ${i + 1}`}
                    name={`option.${i}.name`}
                    defaultValue={o?.name ?? ""}
                    error={errors[`options.${i}.name`]}
                    hint={i === 0 ? "e.g. Size" : undefined}
                  />
                  <Field
                    label="Values"
                    name={`option.${i}.values`}
                    defaultValue={o?.values.join(", ") ?? ""}
                    error={errors[`options.${i}.values`]}
                    hint={i === 0 ? "Separated by commas, e.g. Small, Large" : undefined}
                  />
                </div>
              ))}
            </div>
          </section>

          <section className="panel" aria-labelledby="variants-heading">
            <h2 id="variants-heading">{hasOptions ? "Variants" : "Price and stock"}</h2>
            {!p || hasOptions ? (
              <div className="variant-defaults">
                <Field
                  label={p ? "Price of new variants" : "Price"}
                  name="price"
                  prefix={d.currency}
                  error={errors.price}
                  hint={p ? "Used for combinations you add by changing the options." : `In ${d.currency}, e.g. 12.50`}
                />
                {!p ? <Field label="Stock" name="stock" type="number" defaultValue="0" error={errors.stock} /> : null}
              </div>
            ) : null}
            {p && p.variants.length > 0 ? (
              <div className="table-scroll" tabIndex={0} role="region" aria-label="Variants">
                <table className="customer-table variant-table">
                  <thead>
                    <tr>
                      {hasOptions ? <th scope="col">Variant</th> : null}
                      <th scope="col">Price ({d.currency})</th>
                      <th scope="col">Compare at</th>
                      <th scope="col">SKU</th>
                      <th scope="col">Stock</th>
                      <th scope="col">Weight (g)</th>
                      <th scope="col">Settings</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.variants.map((v, i) => {
                      const e = (name: string) => errors[`v.${i}.${name}`] ?? errors[`variants.${i}.${name}`];
                      const label = v.title || p.title;
                      return (
                        <tr key={v.id}>
                          {hasOptions ? <th scope="row">{v.title}</th> : null}
                          <td>
                            <input type="hidden" name={`v.${i}.key`} value={optionKey(v.options)} />
                            <input
                              name={`v.${i}.price`}
                              defaultValue={v.price}
                              inputMode="decimal"
                              aria-label={`Price of ${label}`}
                              aria-invalid={e("price") ? true : undefined}
                              className="cell-input"
                            />
                            {e("price") ? <span className="field-error">{e("price")}</span> : null}
                          </td>
                          <td>
                            <input
                              name={`v.${i}.compareAtPrice`}
                              defaultValue={v.compareAtPrice}
                              inputMode="decimal"
                              aria-label={`Compare-at price of ${label}`}
                              aria-invalid={e("compareAtPrice") ? true : undefined}
                              className="cell-input"
                            />
                            {e("compareAtPrice") ? <span className="field-error">{e("compareAtPrice")}</span> : null}
                          </td>
                          <td>
                            <input
                              name={`v.${i}.sku`}
                              defaultValue={v.sku ?? ""}
                              aria-label={`SKU of ${label}`}
                              className="cell-input"
                            />
                          </td>
                          <td>
                            <input
                              name={`v.${i}.stock`}
                              type="number"
                              min={0}
                              defaultValue={v.stock}
                              aria-label={`Stock of ${label}`}
                              aria-invalid={e("stock") ? true : undefined}
                              className="cell-input cell-input--narrow"
                            />
                            {v.reserved > 0 ? <span className="hint">{v.reserved} held by unpaid orders</span> : null}
                            {e("stock") ? <span className="field-error">{e("stock")}</span> : null}
                          </td>
                          <td>
                            <input
                              name={`v.${i}.weightGrams`}
                              type="number"
                              min={0}
                              defaultValue={v.weightGrams}
                              aria-label={`Weight of ${label} in grams`}
                              className="cell-input cell-input--narrow"
                            />
                          </td>
                          <td className="variant-flags">
                            <label>
                              <input type="checkbox" name={`v.${i}.tracked`} defaultChecked={v.inventoryTracked} />{" "}
                              Track stock
                            </label>
                            <label>
                              <input type="checkbox" name={`v.${i}.continue`} defaultChecked={v.continueSelling} /> Sell
                              when out of stock
                            </label>
                            <label>
                              <input type="checkbox" name={`v.${i}.digital`} defaultChecked={!v.requiresShipping} /> No
                              delivery needed
                            </label>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            ) : null}
            {errors.variants ? <p className="field-error">{errors.variants}</p> : null}
          </section>

          <section className="panel" aria-labelledby="seo-heading">
            <h2 id="seo-heading">Search engines</h2>
            <Field
              label="Address"
              name="slug"
              prefix={`/${d.slug}/shop/`}
              defaultValue={p?.slug ?? ""}
              error={errors.slug}
              hint={p ? undefined : "Made from the name if you leave it empty."}
            />
            <Field
              label="Title"
              name="seoTitle"
              defaultValue={p?.seoTitle ?? ""}
              error={errors.seoTitle}
              hint="About 60 characters; the name if empty."
            />
            <DescribedField
              id="field-seoDescription"
              label="Description"
              error={errors.seoDescription}
              hint="About 155 characters; the start of the description if empty."
            >
              {(describedBy) => (
                <textarea
                  id="field-seoDescription"
                  name="seoDescription"
                  rows={3}
                  defaultValue={p?.seoDescription ?? ""}
                  aria-describedby={describedBy}
                />
              )}
            </DescribedField>
          </section>
        </div>

        <div className="product-form__side">
          <section className="panel">
            <DescribedField
              id="field-status"
              label="Status"
              hint="Only active products are in the shop."
              error={errors.status}
            >
              {(describedBy) => (
                <select
                  id="field-status"
                  name="status"
                  defaultValue={p?.status ?? "draft"}
                  aria-describedby={describedBy}
                >
                  {PRODUCT_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {PRODUCT_STATUS_LABELS[s]}
                    </option>
                  ))}
                </select>
              )}
            </DescribedField>
            {d.canEdit ? (
              <button type="submit" className="product-form__save">
                {p ? "Save product" : "Create product"}
              </button>
            ) : null}
          </section>
          <section className="panel selling-plan" aria-labelledby="selling-heading">
            <h2 id="selling-heading">How it is sold</h2>
            <fieldset className="choice-list">
              <legend className="visually-hidden">How it is sold</legend>
              <label>
                <input type="radio" name="sold" value="once" defaultChecked={!p?.subscription} /> Once, from the cart
              </label>
              <label>
                <input type="radio" name="sold" value="subscription" defaultChecked={!!p?.subscription} /> As a
                subscription
              </label>
            </fieldset>
            <div className="subscription-fields">
              <div className="subscription-plan">
                <Field
                  label="Every"
                  name="subscription.every"
                  type="number"
                  defaultValue={String(p?.subscription?.every ?? 1)}
                  error={errors["subscription.every"]}
                />
                <DescribedField id="field-subscription.interval" label="Period" error={errors["subscription.interval"]}>
                  {(describedBy) => (
                    <select
                      id="field-subscription.interval"
                      name="subscription.interval"
                      defaultValue={p?.subscription?.interval ?? "month"}
                      aria-describedby={describedBy}
                    >
                      {SUBSCRIPTION_INTERVALS.map((i) => (
                        <option key={i} value={i}>
                          {i[0]!.toUpperCase() + i.slice(1)}s
                        </option>
                      ))}
                    </select>
                  )}
                </DescribedField>
              </div>
              <Field
                label="Free trial (days)"
                name="subscription.trialDays"
                type="number"
                defaultValue={String(p?.subscription?.trialDays ?? 0)}
                error={errors["subscription.trialDays"]}
                hint="Customers subscribe from the product page and are charged the price each period, delivery included."
              />
            </div>
            {d.stripeConnected ? null : (
              <p className="hint">
                Subscriptions are paid by card: <Link to="/settings/integrations/payments">connect Stripe</Link> to
                offer them.
              </p>
            )}
          </section>
          <section className="panel">
            <h2>Organisation</h2>
            <Field label="Vendor" name="vendor" defaultValue={p?.vendor ?? ""} error={errors.vendor} />
            <Field label="Type" name="productType" defaultValue={p?.productType ?? ""} error={errors.productType} />
            <Field
              label="Tags"
              name="tags"
              defaultValue={p?.tags.join(", ") ?? ""}
              error={errors.tags}
              hint="Separated by commas"
            />
            <fieldset className="choice-list">
              <legend>Collections</legend>
              {d.collections.map((c) => (
                <label key={c.id}>
                  <input type="checkbox" name={`collection.${c.id}`} defaultChecked={p?.collectionIds.includes(c.id)} />{" "}
                  {c.title}
                </label>
              ))}
              {d.collections.length === 0 ? <p className="hint">No collections yet.</p> : null}
            </fieldset>
            <Field label="Add to a new collection" name="newCollection" hint="e.g. Breads, Gifts" />
          </section>
        </div>
      </Form>

      {p ? (
        <section className="panel product-images" aria-labelledby="images-heading">
          <h2 id="images-heading">Images</h2>
          {p.images.length === 0 ? (
            <p className="hint">No images yet. The first image is the one the shop shows.</p>
          ) : null}
          <ul className="product-image-list">
            {p.images.map((image, i) => (
              <li key={image.id}>
                <img src={image.src} alt={image.alt} width={120} height={120} />
                {i === 0 ? <span className="hint">Main image</span> : null}
                {d.canEdit ? (
                  <Form method="post" encType="multipart/form-data">
                    <input type="hidden" name="imageId" value={image.id} />
                    <button type="submit" name="intent" value="remove-image" className="text-button">
                      Remove<span className="visually-hidden"> image {i + 1}</span>
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
          {d.canEdit ? (
            <Form method="post" encType="multipart/form-data" className="product-image-upload">
              <input type="hidden" name="intent" value="image" />
              <DescribedField
                id="field-file"
                label="Add an image"
                error={errors.file}
                hint="JPEG, PNG or WebP. Square or portrait photos look best."
              >
                {(describedBy) => (
                  <input id="field-file" type="file" name="file" accept="image/*" aria-describedby={describedBy} />
                )}
              </DescribedField>
              <Field label="Description for people who cannot see it" name="alt" error={errors.alt} />
              <button type="submit" className="secondary">
                Upload image
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      {p && d.canEdit ? (
        <section className="panel danger-zone">
          <h2>Delete this product</h2>
          <p className="hint">
            Orders keep their own copy of what was bought. To stop selling it but keep it, archive it instead.
          </p>
          <ConfirmForm confirm={`Delete “${p.title}” for good?`} fields={{ intent: "delete" }}>
            <button type="submit" className="danger">
              Delete product
            </button>
          </ConfirmForm>
        </section>
      ) : null}
    </>
  );
}
