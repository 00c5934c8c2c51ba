// /customers — the workspace's customers (ADR 029): search by name, e-mail, phone or tag; filter by tag; add one by
// hand (an invitation-only site's way in); export the list as CSV; and, for admins, who may create an account on
// the site. Each opens at /customers/{id}. Every member reads it; editors add.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { forbidden, invalid } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { CustomerEmail, CustomerName, CustomerTags, customersOf } from "~/modules/customers/customers.server";
import { customerSettingsOf } from "~/modules/customers/settings.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { receivedShort } from "~/console/inbox-format";
import { now } from "~/lib/clock.server";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Customers · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCustomersCss }];

const PAGE_SIZE = 25;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const url = new URL(request.url);
  const query = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const tag = url.searchParams.get("tag")?.trim().toLowerCase().slice(0, 40) ?? "";
  const customers = customersOf(db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const search = { query: query || undefined, tag: tag || undefined };
  const [list, total, everyone, tags, signup, profile] = await Promise.all([
    customers.list({ ...search, ...window }),
    customers.count(search),
    customers.count(),
    customers.tags(),
    customerSettingsOf(db, workspace.id).signup(),
    profileOf(db, workspace.id).get(),
  ]);
  return {
    workspace: { name: workspace.name, slug: workspace.slug },
    canEdit: roleAtLeast(role, "editor"),
    canAdmin: roleAtLeast(role, "admin"),
    query,
    tag,
    tags: tags.slice(0, 30),
    signup,
    total,
    everyone,
    page,
    pages: pageCount(total, PAGE_SIZE),
    customers: list.map((c) => ({
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      tags: c.tags,
      verified: c.emailVerified,
      marketing: c.marketingConsent,
      since: receivedShort(c.createdAt, now(), profile.timeZone),
      seen: c.lastSeenAt ? receivedShort(c.lastSeenAt, now(), profile.timeZone) : null,
    })),
  };
});

const AddInput = z.object({
  email: CustomerEmail,
  name: CustomerName.optional(),
  tags: z.string().max(1000).optional(),
});

const splitTags = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace, role } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    if (values.intent === "signup") {
      if (!roleAtLeast(role, "admin")) throw forbidden("Only admins change who may create an account");
      const mode = values.signup === "invite" ? "invite" : "open";
      await customerSettingsOf(db, workspace.id).setSignup(mode, session.user.id);
      return {
        ok: true,
        intent: "signup",
        message:
          mode === "open"
            ? "Anyone can now create an account by signing in on your site."
            : "Only customers you add can now sign in on your site.",
      };
    }
    if (values.intent === "add") {
      const input = parseForm(AddInput, values);
      const tags = CustomerTags.safeParse(splitTags(input.tags));
      if (!tags.success) throw invalid("Check the tags", [{ field: "tags", message: tags.error.issues[0]!.message }]);
      const customer = await customersOf(db, workspace.id).add(
        { email: input.email, name: input.name, tags: tags.data },
        session.user.id,
      );
      return redirect(`/customers/${customer.id}?added=1`);
    }
    throw invalid("Unknown action");
  });
});

