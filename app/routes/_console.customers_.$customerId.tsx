// /customers/{id} — one customer (ADR 029): their details, tags and notes (editors change them), their timeline of
// contact events and support requests, merging a duplicate record of the same person into this one, and their
// data rights: export everything as JSON, or erase it (admins; confirmed first). Another workspace's customer is
// a 404, here and as the record to merge.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { forbidden, invalid, notFound } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import {
  CustomerEmail,
  CustomerName,
  CustomerPhone,
  CustomerTags,
  customersOf,
  timelineOf,
} from "~/modules/customers/customers.server";
import { eraseShopCustomer } from "~/modules/commerce/privacy.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { receivedAt } from "~/console/inbox-format";
import { MissingRecord } from "~/console/missing-record";
import { ConfirmForm } from "~/ui/confirm-form";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.customer.name || data.customer.email} · Customers · Atrium` : "Customers · Atrium" },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCustomersCss }];

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const id = params.customerId ?? "";
  const customer = await customersOf(db, workspace.id).byId(id);
  const [timeline, { timeZone }] = await Promise.all([
    timelineOf(db, workspace.id, id),
    profileOf(db, workspace.id).get(),
  ]);
  const when = (iso: string | null) => (iso ? receivedAt(iso, timeZone) : null);
  const url = new URL(request.url);
  return {
    canEdit: roleAtLeast(role, "editor"),
    canAdmin: roleAtLeast(role, "admin"),
    notice: url.searchParams.has("added")
      ? "Customer added."
      : url.searchParams.has("merged")
        ? "Records merged."
        : null,
    customer: {
      ...customer,
      created: when(customer.createdAt),
      seen: when(customer.lastSeenAt),
      consentAt: when(customer.marketingConsentAt),
    },
    timeline: timeline.map((t) => ({ ...t, when: when(t.at) })),
  };
});

const EditInput = z.object({
  name: CustomerName,
  phone: CustomerPhone,
  tags: z.string().max(1000),
  notes: z.string().max(5000, "Keep the notes under 5,000 characters"),
});

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace, role } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const customers = customersOf(db, workspace.id);
  const id = params.customerId ?? "";
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    switch (values.intent) {
      case "edit": {
        const input = parseForm(EditInput, values);
        const tags = CustomerTags.safeParse(
          input.tags
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean),
        );
        if (!tags.success) throw invalid("Check the tags", [{ field: "tags", message: tags.error.issues[0]!.message }]);
        await customers.updateByOperator(
          id,
          { name: input.name, phone: input.phone || null, tags: tags.data, notes: input.notes },
          session.user.id,
        );
        return { ok: true, intent: "edit", message: "Saved." };
      }
      case "merge": {
        const { email } = parseForm(z.object({ email: CustomerEmail }), values);
        const other = await customers.byEmail(email);
        // Only this workspace's customers exist here: another business's is "not found", like a typo.
        if (!other || other.erased) {
          throw notFound(`No customer of this workspace uses ${email}`);
        }
        await customers.merge(id, other.id, session.user.id);
        return redirect(`/customers/${id}?merged=1`);
      }
      case "erase":
        if (!roleAtLeast(role, "admin")) throw forbidden("Only admins erase a customer's data");
        await eraseShopCustomer(context.services, workspace.id, id, { userId: session.user.id });
        return { ok: true, intent: "erase", message: "The customer's personal data was erased." };
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function CustomerPage() {
  const { canEdit, canAdmin, notice, customer, timeline } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = (intent: string) => (result?.intent === intent || !result?.intent ? (result?.fieldErrors ?? {}) : {});
  const title = customer.erased ? "Erased customer" : customer.name || customer.email;
  return (
    <>
      <Link to="/customers" className="back-link">
        ← Customers
      </Link>
      <div className="page-header">
        <h1>{title}</h1>
        {!customer.erased ? (
          <a className="button secondary" href={`/customers/${customer.id}/export`} download>
            Export data (JSON)
          </a>
        ) : null}
      </div>
      <FormMessage message={notice ?? (result?.ok ? result.message : undefined)} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <div className="customer-layout">
        <div>
          <section className="panel" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading">Timeline</h2>
            {timeline.length === 0 ? (
              <p className="hint">Nothing yet. Support requests and messages from this customer will appear here.</p>
            ) : (
              <ol className="timeline">
                {timeline.map((t) => (
                  <li key={`${t.kind}:${t.id}`}>
                    <time dateTime={t.at}>{t.when}</time>
                    <span>
                      {t.kind === "ticket" ? (
                        <Link to={`/inbox/tickets/${t.id}`}>{t.title}</Link>
                      ) : t.type === "message" ? (
                        <Link to={`/inbox/${t.id}`}>{t.title}</Link>
                      ) : (
                        t.title
                      )}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          {canEdit && !customer.erased ? (
            <Form method="post" className="panel">
              <h2>Details</h2>
              <input type="hidden" name="intent" value="edit" />
              <Field label="Name" name="name" defaultValue={customer.name} error={errors("edit").name} />
              <Field
                label="Phone"
                name="phone"
                type="tel"
                defaultValue={customer.phone ?? ""}
                error={errors("edit").phone}
              />
              <Field
                label="Tags"
                name="tags"
                defaultValue={customer.tags.join(", ")}
                hint="Separated by commas"
                error={errors("edit").tags}
              />
              <DescribedField
                id="customer-notes"
                label="Notes"
                hint="Only your team sees these."
                error={errors("edit").notes}
              >
                {(describedBy) => (
                  <textarea
                    id="customer-notes"
                    name="notes"
                    rows={4}
                    maxLength={5000}
                    defaultValue={customer.notes}
                    aria-describedby={describedBy}
                  />
                )}
              </DescribedField>
              <button type="submit">Save</button>
            </Form>
          ) : null}
        </div>
        <aside>
          <section className="panel" aria-labelledby="facts-heading">
            <h2 id="facts-heading">Customer</h2>
            <dl className="customer-facts">
              <dt>E-mail</dt>
              <dd>
                {customer.erased ? "—" : <a href={`mailto:${customer.email}`}>{customer.email}</a>}
                {customer.emailVerified ? null : <span className="customer-flag">Not signed in yet</span>}
              </dd>
              <dt>Phone</dt>
              <dd>{customer.phone ?? "—"}</dd>
              <dt>Marketing</dt>
              <dd>
                {customer.marketingConsent ? "Agreed" : "No"}
                {customer.consentAt ? ` (${customer.consentAt}, ${customer.marketingConsentSource ?? "—"})` : ""}
              </dd>
              <dt>Customer since</dt>
              <dd>{customer.created}</dd>
              <dt>Last seen</dt>
              <dd>{customer.seen ?? "—"}</dd>
              {customer.tags.length ? (
                <>
                  <dt>Tags</dt>
                  <dd>
                    <ul className="tag-list">
                      {customer.tags.map((t) => (
                        <li key={t}>{t}</li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : null}
            </dl>
          </section>
          {canEdit && !customer.erased ? (
            <Form method="post" className="panel">
              <h2>Merge a duplicate</h2>
              <p className="hint">
                Another record of this same person? Its requests, messages, tags and notes move here, and it is deleted.
              </p>
              <input type="hidden" name="intent" value="merge" />
              <Field
                label="E-mail of the other record"
                name="email"
                type="email"
                required
                error={errors("merge").email}
              />
              <button type="submit" className="secondary">
                Merge into this customer
              </button>
            </Form>
          ) : null}
          {canAdmin && !customer.erased ? (
            <section className="panel danger" aria-labelledby="erase-heading">
              <h2 id="erase-heading">Erase personal data</h2>
              <p className="hint">
                For a deletion request: their name, contact details, sessions, support requests and messages are
                deleted. This cannot be undone.
              </p>
              <ConfirmForm
                confirm={`Erase everything about ${customer.email}? This cannot be undone.`}
                fields={{ intent: "erase" }}
              >
                <button type="submit" className="danger">
                  Erase data
                </button>
              </ConfirmForm>
            </section>
          ) : null}
        </aside>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Customer" back={{ to: "/customers", label: "Back to customers" }} />;
}
