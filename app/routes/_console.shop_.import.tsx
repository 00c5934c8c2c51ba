// /shop/import — bring a catalogue from Shopify (ADR 030): upload the product CSV Shopify exports (Products →
// Export) or one written in its columns. Products are created, or updated when one has the file's handle as its
// address; a product with a problem is left out whole and named with its line; images are fetched afterwards
// (the page says how many are still on their way). Editors import.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import type { FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { imagesToFetch, importProductCsv, type ImportResult } from "~/modules/commerce/import.server";
import { runUploadForm } from "~/modules/files/upload.server";
import { profileOf } from "~/modules/sites/profile.server";
import { SHOP_TABS } from "~/console/shop";
import { DescribedField, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Import products · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "editor");
  const [pending, profile] = await Promise.all([
    imagesToFetch(context.services.db, workspace.id),
    profileOf(context.services.db, workspace.id).get(),
  ]);
  return { pending, currency: profile.currency };
});

type ImportAnswer = FormResult & { result?: ImportResult };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  return runUploadForm(request, context, async ({ file }): Promise<ImportAnswer> => {
    if (!file)
      throw invalid("Choose the CSV file to import", [{ field: "file", message: "Choose the CSV file to import" }]);
    const text = new TextDecoder("utf-8", { fatal: false }).decode(file.bytes);
    const result = await importProductCsv(context.services.db, workspace.id, text, session.user.id);
    context.services.jobRunner.wake();
    const done = result.created + result.updated;
    return {
      ok: done > 0 || result.problems.length === 0,
      message:
        done === 0
          ? result.problems.length
            ? "Nothing was imported: see the problems below."
            : "The file has no products in it."
          : `Imported ${done} ${done === 1 ? "product" : "products"} (${result.created} new, ${result.updated} updated).` +
            (result.images
              ? ` ${result.images} ${result.images === 1 ? "image is" : "images are"} being fetched.`
              : ""),
      result,
    };
  });
});

export default function ImportProducts() {
  const d = useLoaderData<typeof loader>();
  const answer = useActionData<ImportAnswer>();
  const problems = answer?.result?.problems ?? [];
  return (
    <>
      <p className="back-link">
        <Link to="/shop">← Products</Link>
      </p>
      <div className="page-header">
        <h1>Import products</h1>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <FormMessage message={answer?.message} tone={answer?.ok ? "success" : "error"} />
      {d.pending > 0 ? (
        <p className="form-message">
          {d.pending} {d.pending === 1 ? "image is" : "images are"} still being fetched.{" "}
          <Link to="/shop/import">Check again</Link>
        </p>
      ) : null}
      {problems.length > 0 ? (
        <section className="panel" aria-labelledby="problems-heading">
          <h2 id="problems-heading">
            {problems.length} {problems.length === 1 ? "problem" : "problems"}
          </h2>
          <p className="hint">
            Fix these lines in the file and import it again: products already imported are updated, not duplicated.
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Problems">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {problems.map((p, i) => (
                  <tr key={i}>
                    <td>{p.row}</td>
                    <td>{p.column ?? "—"}</td>
                    <td>{p.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="panel product-image-upload">
        <h2>Upload a product CSV</h2>
        <p className="hint">
          Shopify's product export works as it is (Products → Export → CSV for Excel, Numbers or other programs). Prices
          are read in {d.currency}; images are fetched from their addresses in the file.
        </p>
        <DescribedField id="field-file" label="CSV file" error={answer?.fieldErrors?.file}>
          {(describedBy) => (
            <input id="field-file" type="file" name="file" accept=".csv,text/csv" aria-describedby={describedBy} />
          )}
        </DescribedField>
        <button type="submit">Import</button>
      </Form>
      <p className="hint">
        Need the format? <a href="/shop/export.csv">Export your catalogue</a> — the same columns.
      </p>
    </>
  );
}