export default function Customers() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const filtered = data.query !== "" || data.tag !== "";
  const query: Record<string, string> = {};
  if (data.query) query.q = data.query;
  if (data.tag) query.tag = data.tag;
  const exportHref = `/customers/export.csv${filtered ? `?${new URLSearchParams(query)}` : ""}`;
  return (
    <>
      <div className="page-header">
        <h1>Customers</h1>
        {data.everyone > 0 ? (
          <a className="button secondary" href={exportHref} download>
            Export CSV
          </a>
        ) : null}
      </div>
      <p className="page-intro">
        People who have an account on {data.workspace.name}'s site, or whom you added. Customers sign in at{" "}
        <a href={`/${data.workspace.slug}/login`}>/{data.workspace.slug}/login</a> with a code sent to their e-mail.
      </p>

      <Form method="get" className="customer-search" role="search">
        <DescribedField id="customer-q" label="Search customers">
          {(describedBy) => (
            <input
              id="customer-q"
              name="q"
              type="search"
              defaultValue={data.query}
              placeholder="Name, e-mail, phone or tag"
              aria-describedby={describedBy}
            />
          )}
        </DescribedField>
        {data.tags.length > 0 ? (
          <DescribedField id="customer-tag" label="Tag">
            {(describedBy) => (
              <select id="customer-tag" name="tag" defaultValue={data.tag} aria-describedby={describedBy}>
                <option value="">Any tag</option>
                {data.tags.map((t) => (
                  <option key={t.tag} value={t.tag}>
                    {t.tag} ({t.count})
                  </option>
                ))}
              </select>
            )}
          </DescribedField>
        ) : null}
        <button type="submit" className="secondary">
          Search
        </button>
        {filtered ? <Link to="/customers">Clear</Link> : null}
      </Form>

      {data.customers.length === 0 ? (
        <div className="empty">
          {filtered ? (
            <p>
              <strong>No customer matches.</strong> Try part of a name or e-mail address.{" "}
              <Link to="/customers">Show all</Link>
            </p>
          ) : (
            <p>
              <strong>No customers yet.</strong> When someone signs in on your site or you add them below, they appear
              here with their requests and messages.
            </p>
          )}
        </div>
      ) : (
        <>
          <p className="list-summary">
            {data.total.toLocaleString("en")} {data.total === 1 ? "customer" : "customers"}
            {filtered ? ` of ${data.everyone.toLocaleString("en")}` : ""}
          </p>
          <div className="table-scroll">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Since</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {data.customers.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <Link to={`/customers/${c.id}`} className="customer-name">
                        {c.name || c.email}
                      </Link>
                      {c.name ? <span className="customer-email">{c.email}</span> : null}
                      {!c.verified ? <span className="customer-flag">Not signed in yet</span> : null}
                    </td>
                    <td>{c.phone ?? "—"}</td>
                    <td>
                      {c.tags.length ? (
                        <ul className="tag-list">
                          {c.tags.map((t) => (
                            <li key={t}>{t}</li>
                          ))}
                        </ul>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td>{c.since}</td>
                    <td>{c.seen ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={data.page} pages={data.pages} label="Customer pages" query={query} />
        </>
      )}

      <div className="customer-panels">
        {data.canEdit ? (
          <Form method="post" className="panel">
            <h2>Add a customer</h2>
            <p className="hint">They can then sign in on your site with a code sent to this address.</p>
            <FormMessage message={result?.intent !== "signup" && result?.ok === false ? result.message : undefined} />
            <input type="hidden" name="intent" value="add" />
            <Field label="E-mail address" name="email" type="email" required error={result?.fieldErrors?.email} />
            <Field label="Name" name="name" error={result?.fieldErrors?.name} />
            <Field
              label="Tags"
              name="tags"
              hint="Separated by commas, e.g. wholesale, vip"
              error={result?.fieldErrors?.tags}
            />
            <button type="submit">Add customer</button>
          </Form>
        ) : null}
        {data.canAdmin ? (
          <Form method="post" className="panel">
            <h2>Accounts on your site</h2>
            <FormMessage
              message={result?.intent === "signup" && result.ok ? result.message : undefined}
              tone="success"
            />
            <input type="hidden" name="intent" value="signup" />
            <fieldset className="choice-list">
              <legend>Who can create an account</legend>
              <label>
                <input type="radio" name="signup" value="open" defaultChecked={data.signup === "open"} /> Anyone, by
                signing in with their e-mail address
              </label>
              <label>
                <input type="radio" name="signup" value="invite" defaultChecked={data.signup === "invite"} /> Only
                customers I add (invitation only)
              </label>
            </fieldset>
            <button type="submit" className="secondary">
              Save
            </button>
          </Form>
        ) : null}
      </div>
    </>
  );
}
