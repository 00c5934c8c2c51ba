// /settings/domains — "Domains" (admin): connect a domain the business owns to its site. Add a name, create
// the DNS records shown, "Check now" to see what DNS says, make a verified one the site's address, choose
// whether the old /{site} address redirects there, remove. The same `domainsOf` as /api/domains/verify.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import type { DnsRecord, DomainDiagnostic } from "~/modules/domains/dns-check.server";
import { domainsOf, type DomainView } from "~/modules/domains/domains.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { TIER_PLANS } from "~/modules/plans/tiers";
import { ConfirmForm } from "~/ui/confirm-form";
import { Field, FormMessage } from "~/ui/form";
import domainsCss from "~/styles/console-domains.css?url";

export const meta: MetaFunction = () => [{ title: "Domains · Settings · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: domainsCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const { db } = context.services;
  const owner = await db
    .selectFrom("users")
    .select("tier")
    .where("id", "=", workspace.owner_user_id)
    .executeTakeFirst();
  const plan = TIER_PLANS[owner?.tier ?? session.user.tier];
  return {
    slug: workspace.slug,
    origin: await publicOrigin(request, context),
    limit: plan.maxCustomDomains,
    planLabel: plan.label,
    domains: await domainsOf(context.services.customDomains, workspace.id).list(),
  };
});

const HostnameForm = z.object({ hostname: z.string().max(300, "A domain name has at most 253 characters") });
const RedirectForm = HostnameForm.extend({ redirect: z.enum(["on", "off"]) });

type DomainsResult = FormResult & { hostname?: string; checked?: DomainView };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const domains = domainsOf(context.services.customDomains, workspace.id);
  const actor = session.user.id;
  return runForm(
    request,
    context,
    async (values): Promise<DomainsResult> => {
      const { hostname } = parseForm(HostnameForm, values);
      switch (values.intent) {
        case "add": {
          const added = await domains.add(actor, hostname);
          return {
            ok: true,
            intent: "add",
            hostname: added.hostname,
            message: `${added.hostname} added: create the two DNS records below, then check.`,
          };
        }
        case "check": {
          const { domain } = await domains.check(hostname);
          const message =
            domain.status === "verified"
              ? `${domain.hostname} is verified and serves your site.`
              : domain.diagnostics.some((d) => d.code === "dns-unreachable")
                ? "DNS did not answer: nothing changed. Try again in a few minutes."
                : `${domain.hostname} is not verified yet: see what to fix below.`;
          return {
            ok: domain.status === "verified",
            intent: "check",
            hostname: domain.hostname,
            message,
            checked: domain,
          };
        }
        case "primary":
          await domains.makePrimary(actor, hostname);
          return { ok: true, intent: "primary", hostname, message: `${hostname} is now your site's address.` };
        case "redirect": {
          const { redirect } = parseForm(RedirectForm, values);
          await domains.setRedirect(actor, hostname, redirect === "on");
          return {
            ok: true,
            intent: "redirect",
            hostname,
            message:
              redirect === "on"
                ? `Visitors of the old address are now sent to ${hostname}.`
                : "The old address now shows your site too, without sending visitors on.",
          };
        }
        case "remove":
          await domains.remove(actor, hostname);
          return { ok: true, intent: "remove", message: `${hostname} removed: it no longer shows your site.` };
        default:
          throw invalid("Unknown action");
      }
    },
    (values) => ({ hostname: values.hostname }),
  );
});

const when = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

function StatusBadge({ domain }: { domain: DomainView }) {
  if (domain.status === "verified") return <span className="domain-status verified">Verified</span>;
  if (domain.status === "failing") return <span className="domain-status failing">Failing</span>;
  return <span className="domain-status pending">Pending</span>;
}

function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary copy"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? "Copied" : "Copy"}
      <span className="visually-hidden"> {label}</span>
    </button>
  );
}

