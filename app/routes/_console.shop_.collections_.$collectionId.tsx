// /shop/collections/{id} — one collection (ADR 030): its name, address and description, its products in the
// manual order the storefront shows (moved with buttons, or sorted once by name, newest or price as a start),
// products added from the catalogue or taken out, and deleting it. Every member reads it; editors change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { slugBase } from "~/lib/link-base";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { collectionsOf, productsOf } from "~/modules/commerce/catalogue.server";
import { ARRANGEMENTS, type Arrangement } from "~/modules/commerce/vocabulary";
import { isMove } from "~/modules/commerce/manual-order";
import { formatMoney } from "~/modules/commerce/money";
import { mediaOf } from "~/modules/files/media.server";
import { mediaSrc } from "~/modules/files/media-urls";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { PRODUCT_STATUS_LABELS } from "~/console/shop";
import { MissingRecord } from "~/console/missing-record";
import { ProductCell } from "~/console/product-cell";
import { MoveButtons } from "~/console/move-buttons";
import { ConfirmForm } from "~/ui/confirm-form";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.collection.title ?? "Collection"} · Atrium` },
];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const PAGE_SIZE = 50;
/** How many products the "Add" list offers at once (the most recently changed); past it, the operator searches. */
const CHOICES = 200;

const ARRANGEMENT_LABELS: Record<Arrangement, string> = {
  title: "Name, A to Z",
  newest: "Newest first",
  price: "Price, lowest first",
};

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const collection = await collectionsOf(db, workspace.id).byId(params.collectionId ?? "");
  const products = productsOf(db, workspace.id);
  const url = new URL(request.url);
  const query = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [members, total, candidates, profile] = await Promise.all([
    products.inCollection(collection.id, window),
    products.count({ collectionId: collection.id }),
    products.list({ query: query || undefined, outsideCollectionId: params.collectionId, offset: 0, size: CHOICES }),
    profileOf(db, workspace.id).get(),
  ]);
  const media = await mediaOf(db, workspace.id).byIds(members.flatMap((p) => (p.image ? [p.image.fileId] : [])));
  const base = slugBase(workspace.slug);
  return {
    slug: workspace.slug,
    canEdit: roleAtLeast(role, "editor"),
    created: url.searchParams.has("created"),
    query,
    collection,
    total,
    page,
    pages: pageCount(total, PAGE_SIZE),
    offset: window.offset,
    products: members.map((p) => {
      const prices = p.variants.map((v) => v.price);
      const image = p.image ? media.get(p.image.fileId) : undefined;
      return {
        id: p.id,
        title: p.title,
        status: p.status,
        thumb: image ? mediaSrc(base, image, 160) : null,
        price: prices.length ? formatMoney(Math.min(...prices), profile.currency) : "—",
        priceFrom: new Set(prices).size > 1,
      };
    }),
    choices: candidates.map((p) => ({ id: p.id, title: p.title, status: p.status })),
  };
});

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const collections = collectionsOf(context.services.db, workspace.id);
  const id = params.collectionId ?? "";
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    const actor = session.user.id;
    switch (values.intent) {
      case "save": {
        await collections.update(
          id,
          { title: values.title ?? "", slug: values.slug?.trim() || undefined, description: values.description ?? "" },
          actor,
        );
        return { ok: true, intent: "save", message: "Collection saved." };
      }
      case "add": {
        const picked = (values.productId ?? "").split(",").filter(Boolean);
        const { added } = await collections.addProducts(id, picked, actor);
        return {
          ok: true,
          intent: "add",
          message: added ? `${added === 1 ? "Product" : `${added} products`} added at the end.` : "Already in it.",
        };
      }
      case "remove": {
        await collections.removeProduct(id, values.productId ?? "", actor);
        return {
          ok: true,
          intent: "remove",
          message: "Taken out of the collection. The product is still in the shop.",
        };
      }
      case "move": {
        if (!isMove(values.move)) throw invalid("Choose where to move it");
        await collections.moveProduct(id, values.productId ?? "", values.move, actor);
        return { ok: true, intent: "move", message: "Order saved." };
      }
      case "arrange": {
        const by = ARRANGEMENTS.find((a) => a === values.by);
        if (!by) throw invalid("Choose how to sort", [{ field: "by", message: "Choose how to sort" }]);
        await collections.arrange(id, by, actor);
        return { ok: true, intent: "arrange", message: `Sorted by ${ARRANGEMENT_LABELS[by].toLowerCase()}.` };
      }
      case "delete": {
        const { title } = await collections.byId(id);
        await collections.remove(id, actor);
        return redirect(`/shop/collections?deleted=${encodeURIComponent(title)}`);
      }
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function CollectionPage() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  const c = d.collection;
  const saveErrors = result?.intent === "save" ? errors : {};
  return (
    <>
      <p className="back-link">
        <Link to="/shop/collections">← Collections</Link>
      </p>
      <div className="page-header">
        <h1>{c.title}</h1>
        {d.total > 0 ? (
          <div className="page-actions">
            <a
              className="button secondary"
              href={`/${d.slug}/shop?collection=${encodeURIComponent(c.slug)}`}
              target="_blank"
              rel="noreferrer"
            >
              View in shop
            </a>
          </div>
        ) : null}
      </div>
      <FormMessage message={d.created ? "Collection created. Now add its products." : undefined} tone="success" />
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />

      <div className="collection-layout">
        <section className="panel" aria-labelledby="products-heading">
          <div className="panel-heading">
            <h2 id="products-heading">
              Products <span className="count">{d.total}</span>
            </h2>
            {d.canEdit && d.total > 1 ? (
              <Form method="post" className="arrange-form">
                <input type="hidden" name="intent" value="arrange" />
                <label htmlFor="arrange-by">Sort once by</label>
                <select id="arrange-by" name="by" defaultValue="title">
                  {ARRANGEMENTS.map((a) => (
                    <option key={a} value={a}>
                      {ARRANGEMENT_LABELS[a]}
                    </option>
                  ))}
                </select>
                <button type="submit" className="secondary">
                  Sort
                </button>
              </Form>
            ) : null}
          </div>
          {d.products.length === 0 ? (
            <div className="empty">
              <p>
                <strong>No products in this collection.</strong> Add them below; the shop shows the collection once it
                has one active product.
              </p>
            </div>
          ) : (
            <>
              <p className="hint">
                The shop lists them in this order. Drafts and archived products keep their place but are not shown.
              </p>
              <ol className="collection-products" start={d.offset + 1}>
                {d.products.map((p, i) => {
                  const at = d.offset + i;
                  return (
                    <li key={p.id}>
                      <span className="collection-products__place" aria-hidden="true">
                        {at + 1}
                      </span>
                      <ProductCell id={p.id} title={p.title} thumb={p.thumb}>
                        {p.priceFrom ? `from ${p.price}` : p.price}
                        {p.status !== "active" ? (
                          <>
                            {" · "}
                            <span className={`status-pill status-pill--${p.status}`}>
                              {PRODUCT_STATUS_LABELS[p.status]}
                            </span>
                          </>
                        ) : null}
                      </ProductCell>
                      {d.canEdit ? (
                        <div className="collection-products__actions">
                          <MoveButtons
                            fields={{ intent: "move", productId: p.id }}
                            name={p.title}
                            first={at === 0}
                            last={at === d.total - 1}
                          />
                          <Form method="post">
                            <input type="hidden" name="productId" value={p.id} />
                            <button type="submit" name="intent" value="remove" className="text-button">
                              Remove<span className="visually-hidden"> {p.title}</span>
                            </button>
                          </Form>
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ol>
              <Pager page={d.page} pages={d.pages} label="Pages of this collection" />
            </>
          )}
          {d.canEdit ? (
            <Form method="post" className="collection-add">
              <input type="hidden" name="intent" value="add" />
              {d.choices.length ? (
                <>
                  <DescribedField
                    id="add-product"
                    label="Add a product"
                    error={result?.intent === "add" ? errors.productId : undefined}
                    hint={d.query ? `Products matching “${d.query}”` : undefined}
                  >
                    {(describedBy) => (
                      <select id="add-product" name="productId" aria-describedby={describedBy} defaultValue="">
                        <option value="" disabled>
                          Choose a product…
                        </option>
                        {d.choices.map((p) => (
                          <option key={p.id} value={p.id}>
                            {p.title}
                            {p.status !== "active" ? ` (${PRODUCT_STATUS_LABELS[p.status].toLowerCase()})` : ""}
                          </option>
                        ))}
                      </select>
                    )}
                  </DescribedField>
                  <button type="submit">Add</button>
                </>
              ) : (
                <p className="hint">
                  {d.query
                    ? `No product outside this collection matches “${d.query}”.`
                    : "Every product in the catalogue is in this collection."}{" "}
                  <Link to="/shop/products/new">Add a product</Link>
                </p>
              )}
            </Form>
          ) : null}
          {d.canEdit ? (
            <Form method="get" className="collection-search" role="search">
              <label htmlFor="collection-q">Find products to add</label>
              <input id="collection-q" name="q" type="search" defaultValue={d.query} placeholder="Name, SKU or tag" />
              <button type="submit" className="secondary">
                Find
              </button>
            </Form>
          ) : null}
        </section>

        <div className="collection-side">
          <Form method="post" className="panel">
            <h2>Details</h2>
            <input type="hidden" name="intent" value="save" />
            <fieldset disabled={!d.canEdit} className="plain-fieldset">
              <Field label="Name" name="title" defaultValue={c.title} required error={saveErrors.title} />
              <Field
                label="Address"
                name="slug"
                defaultValue={c.slug}
                hint={`In the shop: /${d.slug}/shop?collection=${c.slug}`}
                error={saveErrors.slug}
              />
              <DescribedField
                id="collection-description"
                label="Description"
                hint="Shown above its products"
                error={saveErrors.description}
              >
                {(describedBy) => (
                  <textarea
                    id="collection-description"
                    name="description"
                    rows={4}
                    defaultValue={c.description}
                    aria-describedby={describedBy}
                  />
                )}
              </DescribedField>
            </fieldset>
            {d.canEdit ? <button type="submit">Save</button> : null}
          </Form>
          {d.canEdit ? (
            <section className="panel danger-zone">
              <h2>Delete this collection</h2>
              <p className="hint">Its products stay in the catalogue and the shop; only the grouping goes.</p>
              <ConfirmForm confirm={`Delete the collection “${c.title}”?`} fields={{ intent: "delete" }}>
                <button type="submit" className="danger">
                  Delete collection
                </button>
              </ConfirmForm>
            </section>
          ) : null}
        </div>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Collection" back={{ to: "/shop/collections", label: "Back to collections" }} />;
}
