// /shop — the catalogue (ADR 030): the shop's readiness until it is ready to sell, products with search and a
// status filter, bulk status changes, and the way to add one, import a Shopify product CSV or export the catalogue.
// Every member reads it; editors change it.
import { Checklist } from "~/ui/checklist";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { productsOf } from "~/modules/commerce/catalogue.server";
import { PRODUCT_STATUSES, type ProductStatus } from "~/modules/commerce/vocabulary";
import { formatMoney } from "~/modules/commerce/money";
import { shopReadiness } from "~/modules/commerce/readiness.server";
import { mediaOf } from "~/modules/files/media.server";
import { mediaSrc } from "~/modules/files/media-urls";
import { slugBase } from "~/lib/link-base";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { ProductCell } from "~/console/product-cell";
import { PRODUCT_STATUS_LABELS as STATUS_LABELS, SHOP_TABS } from "~/console/shop";
import { DescribedField, FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Products · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const PAGE_SIZE = 25;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const url = new URL(request.url);
  const query = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const asked = url.searchParams.get("status") ?? "";
  const status = (PRODUCT_STATUSES as readonly string[]).includes(asked) ? (asked as ProductStatus) : undefined;
  const products = productsOf(db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const filter = { query: query || undefined, status };
  const [list, total, everyone, readiness, profile] = await Promise.all([
    products.list({ ...filter, ...window }),
    products.count(filter),
    products.count(),
    shopReadiness(db, workspace.id),
    profileOf(db, workspace.id).get(),
  ]);
  const media = await mediaOf(db, workspace.id).byIds(list.flatMap((p) => (p.image ? [p.image.fileId] : [])));
  const base = slugBase(workspace.slug);
  return {
    slug: workspace.slug,
    canEdit: roleAtLeast(role, "editor"),
    query,
    status: status ?? "",
    total,
    everyone,
    page,
    pages: pageCount(total, PAGE_SIZE),
    readiness,
    products: list.map((p) => {
      const prices = p.variants.map((v) => v.price);
      const tracked = p.variants.filter((v) => v.inventoryTracked);
      const image = p.image ? media.get(p.image.fileId) : undefined;
      return {
        id: p.id,
        title: p.title,
        slug: p.slug,
        status: p.status,
        vendor: p.vendor,
        variants: p.variants.length,
        thumb: image ? mediaSrc(base, image, 160) : null,
        price: prices.length
          ? Math.min(...prices) === Math.max(...prices)
            ? formatMoney(prices[0]!, profile.currency)
            : `${formatMoney(Math.min(...prices), profile.currency)} – ${formatMoney(Math.max(...prices), profile.currency)}`
          : "—",
        stock: tracked.length ? tracked.reduce((s, v) => s + Math.max(0, v.stock - v.reserved), 0) : null,
      };
    }),
  };
});

const Bulk = z.object({
  status: z.enum(PRODUCT_STATUSES, { message: "Choose what to set the products to" }),
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  return runForm(request, context, async (values): Promise<FormResult> => {
    if (values.intent !== "bulk") throw invalid("Unknown action");
    const { status } = parseForm(Bulk, values);
    const ids = Object.keys(values)
      .filter((k) => k.startsWith("select.") && values[k] === "on")
      .map((k) => k.slice("select.".length));
    if (ids.length === 0) throw invalid("Select the products to change first");
    const changed = await productsOf(context.services.db, workspace.id).setStatus(ids, status, session.user.id);
    return {
      ok: true,
      intent: "bulk",
      message: `${changed} ${changed === 1 ? "product is" : "products are"} now ${STATUS_LABELS[status].toLowerCase()}.`,
    };
  });
});

