// /shop/collections — the shop's collections (ADR 030): their order on the storefront (moved with buttons, so it
// works without JavaScript), how many products each holds, a new one, and a link to each one's page, where its
// products are put in order. Every member reads it; editors change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { collectionsOf } from "~/modules/commerce/catalogue.server";
import { isMove } from "~/modules/commerce/manual-order";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { SHOP_TABS } from "~/console/shop";
import { MoveButtons } from "~/console/move-buttons";
import { Field, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Collections · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const collections = await collectionsOf(context.services.db, workspace.id).list();
  return {
    slug: workspace.slug,
    canEdit: roleAtLeast(role, "editor"),
    deleted: new URL(request.url).searchParams.get("deleted"),
    collections,
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const collections = collectionsOf(context.services.db, workspace.id);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    if (values.intent === "move") {
      if (!isMove(values.move)) throw invalid("Choose where to move it");
      await collections.move(values.id ?? "", values.move, session.user.id);
      return { ok: true, intent: "move", message: "Order saved: the shop lists its collections in this order." };
    }
    if (values.intent !== "create") throw invalid("Unknown action");
    const made = await collections.create(
      { title: values.title ?? "", description: values.description ?? "" },
      session.user.id,
    );
    return redirect(`/shop/collections/${made.id}?created=1`);
  });
});

export default function Collections() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.ok === false ? (result.fieldErrors ?? {}) : {};
  return (
    <>
      <div className="page-header">
        <h1>Collections</h1>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
      <FormMessage
        message={d.deleted ? `Collection “${d.deleted}” deleted. Its products are still in the shop.` : undefined}
        tone="success"
      />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      {d.collections.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No collections yet.</strong> Group products the way customers look for them — “Bread”, “Cakes”,
            “Gifts” — and the shop shows each collection as a filter, with its products in the order you choose.
          </p>
        </div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Collections">
          <table className="customer-table collection-table">
            <thead>
              <tr>
                <th scope="col">Collection</th>
                <th scope="col">Products</th>
                {d.canEdit ? <th scope="col">Order in the shop</th> : null}
              </tr>
            </thead>
            <tbody>
              {d.collections.map((c, i) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/shop/collections/${c.id}`} className="customer-name">
                      {c.title}
                    </Link>
                    <span className="customer-email">
                      /{d.slug}/shop?collection={c.slug}
                    </span>
                  </td>
                  <td>
                    {c.products === 0 ? (
                      <span className="muted-note">Empty: not shown in the shop</span>
                    ) : (
                      `${c.products} ${c.products === 1 ? "product" : "products"}`
                    )}
                  </td>
                  {d.canEdit ? (
                    <td>
                      <MoveButtons
                        fields={{ intent: "move", id: c.id }}
                        name={c.title}
                        first={i === 0}
                        last={i === d.collections.length - 1}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {d.canEdit ? (
        <Form method="post" className="panel collection-new">
          <h2>New collection</h2>
          <input type="hidden" name="intent" value="create" />
          <div className="inline-fields">
            <Field label="Name" name="title" hint="What customers see, e.g. Cakes" error={errors.title} />
            <Field
              label="Description"
              name="description"
              hint="Optional: shown above its products"
              error={errors.description}
            />
          </div>
          <button type="submit">Create collection</button>
        </Form>
      ) : null}
    </>
  );
}