function RecordsTable({ records, hostname }: { records: DnsRecord[]; hostname: string }) {
  return (
    <div className="table-scroll">
      <table className="dns-records">
        <caption className="visually-hidden">DNS records to create for {hostname}</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={`${r.type}-${r.name}-${r.value}`}>
              <td data-label="Type">
                <code>{r.type}</code>
              </td>
              <td data-label="Name">
                <span className="record-cell">
                  <code>{r.name}</code>
                  <CopyButton value={r.name} label={`${r.type} name`} />
                </span>
              </td>
              <td data-label="Value">
                <span className="record-cell">
                  <code>{r.value}</code>
                  <CopyButton value={r.value} label={`${r.type} value`} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Diagnostics({ items }: { items: DomainDiagnostic[] }) {
  if (!items.length) return null;
  return (
    <ul className="diagnostics">
      {items.map((d) => (
        <li key={d.code} className={d.ok ? "ok" : "problem"} data-code={d.code}>
          <span className="mark" aria-hidden="true">
            {d.ok ? "✓" : "!"}
          </span>
          <div>
            <p>
              <span className="visually-hidden">{d.ok ? "Passed: " : "To fix: "}</span>
              {d.message}
            </p>
            {!d.ok && d.found?.length ? (
              <p className="found">
                Found:{" "}
                {d.found.map((f, i) => (
                  <code key={i}>{f}</code>
                ))}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

function DomainCard({ domain, slug, origin }: { domain: DomainView; slug: string; origin: string }) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("hostname") === domain.hostname &&
    navigation.formData?.get("intent") === "check";
  const headingId = `domain-${domain.hostname.replace(/[^a-z0-9]/g, "-")}`;
  return (
    <li className="panel domain" aria-labelledby={headingId}>
      <div className="domain-head">
        <h2 id={headingId}>
          {domain.serving ? <a href={`https://${domain.hostname}/`}>{domain.hostname}</a> : domain.hostname}
        </h2>
        <StatusBadge domain={domain} />
        {domain.primary ? <span className="domain-status primary">Site address</span> : null}
      </div>
      <p className="domain-meta">
        {domain.status === "verified" && domain.verifiedAt
          ? `Verified ${when.format(new Date(domain.verifiedAt))}. `
          : null}
        {domain.status === "failing" && domain.failingSince
          ? `Checks failing since ${when.format(new Date(domain.failingSince))}; it keeps serving for 72 hours, then stops. `
          : null}
        {domain.lastCheckedAt ? `Last checked ${when.format(new Date(domain.lastCheckedAt))}. ` : "Not checked yet. "}
        {domain.nextCheckAt
          ? `Next automatic check ${when.format(new Date(domain.nextCheckAt))}.`
          : domain.status === "pending"
            ? "Automatic checks stopped after 30 days: check now to start them again."
            : null}
      </p>
      <Diagnostics items={domain.diagnostics} />
      {domain.status !== "verified" ? (
        <>
          <h3>DNS records to create</h3>
          <p className="hint">
            At the company where you manage {domain.hostname}'s DNS, create these records, then choose Check now.
            Changes usually show within minutes; some providers take up to an hour.
          </p>
          <RecordsTable records={domain.records} hostname={domain.hostname} />
        </>
      ) : null}
      <div className="domain-actions">
        <Form method="post">
          <input type="hidden" name="hostname" value={domain.hostname} />
          <button type="submit" name="intent" value="check" className="secondary" disabled={busy}>
            {busy ? "Checking…" : "Check now"}
            <span className="visually-hidden"> {domain.hostname}</span>
          </button>
        </Form>
        {domain.serving && !domain.primary ? (
          <Form method="post">
            <input type="hidden" name="hostname" value={domain.hostname} />
            <button type="submit" name="intent" value="primary" className="secondary">
              Make site address<span className="visually-hidden"> {domain.hostname}</span>
            </button>
          </Form>
        ) : null}
        <ConfirmForm
          confirm={`Remove ${domain.hostname}? ${domain.serving ? "It stops showing your site at once." : "Its DNS records are no longer checked."}`}
          fields={{ intent: "remove", hostname: domain.hostname }}
        >
          <button type="submit" className="danger">
            Remove<span className="visually-hidden"> {domain.hostname}</span>
          </button>
        </ConfirmForm>
      </div>
      {domain.primary ? (
        <Form method="post" className="redirect-switch">
          <input type="hidden" name="hostname" value={domain.hostname} />
          <input type="hidden" name="redirect" value={domain.redirectPath ? "off" : "on"} />
          <p>
            {domain.redirectPath ? (
              <>
                <strong>Old address redirects here.</strong> Visitors and search engines that open{" "}
                <code>
                  {origin}/{slug}
                </code>{" "}
                are sent to <code>https://{domain.hostname}</code> (301).
              </>
            ) : (
              <>
                <strong>Old address does not redirect.</strong>{" "}
                <code>
                  {origin}/{slug}
                </code>{" "}
                shows your site too; search engines are told the domain is the real address.
              </>
            )}
          </p>
          <button type="submit" name="intent" value="redirect" className="secondary">
            {domain.redirectPath ? "Stop redirecting" : "Redirect to this domain"}
          </button>
        </Form>
      ) : null}
    </li>
  );
}

export default function Domains() {
  const { slug, origin, limit, planLabel, domains } = useLoaderData<typeof loader>();
  const result = useActionData<DomainsResult>();
  const addErrors = result?.intent === "add" ? result.fieldErrors : undefined;
  const full = limit !== null && domains.length >= limit;
  return (
    <>
      <h1>Domains</h1>
      <p className="page-intro">
        Your site is at{" "}
        <a href={`/${slug}`}>
          {origin}/{slug}
        </a>
        . Connect a domain you own, such as <code>www.yourbusiness.com</code>, and your site opens there instead, with
        every link, the sitemap and search results using it.
      </p>
      {result?.message && result.intent !== "add" ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}
      <section className="panel" aria-labelledby="add-domain">
        <h2 id="add-domain">Add a domain</h2>
        {/* A new key after each domain added: the field starts empty again. */}
        <Form method="post" className="add-domain" key={domains.length}>
          <Field
            label="Domain"
            name="hostname"
            defaultValue={result?.intent === "add" && !result.ok ? result.hostname : undefined}
            error={addErrors?.hostname}
            hint={
              limit === null
                ? "A domain or subdomain you own. You will prove it is yours with a DNS record."
                : full
                  ? `The ${planLabel} plan includes ${limit} per workspace, all in use: remove one to add another.`
                  : `A domain or subdomain you own. The ${planLabel} plan includes ${limit} per workspace (${domains.length} used).`
            }
            autoComplete="off"
            required
          />
          <button type="submit" name="intent" value="add" disabled={full}>
            Add domain
          </button>
        </Form>
        {result?.intent === "add" ? (
          <FormMessage
            message={result.ok || !addErrors?.hostname ? result.message : undefined}
            tone={result.ok ? "success" : "error"}
          />
        ) : null}
      </section>
      {domains.length === 0 ? (
        <div className="empty domains-empty">
          <h2>No domain connected yet</h2>
          <p>
            A custom domain is a web address of your own, like <code>yourbusiness.com</code> or{" "}
            <code>shop.yourbusiness.com</code>. Buy one from any domain registrar, add it above, and create the two DNS
            records we show you: one proves the domain is yours, the other points it at this server.
          </p>
        </div>
      ) : (
        <ul className="domain-list">
          {domains.map((d) => (
            <DomainCard key={d.hostname} domain={d} slug={slug} origin={origin} />
          ))}
        </ul>
      )}
      <aside className="tls-note" aria-labelledby="tls-note">
        <h2 id="tls-note">HTTPS certificates</h2>
        <p>
          Verified domains get their HTTPS certificate automatically from the server's reverse proxy. Running Atrium
          yourself? The README's section "Custom domains and HTTPS" has a ready Caddy configuration (
          <code>deploy/Caddyfile</code>) that asks this server before requesting a certificate, so only verified domains
          get one.
        </p>
      </aside>
    </>
  );
}