export default function Shop() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const filtered = d.query !== "" || d.status !== "";
  const query: Record<string, string> = {};
  if (d.query) query.q = d.query;
  if (d.status) query.status = d.status;
  const todo = d.readiness.filter((i) => !i.done);
  return (
    <>
      <div className="page-header">
        <h1>Shop</h1>
        <div className="page-actions">
          {d.everyone > 0 ? (
            <a className="button secondary" href="/shop/export.csv" download>
              Export CSV
            </a>
          ) : null}
          {d.canEdit ? (
            <>
              <Link className="button secondary" to="/shop/import">
                Import CSV
              </Link>
              <Link className="button" to="/shop/products/new">
                Add product
              </Link>
            </>
          ) : null}
        </div>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />

      {todo.length > 0 ? (
        <section className="panel shop-readiness" aria-labelledby="readiness-heading">
          <h2 id="readiness-heading">
            Ready to sell: {d.readiness.length - todo.length} of {d.readiness.length}
          </h2>
          <Checklist items={d.readiness} />
        </section>
      ) : null}

      <Form method="get" className="customer-search" role="search">
        <DescribedField id="product-q" label="Search products">
          {(describedBy) => (
            <input
              id="product-q"
              name="q"
              type="search"
              defaultValue={d.query}
              placeholder="Name, SKU, vendor or tag"
              aria-describedby={describedBy}
            />
          )}
        </DescribedField>
        <DescribedField id="product-status" label="Status">
          {(describedBy) => (
            <select id="product-status" name="status" defaultValue={d.status} aria-describedby={describedBy}>
              <option value="">Any status</option>
              {PRODUCT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </DescribedField>
        <button type="submit" className="secondary">
          Search
        </button>
        {filtered ? <Link to="/shop">Clear</Link> : null}
      </Form>

      {d.products.length === 0 ? (
        <div className="empty">
          {filtered ? (
            <p>
              <strong>No product matches.</strong> Try part of its name or SKU. <Link to="/shop">Show all</Link>
            </p>
          ) : (
            <p>
              <strong>No products yet.</strong> Add your first product with its price and stock, or import the CSV your
              current shop exports (Shopify's product CSV works as it is).
            </p>
          )}
        </div>
      ) : (
        <Form method="post">
          <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
          <FormMessage message={result?.ok === false ? result.message : undefined} />
          <p className="list-summary">
            {d.total.toLocaleString("en")} {d.total === 1 ? "product" : "products"}
            {filtered ? ` of ${d.everyone.toLocaleString("en")}` : ""}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Products">
            <table className="customer-table product-table">
              <thead>
                <tr>
                  {d.canEdit ? (
                    <th scope="col">
                      <span className="visually-hidden">Select</span>
                    </th>
                  ) : null}
                  <th scope="col">Product</th>
                  <th scope="col">Status</th>
                  <th scope="col">Price</th>
                  <th scope="col">Available</th>
                </tr>
              </thead>
              <tbody>
                {d.products.map((p) => (
                  <tr key={p.id}>
                    {d.canEdit ? (
                      <td>
                        <input type="checkbox" name={`select.${p.id}`} aria-label={`Select ${p.title}`} />
                      </td>
                    ) : null}
                    <td>
                      <ProductCell id={p.id} title={p.title} thumb={p.thumb}>
                        {p.variants} {p.variants === 1 ? "variant" : "variants"}
                        {p.vendor ? ` · ${p.vendor}` : ""}
                      </ProductCell>
                    </td>
                    <td>
                      <span className={`status-pill status-pill--${p.status}`}>{STATUS_LABELS[p.status]}</span>
                    </td>
                    <td>{p.price}</td>
                    <td>
                      {p.stock === null ? (
                        "Not tracked"
                      ) : p.stock === 0 ? (
                        <span className="stock-out">Sold out</span>
                      ) : (
                        `${p.stock} in stock`
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {d.canEdit ? (
            <div className="bulk-bar">
              <input type="hidden" name="intent" value="bulk" />
              <label htmlFor="bulk-status">Set selected to</label>
              <select id="bulk-status" name="status" defaultValue="">
                <option value="" disabled>
                  Choose…
                </option>
                {PRODUCT_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
              <button type="submit" className="secondary">
                Apply
              </button>
            </div>
          ) : null}
          <Pager page={d.page} pages={d.pages} label="Product pages" query={query} />
        </Form>
      )}
    </>
  );
}
